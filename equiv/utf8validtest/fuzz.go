package utf8validtest

import (
	"encoding/binary"
	"slices"
	"testing"

	fuzzheaders "github.com/AdaLogics/go-fuzz-headers"

	"github.com/equivcheck/equivcheck/corpus"
	"github.com/equivcheck/equivcheck/equiv"
)

// fuzzName is the fuzz target's name: its regression directory and
// Counterexample.FuzzTarget.
const fuzzName = "FuzzUTF8"

// fuzzTarget is FuzzUTF8(text []byte, key uint32, pos int, plan []byte)
// for impl, whose seed corpus is corpus/utf8.
func fuzzTarget(impl Impl) equiv.FuzzTarget {
	return equiv.FuzzTarget{
		Name:   fuzzName,
		Args:   []string{"[]byte", "uint32", "int", "[]byte"},
		Corpus: pair,
		Check: func(cfg *equiv.Config, v []any) (*equiv.Counterexample, int) {
			c := newChecker(impl, cfg)
			defer c.release()
			return c.fuzzInput(v[0].([]byte), v[1].(uint32), v[2].(int), v[3].([]byte))
		},
	}
}

// fuzzInput checks one input of FuzzUTF8: Valid(text) at the plan's
// alignment; the text written to a Validator in the plan's pieces; the
// text masked with key from pos, unmasked and validated in those pieces;
// and the text masked with key read through a Reader over the plan's
// underlying reader in Reads of those sizes. It returns the first
// counterexample and the number of inputs compared (1, or 0 if none was).
func (c *checker) fuzzInput(text []byte, k uint32, pos int, planBytes []byte) (*equiv.Counterexample, int) {
	p := decodePlan(planBytes, len(text))
	compared := 0
	for _, in := range p.inputs(text, keyBytes(k), pos) {
		ce, n := c.compare(in)
		if n > 0 {
			compared = 1
		}
		if ce != nil {
			return ce, compared
		}
	}
	return nil, compared
}

// CheckInput checks impl on one input of the fuzz target FuzzUTF8(text,
// key, pos, plan), as input says. The plan is decoded with
// go-fuzz-headers: a byte (alignment mod 64), a byte (number of splits
// mod 8) and that many uint16 split positions (mod len(text)+1, sorted);
// then, optionally, a byte (the Reader's underlying reader, mod the number
// of kinds), a uint16 (the offset where it acts, mod len(text)+1) and a
// byte (bit 0: the warm-up frame comes through the same reader). Fuzz and
// the corpus method call the same check, so a corpus file means the same
// thing to both. A disagreement is a minimized *equiv.Counterexample with
// Method "fuzz".
func CheckInput(impl Impl, text []byte, key uint32, pos int, plan []byte, opts ...equiv.Option) error {
	if err := implError(impl); err != nil {
		return err
	}
	c := newChecker(impl, equiv.NewConfig(opts...))
	defer c.release()
	if ce, _ := c.fuzzInput(text, key, pos, plan); ce != nil {
		ce.Pair, ce.Method = pair, "fuzz"
		return ce
	}
	return nil
}

// Fuzz fuzzes impl against the reference with the target FuzzUTF8, seeded
// from the corpus, so that a fuzz target of your own is one line:
//
//	func FuzzMyUTF8(f *testing.F) { utf8validtest.Fuzz(f, utf8validtest.Impl{Valid: mypkg.Valid}) }
//
// Each input is checked as CheckInput checks it.
func Fuzz(f equiv.F, impl Impl, opts ...equiv.Option) {
	f.Helper()
	FuzzAll(f, []Impl{impl}, opts...)
}

// FuzzAll is Fuzz for several implementations at once (the variants of one
// package): every input is checked on each, and each disagreement is
// reported with the implementation's Name (equiv.FuzzReporter), at the
// line of the fuzz target that called it.
func FuzzAll(f equiv.F, impls []Impl, opts ...equiv.Option) {
	f.Helper()
	fr := equiv.NewFuzzReporter(impls, func(i Impl) string { return i.Name })
	for _, impl := range impls {
		if err := implError(impl); err != nil {
			f.Fatal(err)
		}
	}
	equiv.AddSeeds(f, equiv.Suite{Pair: pair, Corpus: corpus.FS}, fuzzTarget(Impl{}))
	check := func(t equiv.Reporter, text []byte, key uint32, pos int, plan []byte) {
		t.Helper()
		for i, impl := range impls {
			if err := CheckInput(impl, text, key, pos, plan, opts...); err != nil {
				fr.Report(t, i, err)
			}
		}
	}
	if tf, ok := f.(*testing.F); ok {
		tf.Fuzz(func(t *testing.T, text []byte, key uint32, pos int, plan []byte) { check(t, text, key, pos, plan) })
		return
	}
	f.Fuzz(check) // go-118-fuzz-build (see equiv.F)
}

// plan is the decoded form of FuzzUTF8's plan argument.
type plan struct {
	align  int
	splits []int
	rc     readerCase
}

// maxSplits is the most splits a plan holds (its count is read mod 8).
const maxSplits = 7

// decodePlan decodes b (see CheckInput) for a text of n octets. Any bytes
// decode to a usable plan.
func decodePlan(b []byte, n int) plan {
	var p plan
	c := fuzzheaders.NewConsumer(b)
	a, err := c.GetByte()
	if err != nil {
		return p
	}
	p.align = int(a % 64)
	k, err := c.GetByte()
	if err != nil {
		return p
	}
	for range k % (maxSplits + 1) {
		v, err := c.GetUint16()
		if err != nil {
			break
		}
		p.splits = append(p.splits, int(v)%(n+1))
	}
	slices.Sort(p.splits)
	kind, err := c.GetByte()
	if err != nil {
		return p
	}
	p.rc.kind = int(kind) % numSources
	at, err := c.GetUint16()
	if err != nil {
		return p
	}
	p.rc.at = int(at) % (n + 1)
	flags, err := c.GetByte()
	if err != nil {
		return p
	}
	p.rc.here = flags&1 != 0
	return p
}

// encodable reports whether encodePlan can write p.
func (p plan) encodable() bool {
	return len(p.splits) <= maxSplits && (len(p.splits) == 0 || slices.Max(p.splits) <= 0xffff) && p.rc.at <= 0xffff &&
		p.rc.kind < numSources
}

// encodePlan is the inverse of decodePlan for an encodable plan.
func encodePlan(p plan) []byte {
	b := []byte{byte(p.align), byte(len(p.splits))}
	for _, s := range p.splits {
		b = appendUint16(b, s)
	}
	if p.rc == (readerCase{}) {
		return b
	}
	var flags byte
	if p.rc.here {
		flags = 1
	}
	return append(appendUint16(append(b, byte(p.rc.kind)), p.rc.at), flags)
}

// appendUint16 appends v as go-fuzz-headers' GetUint16 reads it, big-endian.
func appendUint16(b []byte, v int) []byte { return append(b, byte(v>>8), byte(v), 1) }

// inputs are the inputs a plan makes of text, key and pos.
func (p plan) inputs(text []byte, key [4]byte, pos int) []Input {
	rkey := key
	if p.rc.kind == srcNested {
		rkey = [4]byte{} // nested frames are unmasked
	}
	return []Input{
		{Func: "Valid", Text: text, Align: p.align},
		{Func: "Validator", Text: text, Align: p.align, Splits: p.splits},
		{Func: "Unmask", Text: text, Align: p.align, Splits: p.splits, Key: key, Pos: pos},
		{Func: "Reader", Text: text, Align: p.align, Splits: p.splits, Key: rkey,
			Underlying: sourceName(p.rc.kind, p.rc.at), rc: p.rc},
	}
}

// plan returns the plan that replays in through FuzzUTF8, if it can.
func (in Input) plan() (plan, bool) {
	p := plan{align: in.Align, splits: in.Splits, rc: in.rc}
	if in.Func != "Reader" {
		p.rc = readerCase{}
	}
	return p, p.encodable()
}

// keyBytes is the key FuzzUTF8's key argument names: its big-endian
// octets; keyWord is its inverse.
func keyBytes(k uint32) [4]byte {
	var key [4]byte
	binary.BigEndian.PutUint32(key[:], k)
	return key
}

func keyWord(key [4]byte) uint32 { return binary.BigEndian.Uint32(key[:]) }
