package prove_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/gate"
	"github.com/equivcheck/equivcheck/prove"
	"github.com/equivcheck/equivcheck/prove/internal/constructs"
	refws "github.com/equivcheck/equivcheck/reference/websocket"
)

func needSolver(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("z3"); err != nil {
		if _, err := exec.LookPath("cvc5"); err != nil {
			t.Skip("no SMT solver on PATH")
		}
	}
}

// check runs m alone and returns its Result and error.
func check(t *testing.T, m equiv.Method) (equiv.Result, error) {
	t.Helper()
	var res equiv.Result
	err := equiv.Check(equiv.Suite{Pair: "test", Methods: []equiv.Method{m}}, equiv.WithSeed(1),
		equiv.WithReport(func(r equiv.Result) { res = r }))
	return res, err
}

// TestPlanted proves each planted bug wrong, at the first size where it
// shows, with a counterexample replayed on the compiled code, and each
// twin right over the same sizes.
func TestPlanted(t *testing.T) {
	needSolver(t)
	for _, c := range []struct {
		name      string
		ref, twin any
		bad       any
		opts      []prove.Option
		size      int // the first size that shows the bug
		want      string
	}{
		{"result", constructs.Sum, constructs.SumWide, constructs.SumWideBad, nil, 5, "SumWideBad(len=5)"},
		{"panic", constructs.FirstOrZero, constructs.FirstOrZero, constructs.First, nil, 0, "panic"},
		{"error", constructs.Check, constructs.Check, constructs.CheckBad, nil, 5, "long"},
		{"input after", constructs.Clear, constructs.Clear, constructs.ClearBad, nil, 3, "ClearBad(len=3)"},
		{"spare capacity", constructs.AppendTwo, constructs.AppendTwo, constructs.AppendTwoWide, []prove.Option{prove.Spare(3)}, 0, "b after: [3]{0 0 0}"},
		{"mask", refws.Mask, refws.Mask, constructs.MaskOff, nil, 13, "MaskOff(len=13"},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := append([]prove.Option{prove.Sizes(prove.Upto(c.size, c.size, c.size))}, c.opts...)
			res, err := check(t, prove.Method(c.ref, c.bad, opts...))
			var ce *equiv.Counterexample
			if !errors.As(err, &ce) || !errors.Is(err, equiv.ErrMismatch) {
				t.Fatalf("bad: %v, want a counterexample", err)
			}
			last := res.Bounds[len(res.Bounds)-1]
			if last.Size != c.size || last.Outcome != equiv.Refuted || !strings.Contains(ce.Error(), c.want) {
				t.Errorf("bad: %v at size %d (%s), want %q at size %d", ce, last.Size, last.Outcome, c.want, c.size)
			}
			for _, b := range res.Bounds[:len(res.Bounds)-1] {
				if b.Outcome != equiv.Proved {
					t.Errorf("bad: size %d: %s before the counterexample", b.Size, b.Outcome)
				}
			}
			if res.Checked != int64(c.size) {
				t.Errorf("bad: %d sizes counted, want %d proved", res.Checked, c.size)
			}
			t.Logf("%v", ce)
			res, err = check(t, prove.Method(c.ref, c.twin, opts...))
			if err != nil || res.Checked != int64(c.size+1) {
				t.Fatalf("twin: %v, %d sizes proved, want %d", err, res.Checked, c.size+1)
			}
		})
	}
}

// undecidingSolver puts first on PATH a solver named z3 that reads its
// script and answers unknown, as z3 does when its time limit stops it.
// The real z3 cannot stand in: given 1 ms on a query it can decide, it
// usually gives up, but on a loaded machine its timer thread can run too
// late to stop it, and it answers (CI saw sat for MaskOff at 40 octets).
// The solver package's own tests time the real solvers out on a query
// none can decide (TestVerdicts).
func undecidingSolver(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the stand-in solver")
	}
	dir := t.TempDir()
	script := "#!/bin/sh\ncat >/dev/null\necho unknown\n"
	if err := os.WriteFile(filepath.Join(dir, "z3"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// TestUnproved checks that a size the solver does not decide fails the
// method (equiv.ErrUnproved), recorded as unknown.
func TestUnproved(t *testing.T) {
	undecidingSolver(t)
	res, err := check(t, prove.Method(refws.Mask, constructs.MaskOff, prove.Sizes(prove.Range(40, 40, 40, 40)),
		prove.Timeout(func(equiv.Level) time.Duration { return time.Millisecond })))
	if !errors.Is(err, equiv.ErrUnproved) {
		t.Fatalf("%v, want ErrUnproved", err)
	}
	if len(res.Bounds) != 1 || res.Bounds[0].Outcome != equiv.Unproved || res.Checked != 0 {
		t.Errorf("bounds %+v, checked %d", res.Bounds, res.Checked)
	}
}

// TestUnsupported checks that a construct the executor does not run, on
// a path some input takes, fails the method naming it and its line, and
// that one no input reaches does not.
func TestUnsupported(t *testing.T) {
	needSolver(t)
	_, err := check(t, prove.Method(constructs.UsesMap, constructs.UsesMap, prove.Sizes(prove.Upto(0, 0, 0))))
	if !errors.Is(err, prove.ErrUnsupported) || !strings.Contains(err.Error(), "unsupported.go:14") || !strings.Contains(err.Error(), "map") {
		t.Errorf("UsesMap: %v, want ErrUnsupported naming the map and its line", err)
	}
	res, err := check(t, prove.Method(constructs.NeverMap, constructs.NeverMap, prove.Sizes(prove.Upto(0, 0, 0))))
	if err != nil || res.Checked != 1 {
		t.Errorf("NeverMap: %v, %d proved; a map no input reaches must not stop the proof", err, res.Checked)
	}
}

// TestNoSolver checks that without a solver the method is skipped, with
// the reason.
func TestNoSolver(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	m := prove.Method(constructs.Sum, constructs.SumWide)
	if !strings.Contains(m.Skip, "no SMT solver") {
		t.Errorf("Skip = %q, want the missing solver", m.Skip)
	}
}

// TestNothingProved checks that a method that proved no size fails.
func TestNothingProved(t *testing.T) {
	needSolver(t)
	_, err := check(t, prove.Method(constructs.Sum, constructs.SumWide, prove.Sizes(func(equiv.Level) []int { return nil })))
	if !errors.Is(err, equiv.ErrNothingChecked) {
		t.Errorf("%v, want ErrNothingChecked", err)
	}
}

// TestFuzzForm checks that a counterexample has its fuzz-target form.
func TestFuzzForm(t *testing.T) {
	needSolver(t)
	_, err := check(t, prove.Method(constructs.Sum, constructs.SumWideBad, prove.Sizes(prove.Upto(6, 6, 6)),
		prove.FuzzTarget(func(in []any) (string, []any) { return "FuzzSum", in })))
	var ce *equiv.Counterexample
	if !errors.As(err, &ce) {
		t.Fatal(err)
	}
	name, data, ok := ce.FuzzFile()
	if !ok || ce.FuzzTarget != "FuzzSum" || !bytes.HasPrefix(data, []byte("go test fuzz v1\n[]byte(")) {
		t.Errorf("FuzzFile = %s, %q, %v", name, data, ok)
	}
}

// TestGateReports checks that a proof's sizes reach the gate's table,
// JSON and JUnit reports, and that an unproved size fails the gate.
func TestGateReports(t *testing.T) {
	needSolver(t)
	dir := t.TempDir()
	variants := []gate.Variant{{Name: "mine", Suite: equiv.Suite{Pair: "sum", Methods: []equiv.Method{
		prove.Method(constructs.Sum, constructs.SumWide, prove.Sizes(prove.Upto(3, 3, 3)))}}}}
	var stdout, stderr bytes.Buffer
	code := gate.Run("gate", []string{"-seed", "1", "-json", dir + "/r.json", "-junit", dir + "/r.xml", "-fuzzdir", dir}, &stdout, &stderr, variants)
	if code != 0 || !strings.Contains(stdout.String(), "pass [proved 0..3") {
		t.Fatalf("exit %d:\n%s%s", code, stdout.String(), stderr.String())
	}
	var rep struct {
		Results []struct {
			Status string
			Bounds []struct {
				Size    int
				Outcome string
			}
		}
	}
	data := readFile(t, dir+"/r.json")
	if err := json.Unmarshal(data, &rep); err != nil || len(rep.Results) != 1 || len(rep.Results[0].Bounds) != 4 || rep.Results[0].Bounds[3].Outcome != "proved" {
		t.Errorf("JSON: %v\n%s", err, data)
	}
	if xml := readFile(t, dir+"/r.xml"); !bytes.Contains(xml, []byte("<system-out>size 0: proved")) {
		t.Errorf("JUnit has no sizes:\n%s", xml)
	}
	undecidingSolver(t)
	variants[0].Suite.Methods = []equiv.Method{prove.Method(refws.Mask, constructs.MaskOff, prove.Sizes(prove.Range(40, 40, 40, 40)),
		prove.Timeout(func(equiv.Level) time.Duration { return time.Millisecond }))}
	stdout.Reset()
	code = gate.Run("gate", []string{"-seed", "1", "-fuzzdir", dir}, &stdout, &stderr, variants)
	if code != 1 || !strings.Contains(stdout.String(), "40: unknown") {
		t.Errorf("unproved: exit %d, want 1:\n%s", code, stdout.String())
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestPanicValues checks that panics with different values differ under
// PanicValues and agree without it.
func TestPanicValues(t *testing.T) {
	needSolver(t)
	one := prove.Sizes(prove.Upto(0, 0, 0))
	_, err := check(t, prove.Method(constructs.Guard, constructs.GuardOther, one, prove.PanicValues()))
	var ce *equiv.Counterexample
	if !errors.As(err, &ce) || !strings.Contains(ce.Got, "out of range") || !strings.Contains(ce.Want, "too big") {
		t.Errorf("with PanicValues: %v, want the two messages", err)
	}
	if _, err := check(t, prove.Method(constructs.Guard, constructs.GuardOther, one)); err != nil {
		t.Errorf("without PanicValues: %v, want a proof (both panic)", err)
	}
}
