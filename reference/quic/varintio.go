package quic

import "io"

// ReadVarint reads one variable-length integer (RFC 9000 §16) from r and
// returns its value v and its encoded length n. It calls r.ReadByte once
// per byte of the integer and never reads past it, so r is left just
// after it (or just after the last byte read, on error).
//
// Non-minimal encodings are accepted, as ParseVarint accepts them.
//
// On error v is 0 and n is the number of bytes consumed: 0 with r's error
// when r fails before the first byte (io.EOF when r is at its end: no
// integer); the bytes read so far with io.ErrUnexpectedEOF when r ends
// inside the integer, or with r's error as it is when r fails otherwise
// (as binary.ReadUvarint and io.ReadFull report them). quic-go's
// quicvarint.Read returns io.EOF in both cases.
//
// r must not be nil.
func ReadVarint(r io.ByteReader) (v uint64, n int, err error) {
	// https://www.rfc-editor.org/rfc/rfc9000#section-16
	first, err := r.ReadByte()
	if err != nil {
		return 0, 0, err
	}
	// The two most significant bits of the first byte are log2 of the
	// length; the value is in the remaining bits, in network byte order.
	length := 1 << (first >> 6)
	v = uint64(first & 0x3f)
	for n = 1; n < length; n++ {
		c, err := r.ReadByte()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, n, err
		}
		v = v<<8 | uint64(c)
	}
	return v, n, nil
}

// Peeker returns the next n bytes of a stream without advancing it, as
// *bufio.Reader's Peek does. If it returns fewer than n bytes, it returns
// an error saying why.
type Peeker interface {
	Peek(n int) ([]byte, error)
}

// PeekVarint decodes the variable-length integer (RFC 9000 §16) at the
// position of p without consuming it, and returns its value v and its
// encoded length n; a caller that wants it consumed advances p by n (for
// a *bufio.Reader, with Discard). It calls p.Peek(1) and then, for an
// integer of more than one byte, p.Peek(n), and nothing else, so it never
// waits for bytes past the integer. Non-minimal encodings are accepted.
//
// On error v is 0. When the first Peek returns no byte, n is 0 and the
// error is Peek's (io.EOF at the end of the stream). When the second
// returns fewer than n bytes, n is still the length the first byte
// announces, so that the caller knows how many bytes it needs, and the
// error is Peek's, with io.EOF turned into io.ErrUnexpectedEOF (the stream
// ends inside the integer). A Peek that returns fewer bytes than asked
// with a nil error breaks its contract; PeekVarint reports
// io.ErrNoProgress for it. Bytes beyond the ones asked for are ignored.
//
// The length comes from the byte the first Peek returns and the value from
// the bytes the second returns (their first byte's two top bits aside);
// a well-behaved Peeker returns the same bytes both times.
//
// p must not be nil.
func PeekVarint(p Peeker) (v uint64, n int, err error) {
	// https://www.rfc-editor.org/rfc/rfc9000#section-16
	b, err := p.Peek(1)
	if len(b) < 1 {
		return 0, 0, shortPeek(err, false)
	}
	n = 1 << (b[0] >> 6)
	if n == 1 {
		return uint64(b[0] & 0x3f), 1, nil
	}
	b, err = p.Peek(n)
	if len(b) < n {
		return 0, n, shortPeek(err, true)
	}
	v = uint64(b[0] & 0x3f)
	for i := 1; i < n; i++ {
		v = v<<8 | uint64(b[i])
	}
	return v, n, nil
}

// shortPeek is PeekVarint's error for a Peek that returned too few bytes
// with err: io.ErrNoProgress for no error, io.ErrUnexpectedEOF for io.EOF
// inside the integer, else err.
func shortPeek(err error, inside bool) error {
	switch {
	case err == nil:
		return io.ErrNoProgress
	case err == io.EOF && inside:
		return io.ErrUnexpectedEOF
	}
	return err
}

// AppendVarintWithLen appends v encoded on exactly n bytes (RFC 9000 §16;
// a longer encoding than the shortest is allowed: "values do not need to
// be encoded on the minimum number of bytes necessary") to b and returns
// the extended slice, like quic-go's quicvarint.AppendWithLen.
//
// It lets a sender reserve a field and fill it in later: append a
// placeholder with AppendVarintWithLen(b, 0, 2), write what follows, then
// AppendVarintWithLen(b[:at], length, 2) writes the 2 bytes in place, the
// capacity of b[:at] being enough, and nothing after them.
//
// It panics if n is not 1, 2, 4 or 8, and then if v does not fit in n
// bytes (v >= 2^(8n-2); for n = 8, v > MaxVarint): both are programming
// errors, as the caller chooses n for the values it encodes.
func AppendVarintWithLen(b []byte, v uint64, n int) []byte {
	// 2MSB = log2(n): 1 → 0b00, 2 → 0b01, 4 → 0b10, 8 → 0b11.
	var prefix byte
	switch n {
	case 1:
	case 2:
		prefix = 0x40
	case 4:
		prefix = 0x80
	case 8:
		prefix = 0xc0
	default:
		panic("quic: AppendVarintWithLen: length is not 1, 2, 4 or 8")
	}
	// "The integer value is encoded on the remaining bits", 8n-2 of them.
	if v >= 1<<(8*n-2) {
		panic("quic: AppendVarintWithLen: value does not fit in the length")
	}
	for i := n - 1; i >= 0; i-- {
		c := byte(v >> (8 * i))
		if i == n-1 {
			c |= prefix
		}
		b = append(b, c)
	}
	return b
}
