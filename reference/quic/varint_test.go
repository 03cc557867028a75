package quic

import (
	"bytes"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"testing"
)

// varintVectors are the examples of RFC 9000 Appendix A.1.
var varintVectors = []struct {
	hex   string
	value uint64
	n     int
}{
	{"c2197c5eff14e88c", 151288809941952652, 8}, // RFC 9000 §A.1
	{"9d7f3e7d", 494878333, 4},                  // RFC 9000 §A.1
	{"7bbd", 15293, 2},                          // RFC 9000 §A.1
	{"25", 37, 1},                               // RFC 9000 §A.1
	{"4025", 37, 2},                             // RFC 9000 §A.1: "not minimal"
}

func TestParseVarintVectors(t *testing.T) {
	for _, v := range varintVectors {
		b, _ := hex.DecodeString(v.hex)
		// Exact, then with trailing junk, which must be ignored.
		for _, in := range [][]byte{b, append(bytes.Clone(b), 0xff, 0x00, 0xc0)} {
			got, n, err := ParseVarint(in)
			if got != v.value || n != v.n || err != nil {
				t.Errorf("ParseVarint(%x) = %d, %d, %v; want %d, %d, nil", in, got, n, err, v.value, v.n)
			}
		}
		// Every truncation.
		for i := range len(b) {
			got, n, err := ParseVarint(b[:i])
			if got != 0 || n != 0 || err != ErrTruncated {
				t.Errorf("ParseVarint(%x) = %d, %d, %v; want 0, 0, ErrTruncated", b[:i], got, n, err)
			}
		}
	}
}

func TestAppendVarintVectors(t *testing.T) {
	for _, v := range varintVectors {
		if v.hex == "4025" {
			continue // not the shortest encoding
		}
		if got := hex.EncodeToString(AppendVarint([]byte{0xaa}, v.value)); got != "aa"+v.hex {
			t.Errorf("AppendVarint(aa, %d) = %s, want aa%s", v.value, got, v.hex)
		}
	}
}

// varintBoundaries are the values at which the encoding length changes.
var varintBoundaries = []uint64{0, 1, 63, 64, 16383, 16384, 1<<30 - 1, 1 << 30, 1<<62 - 1}

// TestVarintLenRanges pins VarintLen to the ranges of RFC 9000 §16,
// Table 4 (1 byte up to 63, 2 up to 16383, 4 up to 1073741823, 8 up to
// 4611686018427387903) at both ends of each, and the panic past the last:
// a round trip alone cannot tell a boundary moved by one, since
// AppendVarint encodes with whatever length VarintLen says.
func TestVarintLenRanges(t *testing.T) {
	for _, tc := range []struct {
		v uint64
		n int
	}{
		{0, 1}, {63, 1}, {64, 2}, {16383, 2}, {16384, 4},
		{1073741823, 4}, {1073741824, 8}, {4611686018427387903, 8},
	} {
		if got := VarintLen(tc.v); got != tc.n {
			t.Errorf("VarintLen(%d) = %d, want %d", tc.v, got, tc.n)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("VarintLen(2^62) did not panic")
		}
	}()
	VarintLen(1 << 62)
}

func TestVarintRoundTrip(t *testing.T) {
	check := func(v uint64) {
		t.Helper()
		b := AppendVarint(nil, v)
		if len(b) != VarintLen(v) {
			t.Fatalf("len(AppendVarint(%d)) = %d, VarintLen = %d", v, len(b), VarintLen(v))
		}
		got, n, err := ParseVarint(b)
		if got != v || n != len(b) || err != nil {
			t.Fatalf("ParseVarint(AppendVarint(%d) = %x) = %d, %d, %v", v, b, got, n, err)
		}
	}
	for _, v := range varintBoundaries {
		check(v)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		check(r.Uint64N(1<<62) >> r.UintN(62))
	}
}

// TestParseVarintAll2Bytes decodes every 1- and 2-byte input.
func TestParseVarintAll2Bytes(t *testing.T) {
	for x := range 1 << 16 {
		b := []byte{byte(x >> 8), byte(x)}
		got, n, err := ParseVarint(b)
		switch b[0] >> 6 {
		case 0:
			if got != uint64(b[0]) || n != 1 || err != nil {
				t.Fatalf("ParseVarint(%x) = %d, %d, %v", b, got, n, err)
			}
		case 1:
			if got != uint64(x&0x3fff) || n != 2 || err != nil {
				t.Fatalf("ParseVarint(%x) = %d, %d, %v", b, got, n, err)
			}
		default:
			if got != 0 || n != 0 || err != ErrTruncated {
				t.Fatalf("ParseVarint(%x) = %d, %d, %v; want ErrTruncated", b, got, n, err)
			}
		}
	}
}

func TestAppendVarintPanics(t *testing.T) {
	for _, v := range []uint64{1 << 62, math.MaxUint64} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("AppendVarint(%d) did not panic", v)
				}
			}()
			AppendVarint(nil, v)
		}()
	}
}

func TestVarintAllocs(t *testing.T) {
	b := []byte{0x9d, 0x7f, 0x3e, 0x7d}
	if n := testing.AllocsPerRun(100, func() { ParseVarint(b) }); n != 0 {
		t.Errorf("ParseVarint allocates %v times", n)
	}
}
