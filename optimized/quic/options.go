package quic

import (
	"iter"

	ref "github.com/equivcheck/equivcheck/reference/quic"
)

// Options change how ParseHeaderWith and PacketsWith parse; the zero value
// parses as ParseHeader and Packets. See the reference package.
type Options = ref.Options

// GreaseQUICBit accepts a Fixed Bit ("QUIC Bit") of 0 in version 1 and 2
// long headers and in short headers (RFC 9287 §3).
const GreaseQUICBit = ref.GreaseQUICBit

// ParseHeaderWith is ParseHeader with the options opts. Bits of opts that
// no option defines give ErrInvalidArgument. It neither allocates nor
// copies.
func ParseHeaderWith(b []byte, shortDCIDLen int, opts Options) (Header, error) {
	return parseHeaderWithGeneric(b, shortDCIDLen, opts)
}

// PacketsWith is Packets with the options opts. With GreaseQUICBit, bytes
// after at least one packet that are all zero are trailing bytes although
// a first byte 0x00 can then start a 1-RTT packet.
func PacketsWith(datagram []byte, shortDCIDLen int, opts Options) iter.Seq2[Header, error] {
	return packetsWithGeneric(datagram, shortDCIDLen, opts)
}
