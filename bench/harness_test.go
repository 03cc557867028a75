package bench

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/equivcheck/equivcheck/internal/inlinecheck"
)

// TestHelpersNotInlined checks that no helper in this package that returns
// a benchmark function (func(*testing.B)) can be inlined. When such a
// helper is inlined into a Benchmark function, the closure it returns is
// compiled as a copy in which no call is inlined, not b.Loop and not the
// function under test: the sweeps measured websocket.Mask through its
// wrapper that way, 2 ns slower at 1 to 4 octets than in any caller's
// code, and both checksums with a call to b.Loop added. //go:noinline on
// the helper prevents it; this test fails when a helper lacks it.
func TestHelpersNotInlined(t *testing.T) {
	helpers := benchHelpers(t)
	if len(helpers) == 0 {
		t.Fatal("found no helper returning func(*testing.B); the test would check nothing")
	}
	out := inlinecheck.TestReport(t)
	if !bytes.Contains(out, []byte(": can inline ")) {
		t.Fatalf("go test -c -gcflags=-m reported no inlining decisions:\n%s", out)
	}
	for _, name := range helpers {
		if inlinecheck.CanInline(out, `\w+_test\.go`, name) {
			t.Errorf("%s returns a benchmark function and can be inlined: mark it //go:noinline", name)
		}
	}
}

// benchHelpers returns the names of this package's top-level functions
// whose only result is func(*testing.B).
func benchHelpers(t *testing.T) []string {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Type.Results == nil || len(fn.Type.Results.List) != 1 {
				continue
			}
			if isBenchFunc(fn.Type.Results.List[0].Type) {
				names = append(names, fn.Name.Name)
			}
		}
	}
	return names
}

// isBenchFunc reports whether e is the type func(*testing.B).
func isBenchFunc(e ast.Expr) bool {
	ft, ok := e.(*ast.FuncType)
	if !ok || ft.Results != nil || len(ft.Params.List) != 1 || len(ft.Params.List[0].Names) > 1 {
		return false
	}
	star, ok := ft.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "testing" && sel.Sel.Name == "B"
}
