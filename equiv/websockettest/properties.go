package websockettest

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"pgregory.net/rapid"

	"github.com/equivcheck/equivcheck/equiv"
)

// properties runs the differential rapid property, the chunking state
// machine, the gopter laws of the implementation alone, and the
// streamers' state machines (last, so that the others draw as they did
// before those existed). Run.Property and Run.Law count every case
// themselves.
func (c *checker) properties(r *equiv.Run) error {
	checks := equiv.Pick(r, 300, 3000, 30000)
	c.expectLens(r, "len=1Ki..64Ki-1")
	if err := r.Property("differential", checks, c.differential); err != nil {
		return err
	}
	if err := r.Property("chunking state machine", checks/3, c.chunking); err != nil {
		return err
	}
	for _, l := range c.laws() {
		if err := r.Law(l.name, checks, l.prop); err != nil {
			return err
		}
	}
	return c.streamMachines(r, checks/3)
}

// maxDraws bounds the draws of one property case: a case whose every call
// is out of scope (see Exclude) is drawn again, so that the cases
// Run.Property counts are cases compared.
const maxDraws = 16

// sizeClasses are the ranges of payload lengths the properties draw
// from, a class first and then a length in it, so that every path of the
// optimized code is reached (a bare rapid.SliceOfN draws about 5 octets
// on average and never reaches the loops past 128).
var sizeClasses = [][2]int{{0, 7}, {8, 31}, {32, 128}, {129, 320}, {321, 1023}, {1024, 1 << 20}}

// drawPayload draws a size class, a length in it up to longest, and the
// payload: octet by octet up to 32 octets, so that rapid shrinks them;
// longer ones from a drawn seed (the suite's checks shrink those).
func drawPayload(t *rapid.T, longest int) []byte {
	class := sizeClasses[rapid.IntRange(0, len(sizeClasses)-1).Draw(t, "size class")]
	n := rapid.IntRange(min(class[0], longest), min(class[1], longest)).Draw(t, "len")
	if n <= 32 {
		return rapid.SliceOfN(rapid.Byte(), n, n).Draw(t, "payload")
	}
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), uint64(n)))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

func drawKey(t *rapid.T) [4]byte { return keyBytes(rapid.Uint32().Draw(t, "key")) }

func drawPos(t *rapid.T) int {
	return rapid.OneOf(rapid.IntRange(-8, 8), rapid.Int(), rapid.SampledFrom(positions)).Draw(t, "pos")
}

// differential compares Mask and MaskCopy with the reference on a drawn
// payload (up to 4·GridLen bytes), key, pos and alignments.
func (c *checker) differential(t *rapid.T) error {
	for range maxDraws {
		b := drawPayload(t, 4*GridLen)
		key, pos := drawKey(t), drawPos(t)
		align, dstAlign := rapid.IntRange(0, 63).Draw(t, "align"), rapid.IntRange(0, 63).Draw(t, "dstAlign")
		ce, compared := c.checkBoth(b, key, pos, align, dstAlign)
		if ce != nil {
			return ce
		}
		if compared {
			return nil
		}
	}
	return nil
}

// chunking masks one drawn payload (up to 2·GridLen bytes) in a drawn
// number of calls of drawn lengths (empty ones included), each starting at
// the position the previous call returned; after every call, the masked
// prefix and the position must equal one reference call over that prefix.
func (c *checker) chunking(t *rapid.T) error {
	for range maxDraws {
		payload := drawPayload(t, 2*GridLen)
		key, pos := drawKey(t), drawPos(t)
		ce, compared := c.chunkSteps(t, payload, key, pos)
		if ce != nil {
			return ce
		}
		if compared {
			return nil
		}
	}
	return nil
}

// chunkSteps is one run of the state machine. A call out of scope ends
// it; it compared something if it made a call. The payload is placed
// once, as Mask's contract says, and each call masks a piece of it.
func (c *checker) chunkSteps(t *rapid.T, payload []byte, key [4]byte, pos int) (*equiv.Counterexample, bool) {
	k := c.h.Call(cMask)
	defer k.End()
	b := k.Bytes(0, payload, 0)
	done, next := 0, pos
	var bounds []int // where each call ended
	for range rapid.IntRange(1, 32).Draw(t, "steps") {
		rest := len(b) - done
		n := rapid.OneOf(rapid.IntRange(0, min(rest, 8)), rapid.IntRange(0, rest)).Draw(t, "n")
		at := pos // the position the reference passes to this call
		if len(bounds) > 0 {
			at = (pos + done) & 3
		}
		if equiv.Excluded(c.cfg, Input{Func: "Mask", Payload: b[done : done+n], Key: key, Pos: at}) {
			break
		}
		c.size(n)
		if len(bounds) > 0 {
			c.h.Note(cMask)
		}
		piece := b[done : done+n]
		var o outcome
		o.p = k.Do(func() { o.next = c.impl.Mask(piece, key, next) })
		done += n
		bounds = append(bounds, done)
		got, want := outcome{out: b[:done], next: o.next, p: o.p}, refMask(payload[:done], key, pos)
		if o.p == nil {
			got.wrong = k.Flaw()
		}
		if !c.agree(got, want) {
			return c.chunkFailure(payload[:done], key, pos, bounds, got, want), true
		}
		if o.p != nil {
			break // both panicked: nothing more to compare
		}
		next = o.next
	}
	return nil, len(bounds) > 0
}

// chunkFailure is the counterexample for a failed run of the state
// machine, minimized by checkChunked when it reproduces.
func (c *checker) chunkFailure(payload []byte, key [4]byte, pos int, bounds []int, got, want outcome) *equiv.Counterexample {
	cuts := bounds[:len(bounds)-1] // the boundaries between calls
	if ce, _ := c.checkChunked(payload, key, pos, cuts); ce != nil {
		return ce
	}
	return chunkSite(payload, key, pos, cuts).failure(got, want)
}

// law is a gopter property of the implementation alone.
type law struct {
	name string
	prop gopter.Prop
}

// lawCase is one generated case of a law.
type lawCase struct {
	b   []byte
	key [4]byte
	pos int
}

// laws are the algebraic laws of masking, on gopter-generated payloads,
// keys and positions; the MaskCopy law only if there is a MaskCopy.
func (c *checker) laws() []law {
	laws := []law{
		{"masking is its own inverse", c.lawProp(c.selfInverse, maskCall)},
		{"Mask(b, key, pos) equals masking from position 0 with the key rotated by pos",
			c.lawProp(c.rotation, maskCall, func(lc lawCase) Input { return Input{Func: "Mask", Payload: lc.b, Key: rotate(lc.key, lc.pos)} })},
		{"the returned position is (pos+len(b))&3", c.lawProp(c.nextPos, maskCall)},
		{"masking with the zero key changes nothing",
			c.lawProp(c.zeroKey, func(lc lawCase) Input { return Input{Func: "Mask", Payload: lc.b, Pos: lc.pos} })},
	}
	if c.impl.MaskCopy != nil {
		laws = append(laws, law{"MaskCopy equals copy then Mask", c.lawProp(c.copyThenMask, maskCall,
			func(lc lawCase) Input {
				return Input{Func: "MaskCopy", Payload: lc.b, Dst: make([]byte, len(lc.b)+3), Key: lc.key, Pos: lc.pos}
			})})
	}
	return laws
}

// lawProp is the gopter property that holds checks on every case whose
// calls (the implementation calls the law makes, known in advance) are in
// scope. A case with a call out of scope fails the generator's sieve: it
// is discarded, neither checked nor counted, nor shrunk into.
func (c *checker) lawProp(holds func(lawCase) bool, calls ...func(lawCase) Input) gopter.Prop {
	cases := gopter.CombineGens(gen.SliceOf(gen.UInt8()), gen.UInt32().Map(keyBytes), gen.Int()).
		SuchThat(func(v []any) bool {
			for _, call := range calls {
				if equiv.Excluded(c.cfg, call(caseOf(v))) {
					return false
				}
			}
			return true
		})
	return prop.ForAll(func(v []any) bool { return holds(caseOf(v)) }, cases.WithLabel("(b,key,pos)"))
}

func caseOf(v []any) lawCase {
	return lawCase{b: v[0].([]byte), key: v[1].([4]byte), pos: v[2].(int)}
}

func maskCall(lc lawCase) Input { return Input{Func: "Mask", Payload: lc.b, Key: lc.key, Pos: lc.pos} }

// rotate returns key rotated left by pos&3 octets: masking from position
// 0 with it is masking from pos with key.
func rotate(key [4]byte, pos int) [4]byte {
	var rot [4]byte
	for i := range rot {
		rot[i] = key[(pos+i)&3]
	}
	return rot
}

// implMask masks a copy of b with the implementation, placed as Mask's
// contract says at an alignment that moves with b's length. A panic is
// raised again, and a call that wrote outside b panics saying so: gopter
// reports either as the law's error.
func (c *checker) implMask(b []byte, key [4]byte, pos int) ([]byte, int) {
	k := c.h.Call(cMask)
	defer k.End()
	align := len(b) * 5 & 63
	p := k.Bytes(0, b, align)
	o := c.callMask(k, p, key, pos)
	if o.p != nil {
		panic(o.p.Value)
	}
	if o.wrong != "" {
		panic(fmt.Sprintf("Mask(len=%d %s) %s", len(b), layout(equiv.Writes, len(b), align, 0), o.wrong))
	}
	return bytes.Clone(p), o.next
}

// selfInverse: masking twice restores b. (The second call is the first
// one's twin on the masked octets.)
func (c *checker) selfInverse(lc lawCase) bool {
	m, _ := c.implMask(lc.b, lc.key, lc.pos)
	back, _ := c.implMask(m, lc.key, lc.pos)
	return bytes.Equal(back, lc.b)
}

func (c *checker) rotation(lc lawCase) bool {
	m1, _ := c.implMask(lc.b, lc.key, lc.pos)
	m2, _ := c.implMask(lc.b, rotate(lc.key, lc.pos), 0)
	return bytes.Equal(m1, m2)
}

func (c *checker) nextPos(lc lawCase) bool {
	_, next := c.implMask(lc.b, lc.key, lc.pos)
	return next == (lc.pos+len(lc.b))&3
}

func (c *checker) zeroKey(lc lawCase) bool {
	m, _ := c.implMask(lc.b, [4]byte{}, lc.pos)
	return bytes.Equal(m, lc.b)
}

// copyThenMask: MaskCopy into a longer dst writes Mask's octets and
// position into dst[:len(b)] and nothing after. dst is placed as
// MaskCopy's contract says (its last 3 octets, zeros, past the prefix
// it may write) and src likewise, at alignments that move with b's
// length.
func (c *checker) copyThenMask(lc lawCase) bool {
	n := len(lc.b)
	dstAlign, align := n*3&63, n*7&63
	k := c.h.Call(cMaskCopy)
	dst := k.Prefix(0, make([]byte, n+3), dstAlign, n)
	src := k.Bytes(1, lc.b, align)
	o := c.callMaskCopy(k, dst, src, lc.key, lc.pos)
	got := bytes.Clone(dst)
	k.End()
	if o.p != nil {
		panic(o.p.Value)
	}
	if o.wrong != "" {
		panic(fmt.Sprintf("MaskCopy(len(dst)=%d %s, len(src)=%d %s) %s", n+3, layout(equiv.WritesPrefix, n+3, dstAlign, n), n, layout(equiv.Reads, n, align, 0), o.wrong))
	}
	m, wantNext := c.implMask(lc.b, lc.key, lc.pos)
	return o.next == wantNext && bytes.Equal(got[:n], m) && bytes.Equal(got[n:], []byte{0, 0, 0})
}
