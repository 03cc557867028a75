package websocket

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// rfcKey and rfcMasked are RFC 6455 §5.7's masked "Hello"
// (https://www.rfc-editor.org/rfc/rfc6455#section-5.7): key 37 fa 21 3d,
// masked payload 7f 9f 4d 51 58.
var (
	rfcKey    = [4]byte{0x37, 0xfa, 0x21, 0x3d}
	rfcMasked = []byte{0x7f, 0x9f, 0x4d, 0x51, 0x58}
)

// TestStreamRFC6455Vector reads the vector through a MaskReader over each
// of testing/iotest's readers and writes it through a MaskWriter in every
// split, each twice with a Reset between (§5.7's masked Ping response is
// the same payload under the same key).
func TestStreamRFC6455Vector(t *testing.T) {
	for name, wrap := range map[string]func(io.Reader) io.Reader{
		"bytes.Reader": func(r io.Reader) io.Reader { return r },
		"OneByte":      iotest.OneByteReader,
		"Half":         iotest.HalfReader,
		"DataErr":      iotest.DataErrReader,
		"Timeout":      iotest.TimeoutReader,
	} {
		m := NewMaskReader(nil, [4]byte{})
		for frame := range 2 {
			m.Reset(wrap(bytes.NewReader(rfcMasked)), rfcKey)
			var got []byte
			p := make([]byte, 2)
			for range 20 {
				n, err := m.Read(p)
				got = append(got, p[:n]...)
				if err != nil && err != iotest.ErrTimeout {
					break
				}
			}
			if string(got) != "Hello" {
				t.Errorf("%s, frame %d: read %q, want Hello", name, frame, got)
			}
		}
	}
	for split := range 16 {
		var out bytes.Buffer
		w := NewMaskWriter(&out, rfcKey)
		for range 2 {
			out.Reset()
			w.Reset(&out, rfcKey)
			prev := 0
			for i := 1; i <= 5; i++ {
				if i == 5 || split&(1<<(i-1)) != 0 {
					if n, err := w.Write([]byte("Hello")[prev:i]); n != i-prev || err != nil {
						t.Errorf("split %04b: Write(%q) = %d, %v; want %d, <nil>", split, []byte("Hello")[prev:i], n, err, i-prev)
					}
					prev = i
				}
			}
			if !bytes.Equal(out.Bytes(), rfcMasked) {
				t.Errorf("split %04b: wrote % x, want % x", split, out.Bytes(), rfcMasked)
			}
		}
	}
}

// countReader returns n from its first Read and then reads from r.
type countReader struct {
	n     int
	r     io.Reader
	fired bool
}

func (c *countReader) Read(p []byte) (int, error) {
	if !c.fired {
		c.fired = true
		return c.n, nil
	}
	return c.r.Read(p)
}

// TestMaskReaderInvalidCount: a count outside 0..len(p) is ErrInvalidRead,
// unmasks nothing and keeps the position.
func TestMaskReaderInvalidCount(t *testing.T) {
	for _, n := range []int{-1, 3} {
		m := NewMaskReader(&countReader{n: n, r: bytes.NewReader(rfcMasked)}, rfcKey)
		p := make([]byte, 2)
		if got, err := m.Read(p); got != 0 || err != ErrInvalidRead {
			t.Errorf("count %d: Read = %d, %v; want 0, ErrInvalidRead", n, got, err)
		}
		if got, _ := io.ReadAll(m); string(got) != "Hello" {
			t.Errorf("count %d: then read %q, want Hello", n, got)
		}
	}
}

// shortWriter takes at most room octets in all, returning err (which may
// be nil) with a short count, or returns count, if set, from its first
// call. From its tenth call on it returns errTooManyCalls, so that a Write
// which kept retrying a writer that takes nothing fails instead of never
// returning.
type shortWriter struct {
	out   bytes.Buffer
	room  int
	err   error
	count *int
	calls int
}

var errTooManyCalls = errors.New("shortWriter: called 10 times")

func (s *shortWriter) Write(b []byte) (int, error) {
	s.calls++
	if s.calls >= 10 {
		return 0, errTooManyCalls
	}
	if s.count != nil {
		c := *s.count
		s.count = nil
		return c, nil
	}
	if len(b) <= s.room-s.out.Len() {
		return s.out.Write(b)
	}
	n, _ := s.out.Write(b[:s.room-s.out.Len()])
	return n, s.err
}

// TestMaskWriterShortWrites: Write reports what the writer took, with its
// error, io.ErrShortWrite or ErrInvalidWrite, moves the position by that
// much only, never modifies b, and makes no call for an empty b.
func TestMaskWriterShortWrites(t *testing.T) {
	broken := errors.New("broken")
	hello := []byte("Hello")
	for _, tc := range []struct {
		name  string
		w     *shortWriter
		n     int
		err   error
		count int
	}{
		{"error", &shortWriter{room: 3, err: broken}, 3, broken, 0},
		{"short count", &shortWriter{room: 2}, 2, io.ErrShortWrite, 0},
		{"count 0", &shortWriter{room: 0}, 0, io.ErrShortWrite, 0},
		{"count 0 with an error", &shortWriter{room: 0, err: broken}, 0, broken, 0},
		{"count -1", &shortWriter{room: 9, count: new(-1)}, 0, ErrInvalidWrite, 0},
		{"count len+1", &shortWriter{room: 9, count: new(6)}, 0, ErrInvalidWrite, 0},
	} {
		m := NewMaskWriter(tc.w, rfcKey)
		if n, err := m.Write(hello); n != tc.n || err != tc.err {
			t.Errorf("%s: Write = %d, %v; want %d, %v", tc.name, n, err, tc.n, tc.err)
		}
		tc.w.room = 9
		if n, err := m.Write(hello[tc.n:]); n != 5-tc.n || err != nil {
			t.Errorf("%s: Write of the rest = %d, %v", tc.name, n, err)
		}
		if !bytes.Equal(tc.w.out.Bytes(), rfcMasked) || string(hello) != "Hello" {
			t.Errorf("%s: wrote % x (b now %q), want % x", tc.name, tc.w.out.Bytes(), hello, rfcMasked)
		}
	}
	w := &shortWriter{room: 9}
	if n, err := NewMaskWriter(w, rfcKey).Write(nil); n != 0 || err != nil || w.calls != 0 {
		t.Errorf("Write(nil) = %d, %v with %d calls; want 0, <nil> and none", n, err, w.calls)
	}
}
