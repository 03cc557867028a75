package quictest

import (
	"bytes"
	"math"

	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// exhaustive enumerates the domains of the varint functions (parsed,
// appended, read from streams), of DecodePacketNumber, of the options, of
// padding after a packet and of the header parser's grammar classes;
// docs/equivalence.md argues why these classes reach every decision of the
// optimized code.
func (c *checker) exhaustive(r *equiv.Run) error {
	for i, part := range []func(*equiv.Run) error{
		c.shortVarints, c.widthVarints, c.randomVarints, c.appendValues,
		c.streamVarints, c.withLenValues,
		c.pnWindows, c.pnEdges, c.randomPNs, c.pnPanics, c.intArguments,
		c.fieldWidths, c.realSizes, c.versionLists, c.manyPackets, c.lateDCIDs,
		c.optionBits, c.paddings, c.junkFirstBytes,
		c.shortHeaders, c.longHeaders, c.cidLengths, c.lengthFields, c.coalesced,
	} {
		if !r.Mine(i) {
			continue // another shard's part (the method is Split)
		}
		if err := part(r); err != nil {
			return err
		}
	}
	return nil
}

// varint compares ParseVarint on d and counts the comparison.
func (c *checker) varint(r *equiv.Run, d []byte) *equiv.Counterexample {
	ce, k := c.compare(Input{Func: funcParseVarint, Data: d}, laidOut)
	r.Count(k)
	return ce
}

// shortVarints checks every input of 0, 1 and 2 bytes (every 1- and 2-byte
// encoding and every prefix of a longer one), alone and followed by junk
// up to 8 bytes (the length at which the optimized code loads a whole
// word).
func (c *checker) shortVarints(r *equiv.Run) error {
	if c.impl.ParseVarint == nil {
		return nil
	}
	tail := []byte{0xff, 0x00, 0xff, 0x00, 0xff, 0x00, 0xff, 0x00}
	b := make([]byte, 0, 9)
	for n := 0; n <= 2; n++ {
		for v := range 1 << (8 * n) {
			b = b[:0]
			for i := range n {
				b = append(b, byte(v>>(8*i)))
			}
			for _, d := range [][]byte{b, append(b, tail[:8-n]...)} {
				if ce := c.varint(r, d); ce != nil {
					return r.Fail(ce)
				}
			}
		}
	}
	return nil
}

// varintWidths are the encoded lengths of RFC 9000 §16.
var varintWidths = []int{1, 2, 4, 8}

// fits reports whether v has a w-byte encoding.
func fits(v uint64, w int) bool { return v < 1<<(8*w-2) }

// widthVarints checks every boundary value at every width it fits
// (non-minimal encodings included), at every truncation, followed by 0..8
// bytes.
func (c *checker) widthVarints(r *equiv.Run) error {
	if c.impl.ParseVarint == nil {
		return nil
	}
	for _, v := range varintValues {
		for _, w := range varintWidths {
			if !fits(v, w) {
				continue
			}
			enc := appendVarintWidth(nil, v, w, nil)
			for n := 0; n <= w; n++ {
				for extra := 0; extra <= 8; extra++ {
					d := append(bytes.Clone(enc[:n]), bytes.Repeat([]byte{0xa5}, extra)...)
					if ce := c.varint(r, d); ce != nil {
						return r.Fail(note(ce, "value=%#x width=%d", v, w))
					}
				}
			}
		}
	}
	return nil
}

// randomVarints checks random 4- and 8-byte encodings, with 0..8 bytes
// after them.
func (c *checker) randomVarints(r *equiv.Run) error {
	if c.impl.ParseVarint == nil {
		return nil
	}
	rng := r.Rand()
	for range equiv.Pick(r, 1<<14, 1<<18, 1<<22) {
		d := make([]byte, 16)
		for i := range d {
			d[i] = byte(rng.Uint32())
		}
		d[0] |= 0x80
		n := 4 << (d[0] >> 6 & 1)
		d = d[:n+rng.IntN(9)]
		if ce := c.varint(r, d); ce != nil {
			return r.Fail(ce)
		}
	}
	return nil
}

// appendValues checks AppendVarint on the boundaries, random values of
// each width and values beyond 2^62-1 (where the reference panics), onto
// an empty, a full and a roomy prefix; and the reference's round trip (a
// wrong oracle is reported as such).
func (c *checker) appendValues(r *equiv.Run) error {
	values := append([]uint64(nil), interesting...)
	values = append(values, varintValues...)
	for range equiv.Pick(r, 1<<12, 1<<16, 1<<20) {
		w := varintWidths[r.Rand().IntN(4)]
		values = append(values, r.Rand().Uint64()>>(64-(8*w-2)))
	}
	for _, v := range values {
		if v <= quic.MaxVarint {
			enc := quic.AppendVarint(nil, v)
			if got, n, err := quic.ParseVarint(enc); got != v || n != len(enc) || n != quic.VarintLen(v) || err != nil {
				return r.Errorf("reference round trip of %#x: %x parses as %d, %d, %v: the oracle is wrong", v, enc, got, n, err)
			}
		}
		for _, prefix := range [][]byte{nil, {0xee, 0xee, 0xee}} {
			for _, spare := range []bool{false, true} {
				ce, k := c.appendVarint(prefix, v, spare)
				if ce != nil {
					return r.Fail(ce)
				}
				r.Count(k)
			}
		}
	}
	return nil
}

// interesting are varint values at the edges of RFC 9000 §16's length
// classes, and beyond 2^62-1 (no encoding: AppendVarint panics).
var interesting = func() []uint64 {
	var vs []uint64
	for _, edge := range []uint64{0, 1 << 6, 1 << 14, 1 << 30, 1 << 62} {
		for d := uint64(0); d <= 3; d++ {
			vs = append(vs, edge+d)
			if edge >= d && edge-d != edge {
				vs = append(vs, edge-d)
			}
		}
	}
	return append(vs, 0x15, 0x2a, 0x2aaa, 0x15555555, 0x2aaaaaaaaaaaaaaa, 1<<63, 1<<63+1, math.MaxUint64-1, math.MaxUint64)
}()

// varintValues are the encodable interesting values, the largest of each
// width, and all-ones and alternating bits of each width.
var varintValues = func() []uint64 {
	var vs []uint64
	for _, v := range interesting {
		if v <= quic.MaxVarint {
			vs = append(vs, v)
		}
	}
	return append(vs, 1<<6-1, 1<<14-1, 1<<30-1, quic.MaxVarint-4, 0x2aaa, 0x1555, 0x2aaaaaaa, 0x15555555, 0x1555555555555555)
}()

// pnWindows checks, for 1- and 2-byte packet numbers, every truncated
// value at windows of largest around each boundary of RFC 9000 Appendix
// A.3's arithmetic, and (on the first windows) with junk above the pnLen
// bytes, of which only the low 8·pnLen bits count.
func (c *checker) pnWindows(r *equiv.Run) error {
	if c.impl.DecodePacketNumber == nil {
		return nil
	}
	for _, pw := range [][2]int{{1, 256}, {2, equiv.Pick(r, 4, 64, 512)}} {
		pnLen, w := pw[0], pw[1]
		largests := windowLargests(pnLen, w)
		if err := c.pnGrid(r, largests, pnLen, 0); err != nil {
			return err
		}
		win := uint64(1) << (8 * pnLen)
		if err := c.pnGrid(r, largests[:1+2*w], pnLen, 0xfedc_ba98_7654_3210&^(win-1)); err != nil {
			return err
		}
	}
	return nil
}

// windowLargests returns 2^64-1 (no packet yet) and the values of largest
// within w of each boundary of the pnLen-byte window arithmetic.
func windowLargests(pnLen, w int) []uint64 {
	win := uint64(1) << (8 * pnLen)
	hwin := win / 2
	largests := []uint64{math.MaxUint64}
	for _, c := range []uint64{0, hwin, win, win + hwin, 1<<62 - win - hwin, 1<<62 - win, 1 << 62} {
		for d := -w; d < w; d++ {
			if l := c + uint64(d); l <= quic.MaxVarint && (d >= 0 || uint64(-d) <= c) {
				largests = append(largests, l)
			}
		}
	}
	return largests
}

// pnGrid compares every truncated value below 2^(8·pnLen), with high set
// above it, for each of largests. The reference does not panic on this
// domain, so the loop calls both directly under one recover; a
// disagreement or a panic is then reported through packetNumber.
func (c *checker) pnGrid(r *equiv.Run, largests []uint64, pnLen int, high uint64) error {
	dec := c.impl.DecodePacketNumber
	win := uint64(1) << (8 * pnLen)
	var l, t uint64
	n, bad := 0, false
	p := equiv.Catch(func() {
		for _, l = range largests {
			for t = 0; t < win; t++ {
				if equiv.Excluded(c.cfg, Input{Func: funcDecodePacketNumber, Largest: l, Truncated: t | high, PNLen: pnLen}) {
					continue
				}
				if dec(l, t|high, pnLen) != quic.DecodePacketNumber(l, t|high, pnLen) {
					bad = true
					return
				}
				n++
			}
		}
	})
	r.Count(n)
	if p == nil && !bad {
		return nil
	}
	if ce, _ := c.packetNumber(l, t|high, pnLen); ce != nil {
		return r.Fail(ce)
	}
	return r.Errorf("DecodePacketNumber(%#x, %#x, %d) disagreed with the reference once and agreed when called again: %w", l, t|high, pnLen, equiv.ErrMismatch)
}

// randomPNs checks 3- and 4-byte packet numbers: random largest, near a
// boundary or anywhere, and random truncated values.
func (c *checker) randomPNs(r *equiv.Run) error {
	if c.impl.DecodePacketNumber == nil {
		return nil
	}
	rng := r.Rand()
	for range equiv.Pick(r, 1<<16, 1<<20, 1<<23) {
		pnLen := 3 + rng.IntN(2)
		win := uint64(1) << (8 * pnLen)
		var l uint64
		switch rng.IntN(4) {
		case 0:
			l = rng.Uint64N(2 * win)
		case 1:
			l = 1<<62 - 1 - rng.Uint64N(2*win)
		case 2:
			l = math.MaxUint64
		default:
			l = rng.Uint64N(1 << 62)
		}
		ce, k := c.packetNumber(l, rng.Uint64(), pnLen)
		if ce != nil {
			return r.Fail(ce)
		}
		r.Count(k)
	}
	return nil
}

// pnPanics checks every way to make the reference panic: pnLen outside
// 1..4, largest in [2^62, 2^64-2].
func (c *checker) pnPanics(r *equiv.Run) error {
	for _, pnLen := range []int{math.MinInt, -1, 0, 1, 2, 3, 4, 5, 8, 9, math.MaxInt} {
		for _, l := range []uint64{0, 1<<62 - 1, 1 << 62, 1<<62 + 1, 1 << 63, math.MaxUint64 - 1, math.MaxUint64} {
			ce, k := c.packetNumber(l, 0xff, pnLen)
			if ce != nil {
				return r.Fail(ce)
			}
			r.Count(k)
		}
	}
	return nil
}
