package quictest

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// The exhaustive method's edges: packet number windows of every pnLen,
// integer arguments across the int range, and (edges_sizes.go) every
// length-like quantity at its integer-width boundaries. Each part records
// the boundary classes it reached and expects them.

// intArgs are the int arguments every int parameter is tried with: the
// valid ones, each side of every range check, and the values that pass a
// check made on a narrowed copy (256+8 is 8 in a byte, 1<<32+8 in 32
// bits, -248 in a byte).
var intArgs = func() []int {
	vs := []int{math.MinInt, math.MinInt32, -256, -255, -248, -1}
	vs = append(vs, intRange(0, 22)...)
	vs = append(vs, 255, 256, 256+1, 256+8, 1<<16, 1<<16+8, math.MaxInt32)
	// 1 and 8 again where int is 32 bits.
	wide1, wide8 := uint64(1)<<32+1, uint64(1)<<32+8
	return append(vs, int(wide1), int(wide8), math.MaxInt)
}()

// argClass names the class of an int argument against the range lo..hi:
// valid, or below or above it, and whether its low byte or low 32 bits
// are valid (a check made on a narrowed copy passes it).
func argClass(name string, v, lo, hi int) string {
	in := func(x int) bool { return x >= lo && x <= hi }
	narrowValid := in(int(uint8(v))) || in(int(uint32(v)))
	switch {
	case in(v):
		return name + " valid"
	case v < lo && narrowValid:
		return name + " below, valid in a byte"
	case v < lo:
		return name + " below"
	case narrowValid:
		return name + " above, valid in a byte or 32 bits"
	}
	return name + " above"
}

// intArguments checks shortDCIDLen and pnLen at every value of intArgs:
// the header parsers on a 1-RTT packet with a 20-byte DCID, a 1-RTT packet
// with an 8-byte DCID, an Initial and an empty datagram, and
// DecodePacketNumber at largest 0 and near 2^62.
func (c *checker) intArguments(r *equiv.Run) error {
	datagrams := [][]byte{
		PacketSpec{First: 0x41, DCID: bytesOf(20, 0x11), Payload: bytesOf(24, 0x40)}.Append(nil),
		PacketSpec{First: 0x41, DCID: bytesOf(8, 0x11), Payload: bytesOf(24, 0x40)}.Append(nil),
		canonical(0xc0, quic.Version1, 8, 8).Append(nil),
		nil,
	}
	reached := map[string]int64{}
	for _, v := range intArgs {
		if c.impl.readsDatagrams() {
			for i, d := range datagrams {
				if err := c.checkReaders(r, packetReaders, d, v, fmt.Sprintf("shortDCIDLen=%d datagram %d", v, i)); err != nil {
					return err
				}
			}
			reached[argClass("shortDCIDLen", v, 0, quic.MaxCIDLen)]++
		}
		if c.impl.DecodePacketNumber != nil {
			for _, l := range []uint64{0, 1<<62 - 2} {
				ce, k := c.packetNumber(l, 0x8000_0000, v)
				if ce != nil {
					return r.Fail(ce)
				}
				r.Count(k)
			}
			reached[argClass("pnLen", v, 1, 4)]++
		}
	}
	for name, n := range reached {
		r.ReachN(name, n)
	}
	for _, a := range []struct {
		name string
		has  bool
	}{{"shortDCIDLen", c.impl.readsDatagrams()}, {"pnLen", c.impl.DecodePacketNumber != nil}} {
		if a.has {
			r.Expect(a.name+" valid", a.name+" below", a.name+" below, valid in a byte",
				a.name+" above", a.name+" above, valid in a byte or 32 bits")
		}
	}
	return nil
}

// pnEdgeLargests are the values of largest whose windows the edges are
// tried in: none yet (2^64-1), 0, 1, 2, every 2^k-1 and 2^k below 2^62,
// each side of pn_hwin and pn_win, and near 2^62 (the last windows).
func pnEdgeLargests(pnLen int) []uint64 {
	win := uint64(1) << (8 * pnLen)
	hwin := win / 2
	ls := []uint64{math.MaxUint64, 0, 1, 2}
	for k := 1; k < 62; k++ {
		ls = append(ls, 1<<k-1, 1<<k)
	}
	for _, c := range []uint64{hwin, win, win + hwin, 1<<62 - win - hwin, 1<<62 - win, 1<<62 - hwin} {
		for d := uint64(0); d <= 6; d++ {
			ls = append(ls, c+d-3)
		}
	}
	for d := uint64(1); d <= 4; d++ {
		ls = append(ls, 1<<62-d)
	}
	return ls
}

// pnEdgeTargets are the candidates tried for one expected value: each side
// of expected ± pn_hwin (the window's edges), of the last window start
// 2^62 - pn_win, of 0 and pn_win, and expected itself.
func pnEdgeTargets(expected, win uint64) []uint64 {
	hwin := win / 2
	var ts []uint64
	for _, c := range []uint64{expected - hwin, expected + hwin, 1<<62 - win, 0, win, expected} {
		for d := uint64(0); d <= 6; d++ {
			ts = append(ts, c+d-3)
		}
	}
	return ts
}

// pnEdges checks DecodePacketNumber, for every pnLen 1..4, at each
// window edge of RFC 9000 Appendix A.3 by construction: for every largest
// of pnEdgeLargests, the truncated values whose candidate is each of
// pnEdgeTargets, with junk above the pnLen bytes once.
func (c *checker) pnEdges(r *equiv.Run) error {
	if c.impl.DecodePacketNumber == nil {
		return nil
	}
	reached := map[string]int64{}
	for pnLen := 1; pnLen <= 4; pnLen++ {
		win := uint64(1) << (8 * pnLen)
		mask := win - 1
		for _, l := range pnEdgeLargests(pnLen) {
			expected := l + 1
			for i, t := range pnEdgeTargets(expected, win) {
				truncated := t & mask
				if i%7 == 3 {
					truncated |= 0xfedc_ba98_7654_3210 &^ mask
				}
				ce, k := c.packetNumber(l, truncated, pnLen)
				if ce != nil {
					return r.Fail(note(ce, "edge of the pnLen=%d window", pnLen))
				}
				r.Count(k)
				reached[pnEdgeClass(l, t&mask, pnLen)]++
			}
		}
		r.Expect(pnClasses(pnLen)...)
	}
	for name, n := range reached {
		if name != "" {
			r.ReachN(name, n)
		}
	}
	return nil
}

// pnClasses are the window-edge classes of pnLen.
func pnClasses(pnLen int) []string {
	var out []string
	for _, e := range []string{"candidate = expected - pn_hwin", "candidate = expected + pn_hwin",
		"candidate = 2^62 - pn_win", "largest = 0", "largest = 2^62-1", "no packet yet"} {
		out = append(out, fmt.Sprintf("pnLen=%d %s", pnLen, e))
	}
	return out
}

// pnEdgeClass is the class of (largest, truncated) in pnClasses, or "".
func pnEdgeClass(largest, truncated uint64, pnLen int) string {
	win := uint64(1) << (8 * pnLen)
	hwin := win / 2
	expected := largest + 1
	candidate := expected&^(win-1) | truncated
	name := ""
	switch {
	case largest == math.MaxUint64:
		name = "no packet yet"
	case largest == 0:
		name = "largest = 0"
	case largest == 1<<62-1:
		name = "largest = 2^62-1"
	case candidate == 1<<62-win && candidate+hwin <= expected:
		name = "candidate = 2^62 - pn_win"
	case candidate+hwin == expected:
		name = "candidate = expected - pn_hwin"
	case candidate == expected+hwin && candidate >= win:
		name = "candidate = expected + pn_hwin"
	default:
		return ""
	}
	return fmt.Sprintf("pnLen=%d %s", pnLen, name)
}

// log2Class names n by the power of two it is near: "2^16-1", "2^16",
// "2^16+20"; values far from one are "other".
func log2Class(n uint64) string {
	for k := 63; k >= 1; k-- {
		p := uint64(1) << k
		switch d := int64(n - p); {
		case d == 0:
			return fmt.Sprintf("2^%d", k)
		case d > 0 && d <= 64:
			return fmt.Sprintf("2^%d+", k)
		case d < 0 && d >= -64:
			return fmt.Sprintf("2^%d-", k)
		}
	}
	return fmt.Sprintf("~2^%d", bits.Len64(n))
}
