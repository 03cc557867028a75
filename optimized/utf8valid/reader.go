package utf8valid

import (
	"io"

	"github.com/equivcheck/equivcheck/reference/websocket"
)

// Reader unmasks and validates the payload of a WebSocket frame as it is
// read: optimized/websocket.MaskReader (RFC 6455 §5.3) fused with a
// Validator (RFC 6455 §8.1), each Read one pass of the Validator's Unmask.
// The Validator is the message's: it persists across the frames of a
// fragmented message, while the key position starts again at 0 with each
// frame (Reset). It works like reference/utf8valid.Reader, with the
// Validator's kernel.
//
// A Reader is not safe for concurrent use. It does not allocate.
type Reader struct {
	r   io.Reader
	key [4]byte
	pos int // the key octet of the next octet read, 0..3
	v   *Validator
}

// NewReader returns a Reader that reads a frame's payload from r, unmasks
// it with key from key octet 0 and validates it with v.
func NewReader(r io.Reader, key [4]byte, v *Validator) *Reader {
	return &Reader{r: r, key: key, v: v}
}

// Reset makes r read a new frame's payload from src, unmasked with key
// from key octet 0, validated by the same Validator.
func (r *Reader) Reset(src io.Reader, key [4]byte) {
	r.r, r.key, r.pos = src, key, 0
}

// Read calls the underlying reader's Read(p) once, unmasks the n octets
// p[:n] it returned (the key position carried from one Read to the next)
// and validates them with the Validator. It returns n and the underlying
// error, except that once the text can no longer be valid it returns n,
// ErrInvalid, all n octets still unmasked: ErrInvalid takes precedence
// over the underlying error. It never returns ErrIncomplete: the end of
// the message is the caller's to judge, with the Validator's Close.
//
// If the underlying reader returns a count outside 0..len(p), Read unmasks
// and validates nothing, keeps its position and returns 0,
// reference/websocket.ErrInvalidRead.
func (r *Reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n < 0 || n > len(p) {
		return 0, websocket.ErrInvalidRead
	}
	var verr error
	r.pos, _, verr = r.v.Unmask(p[:n], r.key, r.pos)
	if verr != nil {
		return n, verr
	}
	return n, err
}
