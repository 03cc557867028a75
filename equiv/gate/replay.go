package gate

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// maxTestFile bounds the _test.go files declares parses.
const maxTestFile = 1 << 20

// replayHint says how to replay the counterexample written to file, an
// input of the fuzz target named target. When file is in the
// testdata/fuzz/<target>/ of a package that declares target, that is one
// go test command in the package's directory, with no quoting any shell
// needs (the names are Go identifiers and hex); else it says where to copy
// the file: the testdata/fuzz/<name>/ of any fuzz target that calls the
// pair's Fuzz helper, whatever its name. Either way the replay fails only
// if that target checks the implementation that failed.
func replayHint(file, target string) string {
	name := filepath.Base(file)
	fuzzdir := filepath.Dir(filepath.Dir(file))
	testdata := filepath.Dir(fuzzdir)
	pkg := filepath.Dir(testdata)
	if filepath.Base(fuzzdir) != "fuzz" || filepath.Base(testdata) != "testdata" || !declares(pkg, target) {
		return fmt.Sprintf("replay: written to %s; copy it into testdata/fuzz/<name>/ of a package whose fuzz target <name> calls the pair's Fuzz helper, and run go test -run <name>/%s there", file, name)
	}
	cmd := fmt.Sprintf("go test -run %s/%s", target, name)
	if filepath.Clean(pkg) != "." {
		cmd = "cd " + shellWord(pkg) + " && " + cmd
	}
	return fmt.Sprintf("replay: %s (written to %s, for that package's %s)", cmd, file, target)
}

// shellWord returns dir as one word for sh, cmd.exe and PowerShell:
// bare when it holds only letters, digits and ._/-:\, else in double
// quotes (which sh still expands $ and ` in).
func shellWord(dir string) string {
	for _, r := range dir {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._/-:\\", r)) {
			return `"` + dir + `"`
		}
	}
	return dir
}

// declares reports whether go test in dir would build a _test.go file
// declaring the function name (a fuzz target): a regular file of at most
// maxTestFile bytes that this platform's default build context matches
// (no build tag, _ or . prefix, or other GOOS or GOARCH excluding it), with
// a top-level func of that name. Anything else (a link, a pipe, a file that
// does not parse) counts as not declaring it.
func declares(dir, name string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		info, err := e.Info()
		if !strings.HasSuffix(e.Name(), "_test.go") || err != nil || !info.Mode().IsRegular() || info.Size() > maxTestFile {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, e.Name()); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == name {
				return true
			}
		}
	}
	return false
}
