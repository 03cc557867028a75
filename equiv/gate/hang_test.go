package gate_test

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/equiv/gate"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// hangOn2 never returns for a 2-byte input: it sleeps, so that the
// goroutine the engine abandons costs nothing while the tests go on.
func hangOn2(b []byte, initial uint16) uint16 {
	for len(b) == 2 {
		time.Sleep(time.Hour)
	}
	return ref.Sum(b, initial)
}

// hungVariant is a checksum whose Sum hangs on every 2-byte input, which
// the exhaustive method reaches within its first milliseconds.
var hungVariant = gate.Variant{Name: "hung", Suite: checksumtest.NewSuite(checksumtest.Impl{Sum: hangOn2})}

// hungReport is what the hang tests read of the JSON report.
type hungReport struct {
	Stopped  string `json:"stopped"`
	ExitCode int    `json:"exit_code"`
	Failed   int    `json:"failed"`
	NotRun   int    `json:"not_run"`
	Rows     []struct {
		Method, Status, Error, Reason string
		Counterexample                *struct {
			Func     string `json:"func"`
			InputHex string `json:"input_hex"`
			Got      string `json:"got"`
		} `json:"counterexample"`
	} `json:"results"`
}

func readHungReport(t *testing.T, path string) hungReport {
	t.Helper()
	var rep hungReport
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
	return rep
}

// TestHangIsACounterexample: a Sum that never returns fails its method
// within -calltimeout, naming the input in flight (a 2-byte Sum) in the
// table, the JSON and the JUnit report; the suite's later methods are not
// run, and the gate exits 1.
func TestHangIsACounterexample(t *testing.T) {
	dir := t.TempDir()
	js, ju := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml")
	start := time.Now()
	code, stdout, stderr := runGate(t, []gate.Variant{hungVariant}, "-seed", "1", "-run", "exhaustive|guard|corpus",
		"-calltimeout", "300ms", "-json", js, "-junit", ju, "-fuzzdir", t.TempDir())
	if code != 1 || !strings.Contains(stdout, "FAIL checksum/hung/exhaustive") || !strings.Contains(stdout, "Sum(len=2") {
		t.Fatalf("exit %d after %v, want 1 with the hung Sum(len=2 ...) named:\n%s%s", code, time.Since(start), stdout, stderr)
	}
	t.Logf("exit %d after %v:\n%s", code, time.Since(start).Round(time.Millisecond), stdout)
	if !strings.Contains(stdout, "no return within 300ms") {
		t.Errorf("the failure does not say the call did not return:\n%s", stdout)
	}
	rep := readHungReport(t, js)
	if rep.ExitCode != 1 || rep.Failed != 1 || rep.NotRun != 2 || len(rep.Rows) != 3 {
		t.Fatalf("report: exit_code %d, failed %d, not_run %d, %d rows; want 1, 1, 2, 3", rep.ExitCode, rep.Failed, rep.NotRun, len(rep.Rows))
	}
	ce := rep.Rows[0].Counterexample
	if rep.Rows[0].Status != "fail" || ce == nil || ce.Func != "Sum" || len(ce.InputHex) != 4 || !strings.Contains(ce.Got, "no return") {
		t.Errorf("the hung row: %+v, counterexample %+v; want a failed Sum on 2 bytes", rep.Rows[0], ce)
	}
	data, err := os.ReadFile(ju)
	if err != nil {
		t.Fatal(err)
	}
	var doc jTestsuites
	if err := xml.Unmarshal(data, &doc); err != nil || doc.Fail < 1 || !strings.Contains(string(data), "no return within 300ms") {
		t.Errorf("JUnit report of the hung run (%v): failures %d\n%s", err, doc.Fail, data)
	}
}

// TestTimeoutWhileStuck: -timeout stops a run whose call is stuck (the
// call timeout far away) within about a second, with the partial table
// and reports.
func TestTimeoutWhileStuck(t *testing.T) {
	js := filepath.Join(t.TempDir(), "r.json")
	start := time.Now()
	code, stdout, stderr := runGate(t, []gate.Variant{hungVariant}, "-seed", "1", "-run", "exhaustive|guard",
		"-calltimeout", "1h", "-timeout", "300ms", "-json", js)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("-timeout 300ms with a stuck call took %v", took)
	}
	if code != 1 || !strings.Contains(stdout, "stopped by timeout") {
		t.Fatalf("exit %d, want 1 with the run stopped by the timeout:\n%s%s", code, stdout, stderr)
	}
	rep := readHungReport(t, js)
	if rep.Stopped != "timeout" || rep.ExitCode != 1 || rep.NotRun != 2 || !strings.Contains(rep.Rows[0].Reason, "in a call still running") {
		t.Errorf("report: stopped %q, exit_code %d, not_run %d, %+v; want timeout, 1, 2 and the stuck method abandoned", rep.Stopped, rep.ExitCode, rep.NotRun, rep.Rows[0])
	}
}
