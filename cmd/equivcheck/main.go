// Command equivcheck is the release gate: it runs the conformance suite of
// every pair (reference vs optimized) on every variant this machine can run,
// with every method, and exits non-zero with a minimized counterexample when
// any pair disagrees.
//
// Usage:
//
//	equivcheck [-level quick|standard|deep] [-run REGEXP] [-seed N]
//	           [-require VARIANTS] [-json FILE] [-corpus DIR] [-fuzzdir DIR] [-list]
//
// -run selects checks whose "pair/variant/method" matches REGEXP. -require
// takes a comma-separated list of variant names ("avx2") or pair/variant
// names ("checksum/avx512") that must run here: a required variant this
// machine cannot run is a failure, not a skip.
//
// Exit status: 0 when every check that ran agreed, 1 on any disagreement (or
// a required variant that could not run), 2 on unusable flags or an
// unreadable or corrupt corpus file. A counterexample is printed and, when
// -fuzzdir exists, written there as a "go test fuzz v1" file under the fuzz
// target's name, so that "go test ./fuzz" replays it from then on.
//
// The gate only wires: the checks are package equiv's suite cores, the same
// ones the tests run.
package main

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/cpu"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/registry"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// variantsFunc lists the variants to check; tests replace it to prove that
// a disagreement fails the gate.
var variantsFunc = registry.Variants

// usageError is a problem with the command line or its inputs: exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

type options struct {
	level   equiv.Level
	run     *regexp.Regexp
	seed    uint64
	require []string
	json    string
	corpus  fs.FS
	fuzzdir string
	list    bool
}

func parseFlags(args []string) (*options, error) {
	fset := flag.NewFlagSet("equivcheck", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	level := fset.String("level", "quick", "input domains: quick, standard or deep")
	runRe := fset.String("run", "", "only checks whose pair/variant/method matches this regexp")
	seed := fset.Uint64("seed", 0, "seed of every random choice (0: a fresh one, printed)")
	require := fset.String("require", "", "comma-separated variants (name or pair/name) that must run here")
	jsonFile := fset.String("json", "", "write a machine-readable report to this file")
	corpusDir := fset.String("corpus", "", "corpus directory to replay instead of the embedded one")
	fuzzdir := fset.String("fuzzdir", filepath.Join("fuzz", "testdata", "fuzz"), "where to write counterexamples as fuzz inputs (skipped if it does not exist)")
	list := fset.Bool("list", false, "list pairs and variants and exit")
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usageError{err.Error()}
	}
	if fset.NArg() > 0 {
		return nil, usageError{fmt.Sprintf("unexpected argument %q", fset.Arg(0))}
	}
	o := &options{seed: *seed, json: *jsonFile, fuzzdir: *fuzzdir, list: *list}
	var err error
	if o.level, err = equiv.ParseLevel(*level); err != nil {
		return nil, usageError{fmt.Sprintf("-level: unknown level %q (want quick, standard or deep)", *level)}
	}
	if o.run, err = regexp.Compile(*runRe); err != nil {
		return nil, usageError{fmt.Sprintf("-run: %v", err)}
	}
	for _, r := range strings.Split(*require, ",") {
		if r = strings.TrimSpace(r); r != "" {
			o.require = append(o.require, r)
		}
	}
	o.corpus = equiv.DefaultCorpus()
	if *corpusDir != "" {
		st, err := os.Stat(*corpusDir)
		if err != nil || !st.IsDir() {
			return nil, usageError{fmt.Sprintf("-corpus: %s is not a readable directory", *corpusDir)}
		}
		o.corpus = os.DirFS(*corpusDir)
	}
	return o, nil
}

// row is one line of the report: one method of one variant of one pair.
type row struct {
	Pair           string          `json:"pair"`
	Variant        string          `json:"variant"`
	Method         string          `json:"method"`
	Status         string          `json:"status"` // pass, FAIL, skip
	Checked        int64           `json:"checked"`
	ElapsedNS      int64           `json:"elapsed_ns"`
	Reason         string          `json:"reason,omitempty"`
	Error          string          `json:"error,omitempty"`
	Counterexample *counterexample `json:"counterexample,omitempty"`
	err            error           // the method's error, if any
	ce             *equiv.Counterexample
}

type counterexample struct {
	Func     string `json:"func"`
	InputHex string `json:"input_hex"`
	Args     string `json:"args"`
	Got      string `json:"got"`
	Want     string `json:"want"`
	Seed     uint64 `json:"seed"`
	FuzzFile string `json:"fuzz_file,omitempty"`
}

type report struct {
	Level    string `json:"level"`
	Seed     uint64 `json:"seed"`
	GOOS     string `json:"goos"`
	GOARCH   string `json:"goarch"`
	Go       string `json:"go"`
	Rows     []row  `json:"results"`
	Failed   int    `json:"failed"`
	Passed   int    `json:"passed"`
	Skipped  int    `json:"skipped"`
	ExitCode int    `json:"exit_code"`
}

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stdout, "usage: equivcheck [-level quick|standard|deep] [-run REGEXP] [-seed N] [-require VARIANTS] [-json FILE] [-corpus DIR] [-fuzzdir DIR] [-list]")
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "equivcheck: %v\n", err)
		return 2
	}
	variants := variantsFunc()
	if o.list {
		for _, v := range variants {
			fmt.Fprintf(stdout, "%s/%s available=%v\n", v.Pair, v.Name, v.Available)
		}
		return 0
	}
	if err := checkRequire(o.require, variants); err != nil {
		fmt.Fprintf(stderr, "equivcheck: %v\n", err)
		return 2
	}
	// A corrupt corpus file is a problem with the gate's input, not a
	// disagreement: refuse to run rather than report on a partial corpus.
	if err := equiv.ValidateCorpus(o.corpus); err != nil {
		fmt.Fprintf(stderr, "equivcheck: %v\n", err)
		return 2
	}
	if o.seed == 0 {
		o.seed = uint64(time.Now().UnixNano()) | 1
	}
	rep := &report{Level: o.level.String(), Seed: o.seed, GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Go: runtime.Version()}
	fmt.Fprintf(stdout, "equivcheck: level %s, seed %d, %s/%s, %s\n", o.level, o.seed, runtime.GOOS, runtime.GOARCH, cpuSummary())

	// Rows are printed as each method finishes, so a long run (-level
	// deep) shows its progress; failures are repeated in full at the end.
	out := &rowPrinter{w: stdout}
	selected := 0
	for _, v := range variants {
		if !v.Available {
			if o.run.MatchString(v.Pair + "/" + v.Name + "/") {
				r := row{Pair: v.Pair, Variant: v.Name, Method: "*", Status: "skip", Reason: "not available on this machine or build"}
				if required(o.require, v) {
					r.Status, r.Reason = "FAIL", "required by -require but not available on this machine or build"
				}
				rep.Rows = append(rep.Rows, r)
				out.print(r)
			}
			continue
		}
		keep := func(m string) bool { return o.run.MatchString(v.Pair + "/" + v.Name + "/" + m) }
		var rows []row
		err := v.Check(equiv.WithLevel(o.level), equiv.WithSeed(o.seed), equiv.WithCorpus(o.corpus),
			equiv.WithMethods(keep),
			equiv.WithReport(func(res equiv.Result) {
				if res.Skipped == "not selected" {
					return
				}
				r := row{Pair: v.Pair, Variant: v.Name, Method: res.Method, Checked: res.Checked,
					ElapsedNS: res.Elapsed.Nanoseconds(), Status: "pass", err: res.Err}
				switch {
				case res.Skipped != "":
					r.Status, r.Reason = "skip", res.Skipped
				case res.Err != nil:
					r.Status, r.Error = "FAIL", res.Err.Error()
					if ces := equiv.Counterexamples(res.Err); len(ces) > 0 {
						r.ce = ces[0]
					}
				}
				selected++
				rows = append(rows, r)
				out.print(r)
			}))
		if err != nil && len(rows) == 0 {
			// The suite refused to start (an unusable implementation).
			rows = append(rows, row{Pair: v.Pair, Variant: v.Name, Method: "*", Status: "FAIL", Error: err.Error(), err: err})
			out.print(rows[0])
		}
		rep.Rows = append(rep.Rows, rows...)
	}
	if selected == 0 {
		fmt.Fprintf(stderr, "equivcheck: no check matches -run %q\n", o.run)
		return 2
	}

	for i := range rep.Rows {
		r := &rep.Rows[i]
		switch r.Status {
		case "pass":
			rep.Passed++
		case "skip":
			rep.Skipped++
		default:
			rep.Failed++
		}
		if r.ce != nil {
			r.Counterexample = &counterexample{Func: r.ce.Func, InputHex: fmt.Sprintf("%x", r.ce.Input),
				Args: r.ce.Args, Got: r.ce.Got, Want: r.ce.Want, Seed: r.ce.Seed}
			r.Counterexample.FuzzFile = writeFuzzInput(o.fuzzdir, r.ce, stderr)
		}
	}
	for _, r := range rep.Rows {
		if r.Status == "FAIL" {
			fmt.Fprintf(stdout, "\nFAIL %s/%s/%s:\n  %s\n", r.Pair, r.Variant, r.Method, orReason(r.Error, r.Reason))
			if r.Counterexample != nil && r.Counterexample.FuzzFile != "" {
				fmt.Fprintf(stdout, "  replay: go test ./fuzz -run %s (written to %s)\n", r.ce.FuzzTarget, r.Counterexample.FuzzFile)
			}
		}
	}
	rep.ExitCode = 0
	if rep.Failed > 0 {
		rep.ExitCode = 1
	}
	fmt.Fprintf(stdout, "\n%d passed, %d failed, %d skipped (seed %d)\n", rep.Passed, rep.Failed, rep.Skipped, o.seed)
	if o.json != "" {
		data, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(o.json, append(data, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "equivcheck: -json: %v\n", err)
			return 2
		}
	}
	return rep.ExitCode
}

func orReason(err, reason string) string {
	if err != "" {
		return err
	}
	return reason
}

// checkRequire rejects -require names that match no variant at all.
func checkRequire(require []string, variants []registry.Variant) error {
	for _, name := range require {
		found := false
		for _, v := range variants {
			if name == v.Name || name == v.Pair+"/"+v.Name {
				found = true
			}
		}
		if !found {
			return fmt.Errorf("-require: no variant named %q", name)
		}
	}
	return nil
}

func required(require []string, v registry.Variant) bool {
	for _, name := range require {
		if name == v.Name || name == v.Pair+"/"+v.Name {
			return true
		}
	}
	return false
}

// writeFuzzInput writes a counterexample as an input of its fuzz target
// under dir, named by its content's hash as "go test" names its own, and
// returns the path, or "" if it was not written.
func writeFuzzInput(dir string, ce *equiv.Counterexample, stderr io.Writer) string {
	if ce.FuzzTarget == "" || ce.FuzzArgs == nil {
		return ""
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "equivcheck: not writing the counterexample: -fuzzdir %s is not a directory\n", dir)
		return ""
	}
	data := equiv.MarshalFuzzInput(ce.FuzzArgs...)
	sum := sha256.Sum256(data)
	path := filepath.Join(dir, ce.FuzzTarget, fmt.Sprintf("%x", sum[:8]))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		fmt.Fprintf(stderr, "equivcheck: writing counterexample: %v\n", err)
		return ""
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		fmt.Fprintf(stderr, "equivcheck: writing counterexample: %v\n", err)
		return ""
	}
	return path
}

const rowFormat = "%-10s %-9s %-11s %10s %9s  %s\n"

// rowPrinter prints report rows as they come, under a header printed with
// the first one.
type rowPrinter struct {
	w      io.Writer
	header bool
}

func (p *rowPrinter) print(r row) {
	if !p.header {
		fmt.Fprintf(p.w, rowFormat, "PAIR", "VARIANT", "METHOD", "CHECKED", "TIME", "RESULT")
		p.header = true
	}
	result := r.Status
	if r.Reason != "" {
		result += " (" + r.Reason + ")"
	}
	fmt.Fprintf(p.w, rowFormat, r.Pair, r.Variant, r.Method, strconv.FormatInt(r.Checked, 10),
		time.Duration(r.ElapsedNS).Round(time.Millisecond).String(), result)
}

func cpuSummary() string {
	var f []string
	if runtime.GOARCH == "amd64" {
		if cpu.X86.HasAVX2 {
			f = append(f, "avx2")
		}
		if cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW {
			f = append(f, "avx512")
		}
	}
	if len(f) == 0 {
		return "no SIMD features detected"
	}
	return "cpu " + strings.Join(f, "+")
}
