// Package gate is equivcheck's release gate as a library: Main runs the
// conformance suite of every variant it is given, prints a table (pair,
// variant, method, inputs checked, time, result) and exits 0 when every
// check that ran agreed and something was compared, 1 on any disagreement
// (printing a minimized counterexample and writing it as a fuzz input), a
// call that did not return within -calltimeout, a required variant that
// could not run or a run -timeout stopped, 2 on unusable flags, a corrupt
// corpus file, variants whose names clash or hold '/', ',' or a space, or
// a selection that compares nothing here, and 130 on SIGINT or SIGTERM
// (docs/report.md has every condition). The JSON report's exit_code is
// always the status.
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
// and takes the same flags: -level, -run, -seed, -require, -json, -junit,
// -timeout, -calltimeout, -shard, -corpus, -fuzzdir, -list (run it with
// -help). -run matches pair/variant/method; a
// variant that cannot run here, or whose implementation its suite refuses,
// has one row, pair/variant/*, which -run selects when it selects any
// method of that pair for the variant (so -run /vectors still lists a
// skipped variant, and still fails one that -require names).
package gate

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/equivcheck/equivcheck/equiv"
)

// Variant is one implementation under test: a suite bound to it, and its
// name within its pair.
type Variant struct {
	Name  string      // such as "avx2", without '/', ',' or spaces; the pair is Suite.Pair
	Suite equiv.Suite // the pair's suite bound to this implementation
	// Skip, if non-empty, says why this machine or build cannot run the
	// variant: it is reported skipped, or failed if -require names it.
	Skip string
	// Options adapt the suite to the implementation (equiv.MapErrors,
	// equiv.AnyPanic, equiv.Exclude); each narrowing shows in the table
	// and the JSON report. Level, seed and corpus come from the flags.
	Options []equiv.Option
	// Note, if non-empty, says briefly why the functions this variant's
	// Impl leaves out are not checked here ("streamers: checked under
	// dispatch"): the notes under the table print it beside them, once.
	Note string
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
	switch {
	case errors.Is(err, flag.ErrHelp):
		usage(stdout, name)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	case o.version:
		fmt.Fprintln(stdout, versionLine(name, buildInfo(), libVersion()))
		return 0
	}
	if err := checkVariants(variants); err != nil {
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
	reportOut := stdout
	if o.json == "-" || o.junit == "-" {
		stdout = stderr // stdout carries the report alone
	}
	rep, code := runAll(name, o, variants, stdout, stderr)
	if code != 0 {
		return code
	}
	return writeReports(name, o, rep, reportOut, stderr)
}

// runAll runs every selected check and returns the report, or the exit
// status 2 if nothing was selected.
func runAll(name string, o *options, variants []Variant, stdout, stderr io.Writer) (*report, int) {
	fmt.Fprintf(stdout, "%s: level %s, seed %d, %s/%s, %s\n", name, o.level, o.seed, runtime.GOOS, runtime.GOARCH, availability(variants))
	rep := newReport(o)
	ctl := newControl(o)
	out := &rowPrinter{w: stdout, verbose: o.verbose}
	units := 0
	methods := pairMethods(variants)
	for _, v := range variants {
		runVariant(o, v, methods[v.Suite.Pair], rep, out, ctl, progress(o, stderr, rep), &units)
	}
	rep.Stopped = ctl.release()
	if rep.matched == 0 {
		fmt.Fprintf(stderr, "%s: no check matches -run %q\n", name, o.run)
		return nil, 2
	}
	if rep.selected == 0 {
		// Only under -shard: -run selected checks, all dealt to others.
		fmt.Fprintf(stderr, "%s: shard %d/%d holds none of the %d checks -run selects: the other shards run them\n", name, o.shardK, o.shardN, rep.matched)
	}
	if o.fuzzdir == "" {
		fmt.Fprintf(stderr, "%s: no %s here: regression inputs are not replayed and counterexamples not written (see -fuzzdir)\n", name, defaultFuzzdir)
	}
	rep.finish(o, stdout, stderr)
	if o.shardN <= 1 && rep.ExitCode == 0 && rep.Passed == 0 && rep.Skipped > 0 {
		// Every check -run selects was skipped here: a run that compared
		// nothing did not pass. (Under -shard, the other shards may.)
		fmt.Fprintf(stderr, "%s: nothing was compared: the %d checks -run %q selects cannot run here (see -list; -require makes a missing variant a failure)\n", name, rep.Skipped, o.run)
		rep.ExitCode = 2
	}
	return rep, 0
}

// writeReports writes -junit and -json and returns the exit status, which
// the JSON report carries: the verdict's, except that a signal gives 130
// and a report that cannot be written turns a pass into 2 (a disagreement
// stays 1). JUnit goes first, so that the JSON says 2 when it failed.
func writeReports(name string, o *options, rep *report, stdout, stderr io.Writer) int {
	if rep.Stopped == "signal" {
		rep.ExitCode = 130
	}
	for _, w := range []struct {
		flag, path string
		write      func(string, io.Writer) error
	}{{"-junit", o.junit, rep.writeJUnit}, {"-json", o.json, rep.writeJSON}} {
		if w.path == "" {
			continue
		}
		if err := w.write(w.path, stdout); err != nil {
			fmt.Fprintf(stderr, "%s: %s: %v\n", name, w.flag, err)
			if rep.ExitCode == 0 {
				rep.ExitCode = 2
			}
		}
	}
	return rep.ExitCode
}

// check rejects what would make the run meaningless before it starts:
// -require names that match no variant, and corrupt corpus or regression
// files of the pairs whose corpus method -run selects (a problem with the
// gate's input, not a disagreement).
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
		// Only the corpus method reads the corpus and regression inputs:
		// a pair whose corpus method -run leaves out needs none.
		if v.Skip != "" || v.Suite.Err != nil || done[v.Suite.Pair] || !o.selects(v, equiv.MethodCorpus) {
			continue
		}
		done[v.Suite.Pair] = true
		if err := equiv.ValidateCorpus(v.Suite, o.suiteOptions()...); err != nil {
			return corpusErr(o, err)
		}
	}
	return nil
}

// corpusErr names the file of a corpus error as the command line gave its
// directory (-fuzzdir or -corpus).
func corpusErr(o *options, err error) error {
	var ce *equiv.CorpusError
	switch {
	case !errors.As(err, &ce):
		return err
	case ce.Regression:
		return fmt.Errorf("regression input %s: %v", filepath.Join(o.fuzzdir, filepath.FromSlash(ce.File)), ce.Err)
	case o.corpusDir == "":
		return err
	case !strings.Contains(ce.File, "/") && errors.Is(ce.Err, fs.ErrNotExist):
		return fmt.Errorf("-corpus: %s has no directory %s (one per pair whose corpus method runs)", o.corpusDir, ce.File)
	}
	return fmt.Errorf("-corpus: %s: %v", filepath.Join(o.corpusDir, filepath.FromSlash(ce.File)), ce.Err)
}

// checkVariants rejects a list of variants whose rows could not be told
// apart or named: a pair or variant name that is empty or holds a '/', a
// ',' or a space (which -run, -require and the table split on), or one
// pair/name listed twice.
func checkVariants(variants []Variant) error {
	seen := map[string]bool{}
	for _, v := range variants {
		switch {
		case !goodName(v.Suite.Pair):
			return fmt.Errorf("variant %q: pair name %q must be non-empty, without '/', ',' or spaces", v.Name, v.Suite.Pair)
		case !goodName(v.Name):
			return fmt.Errorf("variant %q of %s: a name must be non-empty, without '/', ',' or spaces", v.Name, v.Suite.Pair)
		case seen[v.id()]:
			return fmt.Errorf("variant %s is listed twice", v.id())
		}
		seen[v.id()] = true
	}
	return nil
}

// goodName reports whether s can name a pair or a variant: -run splits
// on '/', -require on ',', and the table on spaces.
func goodName(s string) bool {
	return s != "" && !strings.ContainsAny(s, "/,") && strings.IndexFunc(s, unicode.IsSpace) < 0
}

func required(require []string, v Variant) bool {
	for _, name := range require {
		if name == v.Name || name == v.id() {
			return true
		}
	}
	return false
}

// pairMethods lists, for each pair, the names of the methods its usable
// suites run; for a pair with none (every implementation refused), the
// engine's standard methods.
func pairMethods(variants []Variant) map[string][]string {
	names := map[string][]string{}
	for _, v := range variants {
		for _, m := range methodsOf(v.Suite) {
			if !slices.Contains(names[v.Suite.Pair], m.Name) {
				names[v.Suite.Pair] = append(names[v.Suite.Pair], m.Name)
			}
		}
	}
	for _, v := range variants {
		if names[v.Suite.Pair] == nil {
			names[v.Suite.Pair] = []string{equiv.MethodVectors, equiv.MethodExhaustive,
				equiv.MethodGuard, equiv.MethodProperties, equiv.MethodCorpus}
		}
	}
	return names
}

// selected reports whether -run selects any check of a variant that
// cannot run (skipped here, or an implementation its suite refused): its
// one row, pair/variant/*, stands for every method of the pair, so that
// -run '/vectors' lists a skipped variant, and fails a required or
// unusable one, as -run 'pair/variant' does.
func selected(o *options, v Variant, methods []string) bool {
	if o.selects(v, "") {
		return true
	}
	for _, m := range methods {
		if o.selects(v, m) {
			return true
		}
	}
	return false
}

// runVariant runs one variant's suite, adding a row per selected method;
// methods are the names of its pair's methods (see selected).
// Under -shard, a method marked Split runs on every shard (each doing its
// part); every other method is a unit, and the units are dealt out to the
// shards in turn (units counts them across variants).
func runVariant(o *options, v Variant, methods []string, rep *report, out *rowPrinter, ctl *control, prog []equiv.Option, units *int) {
	if v.Skip != "" {
		if selected(o, v, methods) {
			rep.matched++
			r := row{Pair: v.Suite.Pair, Variant: v.Name, Method: "*", Status: statusSkip, Reason: v.Skip}
			if required(o.require, v) {
				r.Status, r.Reason = statusFail, "required by -require but "+v.Skip
			}
			rep.add(r, out)
		}
		return
	}
	unusable := v.Suite.Err != nil && selected(o, v, methods)
	if unusable {
		rep.matched++
	}
	mine := map[string]bool{}
	for _, m := range methodsOf(v.Suite) {
		if !o.selects(v, m.Name) {
			continue
		}
		rep.matched++
		mine[m.Name] = m.Split || o.mine(*units)
		if !m.Split {
			*units++
		}
	}
	n := 0
	opts := append(v.Options[:len(v.Options):len(v.Options)], o.suiteOptions()...)
	opts = append(opts, prog...)
	err := equiv.Check(v.Suite, append(opts, equiv.WithStop(ctl.stop), equiv.WithMethods(func(m string) bool { return mine[m] }),
		equiv.WithReport(func(res equiv.Result) {
			if res.Skipped != "not selected" {
				n++
				rep.add(resultRow(v, res), out)
			}
		}))...)
	if err != nil && n == 0 && unusable {
		// The suite refused to start (an unusable implementation).
		rep.add(row{Pair: v.Suite.Pair, Variant: v.Name, Method: "*", Status: statusFail, Error: err.Error(), err: err}, out)
	}
}

// selects reports whether -run selects method of v: it matches
// "pair/variant/method".
func (o *options) selects(v Variant, method string) bool {
	return o.run.MatchString(v.id() + "/" + method)
}

// methodsOf lists the methods Check runs for s: its own, then the corpus
// method the engine adds when s has fuzz targets.
func methodsOf(s equiv.Suite) []equiv.Method {
	ms := s.Methods
	if len(s.Targets) > 0 {
		ms = append(ms[:len(ms):len(ms)], equiv.Method{Name: equiv.MethodCorpus})
	}
	return ms
}
