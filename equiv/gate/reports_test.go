package gate_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/gate"
)

// The JUnit schema as gotestsum writes it and Jenkins reads it: the
// attributes both require.
type jTestsuites struct {
	XMLName xml.Name `xml:"testsuites"`
	Tests   int      `xml:"tests,attr"`
	Fail    int      `xml:"failures,attr"`
	Suites  []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Time     string `xml:"time,attr"`
		Cases    []struct {
			Classname string `xml:"classname,attr"`
			Name      string `xml:"name,attr"`
			Time      string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Body    string `xml:",chardata"`
			} `xml:"failure"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestJUnit(t *testing.T) {
	neon := gate.Variant{Name: "neon", Suite: refVariant.Suite, Skip: "needs arm64"}
	path := filepath.Join(t.TempDir(), "junit.xml")
	code, stdout, _ := runGate(t, []gate.Variant{refVariant, brokenVariant, neon}, "-run", "vectors|corpus|neon", "-junit", path, "-fuzzdir", t.TempDir())
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, stdout)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc jTestsuites
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("not JUnit XML: %v\n%s", err, data)
	}
	if len(doc.Suites) != 3 || doc.Tests != 5 || doc.Fail != 2 {
		t.Fatalf("suites %d, tests %d, failures %d, want 3, 5, 2:\n%s", len(doc.Suites), doc.Tests, doc.Fail, data)
	}
	for _, s := range doc.Suites {
		if s.Name == "" || s.Tests != len(s.Cases) {
			t.Errorf("suite %q: tests=%d with %d cases", s.Name, s.Tests, len(s.Cases))
		}
		for _, c := range s.Cases {
			if _, err := strconv.ParseFloat(c.Time, 64); err != nil || c.Name == "" || c.Classname != s.Name {
				t.Errorf("case %+v", c)
			}
			if s.Name == "checksum/broken" && (c.Failure == nil || !strings.Contains(c.Failure.Body, "input (hex):")) {
				t.Errorf("checksum/broken/%s: no counterexample in the failure: %+v", c.Name, c.Failure)
			}
			if s.Name == "checksum/neon" && c.Skipped == nil {
				t.Errorf("checksum/neon: not skipped")
			}
		}
	}
}

// TestReportsToStdout: with -json - the report is all that stdout holds.
func TestReportsToStdout(t *testing.T) {
	code, stdout, stderr := runGate(t, []gate.Variant{refVariant}, "-run", "vectors", "-json", "-")
	var rep map[string]any
	if code != 0 || json.Unmarshal([]byte(stdout), &rep) != nil || rep["schema_version"] != float64(gate.SchemaVersion) {
		t.Fatalf("exit %d; stdout %q", code, stdout)
	}
	if !strings.Contains(stderr, "1 passed") {
		t.Errorf("the table is not on stderr: %q", stderr)
	}
	if _, ok := rep["seed"].(string); !ok {
		t.Errorf("seed %v is not a string", rep["seed"])
	}
}

func TestGitHubAnnotations(t *testing.T) {
	t.Setenv("GITHUB_ACTIONS", "true")
	_, stdout, _ := runGate(t, []gate.Variant{brokenVariant}, "-run", "vectors", "-fuzzdir", t.TempDir())
	if !strings.Contains(stdout, "::error title=equivcheck checksum/broken/vectors::") {
		t.Errorf("no annotation:\n%s", stdout)
	}
}

// endless counts until the run is stopped; its first call runs hook.
func endless(hook func()) gate.Variant {
	return gate.Variant{Name: "endless", Suite: equiv.Suite{Pair: "toy", Methods: []equiv.Method{
		{Name: "first", Func: func(r *equiv.Run) error { r.Count(1); return nil }},
		{Name: "endless", Func: func(r *equiv.Run) error {
			hook()
			for {
				r.Count(1)
			}
		}},
		{Name: "last", Func: func(r *equiv.Run) error { r.Count(1); return nil }},
	}}}
}

type stoppedReport struct {
	Stopped  string `json:"stopped"`
	NotRun   int    `json:"not_run"`
	Passed   int    `json:"passed"`
	ExitCode int    `json:"exit_code"`
	Rows     []struct {
		Method, Status string
	} `json:"results"`
}

// checkStopped checks the JSON report of endless's run, stopped (why:
// "timeout" or "signal") in its second method: the first passed, the
// other two not run, and exit_code the process's status, code.
func checkStopped(t *testing.T, path, why string, code int) {
	t.Helper()
	var rep stoppedReport
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, data)
	}
	if rep.Stopped != why || rep.Passed != 1 || rep.NotRun != 2 || len(rep.Rows) != 3 || rep.Rows[1].Status != "notrun" || rep.Rows[2].Status != "notrun" {
		t.Errorf("report %+v", rep)
	}
	if rep.ExitCode != code {
		t.Errorf("stopped by %s: the JSON report says exit_code %d, the process exits %d", why, rep.ExitCode, code)
	}
}

// checkRedJUnit checks that the JUnit report of endless's stopped run is
// red: an error for each of the two methods that did not finish, and one
// for the run ("equivcheck/stopped"), none of them a skip.
func checkRedJUnit(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Errors  int `xml:"errors,attr"`
		Skipped int `xml:"skipped,attr"`
		Suites  []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name  string `xml:"name,attr"`
				Error *struct {
					Type string `xml:"type,attr"`
				} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("not JUnit XML: %v\n%s", err, data)
	}
	errs := map[string]string{}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Error != nil {
				errs[s.Name+"/"+c.Name] = c.Error.Type
			}
		}
	}
	want := map[string]string{"toy/endless/endless": "notrun", "toy/endless/last": "notrun", "equivcheck/stopped": "stopped"}
	if doc.Errors != 3 || doc.Skipped != 0 || fmt.Sprint(errs) != fmt.Sprint(want) {
		t.Errorf("JUnit of a stopped run: errors=%d skipped=%d, error elements %v; want 3, 0, %v\n%s", doc.Errors, doc.Skipped, errs, want, data)
	}
}

func TestTimeout(t *testing.T) {
	js, ju := filepath.Join(t.TempDir(), "r.json"), filepath.Join(t.TempDir(), "j.xml")
	code, stdout, _ := runGate(t, []gate.Variant{endless(func() {})}, "-timeout", "100ms", "-json", js, "-junit", ju)
	if code != 1 || !strings.Contains(stdout, "NOT RUN") || !strings.Contains(stdout, "stopped by timeout") {
		t.Fatalf("exit %d, want 1 with the rest not run:\n%s", code, stdout)
	}
	checkStopped(t, js, "timeout", 1)
	checkRedJUnit(t, ju)
}

// TestJSONSaysTheExitStatus: a JUnit report that cannot be written turns
// a pass into exit 2, and the JSON report, written after it, says 2.
func TestJSONSaysTheExitStatus(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gone")
	os.Mkdir(dir, 0o755)
	removes := equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: "m", Func: func(r *equiv.Run) error {
		os.RemoveAll(dir) // the JUnit report's directory disappears during the run
		r.Count(1)
		return nil
	}}}}
	js := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr := runGate(t, []gate.Variant{{Name: "v", Suite: removes}}, "-junit", filepath.Join(dir, "j.xml"), "-json", js)
	var rep stoppedReport
	data, _ := os.ReadFile(js)
	if err := json.Unmarshal(data, &rep); err != nil || code != 2 || rep.ExitCode != 2 {
		t.Errorf("exit %d, JSON exit_code %d (%v), want 2 and 2; stderr %q", code, rep.ExitCode, err, stderr)
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := runGate(t, nil, "-version")
	if code != 0 || !strings.HasPrefix(stdout, "equivcheck ") || !strings.Contains(stdout, "go1.") {
		t.Errorf("exit %d: %q", code, stdout)
	}
}

// TestShardUnion: the shards' rows together are the unsharded run's, each
// whole method on exactly one shard and a split method's counts adding up.
func TestShardUnion(t *testing.T) {
	split := gate.Variant{Name: "split", Suite: equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: "part", Split: true, Func: func(r *equiv.Run) error {
		for i := range 100 {
			if r.Mine(i) {
				r.Count(i)
			}
		}
		return nil
	}}}}}
	variants := []gate.Variant{refVariant, split}
	rows := func(args ...string) map[string]int64 {
		js := filepath.Join(t.TempDir(), "r.json")
		code, stdout, _ := runGate(t, variants, append(args, "-seed", "3", "-json", js, "-run", "vectors|corpus|guard|part")...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stdout)
		}
		var rep struct {
			Rows []struct {
				Pair, Variant, Method string
				Checked               int64
			} `json:"results"`
		}
		data, _ := os.ReadFile(js)
		json.Unmarshal(data, &rep)
		m := map[string]int64{}
		for _, r := range rep.Rows {
			m[r.Pair+"/"+r.Variant+"/"+r.Method] += r.Checked
		}
		return m
	}
	whole := rows()
	for _, n := range []int{2, 3} {
		sum := map[string]int64{}
		for k := 1; k <= n; k++ {
			for key, c := range rows("-shard", strconv.Itoa(k)+"/"+strconv.Itoa(n)) {
				sum[key] += c
			}
		}
		if len(sum) != len(whole) {
			t.Errorf("%d shards: rows %v, want %v", n, sum, whole)
		}
		for key, c := range whole {
			if sum[key] != c {
				t.Errorf("%d shards: %s counted %d, the whole run %d", n, key, sum[key], c)
			}
		}
	}
}

// TestEmptyShard: a shard that holds nothing of what -run selects says so
// and passes nothing: a split method with no unit there is a skipped row,
// and a shard dealt no whole method prints a note and no row.
func TestEmptyShard(t *testing.T) {
	split := gate.Variant{Name: "split", Suite: equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: "part", Split: true, Func: func(r *equiv.Run) error {
		for i := range 3 {
			if r.Mine(i) {
				r.Count(1)
			}
		}
		return nil
	}}}}}
	code, stdout, _ := runGate(t, []gate.Variant{split}, "-seed", "1", "-shard", "5/5", "-v")
	if code != 0 || !strings.Contains(stdout, "reason: shard 5/5 compared nothing in its 0 of 3 units") || !strings.Contains(stdout, "0 passed, 0 failed, 1 skipped") {
		t.Errorf("split method, shard 5/5 of 3 units: exit %d\n%s", code, stdout)
	}
	js := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runGate(t, []gate.Variant{refVariant}, "-seed", "1", "-run", "/vectors$", "-shard", "2/2", "-json", js)
	if code != 0 || !strings.Contains(stderr, "shard 2/2 holds none of the 1 checks") || !strings.Contains(stdout, "0 passed, 0 failed, 0 skipped") {
		t.Errorf("one whole method, shard 2/2: exit %d\n%s%s", code, stdout, stderr)
	}
	if data, _ := os.ReadFile(js); !bytes.Contains(data, []byte(`"results": []`)) {
		t.Errorf("the empty shard's JSON report has no empty results array:\n%s", data)
	}
	if _, _, stderr := runGate(t, []gate.Variant{refVariant}, "-seed", "1", "-run", "/vectors$", "-shard", "1/2"); strings.Contains(stderr, "holds none") {
		t.Errorf("shard 1/2 runs the method but says it holds none:\n%s", stderr)
	}
}

// A method's domain is in the JSON row and, with -v, under its table row;
// an expected class it did not reach fails it.
func TestDomainReported(t *testing.T) {
	suite := func(reach bool) equiv.Suite {
		return equiv.Suite{Pair: "p", Methods: []equiv.Method{{Name: "m", Func: func(r *equiv.Run) error {
			r.Expect("len=2^16")
			for _, n := range []int{0, 5, 1 << 16} {
				if n == 1<<16 && !reach {
					continue
				}
				r.Size(n)
				if n == 1<<16 {
					r.Reach("len=2^16")
				}
				r.Count(1)
			}
			return nil
		}}}}
	}
	code, stdout, _ := runGate(t, []gate.Variant{{Name: "v", Suite: suite(true)}}, "-json", "-")
	var rep struct {
		Rows []struct {
			Domain struct {
				Sizes   struct{ N, Min, Max int64 }
				Classes []struct {
					Name     string
					Hits     int64
					Expected bool
				}
			}
		} `json:"results"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &rep) != nil || len(rep.Rows) != 1 {
		t.Fatalf("exit %d, report %s", code, stdout)
	}
	d := rep.Rows[0].Domain
	if d.Sizes.N != 3 || d.Sizes.Max != 1<<16 || len(d.Classes) != 1 || d.Classes[0].Hits != 1 || !d.Classes[0].Expected {
		t.Errorf("domain = %+v", d)
	}
	code, stdout, _ = runGate(t, []gate.Variant{{Name: "v", Suite: suite(true)}}, "-v")
	if code != 0 || !strings.Contains(stdout, "domain: sizes 0..65536") || !strings.Contains(stdout, "classes 1 of 1 reached") {
		t.Errorf("-v: exit %d, output:\n%s", code, stdout)
	}
	code, stdout, _ = runGate(t, []gate.Variant{{Name: "v", Suite: suite(false)}}, "-v")
	if code != 1 || !strings.Contains(stdout, "unreached: len=2^16") {
		t.Errorf("unreached class: exit %d, output:\n%s", code, stdout)
	}
}
