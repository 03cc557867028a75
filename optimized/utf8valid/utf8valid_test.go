package utf8valid

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
)

const (
	maxLen   = 300 // past 4 blocks of 64 (AVX-512) plus a partial one
	maxAlign = 64
	guard    = 64 // guard octets on each side of the slice under test
)

// positions are the pos arguments of Unmask the grid cycles through: each
// key octet, and values whose sum with the length wraps.
var positions = []int{0, 1, 2, 3, -1, math.MaxInt, math.MinInt}

// TestDifferential compares every variant's Valid, Write and Unmask with
// the reference over lengths 0..maxLen × alignments 0..maxAlign-1 × texts
// of every class (valid, broken at a random octet, broken at the end),
// with guard octets on both sides of the slice: Valid and Write must
// change nothing, Unmask only the slice.
func TestDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	texts := make([][][]byte, maxLen+1)
	for n := range texts {
		texts[n] = variants(r, n)
	}
	aligns := make([]int, maxAlign)
	for i := range aligns {
		aligns[i] = i
	}
	if testing.Short() || raceEnabled {
		// The emulated runs (-short) and the race detector: the alignments that differ for
		// 8-, 32- and 64-octet loads.
		aligns = []int{0, 1, 7, 31, 63}
	}
	for _, im := range withDispatch(t) {
		t.Run(im.Name, func(t *testing.T) {
			g := newGuarded(0xa5)
			for n, list := range texts {
				for i, txt := range list {
					pos := positions[(n+i)%len(positions)]
					for _, align := range aligns {
						if err := checkOne(im, g, txt, align, key, pos); err != nil {
							t.Fatalf("len=%d align=%d text % x: %v", n, align, txt, err)
						}
					}
				}
			}
		})
	}
}

// guarded is a buffer of guard octets with room for a slice of up to
// maxLen octets at any of maxAlign alignments, guard octets from each end.
type guarded struct {
	buf, clean []byte
}

func newGuarded(g byte) *guarded {
	clean := bytes.Repeat([]byte{g}, guard+maxAlign+maxLen+guard)
	return &guarded{buf: bytes.Clone(clean), clean: clean}
}

// slice resets the buffer, copies txt to alignment align and returns it,
// with capacity its length.
func (g *guarded) slice(txt []byte, align int) []byte {
	copy(g.buf, g.clean)
	lo := guard + align
	b := g.buf[lo : lo+len(txt) : lo+len(txt)]
	copy(b, txt)
	return b
}

// check reports an octet outside [lo, lo+n) that is no longer a guard.
func (g *guarded) check(n, align int) error {
	lo, hi := guard+align, guard+align+n
	if bytes.Equal(g.buf[:lo], g.clean[:lo]) && bytes.Equal(g.buf[hi:], g.clean[hi:]) {
		return nil
	}
	return errors.New("an octet outside the slice changed")
}

// checkOne checks Valid, Write and Unmask of one variant on txt at one
// alignment.
func checkOne(im Impl, g *guarded, txt []byte, align int, key [4]byte, pos int) error {
	n := len(txt)
	b := g.slice(txt, align)
	if got, want := im.Valid(b), ref.Valid(txt); got != want {
		return fmt.Errorf("Valid = %v, want %v", got, want)
	}
	if got, want := writeAll(im.NewValidator(), b), refRun(txt); !equal(got, want) {
		return fmt.Errorf("Write: %v, want %v", got, want)
	}
	if !bytes.Equal(b, txt) || g.check(n, align) != nil {
		return errors.New("Valid or Write modified memory")
	}

	mb := masked(txt, key, pos)
	b = g.slice(mb, align)
	v, rv := im.NewValidator(), new(ref.Validator)
	next, got, err := v.Unmask(b, key, pos)
	wantNext, want, wantErr := rv.Unmask(mb, key, pos)
	if next != wantNext || got != want || err != wantErr || !bytes.Equal(b, mb) ||
		v.Close() != rv.Close() || v.Offset() != rv.Offset() {
		return fmt.Errorf("Unmask(pos=%d) = %d, %d, %v, Close %v, Offset %d, % x; want %d, %d, %v, %v, %d, % x",
			pos, next, got, err, v.Close(), v.Offset(), b, wantNext, want, wantErr, rv.Close(), rv.Offset(), mb)
	}
	if g.check(n, align) != nil {
		return errors.New("Unmask wrote outside the slice")
	}
	return nil
}

// TestSplits writes texts of every class in two pieces cut at every
// offset, and in pieces of random lengths, through every variant, and
// compares each Write's results, Close and Offset with the reference's:
// the window carried from one Write to the next, whatever the kernel.
func TestSplits(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 2))
	var texts [][]byte
	for _, n := range []int{1, 2, 3, 5, 31, 32, 33, 63, 64, 65, 100, 129} {
		texts = append(texts, variants(r, n)...)
	}
	var long [][]byte
	for range 40 {
		long = append(long, variants(r, 200+r.IntN(400))...)
	}
	for _, im := range withDispatch(t) {
		t.Run(im.Name, func(t *testing.T) {
			for _, txt := range texts {
				for cut := 0; cut <= len(txt); cut++ {
					if got, want := writeAll(im.NewValidator(), txt, cut), refRun(txt, cut); !equal(got, want) {
						t.Fatalf("% x cut at %d: %v, want %v", txt, cut, got, want)
					}
				}
			}
			for _, txt := range long {
				cuts := randomCuts(r, len(txt))
				if got, want := writeAll(im.NewValidator(), txt, cuts...), refRun(txt, cuts...); !equal(got, want) {
					t.Fatalf("% x cut at %v: %v, want %v", txt, cuts, got, want)
				}
			}
		})
	}
}

// randomCuts returns increasing offsets in [0, n] that cut a text of n
// octets into pieces of 0 to 70 octets.
func randomCuts(r *rand.Rand, n int) []int {
	var cuts []int
	for c := r.IntN(71); c < n; c += r.IntN(71) {
		cuts = append(cuts, c)
	}
	return cuts
}

// TestOctetWrites writes texts one octet at a time, as Autobahn's case
// 6.3.2 sends them, and with Unmask in pieces that carry the key position.
func TestOctetWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 3))
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	var texts [][]byte
	for _, n := range []int{7, 70, 150} {
		texts = append(texts, variants(r, n)...)
	}
	for _, im := range withDispatch(t) {
		t.Run(im.Name, func(t *testing.T) {
			for _, txt := range texts {
				cuts := make([]int, len(txt))
				for i := range cuts {
					cuts[i] = i
				}
				if got, want := writeAll(im.NewValidator(), txt, cuts...), refRun(txt, cuts...); !equal(got, want) {
					t.Fatalf("% x one octet at a time: %v, want %v", txt, got, want)
				}
				// Unmask in pieces of 1 to 9 octets from key octet 3.
				b := masked(txt, key, 3)
				mb := bytes.Clone(b)
				v, rv := im.NewValidator(), new(ref.Validator)
				pos, rpos := 3, 3
				for i := 0; i < len(b); {
					j := min(len(b), i+1+r.IntN(9))
					var n, rn int
					var err, rerr error
					pos, n, err = v.Unmask(b[i:j], key, pos)
					rpos, rn, rerr = rv.Unmask(mb[i:j], key, rpos)
					if pos != rpos || n != rn || err != rerr {
						t.Fatalf("% x: Unmask of [%d:%d] = %d, %d, %v; want %d, %d, %v", txt, i, j, pos, n, err, rpos, rn, rerr)
					}
					i = j
				}
				if !bytes.Equal(b, txt) || v.Close() != rv.Close() || v.Offset() != rv.Offset() {
					t.Fatalf("% x: Unmask in pieces gave % x, Close %v, Offset %d; want Close %v, Offset %d", txt, b, v.Close(), v.Offset(), rv.Close(), rv.Offset())
				}
			}
		})
	}
}

// TestEveryShortText compares every variant with the reference over every
// text of one and two octets, and of three that start with E0-F4 and a
// continuation, alone and after a window that asks for one more octet.
func TestEveryShortText(t *testing.T) {
	for _, im := range withDispatch(t) {
		t.Run(im.Name, func(t *testing.T) {
			b := make([]byte, 3)
			try := func(txt []byte) {
				if got, want := writeAll(im.NewValidator(), txt), refRun(txt); !equal(got, want) || im.Valid(txt) != ref.Valid(txt) {
					t.Fatalf("% x: %v (Valid %v), want %v", txt, got, im.Valid(txt), want)
				}
				pre := append([]byte("\xF0\x90\x80"), txt...)
				if got, want := writeAll(im.NewValidator(), pre, 3), refRun(pre, 3); !equal(got, want) {
					t.Fatalf("F0 90 80 then % x: %v, want %v", txt, got, want)
				}
			}
			for x := range 256 {
				b[0] = byte(x)
				try(b[:1])
				for y := range 256 {
					b[1] = byte(y)
					try(b[:2])
					if x >= 0xE0 && x <= 0xF4 && y >= 0x80 && y <= 0xBF && !testing.Short() && !raceEnabled {
						for z := 0; z < 256; z += 5 {
							b[2] = byte(z)
							try(b[:3])
						}
					}
				}
			}
		})
	}
}

// TestASCIIHelpers checks asciiShort at every length it accepts (0-15)
// and asciiMid at every length it accepts (16-31), each with one octet
// that is not ASCII at every position and with none: the contract each
// states, whatever lengths their callers send them today (valid sends
// asciiShort no text of 2-4 octets, so through valid a test that left
// out octet 1 at 4 octets would pass).
func TestASCIIHelpers(t *testing.T) {
	for n := range 32 {
		check := asciiMid
		if n < 16 {
			check = asciiShort
		}
		b := bytes.Repeat([]byte{0x7f}, n)
		if !check(b) {
			t.Errorf("%d octets of 7F: not ASCII", n)
		}
		for i := range n {
			for _, o := range []byte{0x80, 0xff} {
				b[i] = o
				if check(b) {
					t.Errorf("%d octets, %02x at %d: ASCII", n, o, i)
				}
			}
			b[i] = 0x7f
		}
	}
}

// TestValidatorLifecycle checks Close, Reset and the state after a failure
// for every variant: Reset keeps the kernel, and a failed Validator unmasks
// all of b and accepts nothing.
func TestValidatorLifecycle(t *testing.T) {
	key := [4]byte{1, 2, 3, 4}
	for _, im := range withDispatch(t) {
		v := im.NewValidator()
		k := v.k
		v.Write([]byte("\xE2\x82"))
		if v.Close() != ErrIncomplete || v.Close() != ErrIncomplete {
			t.Errorf("%s: Close of a partial char = %v, want ErrIncomplete twice", im.Name, v.Close())
		}
		if n, err := v.Write([]byte("\xAC")); n != 1 || err != nil || v.Close() != nil || v.Offset() != 3 {
			t.Errorf("%s: completing €: %d, %v, Close %v, Offset %d", im.Name, n, err, v.Close(), v.Offset())
		}
		if n, err := v.Write([]byte("ab\xFFcd")); n != 2 || err != ErrInvalid || v.Offset() != 5 {
			t.Errorf("%s: Write(ab FF cd) = %d, %v, Offset %d; want 2, ErrInvalid, 5", im.Name, n, err, v.Offset())
		}
		if n, err := v.Write([]byte("ok")); n != 0 || err != ErrInvalid {
			t.Errorf("%s: Write after a failure = %d, %v", im.Name, n, err)
		}
		b := masked([]byte("hello, world"), key, 2)
		if next, n, err := v.Unmask(b, key, 2); next != 2 || n != 0 || err != ErrInvalid || string(b) != "hello, world" {
			t.Errorf("%s: Unmask after a failure = %d, %d, %v, %q", im.Name, next, n, err, b)
		}
		v.Reset()
		if v.k != k || v.Offset() != 0 || v.Close() != nil {
			t.Errorf("%s: after Reset: kernel %d (was %d), Offset %d, Close %v", im.Name, v.k, k, v.Offset(), v.Close())
		}
		if !errors.Is(ErrInvalid, ref.ErrInvalid) || ErrIncomplete != ref.ErrIncomplete {
			t.Errorf("the errors are not the reference's")
		}
	}
}

// TestAllocs checks that Valid, Write, Unmask and Reader.Read allocate
// nothing, for every variant.
func TestAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 4))
	txt := text(r, "mixed", 1000)
	key := [4]byte{1, 2, 3, 4}
	for _, im := range withDispatch(t) {
		v := im.NewValidator()
		src := &loop{data: txt}
		rd := NewReader(src, key, v)
		p := make([]byte, 300)
		allocs := testing.AllocsPerRun(100, func() {
			im.Valid(txt)
			v.Write(txt[:500])
			v.Unmask(p, key, 1)
			v.Reset()
			rd.Read(p)
			v.Reset()
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per run, want 0", im.Name, allocs)
		}
	}
}

// loop is an io.Reader that returns its data again and again.
type loop struct{ data []byte }

func (l *loop) Read(p []byte) (int, error) { return copy(p, l.data), nil }
