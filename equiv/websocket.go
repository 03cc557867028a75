package equiv

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"testing"

	fuzzheaders "github.com/AdaLogics/go-fuzz-headers"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"pgregory.net/rapid"

	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// MaskImpl is an implementation of WebSocket masking (RFC 6455 §5.3) to
// check against reference/websocket. Mask is required; a nil MaskCopy is not
// checked (and the methods say so).
type MaskImpl struct {
	Mask     func(b []byte, key [4]byte, pos int) int
	MaskCopy func(dst, src []byte, key [4]byte, pos int) int
}

// MaskGridLen is the longest payload of the masking suite's grid of lengths
// × alignments × key phases. It is at least twice the widest stride of the
// optimized code (a 256-byte unrolled AVX-512 loop) plus 64, and at least
// the 705 bytes from which that loop runs twice at every alignment (its
// head and tail blocks are peeled before the loop); docs/equivalence.md has
// the argument.
const MaskGridLen = 3 * 256

// maskKeys are the keys of the grid: RFC 6455 §5.7's key, whose four octets
// are distinct, so that every output octet shows which key octet was used;
// and a second key with distinct octets and every bit set somewhere.
var maskKeys = [][4]byte{{0x37, 0xfa, 0x21, 0x3d}, {0x80, 0x01, 0xff, 0x5a}}

// maskPositions are the pos values beyond 0..3: only pos&3 may matter.
var maskPositions = []int{4, 5, 6, 7, math.MaxInt >> 1, math.MaxInt>>1 + 3, -1, -2, -3, -4, math.MaxInt, math.MaxInt - 1, math.MaxInt - 2, math.MinInt, math.MinInt + 1}

// CheckMask checks impl against reference/websocket with every method at the
// configured level and returns the joined counterexamples (each matching
// ErrMismatch), or nil if impl agreed on every input.
func CheckMask(impl MaskImpl, opts ...Option) error {
	if impl.Mask == nil {
		return fmt.Errorf("equiv: MaskImpl.Mask is nil")
	}
	cfg := newConfig(opts)
	s := &maskSuite{impl: impl}
	return runSuite("websocket", cfg, []method{
		{name: MethodVectors, run: s.vectors},
		{name: MethodExhaustive, run: s.exhaustive},
		{name: MethodGuard, run: s.guard, skip: guardSkip()},
		{name: MethodProperties, run: s.properties},
		{name: MethodCorpus, run: s.corpus},
	})
}

// TestMask runs CheckMask as subtests of t, one per method.
func TestMask(t *testing.T, impl MaskImpl, opts ...Option) {
	t.Helper()
	testSuite(t, func(o ...Option) error { return CheckMask(impl, o...) }, opts)
}

// CheckMaskInput checks impl on one input of the fuzz target
// FuzzMask(payload, key, pos, plan): the key's octets are key's big-endian
// bytes; plan is decoded with go-fuzz-headers into the payload's alignment,
// MaskCopy's destination alignment and a chunk plan (see maskPlan). The
// fuzz target and the corpus method call this.
func CheckMaskInput(impl MaskImpl, payload []byte, key uint32, pos int, plan []byte) error {
	s := &maskSuite{impl: impl}
	if ce := s.checkInput(payload, key, pos, plan); ce != nil {
		ce.Pair, ce.Method = "websocket", "fuzz"
		return ce
	}
	return nil
}

type maskSuite struct {
	impl     MaskImpl
	src, dst []byte // scratch, 64-byte aligned
}

// maskPlan is the decoded form of FuzzMask's plan argument.
type maskPlan struct {
	align, dstAlign int   // offsets from a 64-byte boundary
	chunks          []int // boundaries of the calls of a chunked Mask
}

// decodeMaskPlan reads, with go-fuzz-headers: a byte (alignment mod 64), a
// byte (MaskCopy's destination alignment mod 64), a byte (number of chunk
// boundaries mod 8) and that many uint16 boundaries (mod len+1, sorted).
func decodeMaskPlan(plan []byte, n int) maskPlan {
	var p maskPlan
	c := fuzzheaders.NewConsumer(plan)
	a, err := c.GetByte()
	if err != nil {
		return p
	}
	p.align = int(a % 64)
	if a, err = c.GetByte(); err != nil {
		return p
	}
	p.dstAlign = int(a % 64)
	k, err := c.GetByte()
	if err != nil {
		return p
	}
	for range k % 8 {
		v, err := c.GetUint16()
		if err != nil {
			break
		}
		p.chunks = append(p.chunks, int(v)%(n+1))
	}
	slices.Sort(p.chunks)
	return p
}

func encodeMaskPlan(p maskPlan) []byte {
	b := []byte{byte(p.align), byte(p.dstAlign), byte(len(p.chunks))}
	for _, c := range p.chunks {
		b = append(b, byte(c>>8), byte(c), 1) // big-endian uint16, see encodeChecksumPlan
	}
	return b
}

func keyBytes(k uint32) [4]byte {
	var key [4]byte
	binary.BigEndian.PutUint32(key[:], k)
	return key
}

func keyWord(key [4]byte) uint32 { return binary.BigEndian.Uint32(key[:]) }

func (s *maskSuite) checkInput(payload []byte, k uint32, pos int, planBytes []byte) *Counterexample {
	key := keyBytes(k)
	p := decodeMaskPlan(planBytes, len(payload))
	if ce := s.checkMask(payload, key, pos, p.align, true); ce != nil {
		return ce
	}
	if ce := s.checkChunked(payload, key, pos, p.chunks); ce != nil {
		return ce
	}
	return s.checkMaskCopy(payload, key, pos, p.align, p.dstAlign)
}

// region returns a slice of n bytes at offset align within buf (grown and
// kept 64-byte aligned), with canary bytes on both sides.
func region(buf *[]byte, n, align int) []byte {
	need := guardLen + 64 + n + guardLen
	if cap(*buf) < need {
		*buf = alignedBuffer(max(need, 2*guardLen+64+MaskGridLen))
	}
	all := (*buf)[:need]
	fillCanary(all)
	return all[guardLen+align : guardLen+align+n : guardLen+align+n]
}

// regionIntact reports whether the canaries around region(buf, n, align) are
// unchanged.
func regionIntact(buf []byte, n, align int) bool {
	all := buf[:guardLen+64+n+guardLen]
	return allCanary(all[:guardLen+align]) && allCanary(all[guardLen+align+n:])
}

func callMask(f func([]byte, [4]byte, int) int, b []byte, key [4]byte, pos int) (next int, p any) {
	defer func() { p = recover() }()
	return f(b, key, pos), nil
}

func (s *maskSuite) maskCE(fn string, payload []byte, key [4]byte, pos int, plan maskPlan, args, got, want string) *Counterexample {
	return &Counterexample{
		Func:       fn,
		Input:      bytes.Clone(payload),
		Args:       fmt.Sprintf("key=%x pos=%d %s", key, pos, args),
		Got:        got,
		Want:       want,
		FuzzTarget: "FuzzMask",
		FuzzArgs:   []any{bytes.Clone(payload), keyWord(key), pos, encodeMaskPlan(plan)},
	}
}

// checkMask compares Mask(payload, key, pos) with the payload at the given
// alignment: the masked octets, the returned position, the canaries.
func (s *maskSuite) checkMask(payload []byte, key [4]byte, pos, align int, minimize bool) *Counterexample {
	want := bytes.Clone(payload)
	wantNext := ref.Mask(want, key, pos)
	b := region(&s.src, len(payload), align)
	copy(b, payload)
	next, p := callMask(s.impl.Mask, b, key, pos)
	intact := regionIntact(s.src, len(payload), align)
	if p == nil && next == wantNext && intact && bytes.Equal(b, want) {
		return nil
	}
	if minimize {
		small := shrinkBytes(payload, func(d []byte) bool { return s.checkMask(d, key, pos, align, false) != nil })
		return s.checkMask(small, key, pos, align, false)
	}
	got := fmt.Sprintf("%x, next %d", b, next)
	switch {
	case p != nil:
		got = fmt.Sprintf("panic(%v)", p)
	case !intact:
		got += " and wrote outside b"
	}
	return s.maskCE("Mask", payload, key, pos, maskPlan{align: align}, fmt.Sprintf("align=%d", align),
		got, fmt.Sprintf("%x, next %d", want, wantNext))
}

// checkChunked masks payload in the calls the sorted boundaries delimit,
// each starting at the position the previous one returned, and compares the
// result with one reference call.
func (s *maskSuite) checkChunked(payload []byte, key [4]byte, pos int, bounds []int) *Counterexample {
	want := bytes.Clone(payload)
	wantNext := ref.Mask(want, key, pos)
	b := bytes.Clone(payload)
	next, prev := pos, 0
	var p any
	for _, end := range append(slices.Clone(bounds), len(b)) {
		if next, p = callMask(s.impl.Mask, b[prev:end], key, next); p != nil {
			break
		}
		prev = end
	}
	if p == nil && next == wantNext && bytes.Equal(b, want) {
		return nil
	}
	got := fmt.Sprintf("%x, next %d", b, next)
	if p != nil {
		got = fmt.Sprintf("panic(%v)", p)
	}
	return s.maskCE("Mask (chunked)", payload, key, pos, maskPlan{chunks: bounds}, fmt.Sprintf("chunks=%v", bounds),
		got, fmt.Sprintf("%x, next %d", want, wantNext))
}

func callMaskCopy(f func([]byte, []byte, [4]byte, int) int, dst, src []byte, key [4]byte, pos int) (next int, p any) {
	defer func() { p = recover() }()
	return f(dst, src, key, pos), nil
}

// checkMaskCopy compares MaskCopy into a separate destination at dstAlign
// (src untouched, nothing written outside dst[:len(src)]) and in place (dst
// and src the same slice), if the implementation has MaskCopy.
func (s *maskSuite) checkMaskCopy(payload []byte, key [4]byte, pos, align, dstAlign int) *Counterexample {
	if s.impl.MaskCopy == nil {
		return nil
	}
	want := bytes.Clone(payload)
	wantNext := ref.Mask(want, key, pos)
	src := region(&s.src, len(payload), align)
	copy(src, payload)
	dst := region(&s.dst, len(payload), dstAlign)
	next, p := callMaskCopy(s.impl.MaskCopy, dst, src, key, pos)
	problem := ""
	switch {
	case p != nil:
		problem = fmt.Sprintf("panic(%v)", p)
	case next != wantNext || !bytes.Equal(dst, want):
		problem = fmt.Sprintf("%x, next %d", dst, next)
	case !bytes.Equal(src, payload):
		problem = "modified src"
	case !regionIntact(s.src, len(payload), align) || !regionIntact(s.dst, len(payload), dstAlign):
		problem = "wrote outside dst[:len(src)]"
	}
	if problem == "" {
		// In place: dst and src are the same slice.
		next, p = callMaskCopy(s.impl.MaskCopy, src, src, key, pos)
		switch {
		case p != nil:
			problem = fmt.Sprintf("in place: panic(%v)", p)
		case next != wantNext || !bytes.Equal(src, want):
			problem = fmt.Sprintf("in place: %x, next %d", src, next)
		}
	}
	if problem == "" {
		return nil
	}
	return s.maskCE("MaskCopy", payload, key, pos, maskPlan{align: align, dstAlign: dstAlign},
		fmt.Sprintf("align=%d dstAlign=%d", align, dstAlign), problem, fmt.Sprintf("%x, next %d", want, wantNext))
}

// checkMaskCopyPanics checks that MaskCopy panics, with the reference's
// message, exactly where the reference does: a short dst, an inexact overlap.
func (s *maskSuite) checkMaskCopyPanics(r *run) error {
	if s.impl.MaskCopy == nil {
		return nil
	}
	key := maskKeys[0]
	buf := make([]byte, 64)
	cases := []struct {
		name     string
		dst, src []byte
	}{
		{"short dst", buf[:3], buf[8:12]},
		{"empty dst", buf[:0], buf[8:9]},
		{"dst one behind src", buf[0:16], buf[1:17]},
		{"dst one ahead of src", buf[1:17], buf[0:16]},
		{"dst longer, overlapping", buf[0:40], buf[20:30]},
		{"exact overlap", buf[0:16], buf[0:16]},
		{"disjoint, adjacent", buf[0:16], buf[16:32]},
		{"both empty", buf[:0], buf[5:5]},
	}
	for _, c := range cases {
		_, wantP := callMaskCopy(ref.MaskCopy, bytes.Clone(c.dst), bytes.Clone(c.src), key, 0)
		if c.name != "short dst" && c.name != "empty dst" {
			_, wantP = callMaskCopy(ref.MaskCopy, c.dst, c.src, key, 0)
		}
		_, gotP := callMaskCopy(s.impl.MaskCopy, c.dst, c.src, key, 0)
		r.count(1)
		if fmt.Sprint(gotP) != fmt.Sprint(wantP) {
			return r.mismatch(&Counterexample{Func: "MaskCopy", Args: c.name,
				Got: fmt.Sprintf("panic(%v)", gotP), Want: fmt.Sprintf("panic(%v)", wantP)})
		}
	}
	return nil
}

// markers fills b with distinct-as-possible marker octets: b[i] = 17 + 151·i
// (mod 256) takes all 256 values over any 256 consecutive positions.
func markers(b []byte, salt int) {
	for i := range b {
		b[i] = byte(17 + 151*(i+salt))
	}
}

func (s *maskSuite) vectors(r *run) error {
	// RFC 6455 §5.7: "A single-frame masked text message
	//   0x81 0x85 0x37 0xfa 0x21 0x3d 0x7f 0x9f 0x4d 0x51 0x58
	// (contains "Hello")": key 37 fa 21 3d, masked payload 7f 9f 4d 51 58.
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	plain, masked := []byte("Hello"), []byte{0x7f, 0x9f, 0x4d, 0x51, 0x58}
	check := func(in, want []byte, what string) error {
		if got := ref.Mask(bytes.Clone(in), key, 0); got != 1 {
			return fmt.Errorf("websocket/vectors: reference returned %d, want 1: the oracle is wrong", got)
		}
		b := bytes.Clone(in)
		next, p := callMask(s.impl.Mask, b, key, 0)
		r.count(1)
		if p != nil || next != 1 || !bytes.Equal(b, want) {
			return r.mismatch(s.maskCE("Mask", in, key, 0, maskPlan{}, "vector="+what,
				fmt.Sprintf("%x, next %d (panic %v)", b, next, p), fmt.Sprintf("%x, next 1", want)))
		}
		return nil
	}
	if err := check(plain, masked, "RFC 6455 §5.7 mask"); err != nil {
		return err
	}
	if err := check(masked, plain, "RFC 6455 §5.7 unmask"); err != nil {
		return err
	}
	// Every truncation and trailing junk, every phase and alignment, every
	// chunking, against the reference.
	junk := append(bytes.Clone(masked), 0x00, 0xff, 0x80)
	for n := 0; n <= len(junk); n++ {
		for pos := range 4 {
			for align := range 8 {
				if ce := s.checkMask(junk[:n], key, pos, align, true); ce != nil {
					return r.mismatch(ce)
				}
				if ce := s.checkMaskCopy(junk[:n], key, pos, align, 7-align); ce != nil {
					return r.mismatch(ce)
				}
				r.count(2)
			}
			for i := 0; i <= n; i++ {
				for j := i; j <= n; j++ {
					if ce := s.checkChunked(junk[:n], key, pos, []int{i, j}); ce != nil {
						return r.mismatch(ce)
					}
					r.count(1)
				}
			}
		}
	}
	return s.checkMaskCopyPanics(r)
}

func (s *maskSuite) exhaustive(r *run) error {
	// 1. Every length 0..MaskGridLen × alignment 0..63 × pos 0..3 × key,
	//    marker content; MaskCopy also with the destination at another
	//    alignment.
	data := make([]byte, MaskGridLen)
	for n := 0; n <= MaskGridLen; n++ {
		markers(data[:n], n)
		for align := range 64 {
			for pos := range 4 {
				for _, key := range maskKeys {
					if ce := s.checkMask(data[:n], key, pos, align, true); ce != nil {
						return r.mismatch(ce)
					}
					r.count(1)
					if ce := s.checkMaskCopy(data[:n], key, pos, align, (align*7+pos)%64); ce != nil {
						return r.mismatch(ce)
					}
					if s.impl.MaskCopy != nil {
						r.count(1)
					}
				}
			}
		}
	}
	// 2. pos beyond 0..3 (large, negative, near the int limits) at every
	//    length and a few alignments.
	for n := 0; n <= MaskGridLen; n++ {
		markers(data[:n], 3*n)
		for _, pos := range maskPositions {
			align := (n + pos&63) & 63
			if ce := s.checkMask(data[:n], maskKeys[1], pos, align, true); ce != nil {
				return r.mismatch(ce)
			}
			if ce := s.checkMaskCopy(data[:n], maskKeys[1], pos, align, 63-align); ce != nil {
				return r.mismatch(ce)
			}
			r.count(1)
		}
	}
	// 3. Every split of payloads up to 64 bytes (96 at Standard and Deep)
	//    into 2 and 3 calls, empty calls included, at every starting phase.
	maxSplit := pick(r.cfg, 64, 96, 96)
	for n := 0; n <= maxSplit; n++ {
		markers(data[:n], n)
		for pos := range 4 {
			for i := 0; i <= n; i++ {
				for j := i; j <= n; j++ {
					if ce := s.checkChunked(data[:n], maskKeys[0], pos, []int{i, j}); ce != nil {
						return r.mismatch(ce)
					}
					r.count(1)
				}
			}
		}
	}
	// 4. Random content, keys and lengths beyond the grid (up to 64 KiB).
	for range pick(r.cfg, 2000, 20000, 200000) {
		n := r.rng.IntN(1 << pick(r.cfg, 12, 14, 16))
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.rng.Uint32())
		}
		key := keyBytes(r.rng.Uint32())
		pos, align := int(r.rng.Int64()), r.rng.IntN(64)
		if ce := s.checkMask(b, key, pos, align, true); ce != nil {
			return r.mismatch(ce)
		}
		if ce := s.checkMaskCopy(b, key, pos, align, r.rng.IntN(64)); ce != nil {
			return r.mismatch(ce)
		}
		r.count(1)
	}
	return nil
}

// guard masks every length 0..MaskGridLen flush against an unmapped page,
// after the payload and before it; MaskCopy with each of src and dst there.
func (s *maskSuite) guard(r *run) error {
	g, err := newGuarded(MaskGridLen)
	if err != nil {
		return fmt.Errorf("websocket/guard: %w", err)
	}
	defer g.free()
	g2, err := newGuarded(MaskGridLen)
	if err != nil {
		return fmt.Errorf("websocket/guard: %w", err)
	}
	defer g2.free()
	return withFaultPanics(func() error {
		for n := 0; n <= MaskGridLen; n++ {
			payload := make([]byte, n)
			markers(payload, n)
			for side, b := range [][]byte{g.tail(n), g.head(n)} {
				where := [...]string{"ending at", "starting at"}[side]
				for pos := range 4 {
					key := maskKeys[pos%2]
					want := bytes.Clone(payload)
					wantNext := ref.Mask(want, key, pos)
					copy(b, payload)
					next, p := callMask(s.impl.Mask, b, key, pos)
					r.count(1)
					if p != nil || next != wantNext || !bytes.Equal(b, want) {
						return r.mismatch(s.maskCE("Mask", payload, key, pos, maskPlan{}, where+" a guard page",
							fmt.Sprintf("%x, next %d (panic %v)", b, next, p), fmt.Sprintf("%x, next %d", want, wantNext)))
					}
					if s.impl.MaskCopy == nil {
						continue
					}
					// src at the guard page, then dst at the guard page
					// (the other buffer against a guard page too).
					for _, pair := range [][2][]byte{{g2.head(n), b}, {b, g2.tail(n)}} {
						dst, src := pair[0], pair[1]
						copy(src, payload)
						next, p := callMaskCopy(s.impl.MaskCopy, dst, src, key, pos)
						r.count(1)
						if p != nil || next != wantNext || !bytes.Equal(dst, want) {
							return r.mismatch(s.maskCE("MaskCopy", payload, key, pos, maskPlan{}, where+" a guard page",
								fmt.Sprintf("%x, next %d (panic %v)", dst, next, p), fmt.Sprintf("%x, next %d", want, wantNext)))
						}
					}
				}
			}
		}
		return nil
	})
}

func (s *maskSuite) properties(r *run) error {
	checks := pick(r.cfg, 300, 3000, 30000)
	var last *Counterexample
	fail := func(what, msg string) error { return r.propertyFailure(what, last, msg) }
	keyGen := rapid.Custom(func(t *rapid.T) [4]byte { return keyBytes(rapid.Uint32().Draw(t, "key")) })
	posGen := rapid.OneOf(rapid.IntRange(-8, 8), rapid.Int(), rapid.SampledFrom(maskPositions))

	// rapid: the differential check, with shrinking.
	if msg := rapidCheck(r, checks, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.Byte(), 0, 4*MaskGridLen).Draw(t, "payload")
		key, pos := keyGen.Draw(t, "key"), posGen.Draw(t, "pos")
		align, dstAlign := rapid.IntRange(0, 63).Draw(t, "align"), rapid.IntRange(0, 63).Draw(t, "dstAlign")
		r.count(1)
		if ce := s.checkMask(b, key, pos, align, false); ce != nil {
			last = ce
			t.Fatalf("%v", ce)
		}
		if ce := s.checkMaskCopy(b, key, pos, align, dstAlign); ce != nil {
			last = ce
			t.Fatalf("%v", ce)
		}
	}); msg != "" {
		return fail("rapid Mask", msg)
	}

	// rapid: chunking as a state machine. One payload is masked by a
	// sequence of calls of random lengths (empty ones included), each
	// starting where the last one's returned position says; at every step
	// the masked prefix and the position must equal one reference call over
	// that prefix.
	last = nil
	if msg := rapidCheck(r, checks/3, func(t *rapid.T) {
		r.count(1)
		payload := rapid.SliceOfN(rapid.Byte(), 0, 2*MaskGridLen).Draw(t, "payload")
		key, pos := keyGen.Draw(t, "key"), posGen.Draw(t, "pos")
		b := bytes.Clone(payload)
		done, next := 0, pos
		var bounds []int
		t.Repeat(map[string]func(*rapid.T){
			"Mask": func(t *rapid.T) {
				n := rapid.IntRange(0, len(b)-done).Draw(t, "n")
				var p any
				next, p = callMask(s.impl.Mask, b[done:done+n], key, next)
				done += n
				bounds = append(bounds, done)
				if p != nil {
					t.Fatalf("panic: %v", p)
				}
			},
			"": func(t *rapid.T) {
				if len(bounds) == 0 {
					return // no call yet: next is still the caller's pos
				}
				want := bytes.Clone(payload[:done])
				wantNext := ref.Mask(want, key, pos)
				if next != wantNext || !bytes.Equal(b[:done], want) {
					var cuts []int // the boundaries between calls
					if len(bounds) > 0 {
						cuts = bounds[:len(bounds)-1]
					}
					last = s.maskCE("Mask (chunked)", payload[:done], key, pos, maskPlan{chunks: cuts},
						fmt.Sprintf("chunks=%v", bounds), fmt.Sprintf("%x, next %d", b[:done], next), fmt.Sprintf("%x, next %d", want, wantNext))
					if len(bounds) > 8 {
						last.FuzzArgs = nil
					}
					t.Fatalf("%v", last)
				}
			},
		})
	}); msg != "" {
		return fail("rapid chunking state machine", msg)
	}

	// gopter: laws of the implementation alone.
	mask := func(b []byte, key [4]byte, pos int) ([]byte, int) {
		b = bytes.Clone(b)
		next := s.impl.Mask(b, key, pos)
		return b, next
	}
	keyG := gen.UInt32().Map(keyBytes)
	laws := []struct {
		name string
		p    gopter.Prop
	}{
		{"masking is its own inverse", prop.ForAll(func(b []byte, key [4]byte, pos int) bool {
			m, _ := mask(b, key, pos)
			back, _ := mask(m, key, pos)
			return bytes.Equal(back, b)
		}, gen.SliceOf(gen.UInt8()), keyG, gen.Int())},
		{"Mask(b, key, pos) equals masking from position 0 with the key rotated by pos", prop.ForAll(func(b []byte, key [4]byte, pos int) bool {
			var rot [4]byte
			for i := range rot {
				rot[i] = key[(pos+i)&3]
			}
			m1, _ := mask(b, key, pos)
			m2, _ := mask(b, rot, 0)
			return bytes.Equal(m1, m2)
		}, gen.SliceOf(gen.UInt8()), keyG, gen.Int())},
		{"the returned position is (pos+len(b))&3", prop.ForAll(func(b []byte, key [4]byte, pos int) bool {
			_, next := mask(b, key, pos)
			return next == (pos+len(b))&3
		}, gen.SliceOf(gen.UInt8()), keyG, gen.Int())},
		{"masking with the zero key changes nothing", prop.ForAll(func(b []byte, pos int) bool {
			m, _ := mask(b, [4]byte{}, pos)
			return bytes.Equal(m, b)
		}, gen.SliceOf(gen.UInt8()), gen.Int())},
		{"MaskCopy equals copy then Mask", prop.ForAll(func(b []byte, key [4]byte, pos int) bool {
			if s.impl.MaskCopy == nil {
				return true
			}
			dst := make([]byte, len(b)+3)
			next := s.impl.MaskCopy(dst, b, key, pos)
			m, wantNext := mask(b, key, pos)
			return next == wantNext && bytes.Equal(dst[:len(b)], m) && bytes.Equal(dst[len(b):], []byte{0, 0, 0})
		}, gen.SliceOf(gen.UInt8()), keyG, gen.Int())},
	}
	for _, law := range laws {
		if msg := gopterCheck(r, checks, law.p); msg != "" {
			return fmt.Errorf("websocket/properties: law %q does not hold (seed %d): %s: %w", law.name, r.cfg.seed, msg, ErrMismatch)
		}
	}
	return nil
}

func (s *maskSuite) corpus(r *run) error {
	return r.replayCorpus(func(v []any) (*Counterexample, int) {
		return s.checkInput(v[0].([]byte), v[1].(uint32), v[2].(int), v[3].([]byte)), 1
	})
}
