package quictest

import (
	"bytes"
	"fmt"
	"math"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// spareMarker fills the capacity after a roomy prefix: an
// AppendVarintWithLen that writes past its n bytes overwrites it.
const spareMarker = 0xa5

// appendWithLen compares AppendVarintWithLen(prefix, v, n): the bytes,
// the prefix kept, or the panic (the reference panics for n not 1, 2, 4
// or 8, then for v not fitting). The prefix is passed with room to spare
// when spare is set (the result must then be written in place, and the
// spare bytes after it left alone: that is how a reserved field is filled
// in later), and full to capacity otherwise. It returns the minimized
// counterexample, if any, and the number of comparisons made.
func (c *checker) appendWithLen(prefix []byte, v uint64, n int, spare bool) (*equiv.Counterexample, int) {
	in := Input{Func: funcAppendVarintWithLen, Data: prefix, Value: v, Len: n}
	if c.skip(in) {
		return nil, 0
	}
	at := func(p []byte) *equiv.Counterexample {
		buf := append(make([]byte, 0, len(p)+16), p...)
		if !spare {
			buf = slices.Clip(bytes.Clone(p))
		}
		return c.withLenAt(p, buf, v, n, spare)
	}
	ce := at(prefix)
	if ce == nil {
		return nil, 1
	}
	return c.minimize(in, ce, at), 1
}

// withLenAt compares AppendVarintWithLen(prefix, v, n) of the reference
// with the Impl's on buf, prefix's copy (whose spare capacity, if any, is
// filled with spareMarker).
func (c *checker) withLenAt(prefix, buf []byte, v uint64, n int, spare bool) *equiv.Counterexample {
	want, wantP := callAppendLen(quic.AppendVarintWithLen, bytes.Clone(prefix), v, n)
	full := buf[:cap(buf)]
	for i := len(buf); i < len(full); i++ {
		full[i] = spareMarker
	}
	got, gotP := callAppendLen(c.impl.AppendVarintWithLen, buf, v, n)
	same := bytes.Equal(got, want) && (got == nil) == (want == nil)
	if problem := inPlace(prefix, buf, got, spare && gotP == nil && wantP == nil); problem != "" && same {
		return withLenCE(prefix, v, n, spare, gotP, hexOf(got).String()+" but "+problem, hexOf(want).String())
	}
	if c.agree(gotP, wantP, same) {
		return nil
	}
	return withLenCE(prefix, v, n, spare, gotP, orPanic(hexOf(got), gotP), orPanic(hexOf(want), wantP))
}

// inPlace returns what is wrong with how out, an append to in (a copy of
// prefix), used in's array: in's bytes changed; when in had room (roomy),
// out not written in place, or a byte of the spare capacity after it
// changed.
func inPlace(prefix, in, out []byte, roomy bool) string {
	if !bytes.Equal(in, prefix) {
		return "changed the bytes of its input"
	}
	if !roomy || cap(in) < len(out) || len(out) < len(in) {
		return ""
	}
	if len(out) > 0 && equiv.AddrOf(out) != equiv.AddrOf(in) {
		return "not written in place although the buffer had room"
	}
	full := in[:cap(in)]
	for i := len(out); i < len(full); i++ {
		if full[i] != spareMarker {
			return fmt.Sprintf("wrote past the appended bytes, at %d of the buffer", i)
		}
	}
	return ""
}

func callAppendLen(f func([]byte, uint64, int) []byte, b []byte, v uint64, n int) (out []byte, p *equiv.Panic) {
	p = equiv.Catch(func() { out = f(b, v, n) })
	return out, p
}

// withLenCE is a counterexample of AppendVarintWithLen(prefix, v, n).
// CheckInput appends the value its datagram decodes at every width it
// fits onto nothing, so those are reproduced by FuzzQUICHeader.
func withLenCE(prefix []byte, v uint64, n int, spare bool, p *equiv.Panic, got, want string) *equiv.Counterexample {
	ce := &equiv.Counterexample{
		Func:  funcAppendVarintWithLen,
		Input: bytes.Clone(prefix),
		Args:  fmt.Sprintf("v=%#x n=%d spare=%v", v, n, spare),
		Got:   got,
		Want:  want,
		Stack: equiv.StackOf(p),
	}
	if len(prefix) == 0 && !spare && slices.Contains(varintWidths, n) && fits(v, n) {
		ce.FuzzTarget, ce.FuzzArgs = targetHeader, []any{quic.AppendVarint(nil, v), 0}
	}
	return ce
}

// withLenLengths are the n of AppendVarintWithLen's domain: the four
// widths, and every other class (negative, 0, between and above them).
var withLenLengths = []int{math.MinInt, -1, 0, 1, 2, 3, 4, 5, 7, 8, 9, 16, math.MaxInt}

// withLenValues checks AppendVarintWithLen, for every width, on every
// value below 2^8 and on the 256 values below the width's limit and two
// past it (a panic each), onto a roomy buffer; the interesting values at
// every length of withLenLengths, onto an empty, a full and a roomy
// prefix; and random values of each width. A value only passes through a
// shift and an OR with the width's prefix, so its classes are the width's
// limit, taken on both sides.
func (c *checker) withLenValues(r *equiv.Run) error {
	if c.impl.AppendVarintWithLen == nil {
		return nil
	}
	count := func(ce *equiv.Counterexample, k int) error {
		if ce != nil {
			return r.Fail(ce)
		}
		r.Count(k)
		return nil
	}
	for _, w := range varintWidths {
		limit := uint64(1) << (8*w - 2)
		values := func(from, to uint64) error {
			for v := from; v < to; v++ {
				if err := count(c.appendWithLen(nil, v, w, true)); err != nil {
					return err
				}
			}
			return nil
		}
		if err := values(0, min(256, limit+2)); err != nil {
			return err
		}
		if limit > 256 {
			if err := values(max(256, limit-256), limit+2); err != nil {
				return err
			}
		}
	}
	for _, v := range interesting {
		for _, n := range withLenLengths {
			for _, prefix := range [][]byte{nil, {0xee, 0xee, 0xee}} {
				for _, spare := range []bool{false, true} {
					if err := count(c.appendWithLen(prefix, v, n, spare)); err != nil {
						return err
					}
				}
			}
		}
	}
	rng := r.Rand()
	for range equiv.Pick(r, 1<<12, 1<<16, 1<<20) {
		w := varintWidths[rng.IntN(4)]
		if err := count(c.appendWithLen([]byte{0xee}, rng.Uint64()>>(64-(8*w-2)), w, rng.IntN(2) == 0)); err != nil {
			return err
		}
	}
	return nil
}
