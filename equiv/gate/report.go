package gate

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/cpu"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/atomicfile"
)

// SchemaVersion is the version of the JSON report's schema (docs/report.md).
const SchemaVersion = 1

// Statuses of a row, in the JSON report and the JUnit file.
const (
	statusPass   = "pass"
	statusFail   = "fail"
	statusSkip   = "skip"
	statusNotRun = "notrun" // stopped by -timeout or a signal before it finished
)

// row is one line of the report: one method of one variant of one pair.
type row struct {
	Pair           string          `json:"pair"`
	Variant        string          `json:"variant"`
	Method         string          `json:"method"`
	Status         string          `json:"status"`
	Checked        int64           `json:"checked"`
	ElapsedNS      int64           `json:"elapsed_ns"`
	Reason         string          `json:"reason,omitempty"`
	Error          string          `json:"error,omitempty"`
	Unchecked      []string        `json:"unchecked,omitempty"`
	Narrowed       []string        `json:"narrowed,omitempty"`
	Domain         *domain         `json:"domain,omitempty"`
	Counterexample *counterexample `json:"counterexample,omitempty"`
	Bounds         []bound         `json:"bounds,omitempty"` // a proof method's sizes (bounds.go)
	boundsLine     string          // Bounds' summary, for the table
	err            error           // the method's error, if any
	domainLine     string          // Domain's one-line summary, for -v
	ce             *equiv.Counterexample
	note           string // Variant.Note, for the unchecked functions
}

// domain is what a method's compared inputs covered (equiv.Domain).
type domain struct {
	Sizes   *sizes  `json:"sizes,omitempty"`
	Classes []class `json:"classes,omitempty"`
}

type sizes struct {
	N   int64 `json:"n"`
	Min int64 `json:"min"`
	P50 int64 `json:"p50"`
	P90 int64 `json:"p90"`
	P99 int64 `json:"p99"`
	Max int64 `json:"max"`
}

type class struct {
	Name     string `json:"name"`
	Hits     int64  `json:"hits"`
	Expected bool   `json:"expected,omitempty"`
}

func domainOf(d equiv.Domain) *domain {
	if d.Sizes.N == 0 && len(d.Classes) == 0 {
		return nil
	}
	out := &domain{}
	if s := d.Sizes; s.N > 0 {
		out.Sizes = &sizes{N: s.N, Min: s.Min, P50: s.P50, P90: s.P90, P99: s.P99, Max: s.Max}
	}
	for _, c := range d.Classes {
		out.Classes = append(out.Classes, class(c))
	}
	return out
}

type counterexample struct {
	Func     string `json:"func"`
	InputHex string `json:"input_hex"`
	Args     string `json:"args"`
	Got      string `json:"got"`
	Want     string `json:"want"`
	Seed     string `json:"seed"`
	Stack    string `json:"stack,omitempty"`
	FuzzFile string `json:"fuzz_file,omitempty"`
}

type report struct {
	Schema      int       `json:"schema_version"`
	Tool        toolInfo  `json:"tool"`
	Level       string    `json:"level"`
	Seed        string    `json:"seed"` // a string: JSON readers lose integers above 2^53
	Shard       string    `json:"shard,omitempty"`
	GOOS        string    `json:"goos"`
	GOARCH      string    `json:"goarch"`
	CPU         []string  `json:"cpu_features"`
	Start       time.Time `json:"start"`
	DurationNS  int64     `json:"duration_ns"`
	Stopped     string    `json:"stopped,omitempty"` // "timeout" or "signal"
	Rows        []row     `json:"results"`
	Passed      int       `json:"passed"`
	Failed      int       `json:"failed"`
	Skipped     int       `json:"skipped"`
	NotRun      int       `json:"not_run"`
	ExitCode    int       `json:"exit_code"`
	selected    int       // rows of methods that ran, or were skipped, here
	matched     int       // methods that -run selects, on any shard
	done        map[string]int64
	annotations bool // print GitHub Actions annotations for failures
}

func newReport(o *options) *report {
	rep := &report{Schema: SchemaVersion, Tool: buildInfo(), Level: o.level.String(), Seed: strconv.FormatUint(o.seed, 10),
		GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPU: cpuFeatures(), Start: time.Now().UTC(),
		Rows: []row{}, done: map[string]int64{}, annotations: os.Getenv("GITHUB_ACTIONS") == "true"}
	if o.shardN > 1 {
		rep.Shard = fmt.Sprintf("%d/%d", o.shardK, o.shardN)
	}
	return rep
}

func resultRow(v Variant, res equiv.Result) row {
	r := row{Pair: res.Pair, Variant: v.Name, Method: res.Method, Checked: res.Checked,
		ElapsedNS: res.Elapsed.Nanoseconds(), Status: statusPass, err: res.Err,
		Unchecked: res.Unchecked, Narrowed: res.Narrowed, Domain: domainOf(res.Domain), domainLine: res.Domain.String(), note: v.Note}
	r.Bounds, r.boundsLine = boundsOf(res.Bounds)
	switch {
	case res.Interrupted:
		r.Status, r.Reason = statusNotRun, res.Skipped
		if res.Err != nil {
			r.Reason = res.Err.Error()
		}
	case res.Skipped != "":
		r.Status, r.Reason = statusSkip, res.Skipped
	case res.Err != nil:
		r.Status, r.Error = statusFail, res.Err.Error()
		if ces := equiv.Counterexamples(res.Err); len(ces) > 0 {
			r.ce = ces[0]
		}
	}
	return r
}

func (rep *report) add(r row, out *rowPrinter) {
	rep.selected++
	if r.Status == statusPass {
		rep.done[r.Pair+"/"+r.Method] = r.Checked
	}
	rep.Rows = append(rep.Rows, r)
	out.print(r)
}

// finish counts the rows, writes counterexamples as fuzz inputs, prints
// every failure in full (and as a GitHub annotation under GitHub Actions)
// and the summary line, and sets the exit status.
func (rep *report) finish(o *options, stdout, stderr io.Writer) {
	for i := range rep.Rows {
		r := &rep.Rows[i]
		switch r.Status {
		case statusPass:
			rep.Passed++
		case statusSkip:
			rep.Skipped++
		case statusNotRun:
			rep.NotRun++
		default:
			rep.Failed++
		}
		if r.ce != nil {
			r.Counterexample = &counterexample{Func: r.ce.Func, InputHex: fmt.Sprintf("%x", r.ce.Input),
				Args: r.ce.Args, Got: r.ce.Got, Want: r.ce.Want, Seed: strconv.FormatUint(r.ce.Seed, 10), Stack: r.ce.Stack}
			r.Counterexample.FuzzFile = writeFuzzInput(o.fuzzdir, r.ce, stderr)
		}
	}
	rep.printNotes(stdout)
	for _, r := range rep.Rows {
		if r.Status == statusFail {
			rep.printFailure(stdout, r)
		}
	}
	rep.DurationNS = time.Since(rep.Start).Nanoseconds()
	if rep.Failed > 0 || rep.NotRun > 0 {
		rep.ExitCode = 1
	}
	stopped := ""
	if rep.Stopped != "" {
		stopped = fmt.Sprintf(", %d not run (stopped by %s)", rep.NotRun, rep.Stopped)
	}
	fmt.Fprintf(stdout, "\n%d passed, %d failed, %d skipped%s (seed %s)\n", rep.Passed, rep.Failed, rep.Skipped, stopped, rep.Seed)
}

func (rep *report) printFailure(w io.Writer, r row) {
	msg := orReason(r.Error, r.Reason)
	fmt.Fprintf(w, "\nFAIL %s/%s/%s:\n  %s\n", r.Pair, r.Variant, r.Method, msg)
	if r.Counterexample != nil && r.Counterexample.FuzzFile != "" {
		fmt.Fprintf(w, "  %s\n", replayHint(r.Counterexample.FuzzFile, r.ce.FuzzTarget))
	}
	if rep.annotations {
		fmt.Fprintf(w, "::error title=equivcheck %s/%s/%s::%s\n", r.Pair, r.Variant, r.Method, escapeAnnotation(msg))
	}
}

// escapeAnnotation escapes a GitHub Actions workflow-command message.
func escapeAnnotation(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func (rep *report) writeJSON(path string, stdout io.Writer) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return writeReport(path, append(data, '\n'), stdout)
}

// writeReport writes a report file atomically, or to stdout for "-".
func writeReport(path string, data []byte, stdout io.Writer) error {
	if path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	if err := atomicfile.Write("", path, data, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
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
	if dir == "" { // the default -fuzzdir is absent: runAll said so
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
// the first one, so that a long run shows its progress. Each row fits
// tableWidth columns: what does not fit is cut short, and -v prints it in
// full under the row.
type rowPrinter struct {
	w       io.Writer
	header  bool
	verbose bool // print each row's details and domain under it (-v)
}

func (p *rowPrinter) print(r row) {
	if !p.header {
		fmt.Fprintf(p.w, rowFormat, "PAIR", "VARIANT", "METHOD", "CHECKED", "TIME", "RESULT")
		p.header = true
	}
	cols := fmt.Sprintf(rowFormat, r.Pair, r.Variant, r.Method, strconv.FormatInt(r.Checked, 10),
		time.Duration(r.ElapsedNS).Round(time.Millisecond).String(), "")
	fmt.Fprintln(p.w, strings.TrimSuffix(cols, "\n")+resultCell(r, tableWidth-utf8.RuneCountInString(cols)+1))
	if p.verbose {
		p.details(r)
	}
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

// toolInfo identifies the gate binary that wrote a report.
type toolInfo struct {
	Name        string `json:"name"`
	Module      string `json:"module"`
	Version     string `json:"module_version"`
	VCSRevision string `json:"vcs_revision,omitempty"`
	VCSModified bool   `json:"vcs_modified,omitempty"`
	Go          string `json:"go"`
}

// buildInfo reads the main module's version and VCS revision, which "go
// build" stamps into the binary ("go run" and tests leave the revision
// out).
func buildInfo() toolInfo {
	t := toolInfo{Go: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return t
	}
	t.Name, t.Module, t.Version = bi.Path, bi.Main.Path, bi.Main.Version
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			t.VCSRevision = s.Value
		case "vcs.modified":
			t.VCSModified = s.Value == "true"
		}
	}
	return t
}

// libModule is the path of the module this package belongs to.
var libModule = strings.TrimSuffix(reflect.TypeFor[Variant]().PkgPath(), "/equiv/gate")

// libVersion is the version of this module a user's gate was built with
// ("" when it is the main module): its version from the build
// information, and its replacement if go.mod replaces it.
func libVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range bi.Deps {
		if d.Path != libModule {
			continue
		}
		if r := d.Replace; r != nil && (r.Version == "" || r.Version == "(devel)") {
			return d.Version + " => " + r.Path // a directory
		} else if r != nil {
			return d.Version + " => " + r.Path + " " + r.Version
		}
		return d.Version
	}
	return ""
}

// versionLine is what -version prints: the program, its main module and
// version, the VCS revision when the build stamped one, this module's
// version when the main module is another (a user's gate), and Go's.
func versionLine(name string, t toolInfo, lib string) string {
	s := name + " " + t.Module + " " + t.Version
	if t.VCSRevision != "" {
		s += " (revision " + t.VCSRevision
		if t.VCSModified {
			s += ", modified"
		}
		s += ")"
	}
	if lib != "" {
		s += ", " + libModule + " " + lib
	}
	return s + " " + t.Go
}

// cpuFeatures lists the features golang.org/x/sys/cpu reports for this
// processor (after GODEBUG=cpu.*=off), by field name, naming none itself.
func cpuFeatures() []string {
	var out []string
	for _, arch := range []any{&cpu.X86, &cpu.ARM64, &cpu.ARM, &cpu.PPC64, &cpu.S390X, &cpu.RISCV64, &cpu.Loong64, &cpu.MIPS64X} {
		v := reflect.ValueOf(arch).Elem()
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if name, ok := strings.CutPrefix(f.Name, "Has"); ok && f.Type.Kind() == reflect.Bool && v.Field(i).Bool() {
				out = append(out, strings.ToLower(name))
			}
		}
	}
	return out
}
