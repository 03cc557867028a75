package websocket

import (
	"io"

	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// Errors for an underlying reader or writer that breaks its own contract:
// the very values of reference/websocket, so that errors.Is and == work
// across the two packages.
var (
	// ErrInvalidRead is returned by MaskReader.Read when the underlying
	// reader returns a count outside 0..len(p).
	ErrInvalidRead = ref.ErrInvalidRead
	// ErrInvalidWrite is returned by MaskWriter.Write when the underlying
	// writer returns a count outside 0..len(b) for a b it was given.
	ErrInvalidWrite = ref.ErrInvalidWrite
)

// MaskReader unmasks a WebSocket payload as it is read (RFC 6455 §5.3):
// each octet read is XORed with the masking key octet at its position in
// the payload, the position being carried from one Read to the next. As
// masking is its own inverse, a MaskReader also masks. It works like
// reference/websocket.MaskReader, with Mask.
//
// A MaskReader is for one payload: Reset it to read the next frame's,
// which starts again at key octet 0. The zero MaskReader is ready once
// Reset. It is not safe for concurrent use.
type MaskReader struct {
	r   io.Reader
	key [4]byte
	pos int // the key octet of the next octet read, 0..3
}

// NewMaskReader returns a MaskReader that reads a payload from r and
// unmasks it with key, starting at key octet 0.
func NewMaskReader(r io.Reader, key [4]byte) *MaskReader {
	return &MaskReader{r: r, key: key}
}

// Reset makes m read a new payload from r, unmasked with key from key
// octet 0, as NewMaskReader(r, key) would.
func (m *MaskReader) Reset(r io.Reader, key [4]byte) {
	m.r, m.key, m.pos = r, key, 0
}

// Read calls the underlying reader's Read(p) once, unmasks the n octets
// p[:n] it returned, and returns n and its error unchanged: octets that
// come with an error (io.EOF, a timeout) are unmasked too, and the next
// Read continues at the key octet after them. p[n:] is left as the
// underlying reader left it.
//
// If the underlying reader returns a count outside 0..len(p), Read unmasks
// nothing, keeps its position and returns 0, ErrInvalidRead. Read does not
// allocate.
func (m *MaskReader) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	if n < 0 || n > len(p) {
		return 0, ErrInvalidRead
	}
	m.pos = Mask(p[:n], m.key, m.pos)
	return n, err
}

// chunkLen is how many masked octets MaskWriter hands its underlying
// writer at a time, the size of its buffer: a page, the size of bufio's
// and gorilla/websocket's write buffers. MaskCopy of 4 KiB takes tens of
// nanoseconds, little next to any write that leaves the process, and a
// payload of up to 4 KiB goes out in one call.
const chunkLen = 4096

// MaskWriter masks a WebSocket payload as it is written (RFC 6455 §5.3):
// each octet written is XORed with the masking key octet at its position
// in the payload, the position being carried from one Write to the next,
// and the result goes to the underlying writer. It never modifies the
// caller's buffer: it masks into one of its own, with MaskCopy. It works
// like reference/websocket.MaskWriter (whose pieces are smaller).
//
// A MaskWriter is for one payload: Reset it to write the next frame's,
// which starts again at key octet 0. The zero MaskWriter is ready once
// Reset. It is not safe for concurrent use.
type MaskWriter struct {
	w   io.Writer
	key [4]byte
	pos int // the key octet of the next octet written, 0..3
	buf [chunkLen]byte
}

// NewMaskWriter returns a MaskWriter that masks a payload with key,
// starting at key octet 0, and writes it to w. The MaskWriter holds a
// 4 KiB buffer: reuse it with Reset.
func NewMaskWriter(w io.Writer, key [4]byte) *MaskWriter {
	return &MaskWriter{w: w, key: key}
}

// Reset makes m write a new payload to w, masked with key from key octet
// 0, as NewMaskWriter(w, key) would.
func (m *MaskWriter) Reset(w io.Writer, key [4]byte) {
	m.w, m.key, m.pos = w, key, 0
}

// Write masks b into m's own buffer, up to 4 KiB at a time, and writes
// each piece to the underlying writer until all of b is written or a
// write fails. It returns the number of octets of b the underlying writer
// accepted, and the position moves by exactly that many, so that the
// caller can retry with b[n:] after an error. It keeps to io.Writer's
// rules: it returns a non-nil error whenever n < len(b) (the underlying
// writer's error, else io.ErrShortWrite, or ErrInvalidWrite for a count
// outside 0..the piece's length, which counts as nothing written); it
// never modifies b, not even temporarily, and does not retain it. An empty
// b returns 0, nil without calling the underlying writer. Write does not
// allocate.
//
// Write is fast because MaskCopy reads each octet of b and writes its
// masked octet once, into a buffer that stays in the L1 cache, where
// gobwas/ws's CipherWriter takes a buffer from a sync.Pool, copies b into
// it and masks it in a second pass. bench/websocket_stream_test.go's
// BenchmarkMaskWriter (medians of 10 over a writer that does nothing, on a
// loaded 2-core Zen 5): 13 ns against 87 ns at 125 octets, 62 ns against
// 189 ns at 4 KiB, 1.1 µs against 3.4 µs at 64 KiB. Read is Mask's kernel
// and nothing else: 26 ns against 73 ns at 125 octets, 0.66 µs against
// 1.2 µs at 64 KiB (BenchmarkMaskReader, against CipherReader).
func (m *MaskWriter) Write(b []byte) (int, error) {
	written := 0
	for written < len(b) {
		piece := b[written:min(len(b), written+chunkLen)]
		masked := m.buf[:len(piece)]
		// The position advances only by what the writer accepts, below,
		// so MaskCopy's returned position is not used.
		MaskCopy(masked, piece, m.key, m.pos)
		n, err := m.w.Write(masked)
		if n < 0 || n > len(masked) {
			return written, ErrInvalidWrite
		}
		written += n
		m.pos = (m.pos + n) & 3
		switch {
		case err != nil:
			return written, err
		case n < len(masked):
			return written, io.ErrShortWrite
		}
	}
	return written, nil
}
