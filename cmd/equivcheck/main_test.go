package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/registry"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

func runGate(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestUsageErrorsExit2(t *testing.T) {
	corrupt := t.TempDir()
	os.MkdirAll(filepath.Join(corrupt, "checksum"), 0o755)
	os.WriteFile(filepath.Join(corrupt, "checksum", "bad"), []byte("go test fuzz v1\n[]byte(\"ok\")\nuint16(70000)\n[]byte(\"\")\n"), 0o644)
	wrongSig := t.TempDir()
	os.MkdirAll(filepath.Join(wrongSig, "checksum"), 0o755)
	os.WriteFile(filepath.Join(wrongSig, "checksum", "short"), []byte("go test fuzz v1\n[]byte(\"ok\")\n"), 0o644)
	notFuzz := t.TempDir()
	os.MkdirAll(filepath.Join(notFuzz, "checksum"), 0o755)
	os.WriteFile(filepath.Join(notFuzz, "checksum", "junk"), []byte("\x00\x01garbage"), 0o644)
	missingPair := t.TempDir()

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
		{[]string{"-corpus", corrupt}, "checksum/bad"},
		{[]string{"-corpus", wrongSig}, "checksum/short"},
		{[]string{"-corpus", notFuzz}, "checksum/junk"},
		{[]string{"-corpus", missingPair}, "checksum"},
		{[]string{"stray"}, "stray"},
	} {
		code, stdout, stderr := runGate(t, tc.args...)
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

func TestPassAndJSON(t *testing.T) {
	js := filepath.Join(t.TempDir(), "report.json")
	code, stdout, stderr := runGate(t, "-run", "^checksum/generic/(vectors|corpus)$", "-seed", "7", "-json", js)
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
	if rep.Seed != 7 || rep.Passed != 2 || len(rep.Rows) != 2 || rep.Rows[0].Checked == 0 {
		t.Errorf("report = %+v", rep)
	}
}

func TestRequireUnavailableFails(t *testing.T) {
	old := variantsFunc
	defer func() { variantsFunc = old }()
	variantsFunc = func() []registry.Variant {
		vs := old()
		return append(vs, registry.Variant{Pair: "checksum", Name: "neon", Available: false})
	}
	code, stdout, _ := runGate(t, "-run", "^checksum/(generic/vectors|neon)", "-require", "neon")
	if code != 1 || !strings.Contains(stdout, "required") {
		t.Errorf("exit %d, want 1 with the missing required variant named:\n%s", code, stdout)
	}
	code, stdout, _ = runGate(t, "-run", "^checksum/(generic/vectors|neon)")
	if code != 0 || !strings.Contains(stdout, "skip") {
		t.Errorf("without -require: exit %d, want 0 with neon skipped:\n%s", code, stdout)
	}
}

// TestDisagreementExits1 wires a broken implementation into the gate: it must
// exit 1, print the counterexample and write it as a fuzz input that the
// fuzz target's input checker rejects too.
func TestDisagreementExits1(t *testing.T) {
	old := variantsFunc
	defer func() { variantsFunc = old }()
	dropOdd := equiv.ChecksumImpl{Sum: func(b []byte, initial uint16) uint16 { return ref.Sum(b[:len(b)&^1], initial) }}
	variantsFunc = func() []registry.Variant {
		return []registry.Variant{{Pair: "checksum", Name: "broken", Available: true,
			Check: func(opts ...equiv.Option) error { return equiv.CheckChecksum(dropOdd, opts...) }}}
	}
	dir := t.TempDir()
	code, stdout, stderr := runGate(t, "-run", "exhaustive", "-fuzzdir", dir)
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
	err = equiv.CheckChecksumInput(dropOdd, vals[0].([]byte), vals[1].(uint16), vals[2].([]byte))
	if err == nil {
		t.Errorf("the written fuzz input %q does not reproduce the disagreement", data)
	}
	if err := equiv.CheckChecksumInput(registry.ChecksumDispatch(), vals[0].([]byte), vals[1].(uint16), vals[2].([]byte)); err != nil {
		t.Errorf("the written fuzz input fails the real implementation: %v", err)
	}
}
