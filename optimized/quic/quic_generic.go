package quic

import (
	"encoding/binary"
	"math"

	ref "github.com/equivcheck/equivcheck/reference/quic"
)

// parseVarintGeneric is the generic variant of ParseVarint. It calls
// ParseVarint, which holds the code itself rather than calling a variant as
// the other exported functions do: a wrapper adds 8 to the inlining cost,
// and the body needs 76 of the 80 (see ParseVarint). Being the only
// variant, it tests the same code.
func parseVarintGeneric(b []byte) (uint64, int, error) {
	return ParseVarint(b)
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
	if n <= MaxCIDLen && len(b) > 0 && uint64(len(b)) <= MaxInputLen {
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
	if uint(shortDCIDLen) > MaxCIDLen || uint64(len(b)) > MaxInputLen {
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
		tl, n, err := ParseVarint(b[off:])
		if err != nil {
			return Header{}, err
		}
		off += uint(n)
		// A Token running past the end leaves no byte for the Length,
		// whose read then fails with ErrTruncated: the error of a
		// truncated Token, one comparison fewer.
		off += uint(min(tl, uint64(uint(len(b))-off)))
	}
	length, n, err := ParseVarint(b[off:])
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
