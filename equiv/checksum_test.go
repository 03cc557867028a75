package equiv_test

import (
	"encoding/binary"
	"errors"
	"hash"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// refChecksum is the reference wired as an implementation under test.
var refChecksum = equiv.ChecksumImpl{
	Sum:      ref.Sum,
	Checksum: ref.Checksum,
	Update:   ref.Update,
	New:      func() equiv.ChecksumDigest { return ref.New() },
}

// TestChecksumReference runs the suite on the reference itself: the RFC
// vectors check the oracle, and every method must compare a nonzero number of
// inputs and agree.
func TestChecksumReference(t *testing.T) {
	equiv.TestChecksum(t, refChecksum)
}

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

func onesAdd(a, b uint16) uint16 {
	s := uint32(a) + uint32(b)
	return uint16(s&0xffff + s>>16)
}

func TestChecksumCatchesKnownBad(t *testing.T) {
	bad := []struct {
		name   string
		impl   equiv.ChecksumImpl
		method string // the method that must catch it
	}{
		{"fold-once", equiv.ChecksumImpl{Sum: foldOnce}, equiv.MethodExhaustive},
		{"drop-odd-byte", equiv.ChecksumImpl{Sum: dropOdd}, equiv.MethodVectors},
		{"odd-byte-low", equiv.ChecksumImpl{Sum: oddLow}, equiv.MethodExhaustive},
		{"32-bit-accumulator", equiv.ChecksumImpl{Sum: acc32}, equiv.MethodExhaustive},
		{"negative-zero", equiv.ChecksumImpl{Sum: modular}, equiv.MethodExhaustive},
		{"sign-extend", equiv.ChecksumImpl{Sum: signExtend}, equiv.MethodExhaustive},
		{"over-read", equiv.ChecksumImpl{Sum: overRead}, equiv.MethodGuard},
		{"rfc1141-update", equiv.ChecksumImpl{Sum: ref.Sum, Update: rfc1141}, equiv.MethodVectors},
		{"digest-no-swap", equiv.ChecksumImpl{Sum: ref.Sum, New: func() equiv.ChecksumDigest { return new(noSwapDigest) }}, equiv.MethodVectors},
		{"digest-no-swap-properties", equiv.ChecksumImpl{Sum: ref.Sum, New: func() equiv.ChecksumDigest { return new(noSwapDigest) }}, equiv.MethodProperties},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			if tc.method == equiv.MethodGuard && !equiv.GuardPages {
				t.Skip("guard pages are implemented on Linux only")
			}
			var res equiv.Result
			err := equiv.CheckChecksum(tc.impl,
				equiv.WithMethods(func(m string) bool { return m == tc.method }),
				equiv.WithReport(func(r equiv.Result) {
					if r.Method == tc.method {
						res = r
					}
				}))
			if !errors.Is(err, equiv.ErrMismatch) {
				t.Fatalf("%s: method %s returned %v, want a mismatch", tc.name, tc.method, err)
			}
			ces := equiv.Counterexamples(err)
			if len(ces) == 0 {
				t.Logf("%s caught without a single input (property law): %v", tc.name, err)
				return
			}
			ce := ces[0]
			t.Logf("%s caught after %d inputs: %v", tc.name, res.Checked, ce)
			if ce.Pair != "checksum" || ce.Method != tc.method || ce.Seed == 0 {
				t.Errorf("counterexample coordinates = %q/%q seed %d", ce.Pair, ce.Method, ce.Seed)
			}
			if ce.Got == ce.Want {
				t.Errorf("counterexample has got == want == %s", ce.Got)
			}
			// The minimized counterexample must still fail when replayed
			// through the fuzz target's input form.
			if ce.FuzzTarget == "FuzzChecksum" && len(ce.FuzzArgs) == 3 && tc.method != equiv.MethodGuard {
				err := equiv.CheckChecksumInput(tc.impl, ce.FuzzArgs[0].([]byte), ce.FuzzArgs[1].(uint16), ce.FuzzArgs[2].([]byte))
				if !errors.Is(err, equiv.ErrMismatch) {
					t.Errorf("replaying the counterexample's fuzz input: %v, want a mismatch", err)
				}
			}
		})
	}
}

// TestChecksumMinimizes checks that a counterexample is shrunk: the
// fold-once bug needs only enough bytes to carry twice.
func TestChecksumMinimizes(t *testing.T) {
	err := equiv.CheckChecksum(equiv.ChecksumImpl{Sum: foldOnce},
		equiv.WithMethods(func(m string) bool { return m == equiv.MethodExhaustive }))
	ces := equiv.Counterexamples(err)
	if len(ces) != 1 {
		t.Fatalf("got %d counterexamples, want 1: %v", len(ces), err)
	}
	if n := len(ces[0].Input); n > 8 {
		t.Errorf("counterexample has %d bytes, want a minimized one of at most 8: %v", n, ces[0])
	}
}
