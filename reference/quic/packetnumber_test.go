package quic

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDecodePacketNumberVectors(t *testing.T) {
	for _, v := range []struct {
		largest, truncated uint64
		pnLen              int
		want               uint64
	}{
		{0xa82f30ea, 0x9b32, 2, 0xa82f9b32}, // RFC 9000 §17.1, §A.3
		{10, 0xff, 1, 255},                  // expected_pn < pn_hwin: a literal uint64 port says 511
		{0x1ef, 0x05, 1, 0x205},             // candidate + pn_win
		{0x100, 0xf0, 1, 0xf0},              // candidate - pn_win
		{1<<62 - 129, 0x00, 1, 1<<62 - 256}, // candidate == 2^62 - pn_win: "<" is strict
		{math.MaxUint64, 0x12345678, 4, 0x12345678},
		{math.MaxUint64, 0xff, 1, 0xff},
		{0, 0x1ff, 1, 0xff}, // only the low 8*pnLen bits of truncated count
		// The window edges of the wide windows, worked by hand from
		// Appendix A.3: candidate = expected - pn_hwin goes up a window,
		// candidate = expected + pn_hwin stays, and the 2^62 guard is
		// strict for every pnLen.
		{0x7fffff, 0, 3, 0x1000000},                   // expected 0x800000, candidate 0 = expected - pn_hwin
		{0x7ffffe, 0, 3, 0},                           // candidate 0 = expected - pn_hwin + 1
		{0xffffffff, 0x80000000, 4, 0x180000000},      // expected 2^32, candidate = expected + pn_hwin
		{0xfffffffe, 0x80000000, 4, 0x80000000},       // expected 2^32-1, candidate 2^31: inside
		{0x100000000, 0x80000000, 4, 0x180000000},     // expected 2^32+1, candidate = expected + pn_hwin - 1
		{1<<62 - 1<<31 - 1, 0, 4, 1<<62 - 1<<32},      // candidate = 2^62 - pn_win: not moved up
		{1<<62 - 1<<23 - 1, 0, 3, 1<<62 - 1<<24},      // the same for 3 bytes
		{1<<62 - 1<<31 - 1, 0xffffffff, 4, 1<<62 - 1}, // the last packet number
		{0, 0x80000000, 4, 0x80000000},                // largest 0: candidate = expected + pn_hwin - 1
		{0, 0x80000001, 4, 0x80000001},                // candidate = expected + pn_hwin: stays (below pn_win)
		{1<<62 - 1, 0xff, 1, 1<<62 - 1},               // largest 2^62-1 is valid: the last packet number again
	} {
		if got := DecodePacketNumber(v.largest, v.truncated, v.pnLen); got != v.want {
			t.Errorf("DecodePacketNumber(%#x, %#x, %d) = %#x, want %#x", v.largest, v.truncated, v.pnLen, got, v.want)
		}
	}
}

// decodeSigned is RFC 9000 Appendix A.3 in int64 arithmetic, where
// expected_pn - pn_hwin may go negative as the pseudocode means it to.
// Valid for largest < 2^62 - 1 (or -1 for an empty space).
func decodeSigned(largest int64, truncated uint64, pnLen int) int64 {
	expected := largest + 1
	win := int64(1) << (8 * pnLen)
	hwin := win / 2
	mask := win - 1
	candidate := expected&^mask | int64(truncated)&mask
	if candidate <= expected-hwin && candidate < 1<<62-win {
		return candidate + win
	}
	if candidate > expected+hwin && candidate >= win {
		return candidate - win
	}
	return candidate
}

func TestDecodePacketNumberSigned(t *testing.T) {
	check := func(largest int64, truncated uint64, pnLen int) {
		t.Helper()
		want := uint64(decodeSigned(largest, truncated, pnLen))
		if got := DecodePacketNumber(uint64(largest), truncated, pnLen); got != want {
			t.Fatalf("DecodePacketNumber(%#x, %#x, %d) = %#x, want %#x", uint64(largest), truncated, pnLen, got, want)
		}
	}
	// Near zero, where the uint64 trap is, exhaustively for 1 byte.
	for largest := int64(-1); largest < 1024; largest++ {
		for tr := range uint64(256) {
			check(largest, tr, 1)
		}
	}
	// Near 2^62, where the limit is.
	for largest := int64(1<<62 - 1024); largest < 1<<62-1; largest++ {
		for tr := range uint64(256) {
			check(largest, tr, 1)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		pnLen := 1 + r.IntN(4)
		largest := r.Int64N(1<<62-1) >> r.UintN(62)
		check(largest, r.Uint64N(1<<(8*pnLen)), pnLen)
	}
}

func TestDecodePacketNumberPanics(t *testing.T) {
	for _, v := range []struct {
		largest uint64
		pnLen   int
	}{
		{0, 0}, {0, 5}, {0, -1}, {1 << 62, 1}, {math.MaxUint64 - 1, 4},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("DecodePacketNumber(%#x, 0, %d) did not panic", v.largest, v.pnLen)
				}
			}()
			DecodePacketNumber(v.largest, 0, v.pnLen)
		}()
	}
}
