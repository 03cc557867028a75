package equiv

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"pgregory.net/rapid"

	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// checksumVector is a published input with its known sum.
type checksumVector struct {
	source string
	data   []byte
	sum    uint16 // Sum(data, 0)
}

var checksumVectors = []checksumVector{
	// RFC 1071 §3, "Numerical Examples": the bytes 00 01 f2 03 f4 f5 f6 f7
	// sum to ddf2 (the 2's complement sum 2ddf0, carries folded).
	{"RFC 1071 §3", []byte{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}, 0xddf2},
	// RFC 1624 §4: the sum of the other header words C = 0xCD7A, and the
	// changing word m = 0x5555, so HC = ~(C + m) = 0xDD2F…
	{"RFC 1624 §4 (before)", []byte{0xcd, 0x7a, 0x55, 0x55}, ^uint16(0xdd2f)},
	// …and after m' = 0x3285, C + m' = 0xFFFF, so the checksum is 0x0000.
	{"RFC 1624 §4 (after)", []byte{0xcd, 0x7a, 0x32, 0x85}, 0xffff},
}

// vectors checks the RFC examples, each at every truncation and with
// trailing junk (against the reference), RFC 1071 §3's odd-boundary rule as
// every split of its example, and RFC 1624 §4's update.
func (s *checksumSuite) vectors(r *run) error {
	for _, v := range checksumVectors {
		if got := ref.Sum(v.data, 0); got != v.sum {
			return fmt.Errorf("checksum/vectors: reference Sum(%x) = %#04x, want %#04x (%s): the oracle is wrong", v.data, got, v.sum, v.source)
		}
		var got uint16
		if p := panicValue(func() { got = s.impl.Sum(v.data, 0) }); p != nil || got != v.sum {
			ce := s.checkSum(v.data, 0, 0, false)
			if ce == nil { // agreed with the reference but not the RFC: impossible, checked above
				ce = &Counterexample{Func: "Sum", Input: v.data}
			}
			ce.Args += " vector=" + v.source
			return r.mismatch(ce)
		}
		r.count(1)
		// Every truncation, and trailing junk, against the reference.
		junk := append(bytes.Clone(v.data), 0xff, 0x80, 0x01)
		for n := 0; n <= len(junk); n++ {
			for align := range 3 {
				if ce := s.checkSum(junk[:n], 0, align, true); ce != nil {
					return r.mismatch(ce)
				}
				if ce := s.checkChecksum(junk[:n], align); ce != nil {
					return r.mismatch(ce)
				}
				r.count(2)
			}
		}
		// RFC 1071 §3's odd-boundary rule: any split into two or three
		// writes gives the same sum.
		for i := 0; i <= len(v.data); i++ {
			for j := i; j <= len(v.data); j++ {
				if ce := s.checkDigest(v.data, []int{i, j}); ce != nil {
					return r.mismatch(ce)
				}
				r.count(1)
			}
		}
	}
	// RFC 1624 §4: HC 0xDD2F, m 0x5555 → m' 0x3285 gives HC' 0x0000 by
	// Eqn. 3 (RFC 1141's Eqn. 2 gives 0xFFFF).
	if got := ref.Update(0xdd2f, 0x5555, 0x3285); got != 0x0000 {
		return fmt.Errorf("checksum/vectors: reference Update = %#04x, want 0x0000: the oracle is wrong", got)
	}
	if ce := s.checkUpdate(0xdd2f, 0x5555, 0x3285); ce != nil {
		return r.mismatch(ce)
	}
	if s.impl.Update != nil {
		r.count(1)
	}
	return nil
}

// checksumClass is a family of contents that drives the sum into one of the
// cases the optimized code must get right.
type checksumClass struct {
	name    string
	initial uint16
	fill    func(s *checksumSuite, r *run, b []byte, initial uint16)
}

var checksumClasses = []checksumClass{
	// All zero: the only input whose sum is 0x0000 ("positive zero").
	{"zero", 0x0000, func(_ *checksumSuite, _ *run, b []byte, _ uint16) { clear(b) }},
	// All 0xFF: every word 0xFFFF, the longest carry chains; with initial 0
	// the sum is 0xFFFF ("negative zero") for every nonempty input.
	{"ones", 0x0000, fillByte(0xff)},
	// 0xFFFF chains onto initial 1: every partial sum wraps.
	{"ones+1", 0x0001, fillByte(0xff)},
	{"ones+ffff", 0xffff, fillByte(0xff)},
	// Bytes ≥ 0x80 throughout: catches sign extension of bytes or words.
	{"high", 0x8000, func(_ *checksumSuite, r *run, b []byte, _ uint16) {
		for i := range b {
			b[i] = byte(r.rng.Uint32()) | 0x80
		}
	}},
	// Random words, then the last full word chosen so that the folded sum
	// is exactly 0xFFFF with no carry out of the final addition.
	{"to-ffff", 0x0000, fillToTarget(0xffff)},
	// … or so that the unfolded sum is exactly 0x10000 (folds to 0x0001).
	{"to-10000", 0x1234, fillToTarget(0x10000)},
	// Random content with a random initial value.
	{"random", 0x5a5a, func(_ *checksumSuite, r *run, b []byte, _ uint16) {
		for i := range b {
			b[i] = byte(r.rng.Uint32())
		}
	}},
}

func fillByte(c byte) func(*checksumSuite, *run, []byte, uint16) {
	return func(_ *checksumSuite, _ *run, b []byte, _ uint16) {
		for i := range b {
			b[i] = c
		}
	}
}

// fillToTarget fills b with random bytes, then sets its last full word so
// that initial plus all words is target (0xFFFF or 0x10000) before folding
// carries out of that last addition.
func fillToTarget(target uint32) func(*checksumSuite, *run, []byte, uint16) {
	return func(_ *checksumSuite, r *run, b []byte, initial uint16) {
		for i := range b {
			b[i] = byte(r.rng.Uint32())
		}
		if len(b) < 2 {
			return
		}
		w := len(b)/2*2 - 2 // the last full word
		b[w], b[w+1] = 0, 0
		s := uint32(ref.Sum(b, initial))
		if s == 0 || s > target-1 {
			return // target unreachable with one word
		}
		need := target - s
		if need > 0xffff {
			return
		}
		b[w], b[w+1] = byte(need>>8), byte(need)
	}
}

// exhaustive enumerates the bounded domains of docs/equivalence.md.
func (s *checksumSuite) exhaustive(r *run) error {
	// 1. Every input of length 0..2 with every initial in the class set
	//    (length 3, 16.8M inputs, at Standard and Deep).
	maxShort := pick(r.cfg, 2, 3, 3)
	initials := checksumInitials
	if r.cfg.level > Quick {
		initials = []uint16{0x0000, 0xffff}
	}
	for n := 0; n <= maxShort; n++ {
		inits := checksumInitials
		if n == 3 {
			inits = initials
		}
		b := make([]byte, n)
		for v := range 1 << (8 * n) {
			for i := range b {
				b[i] = byte(v >> (8 * i))
			}
			for _, init := range inits {
				if ce := s.checkSum(b, init, v%4, true); ce != nil {
					return r.mismatch(ce)
				}
			}
			r.count(len(inits))
		}
	}

	// 2. Every length 0..ChecksumGridLen × every alignment 0..63 × every
	//    content class (checking Checksum too on random content).
	data := make([]byte, ChecksumGridLen)
	for n := 0; n <= ChecksumGridLen; n++ {
		for align := range 64 {
			for _, c := range checksumClasses {
				b := data[:n]
				c.fill(s, r, b, c.initial)
				if ce := s.checkSum(b, c.initial, align, true); ce != nil {
					ce.Args += " class=" + c.name
					return r.mismatch(ce)
				}
				r.count(1)
			}
			if ce := s.checkChecksum(data[:n], align); ce != nil {
				return r.mismatch(ce)
			}
			if s.impl.Checksum != nil {
				r.count(1)
			}
		}
	}

	// 3. Exactness on long inputs: lengths around 2^16 and 2^17 words, and
	//    multi-megabyte buffers of 0xFF (a 32-bit accumulator overflows after
	//    about 128 KiB of them) and of random bytes, at alignments 0 and 1.
	long := []int{1<<16 - 1, 1 << 16, 1<<17 + 1, 1<<20 + 3, 4<<20 + 1}
	if r.cfg.level == Deep {
		long = append(long, 64<<20+7)
	}
	for _, n := range long {
		big := make([]byte, n+1)
		for _, c := range []checksumClass{checksumClasses[3], checksumClasses[7]} {
			c.fill(s, r, big, c.initial)
			for align := range 2 {
				b := big[align : align+n]
				want := ref.Sum(b, c.initial)
				got, p := callSum(s.impl.Sum, b, c.initial)
				if p != nil || got != want {
					ce := &Counterexample{Func: "Sum", Input: b, Args: fmt.Sprintf("initial=%#04x align=%d class=%s", c.initial, align, c.name),
						Got: fmt.Sprintf("%#04x", got), Want: fmt.Sprintf("%#04x", want)}
					if p != nil {
						ce.Got = fmt.Sprintf("panic(%v)", p)
					}
					return r.mismatch(ce)
				}
				r.count(1)
			}
		}
	}

	// 4. Every split of inputs of length 0..64 into 2 and 3 writes, empty
	//    writes included, on random and all-0xFF content (and 4 writes up to
	//    24 bytes at Standard and Deep).
	if s.impl.New != nil {
		for _, fill := range []func([]byte){
			func(b []byte) {
				for i := range b {
					b[i] = byte(r.rng.Uint32())
				}
			},
			func(b []byte) {
				for i := range b {
					b[i] = 0xff
				}
			},
		} {
			for n := 0; n <= 64; n++ {
				b := make([]byte, n)
				fill(b)
				for i := 0; i <= n; i++ {
					for j := i; j <= n; j++ {
						if ce := s.checkDigest(b, []int{i, j}); ce != nil {
							return r.mismatch(ce)
						}
						r.count(1)
						if r.cfg.level > Quick && n <= 24 {
							for k := j; k <= n; k++ {
								if ce := s.checkDigest(b, []int{i, j, k}); ce != nil {
									return r.mismatch(ce)
								}
								r.count(1)
							}
						}
					}
				}
			}
		}
	}

	// 5. Update over the subspace where each of checksum, old and new is
	//    within 128 of 0x0000 or of 0xFFFF (256^3 = 16.8M triples: every
	//    carry and end-around-carry combination), then random triples.
	if s.impl.Update != nil {
		var sub [256]uint16
		for i := range 128 {
			sub[i], sub[128+i] = uint16(i), uint16(0xff80+i)
		}
		for _, hc := range sub {
			for _, m := range sub {
				for _, mn := range sub {
					if s.impl.Update(hc, m, mn) != ref.Update(hc, m, mn) {
						return r.mismatch(s.checkUpdate(hc, m, mn))
					}
				}
			}
			r.count(len(sub) * len(sub))
		}
		for range pick(r.cfg, 1<<20, 1<<24, 1<<27) {
			v := r.rng.Uint64()
			hc, m, mn := uint16(v), uint16(v>>16), uint16(v>>32)
			if s.impl.Update(hc, m, mn) != ref.Update(hc, m, mn) {
				return r.mismatch(s.checkUpdate(hc, m, mn))
			}
		}
		r.count(pick(r.cfg, 1<<20, 1<<24, 1<<27))
	}
	return nil
}

// guard runs every length 0..ChecksumGridLen flush against an unmapped page,
// after the data (an over-read faults) and before it (an under-read faults).
func (s *checksumSuite) guard(r *run) error {
	g, err := newGuarded(ChecksumGridLen)
	if err != nil {
		return fmt.Errorf("checksum/guard: %w", err)
	}
	defer g.free()
	return withFaultPanics(func() error {
		for n := 0; n <= ChecksumGridLen; n++ {
			for _, b := range [][]byte{g.tail(n), g.head(n)} {
				for i := range b {
					b[i] = byte(r.rng.Uint32()) | 0x80
				}
				initial := uint16(r.rng.Uint32())
				want := ref.Sum(b, initial)
				got, p := callSum(s.impl.Sum, b, initial)
				if p != nil || got != want {
					where := "ending at"
					if &b[0] == &g.data[0] {
						where = "starting at"
					}
					ce := &Counterexample{Func: "Sum", Input: bytes.Clone(b),
						Args:       fmt.Sprintf("initial=%#04x %s a guard page", initial, where),
						Got:        fmt.Sprintf("%#04x", got),
						Want:       fmt.Sprintf("%#04x", want),
						FuzzTarget: "FuzzChecksum",
						FuzzArgs:   []any{bytes.Clone(b), initial, encodeChecksumPlan(checksumPlan{})},
					}
					if p != nil {
						ce.Got = fmt.Sprintf("panic(%v)", p)
					}
					return r.mismatch(ce)
				}
				r.count(1)
				if s.impl.New != nil {
					var sum16 uint16
					if p := panicValue(func() { d := s.impl.New(); d.Write(b); sum16 = d.Sum16() }); p != nil || sum16 != ref.Sum(b, 0) {
						return r.mismatch(&Counterexample{Func: "Digest", Input: bytes.Clone(b), Args: "single write at a guard page",
							Got: fmt.Sprintf("%#04x (panic %v)", sum16, p), Want: fmt.Sprintf("%#04x", ref.Sum(b, 0))})
					}
					r.count(1)
				}
			}
		}
		return nil
	})
}

// properties runs rapid (differential, with shrinking, and the Digest as a
// state machine against the reference model) and gopter (algebraic laws of
// the implementation alone).
func (s *checksumSuite) properties(r *run) error {
	checks := pick(r.cfg, 300, 3000, 30000)

	// rapid: Sum on generated inputs biased towards carry-heavy bytes.
	byteGen := rapid.OneOf(rapid.Byte(), rapid.SampledFrom([]byte{0x00, 0xff, 0x80, 0x7f, 0x01}))
	var last *Counterexample
	if msg := rapidCheck(r, checks, func(t *rapid.T) {
		data := rapid.SliceOfN(byteGen, 0, 4*ChecksumGridLen).Draw(t, "data")
		initial := rapid.OneOf(rapid.Uint16(), rapid.SampledFrom(checksumInitials)).Draw(t, "initial")
		align := rapid.IntRange(0, 63).Draw(t, "align")
		r.count(1)
		if ce := s.checkSum(data, initial, align, false); ce != nil {
			last = ce
			t.Fatalf("%v", ce)
		}
	}); msg != "" {
		return r.propertyFailure("rapid Sum", last, msg)
	}

	// rapid: the Digest as a state machine. The model is the reference
	// Digest; every step compares Sum16, and Sum/Reset are actions too.
	if s.impl.New != nil {
		last = nil
		if msg := rapidCheck(r, checks/3, func(t *rapid.T) {
			r.count(1)
			d, model := s.impl.New(), ref.New()
			var since []byte // bytes written since the last Reset
			var splits []int
			var steps []string
			fail := func(format string, args ...any) {
				last = &Counterexample{Func: "Digest", Input: bytes.Clone(since),
					Args: "steps=" + strings.Join(steps, ","), FuzzTarget: "FuzzChecksum",
					Got: fmt.Sprintf(format, args...), Want: fmt.Sprintf("Sum16() = %#04x", model.Sum16())}
				if len(splits) <= 7 && len(since) <= 0xffff {
					last.FuzzArgs = []any{bytes.Clone(since), uint16(0), encodeChecksumPlan(checksumPlan{splits: splits})}
				}
				t.Fatalf("%v", last)
			}
			t.Repeat(map[string]func(*rapid.T){
				"Write": func(t *rapid.T) {
					p := rapid.SliceOfN(byteGen, 0, 300).Draw(t, "p")
					steps = append(steps, fmt.Sprintf("Write(%d)", len(p)))
					if len(since) > 0 {
						splits = append(splits, len(since))
					}
					since = append(since, p...)
					model.Write(p)
					if n, err := d.Write(p); n != len(p) || err != nil {
						fail("Write(%d bytes) = %d, %v", len(p), n, err)
					}
				},
				"Reset": func(t *rapid.T) {
					steps = append(steps, "Reset")
					since, splits = since[:0], splits[:0]
					d.Reset()
					model.Reset()
				},
				"Sum": func(t *rapid.T) {
					steps = append(steps, "Sum")
					if got, want := d.Sum(nil), model.Sum(nil); !bytes.Equal(got, want) {
						fail("Sum(nil) = %x, want %x", got, want)
					}
				},
				"": func(t *rapid.T) {
					if got := d.Sum16(); got != model.Sum16() {
						fail("Sum16() = %#04x", got)
					}
				},
			})
		}); msg != "" {
			return r.propertyFailure("rapid Digest state machine", last, msg)
		}
	}

	// gopter: laws that hold for any correct implementation, checked on the
	// implementation alone (no reference involved).
	sum := s.impl.Sum
	bytesGen := gen.SliceOf(gen.UInt8())
	laws := []struct {
		name string
		p    gopter.Prop
	}{
		{"word order does not matter (RFC 1071 §2(B) commutativity)", prop.ForAll(
			func(words []uint16, k int) bool {
				b := wordsBytes(words)
				if len(words) == 0 {
					return sum(b, 0) == 0
				}
				rot := append(slices.Clone(words[k%len(words):]), words[:k%len(words)]...)
				rev := slices.Clone(words)
				slices.Reverse(rev)
				return sum(b, 0) == sum(wordsBytes(rot), 0) && sum(b, 0) == sum(wordsBytes(rev), 0)
			}, gen.SliceOf(gen.UInt16()), gen.IntRange(0, 1<<20))},
		{"a group at an odd boundary sums as its byte-swapped even sum (RFC 1071 §3)", prop.ForAll(
			func(x, y []byte) bool {
				sx, sy := sum(x, 0), sum(y, 0)
				if len(x)%2 == 1 {
					sy = sy<<8 | sy>>8
				}
				return sum(append(slices.Clone(x), y...), 0) == onesAdd(sx, sy)
			}, bytesGen, bytesGen)},
		{"initial accumulates like a leading word", prop.ForAll(
			func(x []byte, initial uint16) bool {
				return sum(x, initial) == sum(append(be16(initial), x...), 0)
			}, bytesGen, gen.UInt16())},
		{"data followed by its checksum sums to 0xFFFF (RFC 1071 §1)", prop.ForAll(
			func(x []byte) bool {
				if len(x)%2 == 1 {
					x = append(x, 0)
				}
				return sum(append(slices.Clone(x), be16(^sum(x, 0))...), 0) == 0xffff
			}, bytesGen)},
		{"Update equals recomputing (RFC 1624 §3; 0x0000 where the new data is all zero, §5)", prop.ForAll(
			func(words []uint16, i int, m2 uint16) bool {
				if s.impl.Update == nil || len(words) == 0 {
					return true
				}
				i %= len(words)
				before := ^sum(wordsBytes(words), 0)
				after := slices.Clone(words)
				after[i] = m2
				got := s.impl.Update(before, words[i], m2)
				if slices.ContainsFunc(after, func(w uint16) bool { return w != 0 }) {
					return got == ^sum(wordsBytes(after), 0)
				}
				// All-zero data: recomputing gives 0xFFFF, but Eqn. 3
				// cannot reach one's-complement +0, so gives 0x0000.
				return got == 0x0000
			}, gen.SliceOf(gen.OneGenOf(gen.UInt16(), gen.Const(uint16(0)), gen.Const(uint16(0xffff)))), gen.IntRange(0, 1<<20), gen.UInt16())},
	}
	for _, law := range laws {
		if msg := gopterCheck(r, checks, law.p); msg != "" {
			return fmt.Errorf("checksum/properties: law %q does not hold (seed %d): %s: %w", law.name, r.cfg.seed, msg, ErrMismatch)
		}
	}
	return nil
}

// corpus replays the shared corpus through CheckChecksumInput's checks.
func (s *checksumSuite) corpus(r *run) error {
	return r.replayCorpus(func(v []any) (*Counterexample, int) {
		return s.checkInput(v[0].([]byte), v[1].(uint16), v[2].([]byte)), 1
	})
}

func wordsBytes(words []uint16) []byte {
	b := make([]byte, 0, 2*len(words))
	for _, w := range words {
		b = append(b, byte(w>>8), byte(w))
	}
	return b
}

// onesAdd is one's-complement addition with end-around carry.
func onesAdd(a, b uint16) uint16 {
	s := uint32(a) + uint32(b)
	return uint16(s&0xffff + s>>16)
}
