package equiv

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/equivcheck/equivcheck/internal/atomicfile"
)

// writeCounterexamples writes the counterexamples one Test found as "go
// test fuzz v1" files under EQUIV_FAILDIR (testdata/equiv by default), once
// per distinct failure: of those of one fuzz target and function (every
// method that reaches a bug finds it again), only the shortest; and none
// when a file already there for that target still fails that function,
// so that rerunning a failing test, whose random seed minimizes to
// another input, leaves the directory as it was.
func writeCounterexamples(t *testing.T, s Suite, opts []Option, found []*Counterexample) {
	t.Helper()
	dir := os.Getenv(EnvFailDir)
	switch {
	case dir == "off" || len(found) == 0:
		return
	case dir == "":
		dir = filepath.Join("testdata", "equiv")
	}
	cfg := NewConfig(opts...)
	for _, ce := range shortestPerFunc(found) {
		name, data, _ := ce.FuzzFile()
		if old := stillFailing(s, cfg, dir, ce); old != "" {
			t.Logf("counterexample of %s not written: %s, already there, still fails it", ce.Func, old)
			continue
		}
		path := filepath.Join(dir, ce.FuzzTarget, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Logf("not writing the counterexample: %v", err)
			continue
		}
		if err := atomicfile.Write(dir, path, data, 0o644); err != nil {
			t.Logf("not writing the counterexample: %v", err)
			continue
		}
		t.Logf("counterexample written to %s: copy it into testdata/fuzz/<your fuzz target>/ (a target that calls the pair's Fuzz helper) to replay it with every go test", path)
	}
}

// shortestPerFunc keeps, of the counterexamples that have a fuzz-target
// form, the shortest per (fuzz target, function): the shortest input, then
// the shortest file. They are in the order of their first appearance.
func shortestPerFunc(found []*Counterexample) []*Counterexample {
	type key struct{ target, fn string }
	var order []key
	best := map[key]*Counterexample{}
	size := func(ce *Counterexample) [2]int { _, data, _ := ce.FuzzFile(); return [2]int{len(ce.Input), len(data)} }
	for _, ce := range found {
		if _, _, ok := ce.FuzzFile(); !ok {
			continue
		}
		k := key{ce.FuzzTarget, ce.Func}
		if b, ok := best[k]; !ok {
			order = append(order, k)
			best[k] = ce
		} else if s, sb := size(ce), size(b); s[0] < sb[0] || s[0] == sb[0] && s[1] < sb[1] {
			best[k] = ce
		}
	}
	out := make([]*Counterexample, 0, len(order))
	for _, k := range order {
		out = append(out, best[k])
	}
	return out
}

// stillFailing replays the files of dir/<ce's fuzz target> and returns the
// path of the first (by name) that still fails ce's function, or "". A
// replay that does not return within the call timeout fails a hung ce's.
func stillFailing(s Suite, cfg *Config, dir string, ce *Counterexample) string {
	i := slices.IndexFunc(s.Targets, func(t FuzzTarget) bool { return t.Name == ce.FuzzTarget })
	if i < 0 {
		return ""
	}
	entries, err := LoadCorpus(s.Targets[i], nil, os.DirFS(dir))
	if err != nil {
		return ""
	}
	slices.SortFunc(entries, func(a, b CorpusEntry) int { return cmp.Compare(a.File, b.File) })
	for _, e := range entries {
		got, hung := replay(s.Targets[i], cfg, e.Values)
		if hung && ce.Hung || got != nil && got.Func == ce.Func {
			return filepath.Join(dir, filepath.FromSlash(e.File))
		}
	}
	return ""
}

// replay checks one input of target, abandoning it (hung) if it does not
// return within the call timeout.
func replay(target FuzzTarget, cfg *Config, values []any) (ce *Counterexample, hung bool) {
	done := make(chan *Counterexample, 1)
	go func() {
		var got *Counterexample
		Catch(func() { got, _ = target.Check(cfg, values) })
		done <- got
	}()
	var timeout <-chan time.Time
	if d := cfg.callTimeout; d > 0 {
		timeout = time.After(d)
	}
	select {
	case got := <-done:
		return got, false
	case <-timeout:
		return nil, true
	}
}
