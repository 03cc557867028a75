package quic

// ParseHeader parses the header of the first QUIC packet in the datagram b.
//
// shortDCIDLen is the length of the Destination Connection ID in short
// header packets, which the header does not encode: the endpoint knows the
// length of the connection IDs it issued (RFC 9000 §17.3). It must be in
// 0..MaxCIDLen, even when b holds a long header.
//
// Long headers of version 1 (RFC 9000 §17.2) and version 2 (RFC 9369 §3.2)
// are parsed in full. A Version Negotiation packet (Version 0) and long
// headers of any other version are parsed as the invariants describe them
// (RFC 8999 §5.1, §6), with Connection IDs of up to 255 bytes. A short
// header is parsed as a 1-RTT packet (RFC 9000 §17.3.1).
//
// ParseHeader neither allocates nor copies: the slices a Header returns
// alias b. It reads only the header: a payload is never looked at, and header
// protection is not removed, so the Reserved Bits, Key Phase and Packet
// Number Length bits of the first byte are not checked (they are protected,
// RFC 9001 §5.4.1). Rules that depend on connection state or on the
// endpoint's role (a server's Initial must carry no token, a server drops
// Initial packets in datagrams under 1200 bytes, a client drops a Version
// Negotiation packet listing its own version) are left to the caller.
//
// On error, ParseHeader returns the zero Header, except for
// ErrPacketTooShort, which comes with a complete Header. When b has more
// than one problem, the error of the first field found bad in wire order
// is returned; the Fixed Bit of a long header is judged once the Version
// is known, since only versions 1 and 2 give it a meaning.
//
// A Stateless Reset (RFC 9000 §10.3) is built to look like a 1-RTT packet:
// a first byte 0b01xxxxxx, at least 4 unpredictable bytes, and the 16-byte
// Stateless Reset Token last, at least 21 bytes in all. One too short to
// hold the header protection sample after a shortDCIDLen-byte DCID (fewer
// than shortDCIDLen+21 bytes) comes back as ErrPacketTooShort with a
// complete 1-RTT Header, and never as ErrTruncated, since shortDCIDLen is
// at most 20: the caller compares the last 16 bytes of Packet with its
// tokens (RFC 9000 §10.3.1), as for a packet that cannot be decrypted.
//
// ParseHeader is ParseHeaderWith with no options.
func ParseHeader(b []byte, shortDCIDLen int) (Header, error) {
	return parseHeader(b, shortDCIDLen, false)
}

// parseHeader parses as ParseHeader; with grease, a Fixed Bit of 0 is
// accepted (RFC 9287).
func parseHeader(b []byte, shortDCIDLen int, grease bool) (Header, error) {
	if shortDCIDLen < 0 || shortDCIDLen > MaxCIDLen || uint64(len(b)) > MaxInputLen {
		return Header{}, ErrInvalidArgument
	}
	if len(b) < 1 {
		return Header{}, ErrTruncated
	}
	// https://www.rfc-editor.org/rfc/rfc8999#section-5
	//
	// Header Form (1),
	if b[0]&0x80 == 0 {
		return parseShortHeader(b, shortDCIDLen, grease)
	}
	return parseLongHeader(b, grease)
}

// parseShortHeader parses a 1-RTT packet.
func parseShortHeader(b []byte, dcidLen int, grease bool) (Header, error) {
	// https://www.rfc-editor.org/rfc/rfc9000#section-17.3.1
	//
	// 1-RTT Packet {
	//   Header Form (1) = 0,
	first := b[0]
	off := 1
	//   Fixed Bit (1) = 1,
	//
	// "Packets containing a zero value for this bit are not valid packets
	// in this version and MUST be discarded." Unless the endpoint
	// advertised grease_quic_bit: RFC 9287 §3, "An endpoint that
	// advertises the grease_quic_bit transport parameter MUST accept
	// packets with the QUIC Bit set to a value of 0."
	if first&0x40 == 0 && !grease {
		return Header{}, ErrFixedBitClear
	}
	//   Spin Bit (1),
	spin := first&0x20 != 0
	//   Reserved Bits (2),
	//   Key Phase (1),
	//   Packet Number Length (2),
	//
	// These are under header protection (RFC 9001 §5.4.1) and not read.
	//
	//   Destination Connection ID (0..160),
	if len(b)-off < dcidLen {
		return Header{}, ErrTruncated
	}
	off += dcidLen
	//   Packet Number (8..32),
	//   Packet Payload (8..),
	// }
	//
	// A short header packet has no Length: it runs to the end of the
	// datagram (RFC 9000 §12.2).
	h := NewHeader(b[:len(b):len(b)], Type1RTT, spin, dcidLen, 0, off)
	// https://www.rfc-editor.org/rfc/rfc9001#section-5.4.2
	//
	// "An endpoint MUST discard packets that are not long enough to
	// contain a complete sample."
	if len(b)-off < 4+SampleLen {
		return h, ErrPacketTooShort
	}
	return h, nil
}

// parseLongHeader parses a long header packet of any version.
func parseLongHeader(b []byte, grease bool) (Header, error) {
	// https://www.rfc-editor.org/rfc/rfc8999#section-5.1
	//
	// Long Header Packet {
	//   Header Form (1) = 1,
	//   Version-Specific Bits (7),
	first := b[0]
	off := 1
	//   Version (32),
	if len(b)-off < 4 {
		return Header{}, ErrTruncated
	}
	var version uint32
	for i := 0; i < 4; i++ {
		version = version<<8 | uint32(b[off])
		off++
	}
	known := version == Version1 || version == Version2

	// https://www.rfc-editor.org/rfc/rfc9000#section-17.2
	//
	// For versions 1 and 2 the Version-Specific Bits start with the Fixed
	// Bit: "Packets containing a zero value for this bit are not valid
	// packets in this version and MUST be discarded." A Version
	// Negotiation packet has Unused (7) bits there, and other versions
	// give them their own meaning, so neither is checked. With grease the
	// bit is not checked either (RFC 9287 §3; §3.1 lets Initial, 0-RTT,
	// Handshake and Retry packets clear it too).
	if known && first&0x40 == 0 && !grease {
		return Header{}, ErrFixedBitClear
	}
	// RFC 9000 §17.2: "In QUIC version 1, this value MUST NOT exceed 20
	// bytes. Endpoints that receive a version 1 long header with a value
	// larger than 20 MUST drop the packet." RFC 9369 §3 keeps this for
	// version 2. Other versions may use all 255 (RFC 8999 §5.1).
	maxCIDLen := 255
	if known {
		maxCIDLen = MaxCIDLen
	}

	//   Destination Connection ID Length (8),
	if len(b)-off < 1 {
		return Header{}, ErrTruncated
	}
	dcidLen := int(b[off])
	off++
	if dcidLen > maxCIDLen {
		return Header{}, ErrCIDTooLong
	}
	//   Destination Connection ID (0..2040),
	//   Source Connection ID Length (8),
	//
	// Both present: the DCID and the byte after it.
	if len(b)-off < dcidLen+1 {
		return Header{}, ErrTruncated
	}
	off += dcidLen
	scidLen := int(b[off])
	off++
	if scidLen > maxCIDLen {
		return Header{}, ErrCIDTooLong
	}
	//   Source Connection ID (0..2040),
	if len(b)-off < scidLen {
		return Header{}, ErrTruncated
	}
	off += scidLen

	//   Version-Specific Data (..),
	// }
	switch {
	case version == VersionNegotiation:
		return parseVersionNegotiation(b, off, dcidLen, scidLen)
	case !known:
		// The rest of the packet is opaque, and with no Length field it
		// runs to the end of the datagram.
		return NewHeader(b[:len(b):len(b)], TypeUnsupportedVersion, false, dcidLen, scidLen, 0), nil
	}

	// Long Packet Type (2),
	typ := longPacketType(version, first>>4&0x3)
	switch typ {
	case TypeRetry:
		return parseRetry(b, off, dcidLen, scidLen)
	case TypeInitial:
		// https://www.rfc-editor.org/rfc/rfc9000#section-17.2.2
		//
		//   Token Length (i),
		tokenLen, n, err := ParseVarint(b[off:])
		if err != nil {
			return Header{}, err
		}
		off += n
		//   Token (..),
		if uint64(len(b)-off) < tokenLen {
			return Header{}, ErrTruncated
		}
		off += int(tokenLen)
	}
	// Initial, 0-RTT (§17.2.3) and Handshake (§17.2.4) packets end alike:
	//
	//   Length (i),
	length, n, err := ParseVarint(b[off:])
	if err != nil {
		return Header{}, err
	}
	off += n
	// "Length: This is the length of the remainder of the packet (that
	// is, the Packet Number and Payload fields) in bytes". A packet must
	// fit in its datagram (RFC 9000 §12.2).
	if uint64(len(b)-off) < length {
		return Header{}, ErrLengthExceedsDatagram
	}
	//   Packet Number (8..32),
	//   Packet Payload (8..),
	// }
	end := off + int(length)
	h := NewHeader(b[:end:end], typ, false, dcidLen, scidLen, off)
	// https://www.rfc-editor.org/rfc/rfc9001#section-5.4.2
	//
	// "An endpoint MUST discard packets that are not long enough to
	// contain a complete sample."
	if length < 4+SampleLen {
		return h, ErrPacketTooShort
	}
	return h, nil
}

// longPacketType maps the Long Packet Type bits of a version 1 or 2 long
// header to a PacketType.
func longPacketType(version uint32, bits byte) PacketType {
	if version == Version2 {
		// https://www.rfc-editor.org/rfc/rfc9369#section-3.2
		//
		// Initial: 0b01, 0-RTT: 0b10, Handshake: 0b11, Retry: 0b00
		switch bits {
		case 0b01:
			return TypeInitial
		case 0b10:
			return Type0RTT
		case 0b11:
			return TypeHandshake
		default:
			return TypeRetry
		}
	}
	// https://www.rfc-editor.org/rfc/rfc9000#section-17.2, Table 5
	//
	// 0x00 Initial, 0x01 0-RTT, 0x02 Handshake, 0x03 Retry
	switch bits {
	case 0b00:
		return TypeInitial
	case 0b01:
		return Type0RTT
	case 0b10:
		return TypeHandshake
	default:
		return TypeRetry
	}
}

// parseRetry parses the fields of a Retry packet after the Source
// Connection ID, which starts at b[off].
func parseRetry(b []byte, off, dcidLen, scidLen int) (Header, error) {
	// https://www.rfc-editor.org/rfc/rfc9000#section-17.2.5
	//
	// Retry Packet {
	//   Header Form (1) = 1,
	//   Fixed Bit (1) = 1,
	//   Long Packet Type (2) = 3,
	//   Unused (4),
	//   ...
	//   Retry Token (..),
	//   Retry Integrity Tag (128),
	// }
	//
	// "a client MUST ignore these [Unused] bits". The Retry Token has no
	// length: it is what lies between the Source Connection ID and the
	// last 16 bytes of the datagram.
	if len(b)-off < RetryIntegrityTagLen {
		return Header{}, ErrTruncated
	}
	tagStart := len(b) - RetryIntegrityTagLen
	// https://www.rfc-editor.org/rfc/rfc9000#section-17.2.5.2
	//
	// "A client MUST discard a Retry packet with a zero-length Retry Token
	// field."
	if tagStart == off {
		return Header{}, ErrEmptyRetryToken
	}
	return NewHeader(b[:len(b):len(b)], TypeRetry, false, dcidLen, scidLen, 0), nil
}

// parseVersionNegotiation parses the fields of a Version Negotiation packet
// after the Source Connection ID, which starts at b[off].
func parseVersionNegotiation(b []byte, off, dcidLen, scidLen int) (Header, error) {
	// https://www.rfc-editor.org/rfc/rfc8999#section-6
	//
	// Version Negotiation Packet {
	//   Header Form (1) = 1,
	//   Unused (7),
	//   Version (32) = 0,
	//   ...
	//   Supported Version (32) ...,
	// }
	//
	// The list runs to the end of the datagram; it must hold at least one
	// version, and whole ones.
	list := len(b) - off
	if list == 0 || list%4 != 0 {
		return Header{}, ErrBadVersionList
	}
	return NewHeader(b[:len(b):len(b)], TypeVersionNegotiation, false, dcidLen, scidLen, 0), nil
}
