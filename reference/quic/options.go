package quic

// Options change how ParseHeaderWith and PacketsWith parse. The zero value
// parses exactly as ParseHeader and Packets do.
type Options uint32

const (
	// GreaseQUICBit accepts packets whose Fixed Bit (0x40 of the first
	// byte, the "QUIC Bit") is 0, in version 1 and 2 long headers and in
	// short headers: RFC 9287 §3, "An endpoint that advertises the
	// grease_quic_bit transport parameter MUST accept packets with the
	// QUIC Bit set to a value of 0". Set it when this endpoint advertised
	// grease_quic_bit, or, between two peers, when both did. Version 2
	// keeps version 1's header bits and transport parameters (RFC 9369
	// §3), so the option applies to it alike. ErrFixedBitClear is then
	// never returned; everything else is parsed as without it, the type
	// bits included.
	GreaseQUICBit Options = 1 << iota
)

// knownOptions are the bits of Options that mean something.
const knownOptions = GreaseQUICBit

// ParseHeaderWith is ParseHeader with the options opts (see Options).
// Bits of opts that no option defines are rejected with
// ErrInvalidArgument, like an invalid shortDCIDLen and before anything in
// b is looked at, so that a caller built against a later version of this
// package, which may define more options, is not silently given a
// different parse.
func ParseHeaderWith(b []byte, shortDCIDLen int, opts Options) (Header, error) {
	if opts&^knownOptions != 0 {
		return Header{}, ErrInvalidArgument
	}
	return parseHeader(b, shortDCIDLen, opts&GreaseQUICBit != 0)
}
