package websockettest

import (
	"testing"

	"github.com/equivcheck/equivcheck/corpus"
	"github.com/equivcheck/equivcheck/equiv"
)

// fuzzTarget is FuzzMask(payload []byte, key uint32, pos int, plan []byte),
// whose seeds are corpus/websocket.
func fuzzTarget(impl Impl) equiv.FuzzTarget {
	return equiv.FuzzTarget{
		Name:   "FuzzMask",
		Args:   []string{"[]byte", "uint32", "int", "[]byte"},
		Corpus: "websocket",
		Check: func(c *equiv.Config, v []any) (*equiv.Counterexample, int) {
			ch := newChecker(impl, c)
			defer ch.release()
			return ch.checkInput(v[0].([]byte), v[1].(uint32), v[2].(int), v[3].([]byte))
		},
	}
}

// CheckInput checks impl on one input of the fuzz target FuzzMask(payload,
// key, pos, plan): Mask with the payload at plan's alignment, Mask in
// plan's chunks, and MaskCopy (into a destination at plan's other
// alignment, then in place); then, if impl has them, the payload read
// through a MaskReader (as the octets on the wire) and written through a
// MaskWriter, in calls ending at plan's chunks, each call's p at plan's
// alignment. The key's octets are key's big-endian bytes; plan is read
// with go-fuzz-headers as a byte (the alignment mod 64), a byte
// (MaskCopy's destination alignment mod 64), a byte (the number of chunk
// boundaries mod 8) and that many uint16 boundaries (mod len(payload)+1,
// sorted), then, each optional: a byte (the kind of the reader under the
// MaskReader in its low nibble, of the writer under the MaskWriter in its
// high nibble: see docs/equivalence.md), a uint16 (the stream offset where
// they act, mod len(payload)+1) and a byte (the length, mod 8, of a
// payload streamed before a Reset, under the same key if bit 3 is set,
// else under its complement). Any bytes are a valid plan. It returns the
// minimized *equiv.Counterexample (Pair "websocket", Method "fuzz"), or
// nil if impl agrees with the reference.
func CheckInput(impl Impl, payload []byte, key uint32, pos int, plan []byte, opts ...equiv.Option) error {
	if err := implError(impl); err != nil {
		return err
	}
	ch := newChecker(impl, equiv.NewConfig(opts...))
	defer ch.release()
	ce, _ := ch.checkInput(payload, key, pos, plan)
	if ce == nil {
		return nil
	}
	ce.Pair, ce.Method = pair, "fuzz"
	return ce
}

// Fuzz is the body of a differential fuzz target for impl, seeded from
// corpus/websocket, so that a user's target is one line:
//
//	func FuzzMyMask(f *testing.F) { websockettest.Fuzz(f, websockettest.Impl{Mask: mypkg.Mask}) }
//
// Its arguments are FuzzMask's, so a counterexample Test writes (a "go
// test fuzz v1" file, testdata/equiv/FuzzMask/<hash> by default; see
// equiv.EnvFailDir) replays in this target once moved to
// testdata/fuzz/FuzzMyMask/, where "go test" runs it every time.
func Fuzz(f equiv.F, impl Impl, opts ...equiv.Option) {
	f.Helper()
	FuzzAll(f, []Impl{impl}, opts...)
}

// FuzzAll is Fuzz for several implementations (the variants of one
// package): every input is checked against each, and each disagreement is
// reported, labeled with the Impl's Name (see equiv.FuzzReporter), at the
// line of the fuzz target that called it.
func FuzzAll(f equiv.F, impls []Impl, opts ...equiv.Option) {
	f.Helper()
	if len(impls) == 0 {
		f.Fatal("websockettest: FuzzAll: no implementations")
	}
	fr := equiv.NewFuzzReporter(impls, func(i Impl) string { return i.Name })
	for _, impl := range impls {
		if err := implError(impl); err != nil {
			f.Fatal(err)
		}
	}
	addSeeds(f)
	check := func(t equiv.Reporter, payload []byte, key uint32, pos int, plan []byte) {
		t.Helper()
		for i, impl := range impls {
			if err := CheckInput(impl, payload, key, pos, plan, opts...); err != nil {
				fr.Report(t, i, err)
			}
		}
	}
	if tf, ok := f.(*testing.F); ok {
		tf.Fuzz(func(t *testing.T, payload []byte, key uint32, pos int, plan []byte) {
			check(t, payload, key, pos, plan)
		})
		return
	}
	f.Fuzz(check) // go-118-fuzz-build (see equiv.F)
}

// addSeeds adds corpus/websocket to f (apart from f.Fuzz, see
// equiv.AddSeeds).
func addSeeds(f equiv.F) {
	f.Helper()
	equiv.AddSeeds(f, equiv.Suite{Pair: pair, Corpus: corpus.FS}, fuzzTarget(Impl{}))
}
