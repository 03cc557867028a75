// Package quic parses QUIC packet headers as specified by RFC 9000 §17
// (with RFC 8999 invariants, RFC 9369 version 2 and RFC 9000 §16 varints).
//
// This is the reference implementation: it transcribes the RFC field by
// field, one byte at a time, and enforces every MUST that can be checked
// without connection state. Its types and errors are the ones every
// implementation of the package's API returns (optimized/quic re-exports
// them as aliases), so that results can be compared field by field and
// errors by identity. The parsing rules, and the reasons for them, are
// collected in docs/quic.md.
//
// Nothing in this package copies or retains input: every slice a Header
// returns aliases the parsed buffer, with its capacity clipped to its
// length so that an append to it never writes into the packet.
package quic

import (
	"errors"
	"strconv"
)

// Versions with a known packet layout.
const (
	// VersionNegotiation is the Version field of a Version Negotiation
	// packet (RFC 9000 §17.2.1, RFC 8999 §6).
	VersionNegotiation uint32 = 0x00000000
	// Version1 is QUIC version 1 (RFC 9000 §15).
	Version1 uint32 = 0x00000001
	// Version2 is QUIC version 2 (RFC 9369 §3.1).
	Version2 uint32 = 0x6b3343cf
)

// Size limits.
const (
	// MaxCIDLen is the longest connection ID in QUIC versions 1 and 2
	// (RFC 9000 §17.2: "In QUIC version 1, this value MUST NOT exceed 20
	// bytes"). Long headers of other versions carry up to 255 bytes
	// (RFC 8999 §5.1).
	MaxCIDLen = 20
	// RetryIntegrityTagLen is the length of the Retry Integrity Tag
	// (RFC 9000 §17.2.5, RFC 9001 §5.8).
	RetryIntegrityTagLen = 16
	// SampleLen is the length of the header protection sample, which
	// starts 4 bytes after the start of the Packet Number field
	// (RFC 9001 §5.4.2; 16 bytes for AES and ChaCha20, §5.4.3–§5.4.4).
	SampleLen = 16
	// MaxVarint is the largest value a variable-length integer can hold,
	// 2^62-1 (RFC 9000 §16).
	MaxVarint = 1<<62 - 1
)

// PacketType says which packet a Header describes, and so which of its
// fields are set.
type PacketType uint8

// Packet types. The zero value, TypeNone, only appears in the zero Header.
const (
	TypeNone PacketType = iota
	// TypeInitial is an Initial packet (RFC 9000 §17.2.2).
	TypeInitial
	// Type0RTT is a 0-RTT packet (RFC 9000 §17.2.3).
	Type0RTT
	// TypeHandshake is a Handshake packet (RFC 9000 §17.2.4).
	TypeHandshake
	// TypeRetry is a Retry packet (RFC 9000 §17.2.5).
	TypeRetry
	// TypeVersionNegotiation is a Version Negotiation packet
	// (RFC 9000 §17.2.1, RFC 8999 §6).
	TypeVersionNegotiation
	// TypeUnsupportedVersion is a long header packet of a version other
	// than 0, 1 and 2, parsed only as far as the invariants go
	// (RFC 8999 §5.1): Version, Destination and Source Connection IDs.
	TypeUnsupportedVersion
	// Type1RTT is a 1-RTT packet, the only short header packet of
	// versions 1 and 2 (RFC 9000 §17.3.1).
	Type1RTT
)

var typeNames = [...]string{
	TypeNone:               "None",
	TypeInitial:            "Initial",
	Type0RTT:               "0-RTT",
	TypeHandshake:          "Handshake",
	TypeRetry:              "Retry",
	TypeVersionNegotiation: "VersionNegotiation",
	TypeUnsupportedVersion: "UnsupportedVersion",
	Type1RTT:               "1-RTT",
}

// String returns the packet type's name as the RFC writes it ("0-RTT").
func (t PacketType) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "PacketType(" + strconv.Itoa(int(t)) + ")"
}

// IsLongHeader reports whether packets of type t have a long header
// (RFC 9000 §17.2).
func (t PacketType) IsLongHeader() bool {
	return t >= TypeInitial && t <= TypeUnsupportedVersion
}

// Header is the parsed header of one QUIC packet. Its methods report the
// header's fields.
//
// A Header is four machine words: the packet slice and one word packing
// the packet type, the Spin Bit, the lengths of the Connection IDs and the
// packet number offset. The other fields are cut from the packet when
// asked for: the Version, the Connection IDs, and the Token, whose Token
// Length varint is read again. Being this small keeps a Header in
// registers: ParseHeader returns it without touching memory, where a Go
// value of more than four words is returned through memory and copied by
// the caller (docs/quic.md has the cost).
//
// Because the methods read the Version, Connection ID, Token Length,
// Token and Supported Version bytes from the packet, changing those bytes
// changes what they report. Removing header protection in place is fine:
// it only changes the low bits of the first byte and the Packet Number
// field, which no method reads.
//
// The zero Header has Type TypeNone and reports nothing.
type Header struct {
	packet []byte
	// info packs, from the least significant bit:
	//	bits 0-2    PacketType
	//	bit 3       Spin Bit
	//	bits 8-15   Destination Connection ID length
	//	bits 16-23  Source Connection ID length
	//	bits 24-63  packet number offset (below 2^40; see MaxInputLen)
	info uint64
}

// MaxInputLen is the longest input ParseHeader and Packets accept; longer
// ones are rejected with ErrInvalidArgument. It bounds the offsets a
// Header stores, and is far beyond any datagram (UDP payloads stop below
// 2^16 bytes).
const MaxInputLen = 1<<40 - 1

// NewHeader returns the Header with the given parts. It exists so that
// other implementations of ParseHeader (optimized/quic) can return this
// package's Header; it is not parsing logic and checks nothing, so its
// arguments must be exactly what ParseHeader finds:
//   - packet: the whole packet, with capacity equal to length;
//   - t: the packet type; spin: the Spin Bit of a 1-RTT packet, else false;
//   - dcidLen, scidLen: the Connection ID lengths (scidLen 0 for 1-RTT);
//   - pnOffset: the packet number offset in packet for Initial, 0-RTT,
//     Handshake and 1-RTT packets, else 0.
func NewHeader(packet []byte, t PacketType, spin bool, dcidLen, scidLen, pnOffset int) Header {
	info := uint64(t) | uint64(dcidLen)<<8 | uint64(scidLen)<<16 | uint64(pnOffset)<<24
	if spin {
		info |= 1 << 3
	}
	return Header{packet: packet, info: info}
}

// Type returns the packet type.
func (h Header) Type() PacketType { return PacketType(h.info & 7) }

// Version returns the Version field of a long header (0 for Version
// Negotiation), and 0 for 1-RTT packets, which have none.
func (h Header) Version() uint32 {
	if !h.Type().IsLongHeader() {
		return 0
	}
	p := h.packet
	return uint32(p[1])<<24 | uint32(p[2])<<16 | uint32(p[3])<<8 | uint32(p[4])
}

func (h Header) dcidLen() int  { return int(h.info >> 8 & 0xff) }
func (h Header) scidLen() int  { return int(h.info >> 16 & 0xff) }
func (h Header) pnOffset() int { return int(h.info >> 24) }

// cidEnd returns the offset just after a long header's Source Connection ID.
func (h Header) cidEnd() int { return 7 + h.dcidLen() + h.scidLen() }

// DCID returns the Destination Connection ID: for a 1-RTT packet, the
// shortDCIDLen bytes after the first byte. Nil for the zero Header.
func (h Header) DCID() []byte {
	t := h.Type()
	if t == TypeNone {
		return nil
	}
	// Long headers: Version (32), Destination Connection ID Length (8).
	start := 6
	if t == Type1RTT {
		start = 1
	}
	end := start + h.dcidLen()
	return h.packet[start:end:end]
}

// SCID returns the Source Connection ID of a long header; nil otherwise.
func (h Header) SCID() []byte {
	if !h.Type().IsLongHeader() {
		return nil
	}
	start := 7 + h.dcidLen()
	return h.packet[start : start+h.scidLen() : start+h.scidLen()]
}

// Token returns the Token of an Initial packet or the Retry Token of a
// Retry packet; nil for other types. An Initial's Token is read again from
// its Token Length field: if the packet's bytes were changed after parsing
// so that the field no longer ends, with its Token, before the Packet
// Number's Length field, Token returns nil (never a slice outside the
// header, never a panic).
func (h Header) Token() []byte {
	switch h.Type() {
	case TypeInitial:
		// Token Length (i), Token (..): ParseHeader has checked both, and
		// the Length field (at least one byte) follows them.
		start, limit := h.cidEnd(), h.pnOffset()-1
		if start > limit || limit > len(h.packet) {
			return nil
		}
		tokenLen, n, err := ParseVarint(h.packet[start:limit])
		if err != nil || tokenLen > uint64(limit-start-n) {
			return nil
		}
		start += n
		end := start + int(tokenLen)
		return h.packet[start:end:end]
	case TypeRetry:
		end := len(h.packet) - RetryIntegrityTagLen
		return h.packet[h.cidEnd():end:end]
	}
	return nil
}

// Length returns the Length field of an Initial, 0-RTT or Handshake
// packet: the length of its Packet Number and Packet Payload fields. It is
// 0 for other types.
func (h Header) Length() uint64 {
	switch h.Type() {
	case TypeInitial, Type0RTT, TypeHandshake:
		return uint64(len(h.packet) - h.pnOffset())
	}
	return 0
}

// PNOffset returns the offset in Packet of the Packet Number field of an
// Initial, 0-RTT, Handshake or 1-RTT packet; 0 for other types. Header
// protection's sample is Packet()[PNOffset()+4 : PNOffset()+4+SampleLen],
// which ParseHeader guarantees lies within the packet.
func (h Header) PNOffset() int { return h.pnOffset() }

// SupportedVersions returns the raw Supported Version list of a Version
// Negotiation packet: a non-empty multiple of 4 bytes, each 4 a big-endian
// version. Nil for other types.
func (h Header) SupportedVersions() []byte {
	if h.Type() != TypeVersionNegotiation {
		return nil
	}
	return h.packet[h.cidEnd():len(h.packet):len(h.packet)]
}

// IntegrityTag returns the Retry Integrity Tag of a Retry packet
// (RetryIntegrityTagLen bytes); nil for other types.
func (h Header) IntegrityTag() []byte {
	if h.Type() != TypeRetry {
		return nil
	}
	return h.packet[len(h.packet)-RetryIntegrityTagLen : len(h.packet) : len(h.packet)]
}

// Spin returns the latency Spin Bit of a 1-RTT packet (RFC 9000 §17.4);
// false for other types.
func (h Header) Spin() bool { return h.info&(1<<3) != 0 }

// Packet returns the whole packet, a prefix of the parsed input. For
// Initial, 0-RTT and Handshake packets it ends PNOffset()+Length() bytes
// in; every other packet type runs to the end of the datagram
// (RFC 9000 §12.2). Nil for the zero Header.
func (h Header) Packet() []byte { return h.packet }

// Errors. They are returned as they are, never wrapped, so == and
// errors.Is both work. When an input has several problems, the error of
// the first field found bad in wire order is returned (see docs/quic.md).
var (
	// ErrInvalidArgument reports a shortDCIDLen outside 0..MaxCIDLen, or
	// an input longer than MaxInputLen. It is checked before the packet is
	// looked at.
	ErrInvalidArgument = errors.New("quic: invalid argument")

	// ErrTruncated reports that the input ends inside a field: an empty
	// datagram, a varint, the Version, a Connection ID or its length, a
	// Token, a Retry Integrity Tag, or a 1-RTT Destination Connection ID.
	ErrTruncated = errors.New("quic: truncated header")

	// ErrFixedBitClear reports a version 1 or 2 long header, or a short
	// header, whose Fixed Bit (0x40) is 0 (RFC 9000 §17.2, §17.3.1).
	ErrFixedBitClear = errors.New("quic: fixed bit is zero")

	// ErrCIDTooLong reports a Connection ID Length above MaxCIDLen in a
	// version 1 or 2 long header (RFC 9000 §17.2).
	ErrCIDTooLong = errors.New("quic: connection ID longer than 20 bytes")

	// ErrEmptyRetryToken reports a Retry packet with a zero-length Retry
	// Token (RFC 9000 §17.2.5.2).
	ErrEmptyRetryToken = errors.New("quic: empty retry token")

	// ErrBadVersionList reports a Version Negotiation packet whose
	// Supported Version list is not a multiple of 4 bytes (its entries
	// are 32 bits: RFC 8999 §6, RFC 9000 §17.2.1) or is empty, which the
	// RFCs' figure allows but which lists no version to retry with: this
	// package rejects it (docs/quic.md).
	ErrBadVersionList = errors.New("quic: bad supported version list")

	// ErrLengthExceedsDatagram reports an Initial, 0-RTT or Handshake
	// packet whose Length field runs past the end of the datagram
	// (RFC 9000 §12.2, §17.2).
	ErrLengthExceedsDatagram = errors.New("quic: length exceeds datagram")

	// ErrPacketTooShort reports an Initial, 0-RTT, Handshake or 1-RTT
	// packet too short to hold the header protection sample, that is,
	// fewer than 4+SampleLen bytes from the Packet Number field to the end
	// of the packet (RFC 9001 §5.4.2: "An endpoint MUST discard packets
	// that are not long enough to contain a complete sample."). It is the
	// only error returned with a complete Header: the packet can still be
	// delimited and skipped.
	ErrPacketTooShort = errors.New("quic: packet too short for header protection sample")

	// ErrDCIDMismatch is returned only by Packets, for a coalesced packet
	// whose Destination Connection ID differs from the first packet's
	// (RFC 9000 §12.2). The packet's Header is complete.
	ErrDCIDMismatch = errors.New("quic: coalesced packet with a different destination connection ID")

	// ErrTrailingBytes is returned only by Packets and PacketsWith, once
	// and last, for the bytes after at least one packet that cannot start
	// a packet: padding or junk, which RFC 9000 §14.1 lets a sender put
	// after its packets ("Initial packets can even be coalesced with
	// invalid packets, which a receiver will discard"). Its Header has
	// Type TypeNone and reports nothing but Packet, the rest of the
	// datagram. The packets before it stand.
	ErrTrailingBytes = errors.New("quic: trailing bytes after the last packet")
)
