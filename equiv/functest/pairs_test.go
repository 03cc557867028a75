package functest_test

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"io"
	"math/bits"
	"net/netip"
	"strconv"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

// Correct pairs: two implementations of one function, from the standard
// library and written by hand from its documentation, which the derived
// suites must pass at quick (no false positive).

func onesLoop(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

const hexDigits = "0123456789abcdef"

func hexAppendLoop(dst, src []byte) []byte {
	for _, v := range src {
		dst = append(dst, hexDigits[v>>4], hexDigits[v&0xf])
	}
	return dst
}

// appendRuneByHand encodes r as RFC 3629 §3 lays the octets out.
func appendRuneByHand(b []byte, r rune) []byte {
	switch {
	case r < 0 || r > unicode.MaxRune || 0xd800 <= r && r <= 0xdfff:
		return append(b, 0xef, 0xbf, 0xbd)
	case r < 0x80:
		return append(b, byte(r))
	case r < 0x800:
		return append(b, 0xc0|byte(r>>6), 0x80|byte(r)&0x3f)
	case r < 0x10000:
		return append(b, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
	}
	return append(b, 0xf0|byte(r>>18), 0x80|byte(r>>12)&0x3f, 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
}

func crcIEEEStd(crc uint32, p []byte) uint32 { return crc32.Update(crc, crc32.IEEETable, p) }

// crcIEEEBitwise is CRC-32 (IEEE) a bit at a time, the reflected
// polynomial 0xEDB88320, continuing from crc as crc32.Update does.
func crcIEEEBitwise(crc uint32, p []byte) uint32 {
	c := ^crc
	for _, v := range p {
		c ^= uint32(v)
		for range 8 {
			c = c>>1 ^ 0xedb88320&-(c&1)
		}
	}
	return ^c
}

// appendUvarintUnrolled writes the LEB128 groups of v one comparison at a
// time, as protobuf's hand-unrolled encoders do.
func appendUvarintUnrolled(b []byte, v uint64) []byte {
	if v < 1<<7 {
		return append(b, byte(v))
	}
	if v < 1<<14 {
		return append(b, byte(v)|0x80, byte(v>>7))
	}
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func indexByteLoop(b []byte, c byte) int {
	for i, v := range b {
		if v == c {
			return i
		}
	}
	return -1
}

func appendUintByHand(dst []byte, v uint64, base int) []byte {
	if base < 2 || base > 36 {
		panic("strconv: illegal AppendInt/FormatInt base")
	}
	var buf [64]byte
	i := len(buf)
	for {
		i--
		buf[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[v%uint64(base)]
		v /= uint64(base)
		if v == 0 {
			break
		}
	}
	return append(dst, buf[i:]...)
}

func toLowerByHand(s []byte) []byte {
	out := make([]byte, 0, len(s))
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		out = utf8.AppendRune(out, unicode.ToLower(r))
		s = s[n:]
	}
	return out
}

// readAllBuffer reads r to its end through a bytes.Buffer, which reads
// into at least 512 free octets at a time, as io.ReadAll does.
func readAllBuffer(r io.Reader) ([]byte, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(r)
	return b.Bytes(), err
}

func writeDirect(w io.Writer, p []byte) (int, error) { return w.Write(p) }

func writeString(w io.Writer, p []byte) (int, error) { return io.WriteString(w, string(p)) }

func unmapByHand(a netip.Addr) netip.Addr {
	if a.Is4In6() {
		return netip.AddrFrom4(a.As4())
	}
	return a
}

// correctPairs are the pairs TestCorrectPairs checks.
var correctPairs = []equiv.Suite{
	functest.New("OnesCount64", bits.OnesCount64, onesLoop),
	functest.New("AppendEncode", hex.AppendEncode, hexAppendLoop, functest.Appends(0)),
	functest.New("AppendRune", utf8.AppendRune, appendRuneByHand, functest.Appends(0)),
	functest.New("UpdateIEEE", crcIEEEStd, crcIEEEBitwise),
	functest.New("AppendUvarint", binary.AppendUvarint, appendUvarintUnrolled, functest.Appends(0)),
	functest.New("IndexByte", bytes.IndexByte, indexByteLoop),
	functest.New("AppendUint", strconv.AppendUint, appendUintByHand, functest.Appends(0), functest.Values(2, 2, 8, 10, 16, 36, 1, 37)),
	functest.New("ToLower", bytes.ToLower, toLowerByHand),
	functest.New("ReadAll", io.ReadAll, readAllBuffer),
	functest.New("Write", writeDirect, writeString),
	functest.New("Unmap", netip.Addr.Unmap, unmapByHand),
}

// TestCorrectPairs: no false positive on correct pairs, at quick (a sample
// of the long methods under -short).
func TestCorrectPairs(t *testing.T) {
	for _, s := range correctPairs {
		t.Run(s.Pair, func(t *testing.T) {
			t.Parallel()
			equiv.Test(t, s, equiv.AnyPanic())
		})
	}
}
