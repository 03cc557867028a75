package quic

import (
	"bytes"
	"encoding/binary"
	"io"
)

// readVarintGeneric works like the reference ReadVarint, with the same
// ReadByte calls. The first byte is read through the interface, as any
// reader's must be; a 1-byte integer is then done. For a longer one a
// *bytes.Reader, the usual reader over a received buffer, is read on
// through its own methods, which the compiler inlines: no interface call
// per byte (BenchmarkReadVarint in bench/quic_helpers_test.go).
func readVarintGeneric(r io.ByteReader) (uint64, int, error) {
	first, err := r.ReadByte()
	if err != nil {
		return 0, 0, err
	}
	n := 1 << (first >> 6)
	if n == 1 {
		return uint64(first), 1, nil
	}
	if br, ok := r.(*bytes.Reader); ok {
		return readBytesReader(br, first, n)
	}
	v := uint64(first & 0x3f)
	for i := 1; i < n; i++ {
		c, err := r.ReadByte()
		if err != nil {
			return 0, i, unexpectedEOF(err)
		}
		v = v<<8 | uint64(c)
	}
	return v, n, nil
}

// readBytesReader reads the n-1 bytes after first, the first byte of an
// n-byte integer (n > 1), from r. Its ReadByte is inlined here; the last 7
// bytes of an 8-byte integer are copied with one Read instead, which
// halves the time of 7 ReadByte calls on the development machine (for 1
// or 3 bytes the copy's call costs more than it saves). Read consumes what
// the ReadByte calls would: the 7 bytes, or on a short reader all that is
// left (which ReadByte calls would take before meeting io.EOF), and it
// leaves the reader's UnreadRune state as ReadByte does.
func readBytesReader(r *bytes.Reader, first byte, n int) (uint64, int, error) {
	if n == 8 {
		var w [8]byte
		w[0] = first & 0x3f
		if k, _ := r.Read(w[1:]); k < 7 {
			return 0, 1 + k, io.ErrUnexpectedEOF
		}
		return binary.BigEndian.Uint64(w[:]), 8, nil
	}
	v := uint64(first & 0x3f)
	for i := 1; i < n; i++ {
		c, err := r.ReadByte()
		if err != nil {
			return 0, i, unexpectedEOF(err)
		}
		v = v<<8 | uint64(c)
	}
	return v, n, nil
}

// unexpectedEOF turns io.EOF, met inside an integer, into
// io.ErrUnexpectedEOF.
func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// peekVarintGeneric works like the reference PeekVarint, with the same
// Peek calls. The value is loaded from the second Peek's bytes with one
// big-endian load of the length's size, the prefix bits masked off.
func peekVarintGeneric(p Peeker) (uint64, int, error) {
	b, err := p.Peek(1)
	if len(b) == 0 {
		if err == nil {
			err = io.ErrNoProgress
		}
		return 0, 0, err
	}
	n := 1 << (b[0] >> 6)
	if n == 1 {
		return uint64(b[0] & 0x3f), 1, nil
	}
	b, err = p.Peek(n)
	if len(b) < n {
		if err == nil {
			err = io.ErrNoProgress
		}
		return 0, n, unexpectedEOF(err)
	}
	switch n {
	case 2:
		return uint64(binary.BigEndian.Uint16(b) & 0x3fff), 2, nil
	case 4:
		return uint64(binary.BigEndian.Uint32(b) & 0x3fffffff), 4, nil
	}
	return binary.BigEndian.Uint64(b) & MaxVarint, 8, nil
}

// appendVarintWithLenGeneric works like the reference AppendVarintWithLen:
// the length's prefix ORed into the top byte, then one big-endian append
// of n bytes. The panics are the reference's, in its order.
func appendVarintWithLenGeneric(b []byte, v uint64, n int) []byte {
	switch n {
	case 1:
		if v < 1<<6 {
			return append(b, byte(v))
		}
	case 2:
		if v < 1<<14 {
			return binary.BigEndian.AppendUint16(b, uint16(v)|0x4000)
		}
	case 4:
		if v < 1<<30 {
			return binary.BigEndian.AppendUint32(b, uint32(v)|0x8000_0000)
		}
	case 8:
		if v <= MaxVarint {
			return binary.BigEndian.AppendUint64(b, v|0xc000_0000_0000_0000)
		}
	default:
		panic("quic: AppendVarintWithLen: length is not 1, 2, 4 or 8")
	}
	panic("quic: AppendVarintWithLen: value does not fit in the length")
}
