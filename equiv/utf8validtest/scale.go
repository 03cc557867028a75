package utf8validtest

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// scale checks what only large texts and long use reach: Valid, a
// Validator and Unmask on texts of sizes around every power of two from
// 1 KiB to 4 MiB (64 MiB at Standard; equiv.ScaleSizes), each with one
// window of a boundary class (each lead-octet class, each truncation,
// each invalid sequence) just before, across or after a power of two or
// a quarter of the text (equiv.ScalePoints), judged by the oracle
// (oracle.go); single Writes and Unmasks of the whole and of one octet;
// a Reader over every kind of underlying reader on texts up to 1 MiB, in
// single Reads of the whole, of one octet and of the powers of two; a
// Validator and a Reader fed a long history of calls, then reused across
// Resets; and every function from two goroutines at once
// (equiv.Run.Overlap). Those parts come first, costing tens of
// milliseconds, and run on every shard and in every sample, so that each
// function meets every mechanism in any part of the method; then each
// size is a unit of Run.Mine, the largest first, so that one filler
// serves every size.
func (c *checker) scale(r *equiv.Run) error {
	sizes := equiv.ScaleSizes(r)
	slices.Sort(sizes)
	slices.Reverse(sizes)
	filler := scaleFiller(r, max(sizes[0], historyFiller))
	for _, part := range []func(*equiv.Run, []byte) error{c.scaleHistory, c.readerHistory, c.scaleOverlap} {
		if err := part(r, filler); err != nil {
			return err
		}
	}
	for i, n := range sizes {
		if !r.Mine(i) {
			continue
		}
		if err := c.scaleSize(r, filler, i, n); err != nil {
			return err
		}
	}
	return nil
}

// scaleFiller returns n octets of valid text: a tile of mixed characters
// (fillText, the grid's "mixed" class) of tileLen octets, whole
// characters, repeated. Drawing every character of megabytes would cost
// more than checking them.
func scaleFiller(r *equiv.Run, n int) []byte {
	tile := fillText(rand.New(rand.NewPCG(r.Config().Seed(), 0x5ca1e)), tileLen, nil)
	out := make([]byte, 0, n+tileLen)
	for len(out) <= n {
		out = append(out, tile...)
	}
	for i := n - 1; i >= 0 && continuation(out[n]); i-- {
		if !continuation(out[i]) {
			clear(out[i:n]) // a character the end cuts: NULs, ASCII
			break
		}
	}
	return out[:n:n]
}

// tileLen is the length of the filler's tile: odd, so that the tile's
// seams fall at every offset from the powers of two and the quarters.
const tileLen = 100003

// historyFiller is the least filler the scale method makes: what the
// histories read (equiv.History's lengths add up to about 1.5 MiB), even
// where the sizes stop below equiv.ScaleMin (the NoScale knob).
const historyFiller = 3 << 20

// readerMax is the longest text the scale method reads through a
// Reader: the reference's Reader, which judges it, unmasks and validates
// an octet at a time.
const readerMax = 1<<20 + 63

// window is a boundary class of content: octets a scale text carries
// over its filler at one of its points.
type window struct {
	name string
	data []byte
}

// windows are the scale method's boundary classes: each lead-octet class
// of RFC 3629 §4's ABNF in its extreme characters (the second-octet
// ranges of E0, ED, F0 and F4 at both ends), each invalid sequence
// (impossible octets, overlong forms, surrogates, above U+10FFFF, stray
// continuations, a lead cut by ASCII), and each truncation (a character
// cut after each of its octets but the last: at the text's end it is
// incomplete, elsewhere it fails at the octet after it).
//
// windows[1:1+multiOctetWindows] are the valid multi-octet classes: each
// size's first text has one across its middle (scaleSize).
var windows = []window{
	{"ascii", []byte{0x00, 'a', 0x7f, 'Z', 0x00, 0x7f}},
	{"C2..DF", []byte{0xc2, 0x80, 0xdf, 0xbf, 0xc2, 0x80, 0xdf, 0xbf, 0xc2, 0x80, 0xdf, 0xbf}},
	{"E0 A0..BF", []byte{0xe0, 0xa0, 0x80, 0xe0, 0xbf, 0xbf, 0xe0, 0xa0, 0x80, 0xe0, 0xbf, 0xbf}},
	{"E1..EC", []byte{0xe1, 0x80, 0x80, 0xec, 0xbf, 0xbf, 0xe1, 0x80, 0x80, 0xec, 0xbf, 0xbf}},
	{"ED 80..9F", []byte{0xed, 0x80, 0x80, 0xed, 0x9f, 0xbf, 0xed, 0x80, 0x80, 0xed, 0x9f, 0xbf}},
	{"EE..EF", []byte{0xee, 0x80, 0x80, 0xef, 0xbf, 0xbf, 0xee, 0x80, 0x80, 0xef, 0xbf, 0xbf}},
	{"F0 90..BF", []byte{0xf0, 0x90, 0x80, 0x80, 0xf0, 0xbf, 0xbf, 0xbf, 0xf0, 0x90, 0x80, 0x80}},
	{"F1..F3", []byte{0xf1, 0x80, 0x80, 0x80, 0xf3, 0xbf, 0xbf, 0xbf, 0xf1, 0x80, 0x80, 0x80}},
	{"F4 80..8F", []byte{0xf4, 0x80, 0x80, 0x80, 0xf4, 0x8f, 0xbf, 0xbf, 0xf4, 0x80, 0x80, 0x80}},
	{"impossible FF", []byte{0xff}},
	{"impossible F5", []byte{0xf5, 0x80, 0x80, 0x80}},
	{"overlong C0", []byte{0xc0, 0xaf}},
	{"overlong C1", []byte{0xc1, 0xbf}},
	{"overlong E0 80..9F", []byte{0xe0, 0x9f, 0xbf}},
	{"overlong F0 80..8F", []byte{0xf0, 0x8f, 0xbf, 0xbf}},
	{"surrogate ED A0..BF", []byte{0xed, 0xa0, 0x80}},
	{"above U+10FFFF", []byte{0xf4, 0x90, 0x80, 0x80}},
	{"stray continuation", []byte{0x80}},
	{"stray continuations", []byte{0xbf, 0xbf}},
	{"lead cut by ASCII", []byte{0xe1, 0x80, 'a'}},
	{"cut after 1 of 2", []byte{0xdf}},
	{"cut after 1 of 3", []byte{0xe0}},
	{"cut after 2 of 3", []byte{0xed, 0x9f}},
	{"cut after 1 of 4", []byte{0xf4}},
	{"cut after 2 of 4", []byte{0xf0, 0x90}},
	{"cut after 3 of 4", []byte{0xf3, 0xbf, 0xbf}},
}

const multiOctetWindows = 8

// scaleText is a scale method's text: a prefix of its filler, patched in
// place where a window is written over it or where a character is cut,
// and restored when done, so that one filler serves every size.
type scaleText struct {
	text  []byte
	saved []patch
	at    [][2]int // the windows written
}

// patch is what a write over the filler overwrote.
type patch struct {
	at  int
	old []byte
}

// newScaleText returns filler's first n octets as a text of whole
// characters: a character the end cuts becomes ASCII.
func newScaleText(filler []byte, n int) *scaleText {
	t := &scaleText{text: filler[:n]}
	if n < len(filler) && continuation(filler[n]) {
		lo := n
		for lo > 0 && continuation(filler[lo]) {
			lo--
		}
		t.over(lo, n, nil)
	}
	return t
}

// over writes w over text[lo:hi] (ASCII 'z' past w's end), saving what
// was there.
func (t *scaleText) over(lo, hi int, w []byte) {
	t.saved = append(t.saved, patch{lo, slices.Clone(t.text[lo:hi])})
	n := copy(t.text[lo:hi], w)
	for i := lo + n; i < hi; i++ {
		t.text[i] = 'z'
	}
}

// put writes w at offset at: the filler's character it starts inside
// becomes ASCII up to at, and the continuations of the one it ends
// inside become ASCII after it, so that the filler around it is whole
// characters and it is a window of the text's oracle.
func (t *scaleText) put(w []byte, at int) {
	lo := at
	for lo > 0 && lo < len(t.text) && continuation(t.text[lo]) {
		lo--
	}
	hi := at + len(w)
	for hi < len(t.text) && continuation(t.text[hi]) {
		hi++
	}
	t.over(lo, at, nil)
	t.over(at+len(w), hi, nil)
	t.over(at, at+len(w), w)
	t.at = append(t.at, [2]int{at, at + len(w)})
	slices.SortFunc(t.at, func(a, b [2]int) int { return a[0] - b[0] })
}

// restore undoes every patch, the last first.
func (t *scaleText) restore() {
	for i := len(t.saved) - 1; i >= 0; i-- {
		p := t.saved[i]
		copy(t.text[p.at:], p.old)
	}
	t.saved, t.at = t.saved[:0], t.at[:0]
}

// oracle is the text's oracle, as the text is now.
func (t *scaleText) oracle() *scaleOracle { return &scaleOracle{text: t.text, at: slices.Clone(t.at)} }

// scaleFuncs are the functions of the scale texts, of those the
// implementation has.
func (c *checker) scaleFuncs() []string {
	var out []string
	for _, fn := range []string{"Valid", "Validator", "Unmask"} {
		if c.has(fn) {
			out = append(out, fn)
		}
	}
	return out
}

// scaleSize checks texts of n octets, size number i: one input per point
// of equiv.ScalePoints (about eight at Quick, and half as many there from
// 1 MiB, where the method's time is, spread over the points), each with a
// window of the next boundary class at one of its points, but the first
// with a valid multi-octet class (the next in turn) across the middle,
// where a validator that works on the halves in parallel splits the text
// (a character it cuts is valid text), each given to one function
// in turn (Valid, a Validator, Unmask), placed flush against a page at
// the end, at the start, or neither, in turn (a turn that moves on for
// each function's next text, which then lies elsewhere: the same address
// again is equiv.Again's); a Validator's and Unmask's
// pieces are the whole text in one call, pieces ending at every power of
// two below n, or the window's first octet in a call of its own, in
// turn. Then, for n up to readerMax, a Reader.
func (c *checker) scaleSize(r *equiv.Run, filler []byte, i, n int) error {
	count := tally(r)
	rng := rand.New(rand.NewPCG(r.Config().Seed(), uint64(n)))
	fns := c.scaleFuncs()
	points := len(equiv.ScalePoints(r, rng, n, 4))
	inputs := points
	if n >= 1<<20 && r.Level() == equiv.Quick {
		inputs = (points + 1) / 2 // where the method's time is
	}
	for j := range inputs {
		w := windows[(i*points+j)%len(windows)]
		pts := equiv.ScalePoints(r, rng, n, len(w.data))
		if len(pts) == 0 || len(fns) == 0 {
			continue
		}
		at := pts[j*len(pts)/inputs%len(pts)]
		if j == 0 {
			w = windows[1+i%multiOctetWindows]
			at = n/2 - len(w.data)/2 - 1
		}
		t := newScaleText(filler, n)
		t.put(w.data, at)
		r.Reach("scale: " + w.name)
		in := Input{Func: fns[(i+j)%len(fns)], Text: t.text, Align: equiv.ScaleAlign(rng, n, j+j/3),
			Key: keyOf(i + j), Pos: j & 3, oracle: t.oracle()}
		if in.Func != "Valid" {
			in.Splits = scaleSplits((i+j/3)%3, n, at)
		}
		ce, compared := c.compare(in)
		t.restore()
		if ce != nil {
			ce.Args += scaleNote(w, at)
		}
		if err := count(ce, compared); err != nil {
			return err
		}
	}
	if n > readerMax || !c.has("Reader") {
		return nil
	}
	return c.scaleReader(r, filler, i, n, rng)
}

// scaleSplits returns the pieces of a text of n octets with a window at
// at, by way: one call of the whole, calls ending at every power of two
// below n, or the window's first octet in a call of its own.
func scaleSplits(way, n, at int) []int {
	switch way {
	case 1:
		var s []int
		for b := 64; b < n; b *= 2 {
			s = append(s, b)
		}
		return s
	case 2:
		return []int{at, min(at+1, n)}
	}
	return nil
}

// scaleNote says in a counterexample where the window lay.
func scaleNote(w window, at int) string {
	return " (scale: " + w.name + " at " + strconv.Itoa(at) + ")"
}

// readerKinds are the underlying readers of the scale method's Readers:
// every kind but the one-octet reader (each of whose Reads would place a
// p of the text's length: one-octet Reads are the histories'), and the
// Zero reader that only this method uses.
var readerKinds = []int{srcPlain, srcHalf, srcDataErr, srcTimeout, srcFails, srcNegative, srcTooMany, srcNested, srcZero}

// scaleReader reads a text of n octets, size number i, with a window at
// one of its points, through a Reader over the next kind of underlying
// reader (those that act at an offset acting at the window), in Reads of
// the whole (one Read of 32 KiB and more), of one octet and then the
// rest, or ending at the powers of two, in turn. The reference's Reader
// judges it whole.
func (c *checker) scaleReader(r *equiv.Run, filler []byte, i, n int, rng *rand.Rand) error {
	w := windows[(i*5)%len(windows)]
	pts := equiv.ScalePoints(r, rng, n, len(w.data))
	if len(pts) == 0 {
		return nil
	}
	at := pts[rng.IntN(len(pts))]
	t := newScaleText(filler, n)
	defer t.restore()
	t.put(w.data, at)
	kind := readerKinds[i%len(readerKinds)]
	key := keyOf(i)
	if kind == srcNested {
		key = [4]byte{}
	}
	splits := [][]int{nil, scaleSplits(1, n, at), {1}}[i/len(readerKinds)%3]
	in := Input{Func: "Reader", Text: t.text, Align: [3]int{0, -(n + 1) & 63, rng.IntN(64)}[i%3], Splits: splits, Key: key,
		Underlying: sourceName(kind, at), rc: readerCase{kind: kind, at: at, here: i%2 == 1}}
	ce, compared := c.compare(in)
	if ce != nil {
		ce.Args += scaleNote(w, at)
	}
	return tally(r)(ce, compared)
}

// scaleHistory feeds one Validator a long history of calls of mixed
// sizes (equiv.History: empty ones, single octets, 32 KiB and more), the
// filler's octets in order, every third one an Unmask of them masked
// when the Validator has it, comparing each call's results with the
// reference's Validator fed the same, and Close and Offset every 64
// calls; then the content that matters: a 4-octet character in three
// calls, a 3-octet one, and a surrogate, at which the text fails. Then it
// reuses the Validator, Reset before each, for every vector's text in
// two calls.
func (c *checker) scaleHistory(r *equiv.Run, filler []byte) error {
	if c.impl.NewValidator == nil {
		return nil
	}
	rng := rand.New(rand.NewPCG(r.Config().Seed(), 0x415))
	var ce *equiv.Counterexample
	c.h.Marking(equiv.MechHistory, func() {
		h := &history{c: c, v: c.newValidator(), key: keyOf(int(rng.Uint32()))}
		h.u, _ = h.v.(Unmasker)
		ce = h.run(r, rng, filler)
		if ce == nil {
			c.h.Marking(equiv.MechReuse, func() { ce = h.reuse(r) })
		}
	})
	if ce != nil {
		return r.Fail(ce)
	}
	return nil
}

// history is a Validator fed a long history, and the reference's fed the
// same.
type history struct {
	c     *checker
	v     Validator
	u     Unmasker // v, if it is one
	model ref.Validator
	key   [4]byte
	pos   int // the key position of the next Unmask
	calls int // calls made
	fed   int // octets given
	last  []byte
}

// run feeds h the history and the content that matters.
func (h *history) run(r *equiv.Run, rng *rand.Rand, filler []byte) *equiv.Counterexample {
	for n := range equiv.History(rng) {
		if p := h.step(filler[h.fed : h.fed+n]); p != "" {
			return h.failure(p)
		}
		if h.calls%64 == 0 {
			if p := h.check(); p != "" {
				return h.failure(p)
			}
		}
		r.Count(1)
	}
	end := h.fed
	for end < len(filler) && continuation(filler[end]) {
		end++
	}
	content := [][]byte{filler[h.fed:end], {0xf0, 0x9f}, {0x98}, {0x80, 0xe2, 0x82, 0xac}, {'a', 0xed, 0xa0, 0x80}, {'b'}}
	for _, data := range content {
		if p := h.step(data); p != "" {
			return h.failure(p)
		}
		if p := h.check(); p != "" {
			return h.failure(p)
		}
	}
	r.Count(1)
	return nil
}

// reuse checks h's Validator, Reset before each, on every vector's text
// in two calls, as a new Validator would be.
func (h *history) reuse(r *equiv.Run) *equiv.Counterexample {
	for _, vec := range vectors {
		h.c.reset(h.v)
		h.model.Reset()
		half := len(vec.text) / 2
		for _, data := range [][]byte{vec.text[:half], vec.text[half:]} {
			if p := h.step(data); p != "" {
				return h.failure("reused after Reset: " + p)
			}
		}
		if p := h.check(); p != "" {
			return h.failure("reused after Reset: " + p)
		}
		r.Count(1)
	}
	return nil
}

// step gives data to both Validators, as a Write or, every third call
// when the Validator has it, an Unmask of data masked, placed by the
// harness at an alignment that moves with the calls; it describes a
// disagreement, or returns "".
func (h *history) step(data []byte) string {
	align := h.calls * 7 & 63
	h.last = data
	defer func() { h.calls, h.fed = h.calls+1, h.fed+len(data) }()
	if h.u != nil && h.calls%3 == 2 {
		return h.unmask(data, align)
	}
	k := h.c.h.Call(cWrite)
	defer k.End()
	b := k.Bytes(0, data, align)
	var n int
	var err error
	if p := k.Do(func() { n, err = h.v.Write(b) }); p != nil {
		return fmt.Sprintf("Write(%d octets) panicked: %v", len(data), p.Value)
	}
	wn, werr := h.model.Write(data)
	if n != wn || !h.c.cfg.SameError(err, werr) {
		return fmt.Sprintf("Write(%d octets) = %d, %s, want %d, %s", len(data), n, errName(err), wn, errName(werr))
	}
	if f := k.Flaw(); f != "" {
		return fmt.Sprintf("Write(%d octets %s) %s", len(data), k.Layout(0), f)
	}
	return ""
}

// unmask is step's Unmask.
func (h *history) unmask(data []byte, align int) string {
	wire := masked(data, h.key, h.pos)
	k := h.c.h.Call(cUnmask)
	defer k.End()
	b := k.Bytes(0, wire, align)
	var next, n int
	var err error
	if p := k.Do(func() { next, n, err = h.u.Unmask(b, h.key, h.pos) }); p != nil {
		return fmt.Sprintf("Unmask(%d octets, pos %d) panicked: %v", len(data), h.pos, p.Value)
	}
	wnext, wn, werr := h.model.Unmask(wire, h.key, h.pos)
	switch {
	case next != wnext || n != wn || !h.c.cfg.SameError(err, werr):
		return fmt.Sprintf("Unmask(%d octets, pos %d) = %d, %d, %s, want %d, %d, %s", len(data), h.pos, next, n, errName(err), wnext, wn, errName(werr))
	case !bytes.Equal(b, data):
		return fmt.Sprintf("Unmask(%d octets, pos %d) left %s, want %s", len(data), h.pos, equiv.HexAt(b, -1), equiv.HexAt(data, -1))
	}
	h.pos = wnext
	if f := k.Flaw(); f != "" {
		return fmt.Sprintf("Unmask(%d octets %s) %s", len(data), k.Layout(0), f)
	}
	return ""
}

// check compares Close and Offset with the reference's.
func (h *history) check() string {
	if got, want := h.c.closeOf(h.v), h.model.Close(); !h.c.cfg.SameError(got, want) {
		return fmt.Sprintf("Close() = %s, want %s", errName(got), errName(want))
	}
	if got, want := h.c.offsetOf(h.v), h.model.Offset(); got >= 0 && got != want {
		return fmt.Sprintf("Offset() = %d, want %d", got, want)
	}
	return ""
}

// failure is the counterexample of a disagreement after h's calls: the
// history cannot be replayed by one fuzz input, so it has no fuzz form.
func (h *history) failure(problem string) *equiv.Counterexample {
	return &equiv.Counterexample{Func: "Validator", Input: bytes.Clone(h.last),
		Args: fmt.Sprintf("the last of %d calls (Writes, and Unmasks of key %x) of %d octets in all, the filler's in order", h.calls, h.key, h.fed),
		Got:  problem, Want: "the reference Validator's results"}
}

// readerHistory reads, through one Reader, a message of frames of the
// filler's octets in order, each masked with a key of its own and handed
// out by an underlying reader of the next kind (all but the nested one,
// those that act at an offset acting somewhere in the frame), in a long
// history of Reads of mixed sizes (equiv.History: empty ones, single
// octets, 32 KiB and more), comparing each Read's results, the octets it
// returned and what it left in p with the reference's Reader given the
// same; each frame's reader ended, Reset starts the next. Then the
// content that matters: a frame ending inside a character, the next
// completing it and failing at a surrogate. Then it reuses the Reader,
// its Validator Reset, for every vector's text.
func (c *checker) readerHistory(r *equiv.Run, filler []byte) error {
	if c.impl.NewReader == nil {
		return nil
	}
	rng := rand.New(rand.NewPCG(r.Config().Seed(), 0x4ead))
	var ce *equiv.Counterexample
	c.h.Marking(equiv.MechHistory, func() {
		h := &readerHist{s: &implSide{c: c}, mv: new(ref.Validator), rng: rng, filler: filler}
		h.v = h.s.newValidator()
		if ce = h.start(); ce == nil {
			ce = h.run(r)
		}
		if ce == nil {
			c.h.Marking(equiv.MechReuse, func() { ce = h.reuse(r) })
		}
	})
	if ce != nil {
		return r.Fail(ce)
	}
	return nil
}

// readerHistKinds are the underlying readers of readerHistory's frames.
var readerHistKinds = []int{srcPlain, srcOneByte, srcHalf, srcDataErr, srcTimeout, srcFails, srcNegative, srcTooMany, srcZero}

// readerHist is a Reader given a long history, and the reference's given
// the same.
type readerHist struct {
	s      *implSide
	v      Validator
	rd     Reader
	mv     *ref.Validator
	model  *ref.Reader
	rng    *rand.Rand
	filler []byte
	fed    int // the filler's octets in frames so far
	frames int
	reads  int
	frame  string // the current frame's reader, for messages
	// auto has a Read that ends its frame's reader start the next frame
	// (in the history; the content and the reuse Reset themselves).
	auto bool
}

// start makes the Reader and the reference's over the first frame.
func (h *readerHist) start() *equiv.Counterexample {
	key := keyOf(h.rng.IntN(1 << 20))
	a, b := h.nextFrame(key)
	p := equiv.Catch(func() { h.rd = h.s.newReader(a, key, h.v) })
	if p != nil {
		return h.failure(fmt.Sprintf("NewReader panicked: %v", p.Value), nil)
	}
	h.model = ref.NewReader(b, key, h.mv)
	return nil
}

// nextFrame returns two readers, the implementation's and the
// reference's, of the next kind over the next frame of the filler (1 to
// 128 Ki octets) masked with key.
func (h *readerHist) nextFrame(key [4]byte) (io.Reader, io.Reader) {
	n := min(1+h.rng.IntN(128<<10), len(h.filler)-h.fed)
	wire := masked(h.filler[h.fed:h.fed+n], key, 0)
	h.fed += n
	kind, at := readerHistKinds[h.frames%len(readerHistKinds)], h.rng.IntN(n+1)
	h.frames++
	h.s.edge, h.frame = ioEdge(kind), sourceName(kind, at)
	return newSource(kind, at, wire, nil), newSource(kind, at, wire, nil)
}

// run reads the history, then the content that matters, its Validator
// Reset first (the history's last frame may have ended inside a
// character, or not been read to its end).
func (h *readerHist) run(r *equiv.Run) *equiv.Counterexample {
	h.auto = true
	for n := range equiv.History(h.rng) {
		if h.fed >= len(h.filler) {
			break
		}
		if ce := h.read(n); ce != nil {
			return ce
		}
		r.Count(1)
	}
	h.auto = false
	h.s.c.reset(h.v)
	h.mv.Reset()
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	for _, frame := range [][]byte{{'o', 'k', 0xf0, 0x9f}, {0x98, 0x80, 'a', 0xed, 0xa0, 0x80, 'b'}} {
		if ce := h.reset(masked(frame, key, 0), key); ce != nil {
			return ce
		}
		for range 3 {
			if ce := h.read(len(frame) + 1); ce != nil {
				return ce
			}
		}
	}
	r.Count(1)
	return h.verdict()
}

// read makes one Read of size octets of both Readers (the
// implementation's p placed by the harness at an alignment that moves
// with the Reads) and compares them; when the reference's says the
// frame's reader has ended, both are Reset to the next frame.
func (h *readerHist) read(size int) *equiv.Counterexample {
	h.s.align = h.reads * 5 & 63
	h.reads++
	n, err, got, tail, p := h.s.read(h.rd, size)
	wn, werr, wgot, wtail, _ := refSide{}.read(h.model, size)
	switch {
	case p != nil:
		return h.failure(fmt.Sprintf("Read(%d octets) panicked: %v", size, p.Value), p)
	case n != wn || !h.s.c.cfg.SameError(err, werr) || !bytes.Equal(got, wgot) || !bytes.Equal(tail, wtail):
		return h.failure(fmt.Sprintf("Read(%d octets) = %d, %s, %s, leaving %s; want %d, %s, %s, leaving %s", size,
			n, errName(err), equiv.HexAt(got, -1), equiv.HexAt(tail, -1), wn, errName(werr), equiv.HexAt(wgot, -1), equiv.HexAt(wtail, -1)), nil)
	case h.s.wrong != "":
		return h.failure(fmt.Sprintf("Read(%d octets) %s", size, h.s.wrong), nil)
	}
	if !h.auto || goesOn(werr) || h.fed >= len(h.filler) {
		return nil
	}
	key := keyOf(h.rng.IntN(1 << 20))
	a, b := h.nextFrame(key)
	return h.resetTo(a, b, key)
}

// reset starts a new frame of wire, masked with key, over plain readers.
func (h *readerHist) reset(wire []byte, key [4]byte) *equiv.Counterexample {
	h.s.edge, h.frame = false, sourceName(srcPlain, 0)
	return h.resetTo(bytes.NewReader(wire), bytes.NewReader(wire), key)
}

// resetTo Resets both Readers to their new readers.
func (h *readerHist) resetTo(a, b io.Reader, key [4]byte) *equiv.Counterexample {
	if p := equiv.Catch(func() { h.s.reset(h.rd, a, key) }); p != nil {
		return h.failure(fmt.Sprintf("Reset panicked: %v", p.Value), p)
	}
	h.model.Reset(b, key)
	return nil
}

// verdict compares the Validators' Close and Offset.
func (h *readerHist) verdict() *equiv.Counterexample {
	if got, want := h.s.close(h.v), h.mv.Close(); !h.s.c.cfg.SameError(got, want) {
		return h.failure(fmt.Sprintf("the Validator's Close() = %s, want %s", errName(got), errName(want)), nil)
	}
	if got, want := h.s.offset(h.v), h.mv.Offset(); got >= 0 && got != want {
		return h.failure(fmt.Sprintf("the Validator's Offset() = %d, want %d", got, want), nil)
	}
	return nil
}

// reuse checks h's Reader, its Validator Reset and a Reset to a plain
// reader before each, on every vector's text read whole, as a new Reader
// would be.
func (h *readerHist) reuse(r *equiv.Run) *equiv.Counterexample {
	for i, vec := range vectors {
		h.s.c.reset(h.v)
		h.mv.Reset()
		key := keyOf(i)
		if ce := h.reset(masked(vec.text, key, 0), key); ce != nil {
			return ce
		}
		for range 2 {
			if ce := h.read(len(vec.text) + 1); ce != nil {
				return ce
			}
		}
		if ce := h.verdict(); ce != nil {
			return ce
		}
		r.Count(1)
	}
	return nil
}

// failure is the counterexample of a disagreement after h's Reads, which
// no one fuzz input replays.
func (h *readerHist) failure(problem string, p *equiv.Panic) *equiv.Counterexample {
	return &equiv.Counterexample{Func: "Reader",
		Args: fmt.Sprintf("Read number %d, in frame %d over %s, of a message of %d octets so far, the filler's in order", h.reads, h.frames, h.frame, h.fed),
		Got:  problem, Want: "the reference Reader's results", Stack: equiv.StackOf(p)}
}

// scaleOverlap checks, from two goroutines released together for each
// round, every function on a text of up to 256 KiB of filler (each
// lane's and round's its own, odd and even lengths by turns) with a
// window of the next class at one of its points, and a Reader on its
// first 64 KiB: each lane's first call of the implementation in a round
// waits for the other's (equiv.Harness.Before), its input placed and the
// reference's result computed, so that the two start together, and
// every function runs while another call of it is in flight.
func (c *checker) scaleOverlap(r *equiv.Run, filler []byte) error {
	m := min(len(filler)/4, 256<<10)
	var lanes []*checker
	err := r.Overlap(equiv.Pick(r, 16, 32, 128), func(cfg *equiv.Config) func(lane, round int, wait func()) (int, error) {
		lc := newChecker(c.impl, cfg)
		lanes = append(lanes, lc)
		own := make([]byte, m+1) // and the octet after, to see whether the text cuts a character
		return func(lane, round int, wait func()) (int, error) {
			ins := overlapInputs(filler, own, lane, round)
			lc.h.Before(wait)
			var ce *equiv.Counterexample
			compared := 0
			for _, in := range ins {
				var k int
				if ce, k = lc.compare(in); ce != nil {
					break
				}
				compared += k
			}
			if lc.h.Before(nil) {
				wait() // no call ran: the other lane must not wait for this one
			}
			if ce != nil {
				return compared, ce
			}
			return compared, nil
		}
	})
	for _, lc := range lanes {
		lc.release()
	}
	if err == nil {
		return nil
	}
	if ce, ok := err.(*equiv.Counterexample); ok {
		return r.Fail(ce)
	}
	return r.Errorf("%v", err)
}

// overlapInputs are a lane's inputs in a round: the filler from an offset
// of the lane's and the round's, copied to own (lanes share the filler,
// which a text patches), with a window at one of its points.
func overlapInputs(filler, own []byte, lane, round int) []Input {
	off := (lane*len(filler)/2 + round*4099) % (len(filler) - len(own) + 1)
	copy(own, filler[off:])
	for i := 0; i < len(own) && continuation(own[i]); i++ {
		own[i] = 'z' // the filler from a character boundary
	}
	n := len(own) - 1 - round%2
	t := newScaleText(own, n)
	w := windows[(2*round+lane)%len(windows)]
	at := [3]int{n / 2, n/2 - len(w.data)/2 - 1, n / 4}[round%3]
	t.put(w.data, max(at, 0))
	o, key := t.oracle(), keyOf(round)
	splits := scaleSplits(round%3, n, at)
	rc := readerCase{kind: readerKinds[round%len(readerKinds)], at: at % (64 << 10), here: lane == 1}
	rkey := key
	if rc.kind == srcNested {
		rkey = [4]byte{}
	}
	rtext := t.text[:min(n, 64<<10)]
	return []Input{
		{Func: "Valid", Text: t.text, Align: round & 63, oracle: o},
		{Func: "Validator", Text: t.text, Align: round & 63, Splits: splits, oracle: o},
		{Func: "Unmask", Text: t.text, Align: round & 63, Splits: splits, Key: key, Pos: round & 3, oracle: o},
		{Func: "Reader", Text: rtext, Align: round & 63, Splits: clamp(splits, len(rtext)), Key: rkey,
			Underlying: sourceName(rc.kind, rc.at), rc: rc},
	}
}
