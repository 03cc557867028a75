package gate

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/atomicfile"
)

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
	Unchecked      []string        `json:"unchecked,omitempty"`
	Narrowed       []string        `json:"narrowed,omitempty"`
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
	selected int    // rows of methods that were selected
}

func newReport(o *options) *report {
	return &report{Level: o.level.String(), Seed: o.seed, GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Go: runtime.Version()}
}

func resultRow(v Variant, res equiv.Result) row {
	r := row{Pair: res.Pair, Variant: v.Name, Method: res.Method, Checked: res.Checked,
		ElapsedNS: res.Elapsed.Nanoseconds(), Status: "pass", err: res.Err,
		Unchecked: res.Unchecked, Narrowed: res.Narrowed}
	switch {
	case res.Skipped != "":
		r.Status, r.Reason = "skip", res.Skipped
	case res.Err != nil:
		r.Status, r.Error = "FAIL", res.Err.Error()
		if ces := equiv.Counterexamples(res.Err); len(ces) > 0 {
			r.ce = ces[0]
		}
	}
	return r
}

func (rep *report) add(r row, out *rowPrinter) {
	rep.selected++
	rep.Rows = append(rep.Rows, r)
	out.print(r)
}

// finish counts the rows, writes counterexamples as fuzz inputs, prints
// every failure in full and the summary line.
func (rep *report) finish(o *options, stdout, stderr io.Writer) {
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
		if r.Status != "FAIL" {
			continue
		}
		fmt.Fprintf(stdout, "\nFAIL %s/%s/%s:\n  %s\n", r.Pair, r.Variant, r.Method, orReason(r.Error, r.Reason))
		if r.Counterexample != nil && r.Counterexample.FuzzFile != "" {
			fmt.Fprintf(stdout, "  replay: go test -run %s/%s (written to %s)\n", r.ce.FuzzTarget, filepath.Base(r.Counterexample.FuzzFile), r.Counterexample.FuzzFile)
		}
	}
	if rep.Failed > 0 {
		rep.ExitCode = 1
	}
	fmt.Fprintf(stdout, "\n%d passed, %d failed, %d skipped (seed %d)\n", rep.Passed, rep.Failed, rep.Skipped, o.seed)
}

func (rep *report) writeJSON(path string) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write("", path, append(data, '\n'), 0o644)
}

func orReason(err, reason string) string {
	if err != "" {
		return err
	}
	return reason
}

// writeFuzzInput writes a counterexample as an input of its fuzz target
// under dir, named by its content's hash as "go test" names its own, and
// returns the path, or "" if it was not written. The temporary file is made
// in dir itself, not in dir/FuzzX, which "go test" reads file by file: a
// gate killed mid-write leaves no partial input there.
func writeFuzzInput(dir string, ce *equiv.Counterexample, stderr io.Writer) string {
	name, data, ok := ce.FuzzFile()
	if !ok {
		return ""
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "not writing the counterexample: -fuzzdir %s is not a directory\n", dir)
		return ""
	}
	path := filepath.Join(dir, ce.FuzzTarget, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		fmt.Fprintf(stderr, "writing counterexample: %v\n", err)
		return ""
	}
	if err := atomicfile.Write(dir, path, data, 0o644); err != nil {
		fmt.Fprintf(stderr, "writing counterexample: %v\n", err)
		return ""
	}
	return path
}

const rowFormat = "%-10s %-9s %-11s %10s %9s  %s\n"

// rowPrinter prints report rows as they come, under a header printed with
// the first one, so that a long run shows its progress.
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
	if len(r.Unchecked) > 0 {
		var fns []string
		for _, u := range r.Unchecked {
			fns = append(fns, strings.SplitN(u, ":", 2)[0])
		}
		result += " [not checked: " + strings.Join(fns, ", ") + "]"
	}
	if len(r.Narrowed) > 0 {
		result += " [narrowed: " + strings.Join(r.Narrowed, "; ") + "]"
	}
	fmt.Fprintf(p.w, rowFormat, r.Pair, r.Variant, r.Method, strconv.FormatInt(r.Checked, 10),
		time.Duration(r.ElapsedNS).Round(time.Millisecond).String(), result)
}

// availability says how many variants this machine and build can run.
func availability(variants []Variant) string {
	n := 0
	for _, v := range variants {
		if v.Skip == "" {
			n++
		}
	}
	return fmt.Sprintf("%d of %d variants available", n, len(variants))
}
