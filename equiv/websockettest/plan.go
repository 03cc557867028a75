package websockettest

import (
	"encoding/binary"
	"slices"

	fuzzheaders "github.com/AdaLogics/go-fuzz-headers"
)

// plan is the decoded form of FuzzMask's plan argument.
type plan struct {
	align, dstAlign int   // offsets from a 64-byte boundary
	chunks          []int // sorted boundaries of the calls of a chunked Mask
}

// maxChunks is the most boundaries a plan holds (its count is read mod 8).
const maxChunks = 7

// decodePlan reads, with go-fuzz-headers: a byte (alignment mod 64), a
// byte (MaskCopy's destination alignment mod 64), a byte (number of chunk
// boundaries mod 8) and that many uint16 boundaries (mod n+1, sorted). Any
// bytes decode to a usable plan for a payload of n bytes.
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
			break
		}
		p.chunks = append(p.chunks, int(v)%(n+1))
	}
	slices.Sort(p.chunks)
	return p
}

// encodable reports whether encodePlan can write p: at most maxChunks
// boundaries, each below 65536.
func (p plan) encodable() bool {
	return len(p.chunks) <= maxChunks && (len(p.chunks) == 0 || slices.Max(p.chunks) <= 0xffff)
}

// encodePlan is the inverse of decodePlan for an encodable plan.
func encodePlan(p plan) []byte {
	b := []byte{byte(p.align), byte(p.dstAlign), byte(len(p.chunks))}
	for _, c := range p.chunks {
		// Two bytes, then a byte go-fuzz-headers reads as "not little
		// endian" (odd), so the value is read big-endian.
		b = append(b, byte(c>>8), byte(c), 1)
	}
	return b
}

// keyBytes is the key FuzzMask's key argument names: its big-endian bytes.
func keyBytes(k uint32) [4]byte {
	var key [4]byte
	binary.BigEndian.PutUint32(key[:], k)
	return key
}

// keyWord is the inverse of keyBytes.
func keyWord(key [4]byte) uint32 { return binary.BigEndian.Uint32(key[:]) }
