// Package myvarint is a user's own QUIC variable-length integer parser
// (RFC 9000 §16), reporting errors with its own values, which its tests map
// onto the reference's with equiv.MapErrors.
package myvarint

import (
	"errors"
	"io"
)

// ErrNonMinimal is never returned: RFC 9000 §16 allows non-minimal
// encodings. It is here to show an error the mapping leaves alone.
var ErrNonMinimal = errors.New("myvarint: non-minimal encoding")

// Parse decodes the varint at the start of b and returns its value and
// length, or io.ErrUnexpectedEOF if b ends inside it.
func Parse(b []byte) (uint64, int, error) {
	if len(b) == 0 {
		return 0, 0, io.ErrUnexpectedEOF
	}
	n := 1 << (b[0] >> 6)
	if len(b) < n {
		return 0, 0, io.ErrUnexpectedEOF
	}
	v := uint64(b[0] & 0x3f)
	for _, c := range b[1:n] {
		v = v<<8 | uint64(c)
	}
	return v, n, nil
}

// ParseLoose is Parse with a bug seen in real parsers: it checks the
// length only for 8-byte encodings and decodes a truncated shorter one
// from the bytes that are there. It is wrong on purpose: its test shows
// that the suite catches it.
func ParseLoose(b []byte) (uint64, int, error) {
	if len(b) == 0 {
		return 0, 0, io.ErrUnexpectedEOF
	}
	n := 1 << (b[0] >> 6)
	if n == 8 && len(b) < 8 {
		return 0, 0, io.ErrUnexpectedEOF
	}
	v := uint64(b[0] & 0x3f)
	for i := 1; i < n && i < len(b); i++ {
		v = v<<8 | uint64(b[i])
	}
	return v, n, nil
}
