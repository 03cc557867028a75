// Package myleb128 is a user's own unsigned LEB128 (the varint of
// protobuf and encoding/binary) appended to a buffer, unrolled: one
// comparison picks the length and the octets are written without a loop,
// as protobuf-go's protowire.AppendVarint does. Its tests check it
// against binary.AppendUvarint with a suite functest derives from the two
// functions.
package myleb128

// AppendUvarint appends the LEB128 encoding of v to b and returns the
// extended buffer: seven bits an octet, least significant first, the top
// bit set on every octet but the last.
func AppendUvarint(b []byte, v uint64) []byte { return appendUvarint(b, v, 1<<14) }

// appendUvarint is AppendUvarint, where the two-octet form is taken below
// two; with two = 1<<14 + 1 (a <= written for <), 2^14 is encoded in two
// octets and loses its top bit: the planted bug its test selects.
func appendUvarint(b []byte, v uint64, two uint64) []byte {
	switch {
	case v < 1<<7:
		return append(b, byte(v))
	case v < two:
		return append(b, byte(v)|0x80, byte(v>>7))
	case v < 1<<21:
		return append(b, byte(v)|0x80, byte(v>>7)|0x80, byte(v>>14))
	case v < 1<<28:
		return append(b, byte(v)|0x80, byte(v>>7)|0x80, byte(v>>14)|0x80, byte(v>>21))
	case v < 1<<35:
		return append(b, byte(v)|0x80, byte(v>>7)|0x80, byte(v>>14)|0x80, byte(v>>21)|0x80, byte(v>>28))
	case v < 1<<42:
		return append(b, byte(v)|0x80, byte(v>>7)|0x80, byte(v>>14)|0x80, byte(v>>21)|0x80, byte(v>>28)|0x80,
			byte(v>>35))
	case v < 1<<49:
		return append(b, byte(v)|0x80, byte(v>>7)|0x80, byte(v>>14)|0x80, byte(v>>21)|0x80, byte(v>>28)|0x80,
			byte(v>>35)|0x80, byte(v>>42))
	case v < 1<<56:
		return append(b, byte(v)|0x80, byte(v>>7)|0x80, byte(v>>14)|0x80, byte(v>>21)|0x80, byte(v>>28)|0x80,
			byte(v>>35)|0x80, byte(v>>42)|0x80, byte(v>>49))
	case v < 1<<63:
		return append(b, byte(v)|0x80, byte(v>>7)|0x80, byte(v>>14)|0x80, byte(v>>21)|0x80, byte(v>>28)|0x80,
			byte(v>>35)|0x80, byte(v>>42)|0x80, byte(v>>49)|0x80, byte(v>>56))
	}
	return append(b, byte(v)|0x80, byte(v>>7)|0x80, byte(v>>14)|0x80, byte(v>>21)|0x80, byte(v>>28)|0x80,
		byte(v>>35)|0x80, byte(v>>42)|0x80, byte(v>>49)|0x80, byte(v>>56)|0x80, 1)
}
