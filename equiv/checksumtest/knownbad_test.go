package checksumtest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/internal/battery"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// Known-bad implementations: internal/battery holds them (each modelled on
// a shipped bug, each with a bug-free twin); these tests pin which method
// catches each, with what counterexample.

// knownBad returns the battery's bad implementation named name and its
// twin.
func knownBad(t *testing.T, name string) (bad, twin checksumtest.Impl) {
	t.Helper()
	bad, twin, ok := battery.ChecksumImpls(name)
	if !ok {
		t.Fatalf("the battery has no checksum bug %q", name)
	}
	return bad, twin
}

func TestCatchesKnownBad(t *testing.T) {
	bad := []struct {
		name   string
		method string // the method that must catch it
	}{
		{"fold-once", equiv.MethodExhaustive},
		{"drop-odd-byte", equiv.MethodVectors},
		{"odd-byte-low", equiv.MethodVectors},
		{"32-bit-accumulator", equiv.MethodExhaustive},
		{"negative-zero", equiv.MethodExhaustive},
		{"sign-extend", equiv.MethodExhaustive},
		{"over-read", equiv.MethodGuard},
		{"under-read", equiv.MethodGuard},
		{"initial-ffff-wide-path", equiv.MethodExhaustive},
		{"lane-overflow", equiv.MethodExhaustive},
		{"16-bit-length", equiv.MethodExhaustive},
		{"64-bit-carry-dropped", equiv.MethodExhaustive},
		{"uint8-block-counter", equiv.MethodExhaustive},
		{"rfc1141-update", equiv.MethodVectors},
		{"digest-no-swap", equiv.MethodVectors},
		{"digest-no-swap", equiv.MethodProperties},
		{"digest-odd-after-8-writes", equiv.MethodExhaustive},
		{"digest-empty-write", equiv.MethodExhaustive},
	}
	for _, tc := range bad {
		t.Run(tc.name+"/"+tc.method, func(t *testing.T) {
			if tc.method == equiv.MethodGuard && equiv.GuardSkip() != "" {
				t.Skip(equiv.GuardSkip())
			}
			impl, twin := knownBad(t, tc.name)
			res, err := results(impl, only(tc.method))
			ces := equiv.Counterexamples(err)
			if !errors.Is(err, equiv.ErrMismatch) || len(ces) != 1 {
				t.Fatalf("method %s returned %v, want one counterexample", tc.method, err)
			}
			t.Logf("caught after %d inputs: %v", res[tc.method].Checked, ces[0])
			checkCaught(t, impl, tc.method, ces[0])
			// The twin's whole method is the cost: -short leaves it to the
			// full run (and to the battery's twins in .ci/run).
			if testing.Short() {
				return
			}
			if err := checksumtest.Check(twin, only(tc.method)); err != nil {
				t.Errorf("the bug-free twin fails: %v", err)
			}
		})
	}
}

// checkCaught checks the coordinates of the counterexample ce that method
// found for impl, and that its fuzz form, replayed, fails too (except a
// guard-page fault, which needs the guard page).
func checkCaught(t *testing.T, impl checksumtest.Impl, method string, ce *equiv.Counterexample) {
	t.Helper()
	if ce.Pair != "checksum" || ce.Method != method || ce.Seed == 0 {
		t.Errorf("counterexample coordinates = %q/%q seed %d", ce.Pair, ce.Method, ce.Seed)
	}
	if ce.Got == ce.Want {
		t.Errorf("counterexample has got == want == %s", ce.Got)
	}
	if method == equiv.MethodGuard {
		return
	}
	if ce.FuzzTarget != "FuzzChecksum" || len(ce.FuzzArgs) != 3 {
		t.Fatalf("counterexample has no fuzz form: %q %v", ce.FuzzTarget, ce.FuzzArgs)
	}
	err := checksumtest.CheckInput(impl, ce.FuzzArgs[0].([]byte), ce.FuzzArgs[1].(uint16), ce.FuzzArgs[2].([]byte))
	if !errors.Is(err, equiv.ErrMismatch) {
		t.Errorf("replaying the counterexample's fuzz input: %v, want a mismatch", err)
	}
}

// TestMinimizes checks that counterexamples are shrunk: the fold-once bug
// needs only enough bytes to carry twice (in every method: from guard and
// properties it came back as hundreds of bytes before classCandidates), the
// 32-bit accumulator only enough 0xFF bytes to overflow (from 4 MiB), an
// over-read one byte. It asserts the shrinking, at the first of seeds 1 to
// 8 at which the method finds the bug: the guard method fills its inputs at
// random, and fold-once shows only on a sum that carries twice, which that
// fill met at about 11 seeds in 12 (seed 1 is a miss). TestBattery asserts
// the catch, by every method together, at any seed.
func TestMinimizes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		method string
		max    int
	}{
		{"fold-once", equiv.MethodExhaustive, 8},
		{"fold-once", equiv.MethodGuard, 8},
		{"fold-once", equiv.MethodProperties, 8},
		{"32-bit-accumulator", equiv.MethodExhaustive, 1<<17 + 64},
		{"lane-overflow", equiv.MethodExhaustive, 65538*16 + 64},
		{"over-read", equiv.MethodGuard, 1},
		{"digest-no-swap", equiv.MethodProperties, 2},
	} {
		t.Run(tc.name+"/"+tc.method, func(t *testing.T) {
			if tc.method == equiv.MethodGuard && equiv.GuardSkip() != "" {
				t.Skip(equiv.GuardSkip())
			}
			impl, _ := knownBad(t, tc.name)
			var ces []*equiv.Counterexample
			for seed := uint64(1); seed <= 8 && len(ces) == 0; seed++ {
				ces = equiv.Counterexamples(checksumtest.Check(impl, only(tc.method), equiv.WithSeed(seed)))
			}
			if len(ces) != 1 {
				t.Fatalf("got %d counterexamples at the first seed of 1..8 with any, want 1", len(ces))
			}
			if n := len(ces[0].Input); n > tc.max {
				t.Errorf("counterexample has %d bytes, want a minimized one of at most %d: %v", n, tc.max, ces[0])
			}
		})
	}
}

// emptyWrong disagrees with the reference on the empty input only.
func emptyWrong(b []byte, initial uint16) uint16 {
	if len(b) == 0 {
		return initial ^ 1
	}
	return ref.Sum(b, initial)
}

// emptyPanics panics on the empty input only.
func emptyPanics(b []byte, initial uint16) uint16 {
	if len(b) == 0 {
		panic("empty input")
	}
	return ref.Sum(b, initial)
}

// TestGuardEmptyInput: a disagreement on the empty input at a guard page
// is a counterexample (the flat package took &b[0] to say which edge it
// was at, and so reported a panic of its own instead).
func TestGuardEmptyInput(t *testing.T) {
	if equiv.GuardSkip() != "" {
		t.Skip(equiv.GuardSkip())
	}
	err := checksumtest.Check(checksumtest.Impl{Sum: emptyWrong}, only(equiv.MethodGuard))
	var ce *equiv.Counterexample
	if !errors.As(err, &ce) {
		t.Fatalf("guard method = %v, want a counterexample", err)
	}
	if len(ce.Input) != 0 || ce.Func != "Sum" || !strings.Contains(ce.Args, "guard page") {
		t.Errorf("counterexample = %v, want Sum of the empty input at a guard page", ce)
	}
}

// TestPanicIsCounterexample: an implementation's panic is a
// counterexample carrying its stack, in every method.
func TestPanicIsCounterexample(t *testing.T) {
	for _, m := range []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodGuard, equiv.MethodProperties, equiv.MethodCorpus} {
		if m == equiv.MethodGuard && equiv.GuardSkip() != "" {
			continue
		}
		err := checksumtest.Check(checksumtest.Impl{Sum: emptyPanics}, only(m))
		var ce *equiv.Counterexample
		if !errors.As(err, &ce) {
			t.Errorf("%s: %v, want a counterexample", m, err)
			continue
		}
		if ce.Got != "panic(empty input)" || !strings.Contains(ce.Stack, "emptyPanics") {
			t.Errorf("%s: Got %q, stack %q, want the panic and its stack", m, ce.Got, ce.Stack)
		}
	}
}
