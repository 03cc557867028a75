package websockettest

import (
	"encoding/binary"
	"slices"

	fuzzheaders "github.com/AdaLogics/go-fuzz-headers"
)

// plan is the decoded form of FuzzMask's plan argument.
type plan struct {
	align, dstAlign int   // offsets from a 64-byte boundary
	chunks          []int // sorted boundaries of the calls of a chunked Mask, and of a streamer
	// The streamers' fields, appended to the format after the chunks:
	// a plan without them (every corpus file written before them) means
	// zero values, a plain reader and a writer that takes everything.
	source, sink int  // the kinds of the underlying reader and writer
	at           int  // the stream offset where they act
	warm         int  // octets read or written before a Reset, 0..maxWarm
	warmSame     bool // the warm-up's key is the key (else its complement)
	warmHere     bool // the warm-up goes through the case's own reader or writer
	// MaskCopy's shapes beyond a dst as long as src and apart from it,
	// appended after the streamers' fields (a plan without them means a
	// dst of src's length, apart): dstSlack octets more in dst (-255..255:
	// a negative one is a dst too short, which must panic), and, if
	// overlaps, dst starting overlap octets after src (before it if
	// negative) in one array, as overlaps in exhaustive lays them out.
	dstSlack int
	overlap  int
	overlaps bool
}

// maxChunks is the most boundaries a plan holds (its count is read mod 8),
// and maxWarm the longest warm-up (read mod 8).
const (
	maxChunks = 7
	maxWarm   = 7
)

// decodePlan reads, with go-fuzz-headers: a byte (alignment mod 64), a
// byte (MaskCopy's destination alignment mod 64), a byte (number of chunk
// boundaries mod 8) and that many uint16 boundaries (mod n+1, sorted);
// then the streamers' fields (see decodeStream). Any bytes decode to a
// usable plan for a payload of n bytes.
func decodePlan(b []byte, n int) plan {
	var p plan
	c := fuzzheaders.NewConsumer(b)
	a, err := c.GetByte()
	if err != nil {
		return p
	}
	p.align = int(a % 64)
	if a, err = c.GetByte(); err != nil {
		return p
	}
	p.dstAlign = int(a % 64)
	k, err := c.GetByte()
	if err != nil {
		return p
	}
	for range k % (maxChunks + 1) {
		v, err := c.GetUint16()
		if err != nil {
			slices.Sort(p.chunks)
			return p
		}
		p.chunks = append(p.chunks, int(v)%(n+1))
	}
	slices.Sort(p.chunks)
	decodeStream(c, &p, n)
	return p
}

// decodeStream reads the streamers' fields that follow the chunks, each
// optional (what is missing keeps its zero value): a byte (the reader's
// kind, its low nibble mod numSources, and the writer's, its high nibble
// mod numSinks), a uint16 (the offset where they act, mod n+1) and a byte
// (the warm-up's length, mod 8, in bit 3 whether it uses the same key,
// and in bit 4 whether it goes through the case's own reader or writer).
func decodeStream(c *fuzzheaders.ConsumeFuzzer, p *plan, n int) {
	kinds, err := c.GetByte()
	if err != nil {
		return
	}
	p.source, p.sink = int(kinds&15)%numSources, int(kinds>>4)%numSinks
	at, err := c.GetUint16()
	if err != nil {
		return
	}
	p.at = int(at) % (n + 1)
	w, err := c.GetByte()
	if err != nil {
		return
	}
	p.warm, p.warmSame, p.warmHere = min(int(w%(maxWarm+1)), n), w&8 != 0, w&16 != 0
	decodeCopyShape(c, p)
}

// decodeCopyShape reads MaskCopy's shape that follows the streamers'
// fields, each optional: a byte (dst's slack), a byte (bit 0: dst
// overlaps src; bit 1: the slack is a shortfall, dst shorter than src)
// and a uint16 (the distance from src to dst, as an int16).
func decodeCopyShape(c *fuzzheaders.ConsumeFuzzer, p *plan) {
	slack, err := c.GetByte()
	if err != nil {
		return
	}
	p.dstSlack = int(slack)
	flags, err := c.GetByte()
	if err != nil {
		return
	}
	if flags&2 != 0 {
		p.dstSlack = -p.dstSlack
	}
	dist, err := c.GetUint16()
	if err != nil {
		return
	}
	p.overlaps, p.overlap = flags&1 != 0, int(int16(dist))
}

// encodable reports whether encodePlan can write p: at most maxChunks
// boundaries, each below 65536, an offset below 65536 and a warm-up of
// at most maxWarm octets.
func (p plan) encodable() bool {
	return len(p.chunks) <= maxChunks && (len(p.chunks) == 0 || slices.Max(p.chunks) <= 0xffff) &&
		p.at <= 0xffff && p.warm <= maxWarm && max(p.dstSlack, -p.dstSlack) <= 0xff && p.overlap == int(int16(p.overlap))
}

// encodePlan is the inverse of decodePlan for an encodable plan. It writes
// the streamers' fields only if one is not zero, so that a plan without
// them encodes as it did before they existed.
func encodePlan(p plan) []byte {
	b := []byte{byte(p.align), byte(p.dstAlign), byte(len(p.chunks))}
	for _, c := range p.chunks {
		b = appendUint16(b, c)
	}
	copyShape := p.dstSlack != 0 || p.overlaps
	if p.source == 0 && p.sink == 0 && p.at == 0 && p.warm == 0 && !p.warmSame && !p.warmHere && !copyShape {
		return b
	}
	w := byte(p.warm)
	if p.warmSame {
		w |= 8
	}
	if p.warmHere {
		w |= 16
	}
	b = append(b, byte(p.source|p.sink<<4))
	b = append(appendUint16(b, p.at), w)
	if !copyShape {
		return b
	}
	var flags byte
	if p.overlaps {
		flags = 1
	}
	slack := p.dstSlack
	if slack < 0 {
		flags, slack = flags|2, -slack
	}
	return appendUint16(append(b, byte(slack), flags), int(uint16(int16(p.overlap))))
}

// appendUint16 appends v as go-fuzz-headers' GetUint16 reads it: two
// bytes, then a byte it reads as "not little endian" (odd), so that the
// value is read big-endian.
func appendUint16(b []byte, v int) []byte {
	return append(b, byte(v>>8), byte(v), 1)
}

// keyBytes is the key FuzzMask's key argument names: its big-endian bytes.
func keyBytes(k uint32) [4]byte {
	var key [4]byte
	binary.BigEndian.PutUint32(key[:], k)
	return key
}

// keyWord is the inverse of keyBytes.
func keyWord(key [4]byte) uint32 { return binary.BigEndian.Uint32(key[:]) }
