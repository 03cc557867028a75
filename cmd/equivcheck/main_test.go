package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv/gate"
	"github.com/equivcheck/equivcheck/internal/registry"
)

// baseline is testdata/seed1-quick.json: the report of
// "equivcheck -seed 1 -json" kept as the guard of refactors. Update it
// deliberately, in a commit that says which domain changed and why.
const baseline = "testdata/seed1-quick.json"

type reportRows struct {
	Rows []struct {
		Pair, Variant, Method, Status string
		Checked                       int64
	} `json:"results"`
}

func readRows(t *testing.T, path string) map[string]int64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep reportRows
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	rows := map[string]int64{}
	for _, r := range rep.Rows {
		key := r.Pair + "/" + r.Variant + "/" + r.Method
		if r.Status != "pass" {
			key += " (" + r.Status + ")"
		}
		rows[key] = r.Checked
	}
	return rows
}

// TestSeed1RowsUnchanged runs the gate as "go run ./cmd/equivcheck -seed 1
// -json" does from the repository root and compares every (pair, variant,
// method, checked) row with the baseline. A variant this build or machine
// cannot run (purego, GODEBUG=cpu.*=off, another CPU) is left out of the
// comparison.
//
// With EQUIV_SEED1_REPORT set it runs no gate: it compares the report that
// names (and the gate's output beside it, the same path + ".txt") of a
// gate run just so, with exit status 0 (.ci/run's release gate step, which
// would otherwise run the whole quick gate twice).
func TestSeed1RowsUnchanged(t *testing.T) {
	js, text := os.Getenv("EQUIV_SEED1_REPORT"), ""
	if js != "" {
		out, err := os.ReadFile(js + ".txt")
		if err != nil {
			t.Fatalf("EQUIV_SEED1_REPORT: %v", err)
		}
		text = string(out)
	} else {
		if testing.Short() {
			t.Skip("runs the whole quick gate")
		}
		js = filepath.Join(t.TempDir(), "report.json")
		var out, errOut bytes.Buffer
		code := gate.Run("equivcheck", []string{"-seed", "1", "-json", js, "-fuzzdir", "../../fuzz/testdata/fuzz"}, &out, &errOut, registry.Gate())
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
		}
		text = out.String()
	}
	checkTable(t, text)
	want, got := readRows(t, baseline), readRows(t, js)
	available := map[string]bool{} // variants built in and runnable here
	for _, v := range registry.Gate() {
		available[v.Suite.Pair+"/"+v.Name] = v.Skip == ""
	}
	for key, n := range want {
		if !available[variantOf(key)] {
			continue // not built in (purego) or not runnable on this CPU
		}
		if g, ok := got[key]; !ok || g != n {
			t.Errorf("%s: checked %d (present %v), baseline %d", key, g, ok, n)
		}
	}
	for key := range got {
		if _, ok := want[key]; !ok && available[variantOf(key)] {
			t.Errorf("%s: a row the baseline does not have", key)
		}
	}
}

// TestShardsAddUpOnTheRegistry: the 16 shards of "-seed 1 -run
// /dispatch/exhaustive$" count, between them, every dispatch exhaustive row
// of the baseline, each row on every shard, and pass or skip it, never fail
// it. 16 shards are more than the checksum's 15 units, so that its last
// shard holds none. One variant per pair: a shard's units are dealt by the
// suite and the seed, the same for every variant of a pair, and each
// variant's whole quick suite runs in the release gate.
func TestShardsAddUpOnTheRegistry(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the quick gate's exhaustive methods")
	}
	const n = 16
	sum, seen, skipped := map[string]int64{}, map[string]int{}, 0
	for k := 1; k <= n; k++ {
		js := filepath.Join(t.TempDir(), "report.json")
		var out, errOut bytes.Buffer
		args := []string{"-seed", "1", "-run", "/dispatch/exhaustive$", "-shard", fmt.Sprintf("%d/%d", k, n), "-json", js}
		if code := gate.Run("equivcheck", args, &out, &errOut, registry.Gate()); code != 0 {
			t.Fatalf("%v: exit %d\n%s\n%s", args, code, out.String(), errOut.String())
		}
		for key, c := range readRows(t, js) {
			key, status, _ := strings.Cut(key, " (")
			if status != "" && status != "skip)" {
				t.Errorf("shard %d/%d: %s %s", k, n, key, status)
			}
			skipped += map[bool]int{true: 1}[status != ""]
			sum[key] += c
			seen[key]++
		}
	}
	if skipped == 0 {
		t.Error("no shard skipped a method: the checksum's last shard should hold none of its 15 units")
	}
	available := map[string]bool{}
	for _, v := range registry.Gate() {
		available[v.Suite.Pair+"/"+v.Name] = v.Skip == ""
	}
	for key, c := range readRows(t, baseline) {
		if !strings.HasSuffix(key, "/dispatch/exhaustive") || !available[variantOf(key)] {
			continue
		}
		if sum[key] != c || seen[key] != n {
			t.Errorf("%s: the shards counted %d on %d shards, the baseline %d", key, sum[key], seen[key], c)
		}
	}
}

// variantOf returns the "pair/variant" of a row key "pair/variant/method".
func variantOf(key string) string {
	parts := strings.SplitN(key, "/", 3)
	if len(parts) < 2 {
		return key
	}
	return parts[0] + "/" + parts[1]
}

// TestGoToolKeepsExitStatus: "go tool equivcheck" (go.mod's tool directive)
// passes the gate's status through, where "go run" reports every non-zero
// status as 1. The README's CI advice rests on this.
func TestGoToolKeepsExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the gate with the go command")
	}
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	status := func(args ...string) int {
		cmd := exec.Command(gocmd, args...)
		cmd.Dir = "../.."
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("go %v: %v\n%s", args, err, out)
		}
		return ee.ExitCode()
	}
	if got := status("tool", "equivcheck", "-level", "extreme"); got != 2 {
		t.Errorf("go tool equivcheck with a bad flag exited %d, want 2", got)
	}
	if got := status("run", "./cmd/equivcheck", "-level", "extreme"); got != 1 {
		t.Errorf("go run ./cmd/equivcheck with a bad flag exited %d; the README says go run reports 1", got)
	}
}
