// Package gate is equivcheck's release gate as a library: Main runs the
// conformance suite of every variant it is given, prints a table (pair,
// variant, method, inputs checked, time, result) and exits 0 when every
// check that ran agreed, 1 on any disagreement (printing a minimized
// counterexample and writing it as a fuzz input) or a required variant that
// could not run, and 2 on unusable flags or a corrupt corpus file.
//
// cmd/equivcheck is Main over this module's variants. A gate of your own is
// a ten-line main over yours:
//
//	func main() {
//		gate.Main(
//			gate.Variant{Name: "mine", Suite: checksumtest.NewSuite(checksumtest.Impl{Sum: mysum.Sum})},
//			gate.Variant{Name: "mine", Suite: websockettest.NewSuite(websockettest.Impl{Mask: mymask.Mask})},
//		)
//	}
//
// and takes the same flags: -level, -run, -seed, -require, -json, -corpus,
// -fuzzdir, -list (run it with -help).
package gate

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
)

// Variant is one implementation under test: a suite bound to it, and its
// name within its pair.
type Variant struct {
	Name  string      // such as "avx2"; the pair is Suite.Pair
	Suite equiv.Suite // the pair's suite bound to this implementation
	// Skip, if non-empty, says why this machine or build cannot run the
	// variant: it is reported skipped, or failed if -require names it.
	Skip string
	// Options adapt the suite to the implementation (equiv.MapErrors,
	// equiv.AnyPanic, equiv.Exclude); each narrowing shows in the table
	// and the JSON report. Level, seed and corpus come from the flags.
	Options []equiv.Option
}

func (v Variant) id() string { return v.Suite.Pair + "/" + v.Name }

// Main runs the gate over variants with the command line in os.Args and
// exits with its status.
func Main(variants ...Variant) {
	os.Exit(Run(filepath.Base(os.Args[0]), os.Args[1:], os.Stdout, os.Stderr, variants))
}

// Run runs the gate as Main does, with the program name and arguments
// given, writing to stdout and stderr, and returns the exit status.
func Run(name string, args []string, stdout, stderr io.Writer, variants []Variant) int {
	o, err := parseFlags(name, args)
	if errors.Is(err, flag.ErrHelp) {
		usage(stdout, name)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	}
	if o.list {
		for _, v := range variants {
			fmt.Fprintf(stdout, "%s available=%v\n", v.id(), v.Skip == "")
		}
		return 0
	}
	if err := check(o, variants); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	}
	if o.seed == 0 {
		o.seed = uint64(time.Now().UnixNano()) | 1
	}
	fmt.Fprintf(stdout, "%s: level %s, seed %d, %s/%s, %s\n", name, o.level, o.seed, runtime.GOOS, runtime.GOARCH, availability(variants))
	rep := newReport(o)
	out := &rowPrinter{w: stdout}
	for _, v := range variants {
		runVariant(o, v, rep, out)
	}
	if rep.selected == 0 {
		fmt.Fprintf(stderr, "%s: no check matches -run %q\n", name, o.run)
		return 2
	}
	rep.finish(o, stdout, stderr)
	if o.json != "" {
		if err := rep.writeJSON(o.json); err != nil {
			// The verdict stands: a disagreement stays 1; a run that
			// agreed but could not write its report is 2.
			fmt.Fprintf(stderr, "%s: -json: %v\n", name, err)
			if rep.ExitCode == 1 {
				return 1
			}
			return 2
		}
	}
	return rep.ExitCode
}

// check rejects what would make the run meaningless before it starts:
// -require names that match no variant, and corrupt corpus or regression
// files (a problem with the gate's input, not a disagreement).
func check(o *options, variants []Variant) error {
	for _, name := range o.require {
		found := false
		for _, v := range variants {
			found = found || name == v.Name || name == v.id()
		}
		if !found {
			return fmt.Errorf("-require: no variant named %q", name)
		}
	}
	done := map[string]bool{}
	for _, v := range variants {
		if v.Suite.Err != nil || done[v.Suite.Pair] {
			continue
		}
		done[v.Suite.Pair] = true
		if err := equiv.ValidateCorpus(v.Suite, o.suiteOptions()...); err != nil {
			var ce *equiv.CorpusError
			if errors.As(err, &ce) && ce.Regression {
				return fmt.Errorf("regression input %s: %v", filepath.Join(o.fuzzdir, filepath.FromSlash(ce.File)), ce.Err)
			}
			return err
		}
	}
	return nil
}

func required(require []string, v Variant) bool {
	for _, name := range require {
		if name == v.Name || name == v.id() {
			return true
		}
	}
	return false
}

// runVariant runs one variant's suite, adding a row per selected method.
func runVariant(o *options, v Variant, rep *report, out *rowPrinter) {
	if v.Skip != "" {
		if o.run.MatchString(v.id() + "/") {
			r := row{Pair: v.Suite.Pair, Variant: v.Name, Method: "*", Status: "skip", Reason: v.Skip}
			if required(o.require, v) {
				r.Status, r.Reason = "FAIL", "required by -require but "+v.Skip
			}
			rep.add(r, out)
		}
		return
	}
	keep := func(m string) bool { return o.run.MatchString(v.id() + "/" + m) }
	n := 0
	opts := append(v.Options[:len(v.Options):len(v.Options)], o.suiteOptions()...)
	err := equiv.Check(v.Suite, append(opts, equiv.WithMethods(keep),
		equiv.WithReport(func(res equiv.Result) {
			if res.Skipped != "not selected" {
				n++
				rep.add(resultRow(v, res), out)
			}
		}))...)
	if err != nil && n == 0 && o.run.MatchString(v.id()+"/") {
		// The suite refused to start (an unusable implementation).
		rep.add(row{Pair: v.Suite.Pair, Variant: v.Name, Method: "*", Status: "FAIL", Error: err.Error(), err: err}, out)
	}
}
