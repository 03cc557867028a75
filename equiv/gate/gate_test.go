package gate_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/equiv/gate"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// refVariant is the reference checksum wired as a variant under test.
var refVariant = gate.Variant{Name: "ref", Suite: checksumtest.NewSuite(checksumtest.Impl{
	Sum: ref.Sum, Checksum: ref.Checksum, Update: ref.Update,
	New: func() checksumtest.Digest { return ref.New() },
})}

// dropOdd ignores a trailing odd byte.
func dropOdd(b []byte, initial uint16) uint16 { return ref.Sum(b[:len(b)&^1], initial) }

// brokenVariant is a checksum variant that ignores the last byte of an odd length.
var brokenVariant = gate.Variant{Name: "broken", Suite: checksumtest.NewSuite(checksumtest.Impl{Sum: dropOdd})}

func runGate(t *testing.T, variants []gate.Variant, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = gate.Run("equivcheck", args, &out, &errOut, variants)
	return code, out.String(), errOut.String()
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	corrupt, wrongSig, notFuzz, missingPair := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(corrupt, "checksum", "bad"), "go test fuzz v1\n[]byte(\"ok\")\nuint16(70000)\n[]byte(\"\")\n")
	writeFile(t, filepath.Join(wrongSig, "checksum", "short"), "go test fuzz v1\n[]byte(\"ok\")\n")
	writeFile(t, filepath.Join(notFuzz, "checksum", "junk"), "\x00\x01garbage")
	badRegression := t.TempDir()
	writeFile(t, filepath.Join(badRegression, "FuzzChecksum", "empty"), "")

	for _, tc := range []struct {
		args []string
		want string // in the one-line message
	}{
		{[]string{"-level", "extreme"}, "-level"},
		{[]string{"-nosuchflag"}, "nosuchflag"},
		{[]string{"-seed", "minus-one"}, "seed"},
		{[]string{"-run", "("}, "-run"},
		{[]string{"-run", "^nothing-matches$"}, "no check matches"},
		{[]string{"-require", "sse9"}, "sse9"},
		{[]string{"-corpus", filepath.Join(corrupt, "absent")}, "-corpus"},
		{[]string{"-corpus", corrupt}, "-corpus: " + filepath.Join(corrupt, "checksum", "bad")},
		{[]string{"-corpus", wrongSig}, filepath.Join(wrongSig, "checksum", "short")},
		{[]string{"-corpus", notFuzz}, filepath.Join(notFuzz, "checksum", "junk")},
		{[]string{"-corpus", missingPair}, missingPair + " has no directory checksum"},
		{[]string{"-fuzzdir", badRegression}, filepath.Join(badRegression, "FuzzChecksum", "empty")},
		{[]string{"-json", filepath.Join(missingPair, "no", "such", "dir", "r.json")}, "-json"},
		{[]string{"-json", missingPair}, "-json"},
		{[]string{"-fuzzdir", filepath.Join(corrupt, "checksum", "bad")}, "-fuzzdir"},
		{[]string{"-fuzzdir", filepath.Join(corrupt, "absent")}, "-fuzzdir"},
		{[]string{"-json", filepath.Join(missingPair, "r"), "-junit", filepath.Join(missingPair, ".", "r")}, "both name"},
		{[]string{"stray"}, "stray"},
	} {
		code, stdout, stderr := runGate(t, []gate.Variant{refVariant}, tc.args...)
		if code != 2 {
			t.Errorf("equivcheck %q exited %d, want 2; stdout:\n%s", tc.args, code, stdout)
		}
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if len(lines) != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("equivcheck %q: stderr %q, want one line naming %q", tc.args, stderr, tc.want)
		}
		if strings.Contains(stdout, "passed") {
			t.Errorf("equivcheck %q reported results: %s", tc.args, stdout)
		}
	}
}

// TestVariantsTellApart: variants whose rows could not be told apart are
// refused, exit 2 with one line, before anything runs (-list included).
func TestVariantsTellApart(t *testing.T) {
	named := func(name string) gate.Variant { v := refVariant; v.Name = name; return v }
	noPair := named("x")
	noPair.Suite.Pair = ""
	spacePair := named("x")
	spacePair.Suite.Pair = "check sum"
	for _, tc := range []struct {
		variants []gate.Variant
		want     string
	}{
		{[]gate.Variant{refVariant, named("ref")}, "checksum/ref is listed twice"},
		{[]gate.Variant{named("")}, "a name must be non-empty"},
		{[]gate.Variant{named("a/b")}, "without '/'"},
		{[]gate.Variant{named("my impl")}, "without '/', ',' or spaces"},
		{[]gate.Variant{named("tab\tbed")}, "a name must be"},
		{[]gate.Variant{named("line\n")}, "a name must be"},
		{[]gate.Variant{named("nb\u00a0sp")}, "a name must be"},
		{[]gate.Variant{named("a,b")}, "a name must be"},
		{[]gate.Variant{noPair}, "pair name \"\" must be"},
		{[]gate.Variant{spacePair}, "pair name \"check sum\" must be"},
	} {
		for _, args := range [][]string{{"-seed", "1"}, {"-list"}} {
			code, stdout, stderr := runGate(t, tc.variants, args...)
			if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
				t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want 2 and one line naming %q", tc.want, args, code, stdout, stderr, tc.want)
			}
		}
	}
	if code, _, _ := runGate(t, []gate.Variant{refVariant, named("other")}, "-list"); code != 0 {
		t.Errorf("two distinct names: -list exit %d", code)
	}
}

// TestCorpusOnlyWhereReplayed: only the corpus method reads -corpus and
// -fuzzdir, so a run whose -run leaves it out needs neither to be complete
// or valid; one that selects it is refused, exit 2, as above.
func TestCorpusOnlyWhereReplayed(t *testing.T) {
	missingPair, badRegression := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(badRegression, "FuzzChecksum", "empty"), "")
	for _, args := range [][]string{
		{"-corpus", missingPair, "-run", "/vectors$"},
		{"-fuzzdir", badRegression, "-run", "/(vectors|guard)$"},
	} {
		code, stdout, stderr := runGate(t, []gate.Variant{refVariant}, append(args, "-seed", "1")...)
		if code != 0 || !strings.Contains(stdout, " passed, 0 failed") {
			t.Errorf("equivcheck %q: exit %d, want 0\n%s%s", args, code, stdout, stderr)
		}
		code, _, stderr = runGate(t, []gate.Variant{refVariant}, append(args[:2:2], "-seed", "1", "-run", "/corpus$")...)
		if want := map[string]string{"-corpus": "has no directory checksum", "-fuzzdir": "regression input"}[args[0]]; code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("equivcheck %q -run /corpus$: exit %d, stderr %q; want 2 naming %q", args[:2], code, stderr, want)
		}
	}
}

// TestUnwritableReportExit2: a report path whose directory refuses new
// files is refused before anything runs, naming the path given.
func TestUnwritableReportExit2(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("uses /proc, where nobody (root included) can create a file")
	}
	for _, flag := range []string{"-json", "-junit"} {
		code, stdout, stderr := runGate(t, []gate.Variant{refVariant}, flag, "/proc/r.out")
		if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, flag+": cannot create /proc/r.out") {
			t.Errorf("%s /proc/r.out: exit %d, stderr %q, want 2 and one line naming it", flag, code, stderr)
		}
		if stdout != "" {
			t.Errorf("%s /proc/r.out ran checks:\n%s", flag, stdout)
		}
	}
}

// TestAbsentDefaultFuzzdir: run where the default -fuzzdir does not exist
// (this package's directory), the gate says once that nothing is replayed
// or written, and still reports every disagreement.
func TestAbsentDefaultFuzzdir(t *testing.T) {
	if _, err := os.Stat(filepath.Join("fuzz", "testdata", "fuzz")); err == nil {
		t.Skip("the default -fuzzdir exists here")
	}
	broken := []gate.Variant{brokenVariant}
	code, stdout, stderr := runGate(t, broken, "-run", "vectors|exhaustive", "-seed", "1")
	if code != 1 || strings.Count(stdout, "FAIL checksum/broken/") != 2 {
		t.Errorf("exit %d, want 1 with two failures:\n%s", code, stdout)
	}
	if strings.Count(stderr, filepath.Join("fuzz", "testdata", "fuzz")) != 1 || strings.Contains(stderr, "writing") {
		t.Errorf("stderr %q, want one note naming the absent -fuzzdir", stderr)
	}
}

type report struct {
	Schema int    `json:"schema_version"`
	Seed   string `json:"seed"`
	Passed int    `json:"passed"`
	Rows   []struct {
		Method  string `json:"method"`
		Status  string `json:"status"`
		Checked int64  `json:"checked"`
	} `json:"results"`
}

func TestPassAndJSON(t *testing.T) {
	js := filepath.Join(t.TempDir(), "report.json")
	code, stdout, stderr := runGate(t, []gate.Variant{refVariant}, "-run", "^checksum/ref/(vectors|corpus)$", "-seed", "7", "-json", js)
	if code != 0 {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "2 passed, 0 failed") {
		t.Errorf("stdout lacks the summary:\n%s", stdout)
	}
	var rep report
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Schema != gate.SchemaVersion || rep.Seed != "7" || rep.Passed != 2 || len(rep.Rows) != 2 || rep.Rows[0].Checked == 0 {
		t.Errorf("report = %+v", rep)
	}
}

// TestRegressionsReplayed: the corpus method replays -fuzzdir's inputs of
// the pair's targets as well as the seed corpus.
func TestRegressionsReplayed(t *testing.T) {
	count := func(args ...string) int64 {
		js := filepath.Join(t.TempDir(), "report.json")
		code, stdout, _ := runGate(t, []gate.Variant{refVariant}, append(args, "-run", "corpus", "-seed", "3", "-json", js)...)
		if code != 0 {
			t.Fatalf("exit %d:\n%s", code, stdout)
		}
		var rep report
		data, _ := os.ReadFile(js)
		if err := json.Unmarshal(data, &rep); err != nil || len(rep.Rows) != 1 {
			t.Fatalf("report %s: %v", data, err)
		}
		return rep.Rows[0].Checked
	}
	dir := t.TempDir()
	without := count("-fuzzdir", dir)
	writeFile(t, filepath.Join(dir, "FuzzChecksum", "one"), string(equiv.MarshalFuzzInput([]byte{1, 2, 3}, uint16(9), []byte{5})))
	writeFile(t, filepath.Join(dir, "FuzzChecksum", "two"), string(equiv.MarshalFuzzInput([]byte{}, uint16(0), []byte{})))
	if with := count("-fuzzdir", dir); with != without+2 {
		t.Errorf("corpus checked %d with two regression inputs, %d without", with, without)
	}
}

func TestRequireUnavailableFails(t *testing.T) {
	neon := gate.Variant{Name: "neon", Suite: refVariant.Suite, Skip: "not available on this machine or build"}
	variants := []gate.Variant{refVariant, neon}
	code, stdout, _ := runGate(t, variants, "-run", "^checksum/(ref/vectors|neon)", "-require", "neon")
	if code != 1 || !strings.Contains(stdout, "required") {
		t.Errorf("exit %d, want 1 with the missing required variant named:\n%s", code, stdout)
	}
	code, stdout, _ = runGate(t, variants, "-run", "^checksum/(ref/vectors|neon)")
	if code != 0 || !strings.Contains(stdout, "skip") {
		t.Errorf("without -require: exit %d, want 0 with neon skipped:\n%s", code, stdout)
	}
	// A -run that names a method selects the variants that cannot run as
	// well: their one row stands for every method of the pair.
	for _, run := range []string{"/vectors", "checksum/neon/vectors", "vectors$"} {
		code, stdout, _ = runGate(t, variants, "-run", run, "-require", "neon")
		if code != 1 || !strings.Contains(stdout, "required") {
			t.Errorf("-run %q -require neon: exit %d, want 1 with neon named:\n%s", run, code, stdout)
		}
	}
	code, stdout, _ = runGate(t, variants, "-run", "/vectors")
	if code != 0 || !strings.Contains(stdout, "1 skipped") {
		t.Errorf("-run /vectors: exit %d, want 0 with neon listed as skipped:\n%s", code, stdout)
	}
	code, stdout, _ = runGate(t, variants, "-run", "/ref/")
	if code != 0 || strings.Contains(stdout, "neon") {
		t.Errorf("-run /ref/: exit %d, want 0 without neon:\n%s", code, stdout)
	}
}

// TestDisagreementExits1 wires a broken implementation into the gate: it must
// exit 1, print the counterexample and write it as a fuzz input that the
// pair's CheckInput rejects too.
func TestDisagreementExits1(t *testing.T) {
	broken := checksumtest.Impl{Sum: dropOdd}
	variants := []gate.Variant{{Name: "broken", Suite: checksumtest.NewSuite(broken)}}
	dir := t.TempDir()
	code, stdout, stderr := runGate(t, variants, "-run", "exhaustive", "-fuzzdir", dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "FAIL checksum/broken/exhaustive") || !strings.Contains(stdout, "want") {
		t.Errorf("stdout lacks the counterexample:\n%s", stdout)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "FuzzChecksum", "*"))
	if len(files) != 1 {
		t.Fatalf("wrote %d fuzz inputs, want 1", len(files))
	}
	data, _ := os.ReadFile(files[0])
	vals, err := equiv.UnmarshalFuzzInput(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := checksumtest.CheckInput(broken, vals[0].([]byte), vals[1].(uint16), vals[2].([]byte)); err == nil {
		t.Errorf("the written fuzz input %q does not reproduce the disagreement", data)
	}
	// The next run replays it in the corpus method, and fails there too.
	code, stdout, _ = runGate(t, variants, "-run", "corpus", "-fuzzdir", dir)
	if code != 1 || !strings.Contains(stdout, "FAIL checksum/broken/corpus") {
		t.Errorf("replaying the written input: exit %d, want 1:\n%s", code, stdout)
	}
}

// TestUnusableImplementation: a suite that cannot start is one failed row
// naming the missing function, not one per method.
func TestUnusableImplementation(t *testing.T) {
	variants := []gate.Variant{{Name: "empty", Suite: checksumtest.NewSuite(checksumtest.Impl{})}}
	code, stdout, _ := runGate(t, variants)
	if code != 1 || strings.Count(stdout, "every function of the Impl is nil") != 1 || strings.Count(stdout, "checksum   empty") != 1 {
		t.Errorf("exit %d, want 1 with one row and the empty Impl named once:\n%s", code, stdout)
	}
	// A -run that names a method still reaches it, alone or beside a
	// variant that runs.
	for _, vs := range [][]gate.Variant{variants, {refVariant, variants[0]}} {
		code, stdout, _ = runGate(t, vs, "-run", "/vectors")
		if code != 1 || strings.Count(stdout, "every function of the Impl is nil") != 1 {
			t.Errorf("-run /vectors with %d variants: exit %d, want 1 with the empty Impl named once:\n%s", len(vs), code, stdout)
		}
	}
}

func TestHelpListsEveryFlag(t *testing.T) {
	code, stdout, _ := runGate(t, nil, "-help")
	if code != 0 {
		t.Errorf("-help exited %d", code)
	}
	for _, f := range []string{"-level", "-run", "-seed", "-require", "-json", "-corpus", "-fuzzdir", "-list"} {
		if !strings.Contains(stdout, f) {
			t.Errorf("-help does not describe %s:\n%s", f, stdout)
		}
	}
}

// TestExitCodes checks the exit-status table of docs/report.md (and the
// README's short one) row by row (most exit-2 conditions are
// TestUsageErrorsExit2's; -timeout and signals TestTimeout's and
// TestInterrupt's).
func TestExitCodes(t *testing.T) {
	neon := gate.Variant{Name: "neon", Suite: refVariant.Suite, Skip: "needs arm64"}
	nothing := gate.Variant{Name: "nothing", Suite: equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: "m", Func: func(*equiv.Run) error { return nil }}}}}
	fuzzdir := t.TempDir()
	for _, tc := range []struct {
		row      string
		variants []gate.Variant
		args     []string
		want     int
	}{
		{"every check that ran agreed", []gate.Variant{refVariant}, []string{"-run", "vectors"}, 0},
		{"an unavailable variant is skipped", []gate.Variant{refVariant, neon}, []string{"-run", "vectors|neon"}, 0},
		{"a disagreement", []gate.Variant{brokenVariant}, []string{"-run", "vectors"}, 1},
		{"a required variant that cannot run", []gate.Variant{refVariant, neon}, []string{"-run", "vectors|neon", "-require", "neon"}, 1},
		{"only an unavailable required variant selected", []gate.Variant{refVariant, neon}, []string{"-run", "neon", "-require", "neon"}, 1},
		{"an implementation the suite cannot check", []gate.Variant{{Name: "empty", Suite: checksumtest.NewSuite(checksumtest.Impl{})}}, nil, 1},
		{"a method that compared nothing", []gate.Variant{nothing}, nil, 1},
		{"a call that did not return", []gate.Variant{hungVariant}, []string{"-run", "exhaustive", "-calltimeout", "200ms"}, 1},
		{"-run matching no check", []gate.Variant{refVariant, neon}, []string{"-run", "^nothing$"}, 2},
		{"-run selecting only checks that cannot run here", []gate.Variant{refVariant, neon}, []string{"-run", "neon"}, 2},
	} {
		code, stdout, stderr := runGate(t, tc.variants, append(tc.args, "-fuzzdir", fuzzdir)...)
		if code != tc.want {
			t.Errorf("%s: exit %d, want %d\n%s%s", tc.row, code, tc.want, stdout, stderr)
		}
	}
}

// TestJSONWriteFailureKeepsTheVerdict: a report that cannot be written at
// the end turns a pass into 2, but a disagreement stays 1.
func TestJSONWriteFailureKeepsTheVerdict(t *testing.T) {
	for _, fails := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "gone")
		os.Mkdir(dir, 0o755)
		removes := equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: "m", Func: func(r *equiv.Run) error {
			os.RemoveAll(dir) // the report's directory disappears during the run
			r.Count(1)
			if fails {
				return r.Fail(&equiv.Counterexample{Func: "F"})
			}
			return nil
		}}}}
		code, _, stderr := runGate(t, []gate.Variant{{Name: "v", Suite: removes}}, "-json", filepath.Join(dir, "r.json"))
		if want := map[bool]int{false: 2, true: 1}[fails]; code != want || !strings.Contains(stderr, "-json") {
			t.Errorf("fails=%v: exit %d, want %d; stderr %q", fails, code, want, stderr)
		}
	}
}

// TestReplayHint: the replay line is one go test command, run in the
// package, when the counterexample lands in the testdata/fuzz of a package
// that go test would build with a fuzz target of its name; otherwise it
// says where to copy the file. Build tags, ignored file names, comments
// and methods do not count as declaring the target.
func TestReplayHint(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	target := "package p\n\nfunc FuzzChecksum(f *testing.F) { checksumtest.Fuzz(f, impl) }\n"
	for _, dir := range []string{"mypkg", "abs", ".", "sp ace"} {
		writeFile(t, filepath.Join(dir, "fuzz_test.go"), target)
	}
	writeFile(t, filepath.Join("other", "fuzz_test.go"), strings.Replace(target, "FuzzChecksum", "FuzzMySum", 1))
	writeFile(t, filepath.Join("tagged", "fuzz_test.go"), "//go:build integration\n\n"+target)
	writeFile(t, filepath.Join("ignored", "_fuzz_test.go"), target)
	writeFile(t, filepath.Join("comment", "fuzz_test.go"), "package p\n\n// func FuzzChecksum(f *testing.F) {}\n")
	writeFile(t, filepath.Join("method", "fuzz_test.go"), "package p\n\ntype T int\n\nfunc (T) FuzzChecksum(f *testing.F) {}\n")
	writeFile(t, filepath.Join("nonTest", "fuzz.go"), target)
	run := "go test -run FuzzChecksum/"
	for _, tc := range []struct{ fuzzdir, want string }{
		{filepath.Join("mypkg", "testdata", "fuzz"), "replay: cd mypkg && " + run},
		{filepath.Join(root, "abs", "testdata", "fuzz"), "replay: cd " + filepath.Join(root, "abs") + " && " + run},
		{filepath.Join("testdata", "fuzz"), "replay: " + run},
		{filepath.Join("sp ace", "testdata", "fuzz"), `replay: cd "sp ace" && ` + run},
		{filepath.Join("other", "testdata", "fuzz"), ""}, // its target has another name
		{filepath.Join("tagged", "testdata", "fuzz"), ""},
		{filepath.Join("ignored", "testdata", "fuzz"), ""},
		{filepath.Join("comment", "testdata", "fuzz"), ""},
		{filepath.Join("method", "testdata", "fuzz"), ""},
		{filepath.Join("nonTest", "testdata", "fuzz"), ""},
		{"elsewhere", ""},
	} {
		file, stdout := replayLine(t, tc.fuzzdir)
		want := tc.want + filepath.Base(file) + " (written to " + file + ", for that package's FuzzChecksum)"
		if tc.want == "" {
			want = "replay: written to " + file + "; copy it into testdata/fuzz/<name>/ of a package whose fuzz target <name> calls the pair's Fuzz helper, and run go test -run <name>/" + filepath.Base(file) + " there"
		}
		if !strings.Contains(stdout, "\n  "+want+"\n") {
			t.Errorf("-fuzzdir %s: want the line\n  %s\nin:\n%s", tc.fuzzdir, want, stdout)
		}
	}
}

// replayLine runs a gate whose Sum disagrees with -fuzzdir fuzzdir and
// returns the counterexample file it wrote and its output.
func replayLine(t *testing.T, fuzzdir string) (file, stdout string) {
	t.Helper()
	broken := []gate.Variant{brokenVariant}
	os.MkdirAll(fuzzdir, 0o755)
	code, stdout, _ := runGate(t, broken, "-run", "vectors", "-seed", "1", "-fuzzdir", fuzzdir)
	files, _ := filepath.Glob(filepath.Join(fuzzdir, "FuzzChecksum", "*"))
	if code != 1 || len(files) != 1 {
		t.Fatalf("-fuzzdir %s: exit %d, wrote %v\n%s", fuzzdir, code, files, stdout)
	}
	return files[0], stdout
}

// TestCounterexampleDoesNotFollowLinks: a symbolic link planted where the
// gate writes a counterexample is refused as a regression input when the
// corpus method replays them (exit 2, naming it); when it does not, the
// counterexample replaces the link, not its target.
func TestCounterexampleDoesNotFollowLinks(t *testing.T) {
	broken := []gate.Variant{brokenVariant}
	clean := t.TempDir()
	runGate(t, broken, "-run", "vectors", "-seed", "1", "-fuzzdir", clean)
	files, _ := filepath.Glob(filepath.Join(clean, "FuzzChecksum", "*"))
	if len(files) != 1 {
		t.Fatalf("wrote %v", files)
	}
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	writeFile(t, victim, "precious")
	os.MkdirAll(filepath.Join(dir, "FuzzChecksum"), 0o755)
	planted := filepath.Join(dir, "FuzzChecksum", filepath.Base(files[0]))
	if err := os.Symlink(victim, planted); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	code, _, stderr := runGate(t, broken, "-run", "vectors|corpus", "-seed", "1", "-fuzzdir", dir)
	if code != 2 || !strings.Contains(stderr, planted) {
		t.Errorf("exit %d, stderr %q: want 2 naming %s", code, stderr, planted)
	}
	code, _, _ = runGate(t, broken, "-run", "vectors", "-seed", "1", "-fuzzdir", dir)
	if data, _ := os.ReadFile(victim); string(data) != "precious" {
		t.Errorf("the link's target was overwritten: %q", data)
	}
	if st, err := os.Lstat(planted); code != 1 || err != nil || !st.Mode().IsRegular() {
		t.Errorf("-run vectors: exit %d, %s: %v %v; want 1 and the link replaced by the counterexample", code, planted, st, err)
	}
}

// TestNothingComparedIsNoPass: a run whose every selected check is
// skipped here (-run avx512 on a machine without AVX-512) compared
// nothing: exit 2 with one line saying so, the table and the JSON report
// written, the report saying 2. Under -shard a shard may compare nothing
// (the others do): exit 0, as TestEmptyShard checks.
func TestNothingComparedIsNoPass(t *testing.T) {
	neon := gate.Variant{Name: "neon", Suite: refVariant.Suite, Skip: "needs arm64"}
	js := filepath.Join(t.TempDir(), "r.json")
	code, stdout, stderr := runGate(t, []gate.Variant{refVariant, neon}, "-run", "neon", "-json", js)
	if code != 2 || !strings.Contains(stdout, "0 passed, 0 failed, 1 skipped") || !strings.Contains(stderr, "nothing was compared") {
		t.Errorf("exit %d, want 2 with the skipped row and one line saying nothing was compared:\n%s%s", code, stdout, stderr)
	}
	var rep struct {
		ExitCode int `json:"exit_code"`
	}
	data, _ := os.ReadFile(js)
	if err := json.Unmarshal(data, &rep); err != nil || rep.ExitCode != 2 {
		t.Errorf("JSON exit_code %d (%v), want 2", rep.ExitCode, err)
	}
}
