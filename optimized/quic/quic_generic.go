package quic

import (
	"encoding/binary"
	"math"

	ref "github.com/equivcheck/equivcheck/reference/quic"
)

// parseVarintGeneric works like the reference ParseVarint.
//
// It reads the first bytes of b into the top of a big-endian word x: all 8
// at once when 8 remain, else the first 4 with one 32-bit load when 4 to 7
// remain (enough for every encoding that can fit), else the 1 to 3 bytes
// one at a time. The two top bits of x, x>>62, are log2 of the length n,
// and the value is x with those bits shifted out, then shifted right by
// 64 - 8n (56, 48, 32 or 0): no branch depends on the length. An empty b
// reads as a 1-byte encoding and fails the length check like any other
// short input.
//
// The 32-bit load is what makes a varint near the end of a packet (the
// last frame's length) as fast as one in the middle: gathering 4 to 7
// bytes one by one took up to 3.9 ns for a 4-byte varint at the end of its
// buffer against quicvarint's 1.7 (issue 12; BenchmarkSweepVarint in
// bench/sweep_test.go measures every distance from the end).
//
// The function is small enough to be inlined (inlining cost 69 of 80), and
// so is the exported ParseVarint around it (77). Being inlined is most of
// its speed against quicvarint.Parse, which is not (cost 115):
// BenchmarkParseVarint here, BenchmarkVarint in bench/quic_test.go. Check
// with go build -gcflags=-m=2 after any change. Replacing the byte loop
// for 1 to 3 bytes by loads without a loop costs 73 at best, and the 8 of
// the ParseVarint wrapper then put it over the budget: that case is still
// slower than quicvarint (docs/performance.md).
func parseVarintGeneric(b []byte) (v uint64, n int, err error) {
	if len(b) >= 8 {
		v = binary.BigEndian.Uint64(b)
	} else if len(b) > 3 {
		v = uint64(binary.BigEndian.Uint32(b)) << 32
	} else {
		for i, c := range b {
			v |= uint64(c) << (56 - 8*uint(i))
		}
	}
	n = 1 << (v >> 62)
	if len(b) < n {
		return 0, 0, ErrTruncated
	}
	// Shift the two length bits out, then the bytes after the encoding.
	v <<= 2
	v >>= 66 - 8*n
	return
}

// varintLenGeneric works like the reference VarintLen.
func varintLenGeneric(v uint64) int {
	switch {
	case v < 1<<6:
		return 1
	case v < 1<<14:
		return 2
	case v < 1<<30:
		return 4
	case v <= MaxVarint:
		return 8
	}
	panic("quic: varint value exceeds 2^62-1")
}

// appendVarintGeneric works like the reference AppendVarint: it stores the
// value with its length prefix in the top bits as one big-endian word and
// appends the word's last n bytes.
func appendVarintGeneric(b []byte, v uint64) []byte {
	switch n := varintLenGeneric(v); n {
	case 1:
		return append(b, byte(v))
	case 2:
		return binary.BigEndian.AppendUint16(b, uint16(v)|0x4000)
	case 4:
		return binary.BigEndian.AppendUint32(b, uint32(v)|0x80000000)
	default:
		return binary.BigEndian.AppendUint64(b, v|0xc000000000000000)
	}
}

// decodePacketNumberGeneric works like the reference DecodePacketNumber.
// The RFC's candidate_pn <= expected_pn - pn_hwin is evaluated as
// candidate_pn + pn_hwin <= expected_pn, which cannot wrap (see
// docs/quic.md).
func decodePacketNumberGeneric(largest, truncated uint64, pnLen int) uint64 {
	if uint(pnLen-1) > 3 {
		panic("quic: DecodePacketNumber: pnLen not in 1..4")
	}
	if largest > MaxVarint && largest != math.MaxUint64 {
		panic("quic: DecodePacketNumber: largest packet number exceeds 2^62-1")
	}
	expected := largest + 1
	win := uint64(1) << (uint(pnLen) * 8 & 63)
	hwin := win >> 1
	mask := win - 1
	candidate := expected&^mask | truncated&mask
	switch {
	case candidate+hwin <= expected && candidate < 1<<62-win:
		return candidate + win
	case candidate > expected+hwin && candidate >= win:
		return candidate - win
	}
	return candidate
}

// shortMin is the shortest valid 1-RTT packet after its DCID: a 4-byte
// packet number allowance and the header protection sample.
const shortMin = 4 + SampleLen

// parseHeaderGeneric works like the reference ParseHeader.
//
// The 1-RTT fast path is the whole function body for the common case: a
// valid argument, a first byte 0b01xxxxxx and enough bytes. One length
// check covers the DCID, the packet number and the sample, and the Header,
// four words, is returned in registers. Everything else goes out of line.
func parseHeaderGeneric(b []byte, shortDCIDLen int) (Header, error) {
	n := uint(shortDCIDLen)
	if n <= MaxCIDLen && len(b) > 0 && uint64(len(b)) <= ref.MaxInputLen {
		first := b[0]
		if first&0xc0 == 0x40 && uint(len(b)) > n+shortMin {
			return ref.NewHeader(b[:len(b):len(b)], Type1RTT, first&0x20 != 0, int(n), 0, int(n+1)), nil
		}
		if first&0x80 != 0 {
			return parseLong(b, false)
		}
	}
	return parseShortSlow(b, shortDCIDLen)
}

// parseShortSlow handles everything parseHeaderGeneric's fast path does
// not, except long headers: a bad argument, empty input, and short headers
// that are invalid or too short. A short header with a valid argument and
// the Fixed Bit set comes here only when the fast path's length check
// failed, so it is too short for the sample.
func parseShortSlow(b []byte, shortDCIDLen int) (Header, error) {
	if uint(shortDCIDLen) > MaxCIDLen || uint64(len(b)) > ref.MaxInputLen {
		return Header{}, ErrInvalidArgument
	}
	if len(b) == 0 {
		return Header{}, ErrTruncated
	}
	if b[0]&0x40 == 0 {
		return Header{}, ErrFixedBitClear
	}
	pn := shortDCIDLen + 1
	if len(b) < pn {
		return Header{}, ErrTruncated
	}
	return ref.NewHeader(b[:len(b):len(b)], Type1RTT, b[0]&0x20 != 0, shortDCIDLen, 0, pn), ErrPacketTooShort
}

// longTypes maps (version is 2)<<2 | Long Packet Type bits to the packet
// type: RFC 9000 §17.2 Table 5 for version 1, RFC 9369 §3.2 for version 2.
var longTypes = [8]PacketType{
	TypeInitial, Type0RTT, TypeHandshake, TypeRetry, // version 1
	TypeRetry, TypeInitial, Type0RTT, TypeHandshake, // version 2
}

// parseLong parses a long header; b[0]&0x80 != 0. The checks run in the
// reference's order, so the same error wins. With grease, a Fixed Bit of
// 0 is accepted (RFC 9287).
func parseLong(b []byte, grease bool) (Header, error) {
	if len(b) < 5 {
		return Header{}, ErrTruncated
	}
	first := b[0]
	version := binary.BigEndian.Uint32(b[1:5])
	var maxCID uint = 255
	v2 := version == Version2
	known := v2 || version == Version1
	if known {
		if first&0x40 == 0 && !grease {
			return Header{}, ErrFixedBitClear
		}
		maxCID = MaxCIDLen
	}
	// Destination Connection ID Length, DCID, Source Connection ID Length.
	if len(b) < 6 {
		return Header{}, ErrTruncated
	}
	dl := uint(b[5])
	if dl > maxCID {
		return Header{}, ErrCIDTooLong
	}
	off := 6 + dl // the SCID Length byte
	if uint(len(b)) <= off {
		return Header{}, ErrTruncated
	}
	sl := uint(b[off])
	if sl > maxCID {
		return Header{}, ErrCIDTooLong
	}
	off += 1 + sl // the end of the SCID
	if uint(len(b)) < off {
		return Header{}, ErrTruncated
	}
	if !known {
		return parseUnversioned(b, off, version, int(dl), int(sl))
	}

	var idx uint
	if v2 {
		idx = 4
	}
	typ := longTypes[idx|uint(first>>4&3)]
	switch typ {
	case TypeRetry:
		return parseRetryFast(b, off, int(dl), int(sl))
	case TypeInitial:
		tl, n, err := parseVarintGeneric(b[off:])
		if err != nil {
			return Header{}, err
		}
		off += uint(n)
		// A Token running past the end leaves no byte for the Length,
		// whose read then fails with ErrTruncated: the error of a
		// truncated Token, one comparison fewer.
		off += uint(min(tl, uint64(uint(len(b))-off)))
	}
	length, n, err := parseVarintGeneric(b[off:])
	if err != nil {
		return Header{}, err
	}
	off += uint(n)
	if uint64(uint(len(b))-off) < length {
		return Header{}, ErrLengthExceedsDatagram
	}
	end := off + uint(length)
	h := ref.NewHeader(b[:end:end], typ, false, int(dl), int(sl), int(off))
	if length < shortMin {
		return h, ErrPacketTooShort
	}
	return h, nil
}

// parseUnversioned parses the rest of a Version Negotiation packet or of a
// long header of an unsupported version, after the SCID, at b[off:].
func parseUnversioned(b []byte, off uint, version uint32, dl, sl int) (Header, error) {
	if version != VersionNegotiation {
		return ref.NewHeader(b[:len(b):len(b)], TypeUnsupportedVersion, false, dl, sl, 0), nil
	}
	list := uint(len(b)) - off
	if list == 0 || list%4 != 0 {
		return Header{}, ErrBadVersionList
	}
	return ref.NewHeader(b[:len(b):len(b)], TypeVersionNegotiation, false, dl, sl, 0), nil
}

// parseRetryFast parses the rest of a Retry packet, after the SCID, at
// b[off:].
func parseRetryFast(b []byte, off uint, dl, sl int) (Header, error) {
	if uint(len(b))-off < RetryIntegrityTagLen {
		return Header{}, ErrTruncated
	}
	if uint(len(b))-off == RetryIntegrityTagLen {
		return Header{}, ErrEmptyRetryToken
	}
	return ref.NewHeader(b[:len(b):len(b)], TypeRetry, false, dl, sl, 0), nil
}
