package quictest

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// scale checks what only large inputs, long use and calls in flight
// together reach: datagrams of every size around every power of two from
// 1 KiB to 4 MiB (64 MiB at Standard; equiv.ScaleSizes), each built so
// that a boundary of its structure (where one coalesced packet ends and
// the next begins, a packet boundary in a train of hundreds, the end of a
// long Token) falls at one of the size's scale points (equiv.ScalePoints:
// just before, at and after the powers of two and at the quarters), each
// parsed whole and cut at that point; Version Negotiation lists,
// unsupported-version CIDs and 1-RTT packets as long as the datagram;
// AppendVarint and AppendVarintWithLen onto prefixes of every size to 4
// MiB (appendMax); the stream functions after long histories and through
// every (n, err) of their readers (scalestreams.go); and every function
// from two goroutines released together (scaleOverlap). Each size is a
// unit of Run.Mine, the largest first, so that one buffer of the largest
// serves every size; the other parts run first, on every shard and in
// every sample. The reference parses datagrams in time linear in their
// packets (and in the octets of trailing zeros), so it is its own oracle
// at every size.
func (c *checker) scale(r *equiv.Run) error {
	sizes := equiv.ScaleSizes(r)
	slices.Sort(sizes)
	slices.Reverse(sizes)
	filler := make([]byte, fillerLen)
	fillRandom(rand.New(rand.NewPCG(r.Config().Seed(), 0x5ca1e)), filler)
	d := make([]byte, sizes[0])
	c.fewStops = true
	defer func() { c.fewStops = false }()
	// The parts that are not sizes first, so that what they find is
	// found in a fraction of the method's time.
	for _, part := range []func(*equiv.Run, []byte) error{c.scaleStreams, c.scaleOverlap} {
		if err := part(r, filler); err != nil {
			return err
		}
	}
	for i, n := range sizes {
		if !r.Mine(i) {
			continue
		}
		if err := c.scaleSize(r, d[:n], filler); err != nil {
			return err
		}
		if n > appendMax {
			continue
		}
		if err := c.scaleAppends(r, d[:n]); err != nil {
			return err
		}
	}
	return nil
}

// fillerLen is the length of the scale method's random octets, tiled
// over whatever is longer (tile): 256 KiB, so that the method holds one
// datagram of the largest size, not two, and the histories' payloads (64
// KiB and less) are slices of it.
const fillerLen = 256 << 10

// tile fills d with src over and over.
func tile(d, src []byte) {
	for len(d) > 0 {
		d = d[copy(d, src):]
	}
}

// scaleClass is a boundary class of the scale method's datagrams: build
// fills d with a datagram whose boundary of this class falls at at, and
// returns the shortDCIDLen to parse it with; variant picks among the
// class's kinds; readers are the functions whose result it decides.
type scaleClass struct {
	name    string
	build   func(d []byte, at, variant int, filler []byte) int
	readers []reader
}

// The readers of the scale classes: the walks, whose result depends on
// every packet and on what follows them, and the parsers of one header.
var (
	walkers = []reader{{fn: funcPackets}, {fn: funcPacketsWith}, {fn: funcPacketsWith, opts: quic.GreaseQUICBit}}
	parsers = []reader{{fn: funcParseHeader}, {fn: funcParseHeaderWith, opts: quic.GreaseQUICBit}, {fn: funcParseVarint}}
)

// scaleClasses are the boundary classes placed at each scale point, in
// turn: where two coalesced packets meet (the second of four kinds), where
// a packet ends and padding (zeros or random octets) begins, a packet
// boundary in a train of hundreds of packets, and the end of an Initial's
// Token (its Token Length and Length as long as the datagram needs).
var scaleClasses = []scaleClass{
	{"coalesced", buildCoalesced, walkers},
	{"padding", buildPadding, walkers},
	{"train", buildTrain, walkers},
	{"long token", buildLongToken, parsers},
}

// scaleSites are where the scale method's datagrams lie, in turn: ending
// flush against an unmapped page (up to 16 MiB: endFlush), starting flush
// after one, and where the length puts them (placeAlign). The first two
// are the sizes' own edges: placeAlign puts few large datagrams against a
// page. The reference reads the implementation's copy (site.shared).
var scaleSites = []site{
	{align: endFlush, shared: true},
	{align: startSide(func(int) int { return 0 }), shared: true},
	{align: startSide(placeAlign), shared: true},
}

// endFlush is the alignment that puts a slice of n octets flush against
// an unmapped page at its end, up to 16 MiB (bigScale); past that, one
// that does not (startSide).
func endFlush(n int) int {
	if n > bigScale {
		return startSide(func(int) int { return 0 })(n)
	}
	return -n & 63
}

// startSide returns align, but for a slice past bigScale that align would
// put flush against the page after it, at the end of the harness's
// mapping (twice the largest input): the next alignment, which lays it
// out from the mapping's start. Both halves of the mapping would be
// resident otherwise, 128 MiB at Standard.
func startSide(align func(int) int) func(int) int {
	return func(n int) int {
		a := align(n)
		if n > bigScale && equiv.LayoutFor(equiv.Reads, n, a, 0).Edge == equiv.GuardAfter {
			a = (a + 1) & 63
		}
		return a
	}
}

// bigScale is the size past which no scale datagram ends flush against a
// page, and appendMax the longest prefix the scale method appends to
// (the harness keeps a copy of a prefix with room, to see it
// unmodified): the Standard level's 64 MiB sizes then hold one copy of
// the datagram in the heap and one in the harness's mapping.
const (
	bigScale  = 16 << 20
	appendMax = 4 << 20
)

// scaleSize checks datagrams of len(d) octets: for each scale point, one
// of each class in turn, compared whole and cut at the point with one of
// the class's readers in turn, at one site in turn; and, once, a Version
// Negotiation or unsupported-version packet and a 1-RTT packet that take
// the whole datagram.
func (c *checker) scaleSize(r *equiv.Run, d, filler []byte) error {
	n := len(d)
	rng := rand.New(rand.NewPCG(r.Config().Seed(), uint64(n)))
	for j, at := range equiv.ScalePoints(r, rng, n, 1) {
		cl := scaleClasses[j%len(scaleClasses)]
		turn := j / len(scaleClasses)
		variant := rng.IntN(4)
		rd := cl.readers[(turn+n)%len(cl.readers)]
		if !c.impl.has(rd.fn) {
			continue // nothing to build it for
		}
		sdl := cl.build(d, at, variant, filler)
		s := scaleSites[(j+turn)%len(scaleSites)]
		r.Reach("scale: " + cl.name)
		for _, cut := range []int{n, at} {
			if err := c.scaleCompare(r, readerInput(rd, d[:cut:cut], sdl), s, fmt.Sprintf("scale: %s at %d cut=%d/%d", cl.name, at, cut, n)); err != nil {
				return err
			}
		}
	}
	whole := []struct {
		name    string
		build   func(d, filler []byte) int
		readers []reader
	}{
		{"version negotiation", buildVersionList, []reader{parsers[0], walkers[0]}},
		{"unsupported version", buildLongCIDs, []reader{parsers[0], walkers[0]}},
		{"1-RTT", build1RTT, []reader{parsers[1], parsers[2]}},
	}
	for i, w := range whole {
		if i < 2 && i != n&1 || !c.impl.has(w.readers[0].fn) && !c.impl.has(w.readers[1].fn) {
			continue // Version Negotiation at even sizes, the other at odd
		}
		sdl := w.build(d, filler)
		for k, rd := range w.readers {
			if err := c.scaleCompare(r, readerInput(rd, d, sdl), scaleSites[(n+k)%len(scaleSites)], "scale: "+w.name); err != nil {
				return err
			}
		}
		r.Reach("scale: " + w.name)
	}
	for _, cl := range scaleClasses {
		if slices.ContainsFunc(cl.readers, func(rd reader) bool { return c.impl.has(rd.fn) }) {
			r.Expect("scale: " + cl.name)
		}
	}
	return nil
}

// scaleCompare compares in at s and counts it, noting from on a
// counterexample.
func (c *checker) scaleCompare(r *equiv.Run, in Input, s site, from string) error {
	ce, k := c.compare(in, s)
	if ce != nil {
		return r.Fail(note(ce, "%s", from))
	}
	r.Count(k)
	return nil
}

// The scale datagrams' Connection IDs: the first packet's and another.
var (
	scaleDCID  = bytesOf(8, 0x11)
	otherDCID  = bytesOf(8, 0x12)
	longHeader = 7 + len(scaleDCID) // First, Version, the CID lengths and the DCID
	// minPacket is the shortest Handshake packet putHandshake writes: the
	// header, a 1-octet Length and one octet of payload.
	minPacket = longHeader + 2
)

// putVarint writes v on exactly the len(b) octets of b (1, 2, 4 or 8).
func putVarint(b []byte, v uint64) {
	for i := range b {
		b[i] = byte(v >> (8 * (len(b) - 1 - i)))
	}
	b[0] |= byte(bitsLen(len(b))) << 6
}

// bitsLen is log2 of a varint's length.
func bitsLen(w int) int { return [9]int{1: 0, 2: 1, 4: 2, 8: 3}[w] }

// widthFor returns the shortest width w such that a value of rest-w fits
// w octets (a field and what it counts, in rest octets), and that value,
// or 0, 0 if rest is less than lo+1.
func widthFor(rest, lo int) (int, int) {
	for _, w := range varintWidths {
		if v := rest - w; v >= lo && fits(uint64(v), w) {
			return w, v
		}
	}
	return 0, 0
}

// putLong writes a version 1 long header of type t with scaleDCID and an
// empty SCID at the start of d, first byte low bits low, and returns its
// length.
func putLong(d []byte, t quic.PacketType, dcid []byte, low byte) int {
	d[0] = firstByte(quic.Version1, t, low)
	binary.BigEndian.PutUint32(d[1:], quic.Version1)
	d[5] = byte(len(dcid))
	copy(d[6:], dcid)
	d[6+len(dcid)] = 0
	return 7 + len(dcid)
}

// putHandshake fills d with a Handshake packet of exactly len(d) octets
// (its Length field on the shortest width that makes it so), its payload
// from filler; it reports false, writing nothing, for a d shorter than
// minPacket.
func putHandshake(d []byte, dcid, filler []byte) bool {
	w, p := widthFor(len(d)-longHeader, 1)
	if len(d) < minPacket || w == 0 {
		return false
	}
	h := putLong(d, quic.TypeHandshake, dcid, 1)
	putVarint(d[h:h+w], uint64(p))
	tile(d[h+w:], filler)
	return true
}

// buildCoalesced fills d with a Handshake packet ending at at (at least
// minPacket) and, from there, by variant: a Handshake packet with the
// same DCID, or another, a 1-RTT packet, or an Initial with a Token, each
// to the end of d (zeros, where the rest is too short for a packet).
func buildCoalesced(d []byte, at, variant int, filler []byte) int {
	at = min(max(at, minPacket), len(d))
	putHandshake(d[:at], scaleDCID, filler)
	rest := d[at:]
	switch variant {
	case 0, 1:
		if !putHandshake(rest, [][]byte{scaleDCID, otherDCID}[variant], filler) {
			clear(rest)
		}
	case 2:
		if len(rest) > 0 {
			rest[0] = 0x41
			copy(rest[1:], scaleDCID)
			tile(rest[min(1+len(scaleDCID), len(rest)):], filler)
		}
	default:
		putToken(rest, len(rest)/2, 0, filler)
	}
	return len(scaleDCID)
}

// buildPadding fills d with a Handshake packet ending at at (at least
// minPacket) and, from there, zeros (even variants) or random octets
// (odd ones) to the end of d: RFC 9000 §14.1's padding, which a walk
// yields as trailing bytes.
func buildPadding(d []byte, at, variant int, filler []byte) int {
	at = min(max(at, minPacket), len(d))
	putHandshake(d[:at], scaleDCID, filler)
	if variant&1 == 0 {
		clear(d[at:])
	} else {
		tile(d[at:], filler[len(filler)/2:])
	}
	return len(scaleDCID)
}

// buildTrain fills d with a train of Handshake packets of len(d)/300
// octets each (at least minPacket), one of them ending at at: hundreds
// of packets, the last taking what is left.
func buildTrain(d []byte, at, _ int, filler []byte) int {
	size := max(minPacket, len(d)/300)
	var cuts []int
	for b := size; b <= len(d)-minPacket; b += size {
		cuts = append(cuts, b)
	}
	if at >= minPacket && at <= len(d)-minPacket {
		cuts = append(cuts, at)
	}
	slices.Sort(cuts)
	prev := 0
	for _, b := range append(cuts, len(d)) {
		if b-prev >= minPacket && (b == len(d) || len(d)-b >= minPacket) {
			putHandshake(d[prev:b], scaleDCID, filler)
			prev = b
		}
	}
	if prev < len(d) {
		clear(d[prev:]) // d shorter than a packet
	}
	return len(scaleDCID)
}

// buildLongToken fills d with an Initial whose Token ends at at: its
// Token Length, Token, Length and payload as long as d needs; variant 1
// has the Length one past the datagram's end.
func buildLongToken(d []byte, at, variant int, filler []byte) int {
	putToken(d, at, variant&1, filler)
	return len(scaleDCID)
}

// putToken fills d with an Initial whose Token ends at end (clamped to
// what the fields need), its Length field extra more than the payload
// that follows; a d too short for an Initial is zeros.
func putToken(d []byte, end, extra int, filler []byte) {
	tw, t := widthFor(end-longHeader, 0)
	lw, p := widthFor(len(d)-end, 1)
	if tw == 0 || lw == 0 {
		tw, t = widthFor(minPacket-longHeader, 0)
		end = longHeader + tw + t
		lw, p = widthFor(len(d)-end, 1)
	}
	if tw == 0 || lw == 0 || !fits(uint64(p+extra), lw) {
		clear(d)
		return
	}
	h := putLong(d, quic.TypeInitial, scaleDCID, 2)
	putVarint(d[h:h+tw], uint64(t))
	tile(d[h+tw:end], filler)
	putVarint(d[end:end+lw], uint64(p+extra))
	tile(d[end+lw:], filler)
}

// buildVersionList fills d with a Version Negotiation packet whose
// Supported Versions take the rest of d (a multiple of 4 octets or not,
// as len(d) makes it).
func buildVersionList(d, filler []byte) int {
	h := putLong(d, quic.TypeInitial, scaleDCID, 5)
	d[0] = 0x80 | filler[0]&0x7f
	binary.BigEndian.PutUint32(d[1:], quic.VersionNegotiation)
	tile(d[h:], filler[1:])
	return len(scaleDCID)
}

// buildLongCIDs fills d with a packet of an unsupported version
// (draft-29) whose DCID and SCID are 255 octets each, the rest opaque.
func buildLongCIDs(d, filler []byte) int {
	d[0] = 0xc0 | filler[0]&0x3f
	binary.BigEndian.PutUint32(d[1:], 0xff00001d)
	d[5] = 255
	copy(d[6:261], filler[1:])
	d[261] = 255
	tile(d[262:], filler[256:])
	return len(scaleDCID)
}

// build1RTT fills d with a 1-RTT packet with a 20-octet DCID.
func build1RTT(d, filler []byte) int {
	d[0] = 0x40 | filler[0]&0x3f
	tile(d[1:], filler[1:])
	return quic.MaxCIDLen
}

// scaleAppends checks AppendVarint and AppendVarintWithLen onto prefix, a
// scale size's octets: a value of each width in turn, the prefix without
// room at sizes of 1 mod 4 (2^k+1, which the schedule lays out flush
// after an unmapped page) and with room otherwise.
func (c *checker) scaleAppends(r *equiv.Run, prefix []byte) error {
	n := len(prefix)
	w := varintWidths[n%4]
	v := uint64(n)*0x9e3779b97f4a7c15>>(64-(8*w-2)) | 1
	spare := n%4 != 1
	for _, check := range []func() (*equiv.Counterexample, int){
		func() (*equiv.Counterexample, int) { return c.appendVarint(prefix, v, spare) },
		func() (*equiv.Counterexample, int) { return c.appendWithLen(prefix, v, w, spare) },
	} {
		ce, k := check()
		if ce != nil {
			return r.Fail(note(ce, "scale: a prefix of %d octets", n))
		}
		r.Count(k)
	}
	return nil
}

// scaleOverlap checks, from two goroutines released together for each
// round, every function: each round, both lanes first compare Packets on
// a train of 300 packets in 1 MiB (each lane's and round's own contents), its first call waiting for the other lane's
// (equiv.Harness.Before), its input placed and the reference's result
// computed, so that the two walks run together; then one function more,
// in turn: every function of the Impl runs while another call of it may
// be in flight, and the walks of a Packets shared state with always do.
func (c *checker) scaleOverlap(r *equiv.Run, filler []byte) error {
	const n = 1 << 20
	var lanes []*checker
	err := r.Overlap(equiv.Pick(r, 16, 32, 128), func(cfg *equiv.Config) func(lane, round int, wait func()) (int, error) {
		lc := newChecker(c.impl, cfg)
		lc.fewStops = true
		lanes = append(lanes, lc)
		d := make([]byte, n)
		return func(lane, round int, wait func()) (int, error) {
			at := (lane*len(filler)/2 + round*4099) % (len(filler) - 64)
			dg := d[:n-round%2]
			buildTrain(dg, len(dg)/2+round, 0, filler[at:])
			lc.h.Before(wait)
			ce, k := lc.overlapRound(dg, filler[at:at+64], round)
			if lc.h.Before(nil) {
				wait() // no call ran: the other lane must not wait for this one
			}
			if ce != nil {
				return k, ce
			}
			return k, nil
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
	return err
}

// overlapRound compares Packets (else PacketsWith) on the train dg, then
// the function of round's turn: the datagram readers on dg, the stream
// functions on small, the appends onto small, of a value of small's
// leading varint, and DecodePacketNumber. The reference reads the
// implementation's copy of dg (site.shared): each lane places a megabyte
// once, not twice.
func (c *checker) overlapRound(dg, small []byte, round int) (*equiv.Counterexample, int) {
	first := reader{fn: funcPackets}
	if !c.impl.has(funcPackets) {
		first = reader{fn: funcPacketsWith}
	}
	shared := site{shared: true}
	ce, n := c.compare(readerInput(first, dg, len(scaleDCID)), shared)
	if ce != nil {
		return ce, n
	}
	v, _, _ := quic.ParseVarint(small)
	var k int
	switch turn := round % (len(readers) + 3); {
	case turn < len(readers) && (readers[turn].fn == funcReadVarint || readers[turn].fn == funcPeekVarint):
		ce, k = c.compare(readerInput(readers[turn], small, 0), laidOut)
	case turn < len(readers):
		ce, k = c.compare(readerInput(readers[turn], dg, len(scaleDCID)), shared)
	case turn == len(readers):
		ce, k = c.appendVarint(small, v, round&1 == 1)
	case turn == len(readers)+1:
		ce, k = c.appendWithLen(small, v&0x3fff, 2, round&1 == 1)
	default:
		ce, k = c.packetNumber(uint64(round)<<20|v&0xfffff, v, 1+round%4)
	}
	return ce, n + k
}
