// Command mutationreport corrects gremlins' mutation-testing figures and
// checks every surviving mutant against the classification in
// docs/mutation.md. `make mutation` (.ci/mutation.sh) runs it.
//
// gremlins (v0.6.0) runs `go test` on each mutated package and calls the
// mutant KILLED whenever the command exits with status 1, which is also how
// a failed build or vet exits; and for every `-` it makes two mutants,
// ARITHMETIC_BASE and INVERT_NEGATIVES, that both write `+`. This command
// rebuilds every KILLED mutant in a private copy of the module (go build and
// the vet checks go test runs) and drops those that do not build, counts each
// distinct mutated program once, and fails when a package's corrected
// efficacy is below -min or a survivor is not classified.
//
// Usage:
//
//	mutationreport [-src dir] [-docs file] [-min 97] [-survivors dir] pkg=report.json...
//
// pkg is the package's module directory (optimized/checksum), report.json
// the file gremlins wrote with -o for it. -src must hold the sources gremlins
// mutated. With -survivors, each package's survivors go to
// <pkg-with-dashes>.txt there, one classification line each, and the table
// to summary.txt. It exits 1 when the gate fails, 2 on any other error.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

type options struct {
	src, docs, survivors string
	min                  float64
}

func main() {
	var o options
	flag.StringVar(&o.src, "src", ".", "module root holding the sources gremlins mutated")
	flag.StringVar(&o.docs, "docs", "docs/mutation.md", "file classifying the surviving mutants")
	flag.Float64Var(&o.min, "min", 97, "lowest corrected efficacy (percent) a package may have")
	flag.StringVar(&o.survivors, "survivors", "", "directory for per-package survivor lists and summary.txt")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mutationreport [flags] pkg=report.json...")
		os.Exit(2)
	}
	failures, err := run(o, flag.Args(), os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutationreport:", err)
		os.Exit(2)
	}
	if len(failures) > 0 {
		fmt.Println("\nmake mutation FAILS:")
		for _, f := range failures {
			fmt.Println("  " + f)
		}
		os.Exit(1)
	}
	fmt.Println("\nmake mutation passes: every package at or above the minimum, every survivor classified.")
}

// run analyses each pkg=report.json argument and returns why the gate fails.
func run(o options, args []string, w io.Writer) ([]string, error) {
	classes, err := readClasses(o.docs)
	if err != nil {
		return nil, err
	}
	var pkgs []string
	reports := map[string]string{}
	for _, a := range args {
		pkg, file, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("argument %q: want pkg=report.json", a)
		}
		pkg = strings.Trim(filepath.ToSlash(pkg), "./")
		pkgs = append(pkgs, pkg)
		reports[pkg] = file
	}
	b, err := newBuilder(o.src, pkgs)
	if err != nil {
		return nil, err
	}
	defer b.close()
	var results []*result
	for _, pkg := range pkgs {
		r, err := analyse(o.src, pkg, reports[pkg], b, classes)
		if err != nil {
			return nil, err
		}
		results = append(results, r)
		if err := writeSurvivors(o.survivors, r); err != nil {
			return nil, err
		}
	}
	return report(w, o, results, classes)
}

// report prints the table, the corrections and the survivors, writes
// summary.txt, and returns the gate's failures.
func report(w io.Writer, o options, results []*result, classes []*class) ([]string, error) {
	var sb strings.Builder
	printTable(&sb, results)
	fmt.Fprint(w, sb.String())
	if o.survivors != "" {
		if err := os.WriteFile(filepath.Join(o.survivors, "summary.txt"), []byte(sb.String()), 0o644); err != nil {
			return nil, err
		}
	}
	printDetails(w, results)
	var failures []string
	for _, r := range results {
		failures = append(failures, r.failures(o)...)
	}
	for _, c := range classes {
		if !c.used && ranPackage(results, c.File) {
			fmt.Fprintf(w, "note: %s classifies %s:%d:%d %s, which did not survive this run\n",
				c.Where, c.File, c.Line, c.Col, strings.Join(c.Types, "/"))
		}
	}
	return failures, nil
}

func ranPackage(results []*result, file string) bool {
	for _, r := range results {
		if filepath.ToSlash(filepath.Dir(file)) == r.Pkg {
			return true
		}
	}
	return false
}
