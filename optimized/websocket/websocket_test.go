package websocket

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/equivcheck/equivcheck/reference/websocket"
)

// positions are the pos arguments every length and alignment is tried with:
// each phase, and values whose sum with the length wraps.
var positions = []int{0, 1, 2, 3, 4, -1, -3, math.MaxInt, math.MinInt}

const (
	maxLen   = 600 // past 2*256 (the widest stride, AVX-512's 4x64) + 64
	maxAlign = 64
	guard    = 64 // guard octets on each side of the slice under test
)

// available returns the Impls this machine can run and skips the others.
func available(t *testing.T) []Impl {
	var ims []Impl
	for _, im := range Impls() {
		if !im.Available {
			t.Run(im.Name, func(t *testing.T) { t.Skipf("%s: not available on this CPU or build", im.Name) })
			continue
		}
		ims = append(ims, im)
	}
	return ims
}

// withDispatch adds the exported functions, which pick a variant
// themselves, to the available Impls.
func withDispatch(t *testing.T) []Impl {
	return append(available(t), Impl{Name: "dispatch", Available: true, Mask: Mask, MaskCopy: MaskCopy})
}

// pattern fills b with octets that differ from their neighbors and from the
// guard values.
func pattern(b []byte, seed int) {
	for i := range b {
		b[i] = byte(i*7 + seed*13 + 1)
	}
}

// guarded is a buffer of guard octets g with room for a slice of up to
// maxLen octets at any of maxAlign alignments, guard octets away from each
// end.
type guarded struct {
	buf, clean []byte
}

func newGuarded(g byte) *guarded {
	clean := bytes.Repeat([]byte{g}, guard+maxAlign+maxLen+guard)
	return &guarded{buf: bytes.Clone(clean), clean: clean}
}

// slice resets the buffer to guard octets and returns its n octets at
// alignment align, with capacity n.
func (g *guarded) slice(n, align int) []byte {
	copy(g.buf, g.clean)
	lo := guard + align
	return g.buf[lo : lo+n : lo+n]
}

// check reports an octet outside the slice that is no longer a guard octet.
func (g *guarded) check(n, align int) error {
	lo, hi := guard+align, guard+align+n
	if !bytes.Equal(g.buf[:lo], g.clean[:lo]) || !bytes.Equal(g.buf[hi:], g.clean[hi:]) {
		for i, c := range g.buf {
			if (i < lo || i >= hi) && c != g.clean[i] {
				return fmt.Errorf("octet %d outside the slice changed to %#x", i-lo, c)
			}
		}
	}
	return nil
}

// TestMaskDifferential compares every variant's Mask with the reference
// over lengths 0..maxLen × alignments 0..maxAlign-1 × positions, with guard
// octets around the slice.
func TestMaskDifferential(t *testing.T) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	plain := make([]byte, maxLen)
	pattern(plain, 0)
	want := make([]byte, maxLen)
	for _, im := range withDispatch(t) {
		t.Run(im.Name, func(t *testing.T) {
			g := newGuarded(0xa5)
			for n := 0; n <= maxLen; n++ {
				for _, pos := range positions {
					copy(want, plain[:n])
					wantNext := websocket.Mask(want[:n], key, pos)
					for align := range maxAlign {
						b := g.slice(n, align)
						copy(b, plain)
						next := im.Mask(b, key, pos)
						if next != wantNext || !bytes.Equal(b, want[:n]) {
							t.Fatalf("Mask(len=%d align=%d pos=%d) = % x, next %d;\nwant % x, next %d", n, align, pos, b, next, want[:n], wantNext)
						}
						if err := g.check(n, align); err != nil {
							t.Fatalf("Mask(len=%d align=%d pos=%d): %v", n, align, pos, err)
						}
					}
				}
			}
		})
	}
}

// TestMaskCopyDifferential does the same for MaskCopy, with dst at another
// alignment than src and longer than it, and in place.
func TestMaskCopyDifferential(t *testing.T) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	plain := make([]byte, maxLen)
	pattern(plain, 0)
	want := make([]byte, maxLen)
	for _, im := range withDispatch(t) {
		t.Run(im.Name, func(t *testing.T) {
			sg, dg := newGuarded(0xa5), newGuarded(0x5a)
			for n := 0; n <= maxLen; n++ {
				for _, pos := range positions {
					copy(want, plain[:n])
					wantNext := websocket.Mask(want[:n], key, pos)
					for align := range maxAlign {
						// dst gets another alignment, and a longer
						// slice: only dst[:len(src)] may be written.
						dalign := (align*5 + 3) % maxAlign
						src := sg.slice(n, align)
						copy(src, plain)
						dst := dg.slice(n, dalign)
						long := dg.buf[guard+dalign : guard+dalign+n+guard/2]
						next := im.MaskCopy(long, src, key, pos)
						if next != wantNext || !bytes.Equal(dst, want[:n]) {
							t.Fatalf("MaskCopy(len=%d align=%d dstalign=%d pos=%d) = % x, next %d;\nwant % x, next %d", n, align, dalign, pos, dst, next, want[:n], wantNext)
						}
						if err := dg.check(n, dalign); err != nil {
							t.Fatalf("MaskCopy(len=%d align=%d dstalign=%d pos=%d) dst: %v", n, align, dalign, pos, err)
						}
						if !bytes.Equal(src, plain[:n]) {
							t.Fatalf("MaskCopy(len=%d align=%d dstalign=%d pos=%d) modified src", n, align, dalign, pos)
						}
						if err := sg.check(n, align); err != nil {
							t.Fatalf("MaskCopy(len=%d align=%d dstalign=%d pos=%d) src: %v", n, align, dalign, pos, err)
						}

						// In place (exact overlap) is Mask.
						next = im.MaskCopy(src, src, key, pos)
						if next != wantNext || !bytes.Equal(src, want[:n]) {
							t.Fatalf("MaskCopy(len=%d align=%d pos=%d in place) = % x, next %d;\nwant % x, next %d", n, align, pos, src, next, want[:n], wantNext)
						}
						if err := sg.check(n, align); err != nil {
							t.Fatalf("MaskCopy(len=%d align=%d pos=%d in place): %v", n, align, pos, err)
						}
					}
				}
			}
		})
	}
}

// TestCopyFaultCodes: xorKeyCopy, the assembly on amd64, and copyFault, in
// Go, return the same codes for a failed check, the ones MaskCopy and
// checkCopy name: badShortDst and badOverlap, both negative (MaskCopy
// panics on next < 0).
func TestCopyFaultCodes(t *testing.T) {
	buf := make([]byte, 64)
	key := [4]byte{1, 2, 3, 4}
	for _, tc := range []struct {
		name     string
		dst, src []byte
		want     int
	}{
		{"short dst", buf[:3], buf[8:12], badShortDst},
		{"dst inside src", buf[1:9], buf[0:8], badOverlap},
		{"disjoint", buf[0:8], buf[8:16], 0},
	} {
		if got := copyFault(tc.dst, tc.src); got != tc.want {
			t.Errorf("copyFault(%s) = %d, want %d", tc.name, got, tc.want)
		}
		if got := xorKeyCopy(tc.dst, tc.src, key, 1); tc.want != 0 && got != tc.want {
			t.Errorf("xorKeyCopy(%s) = %d, want %d", tc.name, got, tc.want)
		}
	}
	if badShortDst != -2 || badOverlap != -1 {
		t.Errorf("badShortDst, badOverlap = %d, %d: the assembly returns -2 and -1", badShortDst, badOverlap)
	}
}

func TestMaskCopyPanics(t *testing.T) {
	key := [4]byte{1, 2, 3, 4}
	buf := make([]byte, 64)
	for _, im := range withDispatch(t) {
		for _, tc := range []struct {
			name     string
			dst, src []byte
			want     string
		}{
			{"short dst", buf[:3], buf[8:12], errShortDst},
			{"short dst long src", buf[:40], buf[0:41], errShortDst},
			{"dst inside src", buf[1:9], buf[0:8], errOverlap},
			{"dst before src", buf[0:40], buf[1:41], errOverlap},
			{"one octet shared", buf[19:39], buf[0:20], errOverlap},
			{"one octet shared, src after", buf[0:20], buf[19:39], errOverlap},
		} {
			func() {
				defer func() {
					if r := recover(); r != tc.want {
						t.Errorf("%s: MaskCopy %s panicked with %v, want %q", im.Name, tc.name, r, tc.want)
					}
				}()
				im.MaskCopy(tc.dst, tc.src, key, 0)
			}()
		}
		// Exact overlap is Mask; adjacent buffers do not overlap; only
		// dst[:len(src)] counts; empty src never panics.
		im.MaskCopy(buf[0:40], buf[39:40], key, 0)
		im.MaskCopy(buf[4:40], buf[4:40], key, 0)
		im.MaskCopy(buf[0:20], buf[20:40], key, 0)
		im.MaskCopy(buf[20:40], buf[0:20], key, 0)
		im.MaskCopy(nil, nil, key, 0)
		im.MaskCopy(nil, buf[:0], key, 0)
	}
}

// TestRFC6455Vector checks the masked "Hello" frame of RFC 6455 §5.7
// (https://www.rfc-editor.org/rfc/rfc6455#section-5.7):
// 0x81 0x85 0x37 0xfa 0x21 0x3d 0x7f 0x9f 0x4d 0x51 0x58, at every truncation
// and with trailing junk.
func TestRFC6455Vector(t *testing.T) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	plain := []byte("Hello")
	masked := []byte{0x7f, 0x9f, 0x4d, 0x51, 0x58}
	junk := []byte("\x00\xff junk after the payload")
	for _, im := range withDispatch(t) {
		for i := range len(plain) + 1 {
			b := bytes.Clone(plain[:i])
			if next := im.Mask(b, key, 0); next != i&3 || !bytes.Equal(b, masked[:i]) {
				t.Errorf("%s: Mask(%q) = % x, next %d; want % x, next %d", im.Name, plain[:i], b, next, masked[:i], i&3)
			}
			dst := make([]byte, i)
			if next := im.MaskCopy(dst, plain[:i], key, 0); next != i&3 || !bytes.Equal(dst, masked[:i]) {
				t.Errorf("%s: MaskCopy(%q) = % x, next %d; want % x, next %d", im.Name, plain[:i], dst, next, masked[:i], i&3)
			}
		}
		b := append(bytes.Clone(plain), junk...)
		im.Mask(b, key, 0)
		if !bytes.Equal(b[:len(plain)], masked) {
			t.Errorf("%s: Mask(%q + junk) starts % x, want % x", im.Name, plain, b[:len(plain)], masked)
		}
	}
}

// TestChunked checks that masking a payload in pieces, each call starting at
// the position the previous one returned, equals one call.
func TestChunked(t *testing.T) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	const n, pos0 = 1500, 2
	plain := make([]byte, n)
	pattern(plain, 0)
	want := bytes.Clone(plain)
	websocket.Mask(want, key, pos0)
	chunks := []int{1, 2, 3, 5, 7, 13, 31, 64, 100, 257, 300}
	for _, im := range withDispatch(t) {
		for first := range chunks {
			b := bytes.Clone(plain)
			c := make([]byte, n)
			pos, cpos := pos0, pos0
			for off, k := 0, first; off < n; k++ {
				end := min(off+chunks[k%len(chunks)], n)
				pos = im.Mask(b[off:end], key, pos)
				cpos = im.MaskCopy(c[off:], plain[off:end], key, cpos)
				off = end
			}
			if pos != (pos0+n)&3 || !bytes.Equal(b, want) {
				t.Errorf("%s: Mask in chunks from %d: next %d, octets differ from one call", im.Name, chunks[first], pos)
			}
			if cpos != (pos0+n)&3 || !bytes.Equal(c, want) {
				t.Errorf("%s: MaskCopy in chunks from %d: next %d, octets differ from one call", im.Name, chunks[first], cpos)
			}
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	key := [4]byte{1, 2, 3, 4}
	b := make([]byte, 4096)
	d := make([]byte, 4096)
	for _, n := range []int{0, 2, 16, 125, 1024, 4096} {
		if a := testing.AllocsPerRun(100, func() { Mask(b[:n], key, 1) }); a != 0 {
			t.Errorf("Mask(len=%d) allocates %v times", n, a)
		}
		if a := testing.AllocsPerRun(100, func() { MaskCopy(d, b[:n], key, 1) }); a != 0 {
			t.Errorf("MaskCopy(len=%d) allocates %v times", n, a)
		}
		for _, im := range available(t) {
			if a := testing.AllocsPerRun(100, func() { im.Mask(b[:n], key, 1) }); a != 0 {
				t.Errorf("%s: Mask(len=%d) allocates %v times", im.Name, n, a)
			}
		}
	}
}

// TestRotKeyWide checks the one length-dependent quantity of the kernels
// at lengths no test can allocate: the key word for octet n depends on n
// mod 4 only, so rotKey (and the assembly's RORL by 8·n, which keeps the
// low 32 bits of n and counts mod 32) must give for n around 2^31, 2^32
// and 2^63 what it gives for n&3. The kernels hold no other count or
// length in fewer than 64 bits (docs/equivalence.md).
func TestRotKeyWide(t *testing.T) {
	k := uint64(0x3d21fa37) * (1<<32 | 1)
	for _, base := range []uint64{1 << 31, 1 << 32, 1 << 63, 0} {
		for d := uint64(0); d < 8; d++ {
			n := int(base + d - 4) // wraps where int has 32 bits: still the same n mod 4
			if got, want := rotKey(k, n), rotKey(k, n&3); got != want {
				t.Errorf("rotKey(k, %d) = %#x, want rotKey(k, %d) = %#x", n, got, n&3, want)
			}
			if got, want := uint32(rotKey(k, n)), bits32Ror(uint32(k), uint32(n)); got != want {
				t.Errorf("rotKey(k, %d) low word = %#x, want RORL by 8·uint32(n) = %#x", n, got, want)
			}
		}
	}
}

// bits32Ror is the assembly's RORL CX, DX with CX = 8·n in 32 bits.
func bits32Ror(k, n uint32) uint32 {
	c := (8 * n) & 31
	return k>>c | k<<((32-c)&31)
}
