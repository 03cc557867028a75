package websocket

import (
	"errors"
	"io"
)

// Errors for an underlying reader or writer that breaks its own contract,
// shared with the optimized package so that a conformance suite can check
// that both gave up for the same reason. io.Copy treats such counts the
// same way (its errInvalidWrite is not exported).
var (
	// ErrInvalidRead is returned by MaskReader.Read when the underlying
	// reader returns a count outside 0..len(p).
	ErrInvalidRead = errors.New("websocket: invalid count from the underlying reader")
	// ErrInvalidWrite is returned by MaskWriter.Write when the underlying
	// writer returns a count outside 0..len(b) for a b it was given.
	ErrInvalidWrite = errors.New("websocket: invalid count from the underlying writer")
)

// MaskReader unmasks a WebSocket payload as it is read (RFC 6455 §5.3):
// each octet read is XORed with the masking key octet at its position in
// the payload, the position being carried from one Read to the next. As
// masking is its own inverse, a MaskReader also masks.
//
// A MaskReader is for one payload: Reset it to read the next frame's,
// which starts again at key octet 0. The zero MaskReader is ready once
// Reset. It is not safe for concurrent use.
type MaskReader struct {
	r   io.Reader
	key [4]byte
	// i is the index in the payload of the next octet read: the "i" of
	// RFC 6455 §5.3. Only i MOD 4 is ever used, and i&3 is i MOD 4 even
	// after i wraps around (2^64 is a multiple of 4).
	i int
}

// NewMaskReader returns a MaskReader that reads a payload from r and
// unmasks it with key, starting at key octet 0.
func NewMaskReader(r io.Reader, key [4]byte) *MaskReader {
	return &MaskReader{r: r, key: key}
}

// Reset makes m read a new payload from r, unmasked with key from key
// octet 0, as NewMaskReader(r, key) would.
func (m *MaskReader) Reset(r io.Reader, key [4]byte) {
	m.r, m.key, m.i = r, key, 0
}

// Read calls the underlying reader's Read(p) once, unmasks the n octets
// p[:n] it returned, and returns n and its error unchanged: octets that
// come with an error (io.EOF, a timeout) are unmasked too, and the next
// Read continues at the key octet after them. p[n:] is left as the
// underlying reader left it.
//
// If the underlying reader returns a count outside 0..len(p), Read unmasks
// nothing, keeps its position and returns 0, ErrInvalidRead.
func (m *MaskReader) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	if n < 0 || n > len(p) {
		return 0, ErrInvalidRead
	}
	// RFC 6455 §5.3 (https://www.rfc-editor.org/rfc/rfc6455#section-5.3):
	//
	//   j                   = i MOD 4
	//   transformed-octet-i = original-octet-i XOR masking-key-octet-j
	for index := range p[:n] {
		j := m.i & 3 // j = i MOD 4
		p[index] ^= m.key[j]
		m.i++
	}
	return n, err
}

// chunkLen is how many masked octets MaskWriter hands its underlying
// writer at a time: 125, the largest payload of a control frame (RFC 6455
// §5.5), so that a control frame's payload goes out in one call. Nothing
// else depends on it.
const chunkLen = 125

// MaskWriter masks a WebSocket payload as it is written (RFC 6455 §5.3):
// each octet written is XORed with the masking key octet at its position
// in the payload, the position being carried from one Write to the next,
// and the result goes to the underlying writer. It never modifies the
// caller's buffer: it masks into one of its own.
//
// A MaskWriter is for one payload: Reset it to write the next frame's,
// which starts again at key octet 0. The zero MaskWriter is ready once
// Reset. It is not safe for concurrent use.
type MaskWriter struct {
	w   io.Writer
	key [4]byte
	i   int // the index in the payload of the next octet written, as in MaskReader
	buf [chunkLen]byte
}

// NewMaskWriter returns a MaskWriter that masks a payload with key,
// starting at key octet 0, and writes it to w.
func NewMaskWriter(w io.Writer, key [4]byte) *MaskWriter {
	return &MaskWriter{w: w, key: key}
}

// Reset makes m write a new payload to w, masked with key from key octet
// 0, as NewMaskWriter(w, key) would.
func (m *MaskWriter) Reset(w io.Writer, key [4]byte) {
	m.w, m.key, m.i = w, key, 0
}

// Write masks b into m's own buffer, a piece at a time, and writes each
// piece to the underlying writer until all of b is written or a write
// fails. It returns the number of octets of b the underlying writer
// accepted, and the position moves by exactly that many, so that the
// caller can retry with b[n:] after an error. It keeps to io.Writer's
// rules: it returns a non-nil error whenever n < len(b) (the underlying
// writer's error, else io.ErrShortWrite, or ErrInvalidWrite for a count
// outside 0..the piece's length, which counts as nothing written); it
// never modifies b, not even temporarily, and does not retain it. An empty
// b returns 0, nil without calling the underlying writer.
func (m *MaskWriter) Write(b []byte) (int, error) {
	written := 0
	for written < len(b) {
		piece := b[written:min(len(b), written+chunkLen)]
		// RFC 6455 §5.3, as in Read, into buf: octet written+index of b
		// is payload octet m.i+index.
		for index := range piece {
			i := m.i + index
			j := i & 3 // j = i MOD 4
			m.buf[index] = piece[index] ^ m.key[j]
		}
		n, err := m.w.Write(m.buf[:len(piece)])
		if n < 0 || n > len(piece) {
			return written, ErrInvalidWrite
		}
		written += n
		m.i += n
		switch {
		case err != nil:
			return written, err
		case n < len(piece):
			return written, io.ErrShortWrite
		}
	}
	return written, nil
}
