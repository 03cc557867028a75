package utf8validtest

import (
	"bytes"
	"errors"
	"io"
	"testing/iotest"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/internal/iosource"
	"github.com/equivcheck/equivcheck/internal/contractknob"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
	"github.com/equivcheck/equivcheck/reference/websocket"
)

// The kinds of reader under a Reader: how it hands out the wire octets.
// The first five are testing/iotest's behaviours (and bytes.Reader's) and
// act alone; the next three act once, at the offset the input names; the
// last is a Reader of the implementation's own.
const (
	srcPlain    = iota // bytes.Reader: as much as p holds, then 0, io.EOF
	srcOneByte         // iotest.OneByteReader: the 1-octet fragments of Autobahn 6.3.2
	srcHalf            // iotest.HalfReader
	srcDataErr         // iotest.DataErrReader: io.EOF with the last octets
	srcTimeout         // iotest.TimeoutReader: 0, ErrTimeout on the second Read
	srcFails           // the octets up to the offset, the last with errBroken; then 0, errBroken
	srcNegative        // -1, nil once, from the first Read at or past the offset
	srcTooMany         // fills p and returns len(p)+1, nil once, likewise
	srcNested          // the wire read through a Reader of the implementation's own, unmasked frames
	numSources
	// srcZero, past the kinds a fuzz plan names (decodePlan reads them
	// mod numSources), is the scale method's alone: 0, nil once, from the
	// first Read at or past the offset.
	srcZero = numSources
)

// errBroken is the error of the suite's failing reader.
var errBroken = errors.New("utf8validtest: broken pipe")

// sourceName names a reader kind acting at offset at.
func sourceName(kind, at int) string {
	if kind == srcNested {
		return "a Reader of its own"
	}
	return sourceKinds[kind].Name(at)
}

// sourceKinds maps this suite's reader kinds, but srcNested, to iosource's.
var sourceKinds = [...]iosource.Kind{iosource.Plain, iosource.OneByte, iosource.Half, iosource.DataErr,
	iosource.Timeout, iosource.Fails, iosource.Negative, iosource.TooMany, srcZero: iosource.Zero}

// readerCase is what a Reader input reads: the text masked with key on the
// wire, over a reader of kind acting at at, in Reads ending at the splits
// (then of len+1 octets until the stream is over), after a warm-up frame
// of three octets under the complement key and a Reset, to the same
// reader (here) or a new one.
type readerCase struct {
	kind, at int
	here     bool
}

// newSource returns a reader of kind over wire, a nested one over
// impl's Reader (the wire is then unmasked: nested frames have key 0).
// The NoIOEdges knob makes every kind but the nested one a plain reader.
func newSource(kind, at int, wire []byte, newReader func(io.Reader) io.Reader) io.Reader {
	switch {
	case kind == srcNested:
		return newReader(bytes.NewReader(wire))
	case !ioEdge(kind):
		return bytes.NewReader(wire)
	}
	return iosource.New(sourceKinds[kind], at, wire, errBroken)
}

// ioEdge reports whether a reader of kind hands out its octets in one of
// io.Reader's forms beyond a plain reader's (equiv.MechIOEdges): short
// Reads, data with an error, 0 and nil, an error, a count out of range.
func ioEdge(kind int) bool {
	return kind != srcPlain && kind != srcNested && !contractknob.NoIOEdges.Load()
}

// goesOn reports whether a stream goes on after a Read returned err.
func goesOn(err error) bool {
	return err == nil || err == iotest.ErrTimeout || err == websocket.ErrInvalidRead
}

// warmText is the warm-up frame's text: the first octets of a character,
// which the Validator carries into the case's frame.
var warmText = []byte{'o', 'k', 0xC3}

// side is what reads runs a Reader input on: the implementation's
// functions, each call through the harness (implSide), or the
// reference's (refSide).
type side interface {
	newValidator() Validator
	newReader(r io.Reader, key [4]byte, v Validator) Reader
	reset(r Reader, src io.Reader, key [4]byte)
	// read makes one Read of size octets and returns its results, the
	// octets it returned and what it left in p past them, or the panic
	// it raised.
	read(r Reader, size int) (n int, err error, got, tail []byte, p *equiv.Panic)
	close(v Validator) error
	offset(v Validator) int64
}

// reads runs a Reader input on s: each Read's n and error, the octets
// read, and the Validator's Close and Offset.
func reads(in Input, s side) (t transcript) {
	rc := in.rc
	v := s.newValidator()
	nested := func(r io.Reader) io.Reader { return s.newReader(r, in.Key, s.newValidator()) }
	warmKey := [4]byte{^in.Key[0], ^in.Key[1], ^in.Key[2], ^in.Key[3]}
	wire := masked(in.Text, in.Key, 0)
	warm := masked(warmText, warmKey, 0)
	var src io.Reader
	var r Reader
	if rc.here {
		src = newSource(rc.kind, rc.at+len(warm), append(warm, wire...), nested)
		r = s.newReader(src, warmKey, v)
	} else {
		r = s.newReader(bytes.NewReader(warm), warmKey, v)
		src = newSource(rc.kind, rc.at, wire, nested)
	}
	n, err, _, tail, p := s.read(r, len(warm))
	t.calls = append(t.calls, call{n: n, err: err, tail: tail})
	if t.p = p; p != nil {
		return t
	}
	s.reset(r, src, in.Key)
	sizes := in.pieces()
	for i := range len(sizes) + len(in.Text) + 8 {
		size := len(in.Text) + 1
		if i < len(sizes) {
			size = sizes[i][1] - sizes[i][0]
		}
		n, err, got, tail, p := s.read(r, size)
		t.calls = append(t.calls, call{n: n, err: err, tail: tail})
		if t.p = p; p != nil {
			return t
		}
		t.out = append(t.out, got...)
		if !goesOn(err) {
			break
		}
	}
	t.close = s.close(v)
	t.offset = s.offset(v)
	return t
}

// implSide is the implementation's side of a Reader input, whose every p
// the harness places at align (or the guard site does) filled with
// canaries: what a Read leaves in p past the octets it returns (its
// tail) must be what the reference's leaves, that is, what the
// underlying reader left. A Read over a reader of an edge kind counts as
// one of equiv.MechIOEdges.
type implSide struct {
	c     *checker
	align int
	edge  bool   // the underlying reader is of an edge kind
	wrong string // the first memory flaw a Read made
}

func (s *implSide) newValidator() Validator { return s.c.newValidator() }

func (s *implSide) newReader(r io.Reader, key [4]byte, v Validator) Reader {
	s.c.h.Note(cNewReader)
	return s.c.impl.NewReader(r, key, v)
}

func (s *implSide) reset(r Reader, src io.Reader, key [4]byte) {
	s.c.h.Note(cReadReset)
	r.Reset(src, key)
}

func (s *implSide) read(r Reader, size int) (n int, err error, got, tail []byte, pn *equiv.Panic) {
	k := s.c.h.Call(cRead)
	defer k.End()
	p := s.c.slot(k, size, s.align)
	if s.edge {
		k.Mark(equiv.MechIOEdges)
	}
	if pn = k.Do(func() { n, err = r.Read(p) }); pn != nil {
		return 0, nil, nil, nil, pn
	}
	if s.wrong == "" {
		s.wrong = s.c.flaw(k)
	}
	if n < 0 || n > len(p) {
		return n, err, nil, bytes.Clone(p), nil
	}
	return n, err, bytes.Clone(p[:n]), bytes.Clone(p[n:]), nil
}

func (s *implSide) close(v Validator) error  { return s.c.closeOf(v) }
func (s *implSide) offset(v Validator) int64 { return s.c.offsetOf(v) }

// read runs a Reader input on the implementation.
func (c *checker) read(in Input) (t transcript) {
	s := &implSide{c: c, align: in.Align, edge: ioEdge(in.rc.kind)}
	p := equiv.Catch(func() { c.atScale(len(in.Text), func() { t = reads(in, s) }) })
	if p != nil {
		t.p = p
	}
	if t.p == nil {
		t.wrong = s.wrong
	}
	return t
}

// refSide is the reference's side of a Reader input.
type refSide struct{}

func (refSide) newValidator() Validator { return new(ref.Validator) }

func (refSide) newReader(r io.Reader, key [4]byte, v Validator) Reader {
	return ref.NewReader(r, key, v.(*ref.Validator))
}

func (refSide) reset(r Reader, src io.Reader, key [4]byte) { r.Reset(src, key) }

func (refSide) read(r Reader, size int) (int, error, []byte, []byte, *equiv.Panic) {
	p := bytes.Repeat([]byte{equiv.Canary}, size)
	n, err := r.Read(p)
	if n < 0 || n > len(p) {
		return n, err, nil, p, nil
	}
	return n, err, p[:n], p[n:], nil
}

func (refSide) close(v Validator) error  { return v.Close() }
func (refSide) offset(v Validator) int64 { return v.(*ref.Validator).Offset() }

// refRead runs a Reader input on the reference.
func refRead(in Input) transcript { return reads(in, refSide{}) }

// streamTexts are readerStreams' texts: κόσμε (valid), Autobahn 6.4.1's
// text (it fails at octet 12) and κόσμε cut inside its second character
// (incomplete).
var streamTexts = [][]byte{kosme, cat(kosme, []byte{0xf4, 0x90, 0x80, 0x80}, []byte("edited")), kosme[:4]}

// readerStreams reads every prefix of each of streamTexts through a Reader
// over every kind of underlying reader (the failing ones at every offset),
// in Reads of the whole, of two halves and of one octet, after a warm-up
// frame through another reader and through the same one; then a long
// text in one Read of 64 KiB and more, over a plain and a halving reader.
func (c *checker) readerStreams(r *equiv.Run) error {
	if c.impl.NewReader == nil {
		return nil
	}
	count := tally(r)
	for ti, text := range streamTexts {
		for n := 0; n <= len(text); n++ {
			for _, in := range readerInputs(text[:n], ti) {
				if err := count(c.compare(in)); err != nil {
					return err
				}
			}
		}
	}
	long := bytes.Repeat(kosme, 7000) // 77,000 octets
	for _, kind := range []int{srcPlain, srcHalf} {
		in := Input{Func: "Reader", Text: long, Key: vectorKey, Underlying: sourceName(kind, 0), rc: readerCase{kind: kind}}
		if err := count(c.compare(in)); err != nil {
			return err
		}
	}
	return nil
}

// readerInputs are readerStreams' inputs for one text.
func readerInputs(text []byte, salt int) []Input {
	var out []Input
	for kind := range numSources {
		ats := []int{0}
		if kind >= srcFails && kind != srcNested {
			ats = everyOctet(len(text) + 1)
			ats = append([]int{0}, ats...)
		}
		key := keyOf(salt + kind)
		if kind == srcNested {
			key = [4]byte{}
		}
		for _, at := range ats {
			for _, here := range []bool{false, true} {
				for w, splits := range [][]int{nil, {len(text) / 2}, everyOctet(len(text))} {
					out = append(out, Input{Func: "Reader", Text: text, Align: (at + w) & 63, Splits: splits, Key: key,
						Underlying: sourceName(kind, at), rc: readerCase{kind: kind, at: at, here: here}})
				}
			}
		}
	}
	return out
}
