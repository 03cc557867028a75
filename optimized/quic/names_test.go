package quic

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// exportedDecls returns the exported constants, variables and types
// declared at the top level of the non-test Go files in dir.
func exportedDecls(t *testing.T, dir string) []string {
	t.Helper()
	pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok {
					continue
				}
				for _, s := range g.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, n.Name)
							}
						}
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, s.Name.Name)
						}
					}
				}
			}
		}
	}
	slices.Sort(names)
	return names
}

// TestSharesReferenceNames: every constant, variable (the sentinel errors)
// and type reference/quic exports is exported here too, so that code
// written against one package compiles against the other (docs/quic.md:
// "they share the result type, the constants and the sentinel errors").
func TestSharesReferenceNames(t *testing.T) {
	mine := exportedDecls(t, ".")
	for _, name := range exportedDecls(t, "../../reference/quic") {
		if !slices.Contains(mine, name) {
			t.Errorf("reference/quic exports %s; optimized/quic does not", name)
		}
	}
}
