package quic

import (
	"io"

	ref "github.com/equivcheck/equivcheck/reference/quic"
)

// Peeker returns the next n bytes of a stream without advancing it, as
// *bufio.Reader's Peek does.
type Peeker = ref.Peeker

// ReadVarint reads one variable-length integer (RFC 9000 §16) from r, one
// ReadByte call per byte and never past it, and returns its value and
// encoded length. On error the value is 0 and n the number of bytes
// consumed; the error is io.EOF before the first byte, io.ErrUnexpectedEOF
// when r ends inside the integer, r's error otherwise. It allocates
// nothing.
func ReadVarint(r io.ByteReader) (v uint64, n int, err error) {
	return readVarintGeneric(r)
}

// PeekVarint decodes the variable-length integer at the position of p
// without consuming it, with p.Peek(1) and, for more than one byte,
// p.Peek(n). On error the value is 0 and n the length the first byte
// announces (0 if there was none); see the reference package for the
// errors. It allocates nothing.
func PeekVarint(p Peeker) (v uint64, n int, err error) {
	return peekVarintGeneric(p)
}

// AppendVarintWithLen appends v encoded on exactly n bytes to b, in place
// when b has the capacity. It panics if n is not 1, 2, 4 or 8, and then if
// v does not fit in n bytes.
func AppendVarintWithLen(b []byte, v uint64, n int) []byte {
	return appendVarintWithLenGeneric(b, v, n)
}
