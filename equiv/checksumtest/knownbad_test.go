package checksumtest_test

import (
	"encoding/binary"
	"errors"
	"hash"
	"strings"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// Known-bad implementations: each carries one bug seen in real checksum
// code, and the suite must catch each one.

// foldOnce folds the carries of a 32-bit accumulator only once.
func foldOnce(b []byte, initial uint16) uint16 {
	sum := uint32(initial)
	for ; len(b) > 1; b = b[2:] {
		sum += uint32(binary.BigEndian.Uint16(b))
	}
	if len(b) == 1 {
		sum += uint32(b[0]) << 8
	}
	sum = sum&0xffff + sum>>16
	return uint16(sum)
}

// dropOdd ignores a trailing odd byte.
func dropOdd(b []byte, initial uint16) uint16 {
	return ref.Sum(b[:len(b)&^1], initial)
}

// oddLow pads the odd byte on the wrong side (as the low byte).
func oddLow(b []byte, initial uint16) uint16 {
	if len(b)%2 == 1 {
		return ref.Sum(append(b[:len(b)-1:len(b)-1], 0, b[len(b)-1]), initial)
	}
	return ref.Sum(b, initial)
}

// acc32 accumulates in 32 bits without folding in the loop: it overflows
// after about 128 KiB of 0xFF bytes.
func acc32(b []byte, initial uint16) uint16 {
	sum := uint32(initial)
	for ; len(b) > 1; b = b[2:] {
		sum += uint32(binary.BigEndian.Uint16(b))
	}
	if len(b) == 1 {
		sum += uint32(b[0]) << 8
	}
	for sum>>16 != 0 {
		sum = sum&0xffff + sum>>16
	}
	return uint16(sum)
}

// modular reduces mod 0xFFFF, turning negative zero 0xFFFF into 0x0000.
func modular(b []byte, initial uint16) uint16 {
	return uint16(uint32(ref.Sum(b, initial)) % 0xffff)
}

// signExtend sign-extends bytes ≥ 0x80 in the odd-byte path.
func signExtend(b []byte, initial uint16) uint16 {
	sum := uint32(ref.Sum(b[:len(b)&^1], initial))
	if len(b)%2 == 1 {
		sum += uint32(int32(int8(b[len(b)-1])) << 8)
	}
	for sum>>16 != 0 {
		sum = sum&0xffff + sum>>16
	}
	return uint16(sum)
}

// overRead reads (and ignores) the byte after b, as a SIMD loop that loads
// a whole vector past a short tail would: only the guard page catches it.
func overRead(b []byte, initial uint16) uint16 {
	if len(b) > 0 {
		sink = *(*byte)(unsafe.Add(unsafe.Pointer(&b[0]), len(b)))
	}
	return ref.Sum(b, initial)
}

var sink byte

// rfc1141 is RFC 1141's incremental update, HC' = HC + m + ~m', which gives
// 0xFFFF where the checksum is 0x0000 (RFC 1624 §4).
func rfc1141(hc, old, new uint16) uint16 {
	return onesAdd(onesAdd(hc, old), ^new)
}

// noSwapDigest forgets RFC 1071 §3's byte swap after an odd-length write.
type noSwapDigest struct{ sum uint16 }

func (d *noSwapDigest) Write(p []byte) (int, error) {
	d.sum = onesAdd(d.sum, ref.Sum(p, 0))
	return len(p), nil
}
func (d *noSwapDigest) Sum(in []byte) []byte { return binary.BigEndian.AppendUint16(in, ^d.sum) }
func (d *noSwapDigest) Sum16() uint16        { return d.sum }
func (d *noSwapDigest) Reset()               { d.sum = 0 }
func (d *noSwapDigest) Size() int            { return 2 }
func (d *noSwapDigest) BlockSize() int       { return 2 }

var _ hash.Hash = (*noSwapDigest)(nil)

func noSwap() checksumtest.Digest { return new(noSwapDigest) }

func onesAdd(a, b uint16) uint16 {
	s := uint32(a) + uint32(b)
	return uint16(s&0xffff + s>>16)
}

func TestCatchesKnownBad(t *testing.T) {
	bad := []struct {
		name   string
		impl   checksumtest.Impl
		method string // the method that must catch it
	}{
		{"fold-once", checksumtest.Impl{Sum: foldOnce}, equiv.MethodExhaustive},
		{"drop-odd-byte", checksumtest.Impl{Sum: dropOdd}, equiv.MethodVectors},
		{"odd-byte-low", checksumtest.Impl{Sum: oddLow}, equiv.MethodExhaustive},
		{"32-bit-accumulator", checksumtest.Impl{Sum: acc32}, equiv.MethodExhaustive},
		{"negative-zero", checksumtest.Impl{Sum: modular}, equiv.MethodExhaustive},
		{"sign-extend", checksumtest.Impl{Sum: signExtend}, equiv.MethodExhaustive},
		{"over-read", checksumtest.Impl{Sum: overRead}, equiv.MethodGuard},
		{"rfc1141-update", checksumtest.Impl{Sum: ref.Sum, Update: rfc1141}, equiv.MethodVectors},
		{"digest-no-swap", checksumtest.Impl{Sum: ref.Sum, New: noSwap}, equiv.MethodVectors},
		{"digest-no-swap-properties", checksumtest.Impl{Sum: ref.Sum, New: noSwap}, equiv.MethodProperties},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			if tc.method == equiv.MethodGuard && equiv.GuardSkip() != "" {
				t.Skip(equiv.GuardSkip())
			}
			res, err := results(tc.impl, only(tc.method))
			ces := equiv.Counterexamples(err)
			if !errors.Is(err, equiv.ErrMismatch) || len(ces) != 1 {
				t.Fatalf("method %s returned %v, want one counterexample", tc.method, err)
			}
			t.Logf("caught after %d inputs: %v", res[tc.method].Checked, ces[0])
			checkCaught(t, tc.impl, tc.method, ces[0])
			// Its bug-free twin, the reference in the same places, passes.
			if err := checksumtest.Check(twin(tc.impl), only(tc.method)); err != nil {
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

// twin is impl with every function it provides replaced by the
// reference's.
func twin(impl checksumtest.Impl) checksumtest.Impl {
	t := checksumtest.Impl{Sum: ref.Sum}
	if impl.Checksum != nil {
		t.Checksum = ref.Checksum
	}
	if impl.Update != nil {
		t.Update = ref.Update
	}
	if impl.New != nil {
		t.New = refImpl.New
	}
	return twinHelpers(impl, t)
}

// TestMinimizes checks that counterexamples are shrunk: the fold-once bug
// needs only enough bytes to carry twice, the 32-bit accumulator only
// enough 0xFF bytes to overflow (from 4 MiB), an over-read one byte.
func TestMinimizes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		impl   checksumtest.Impl
		method string
		max    int
	}{
		{"fold-once", checksumtest.Impl{Sum: foldOnce}, equiv.MethodExhaustive, 8},
		{"32-bit-accumulator", checksumtest.Impl{Sum: acc32}, equiv.MethodExhaustive, 1<<17 + 64},
		{"over-read", checksumtest.Impl{Sum: overRead}, equiv.MethodGuard, 1},
		{"digest-no-swap", checksumtest.Impl{Sum: ref.Sum, New: noSwap}, equiv.MethodProperties, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.method == equiv.MethodGuard && equiv.GuardSkip() != "" {
				t.Skip(equiv.GuardSkip())
			}
			ces := equiv.Counterexamples(checksumtest.Check(tc.impl, only(tc.method)))
			if len(ces) != 1 {
				t.Fatalf("got %d counterexamples, want 1", len(ces))
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
