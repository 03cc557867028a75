package utf8valid

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/equivcheck/equivcheck/reference/websocket"
)

// chunks is an io.Reader that returns its payload a few octets at a time,
// with io.EOF alongside the last ones.
type chunks struct {
	data []byte
	size int
}

func (c *chunks) Read(p []byte) (int, error) {
	n := copy(p, c.data[:min(c.size, len(c.data))])
	c.data = c.data[n:]
	if len(c.data) == 0 {
		return n, io.EOF
	}
	return n, nil
}

// badCount is an io.Reader that returns a count outside 0..len(p).
type badCount struct{ n int }

func (b badCount) Read(p []byte) (int, error) { return b.n, nil }

// zeroCount is an io.Reader that returns no octets and its error.
type zeroCount struct{ err error }

func (z zeroCount) Read(p []byte) (int, error) { return 0, z.err }

func masked(text []byte, key [4]byte) []byte {
	m := bytes.Clone(text)
	websocket.Mask(m, key, 0)
	return m
}

// TestReaderFrames reads a message of two frames, each masked with its
// own key from key octet 0, through one Validator, in reads of every size
// from 1 to 7 octets.
func TestReaderFrames(t *testing.T) {
	k1, k2 := [4]byte{0x37, 0xfa, 0x21, 0x3d}, [4]byte{1, 2, 3, 4}
	// The frames split € (E2 82 AC) between them.
	f1, f2 := []byte(kosme+"\xE2\x82"), []byte("\xAC"+kosme)
	for size := 1; size <= 7; size++ {
		var v Validator
		r := NewReader(&chunks{masked(f1, k1), size}, k1, &v)
		got, err := readAll(r)
		if err != nil || !bytes.Equal(got, f1) || v.Close() != ErrIncomplete {
			t.Fatalf("size %d: frame 1 = % x, %v, Close %v; want % x, nil, ErrIncomplete", size, got, err, v.Close(), f1)
		}
		r.Reset(&chunks{masked(f2, k2), size}, k2)
		got, err = readAll(r)
		if err != nil || !bytes.Equal(got, f2) || v.Close() != nil || v.Offset() != int64(len(f1)+len(f2)) {
			t.Fatalf("size %d: frame 2 = % x, %v, Close %v, Offset %d; want % x, nil, nil, %d", size, got, err, v.Close(), v.Offset(), f2, len(f1)+len(f2))
		}
	}
}

// readAll is io.ReadAll for the payloads here, with a bound on the number
// of reads: a Reader that never returns io.EOF fails instead of hanging.
func readAll(r io.Reader) ([]byte, error) {
	var out []byte
	p := make([]byte, 64)
	for range 1000 {
		n, err := r.Read(p)
		out = append(out, p[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
	return out, errors.New("no io.EOF after 1000 reads")
}

// TestReaderInvalid checks that ErrInvalid comes with the read that holds
// the bad octet, takes precedence over io.EOF, comes with every read after
// it, and that each read's octets are still unmasked.
func TestReaderInvalid(t *testing.T) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	text := []byte(kosme + "\xED\xA0\x80edited")
	for size := 1; size <= len(text); size++ {
		var v Validator
		r := NewReader(&chunks{masked(text, key), size}, key, &v)
		var got []byte
		p := make([]byte, size)
		for {
			n, err := r.Read(p)
			got = append(got, p[:n]...)
			end := len(got) >= len(text)
			if len(got) > 12 {
				if err != ErrInvalid {
					t.Fatalf("size %d: read ending at %d = %v; want ErrInvalid", size, len(got), err)
				}
			} else if end && err != io.EOF || !end && err != nil {
				t.Fatalf("size %d: read ending at %d = %v", size, len(got), err)
			}
			if end {
				break
			}
		}
		if !bytes.Equal(got, text) || v.Offset() != 12 {
			t.Fatalf("size %d: read % x, Offset %d; want % x, 12", size, got, v.Offset(), text)
		}
	}
}

// TestReaderInvalidRead checks that a count outside 0..len(p) unmasks and
// validates nothing and keeps the key position.
func TestReaderInvalidRead(t *testing.T) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	var v Validator
	for _, n := range []int{-1, 5} {
		r := NewReader(badCount{n}, key, &v)
		p := []byte{0xFF, 0xFF, 0xFF, 0xFF}
		if got, err := r.Read(p); got != 0 || !errors.Is(err, websocket.ErrInvalidRead) || !bytes.Equal(p, []byte{0xFF, 0xFF, 0xFF, 0xFF}) {
			t.Fatalf("count %d: Read = %d, %v, p % x; want 0, ErrInvalidRead, p untouched", n, got, err, p)
		}
		if r.pos != 0 || v.Offset() != 0 || v.Close() != nil {
			t.Fatalf("count %d: position %d, Offset %d, Close %v; want 0, 0, nil", n, r.pos, v.Offset(), v.Close())
		}
	}
	// A count of 0 is a count: 0 and the reader's error, nothing else.
	for _, rerr := range []error{nil, io.EOF} {
		r := NewReader(zeroCount{rerr}, key, &v)
		if got, err := r.Read(make([]byte, 4)); got != 0 || err != rerr {
			t.Fatalf("count 0 with %v: Read = %d, %v; want 0, %v", rerr, got, err, rerr)
		}
	}
	// A good read after a bad one starts at key octet 0.
	r := NewReader(badCount{5}, key, &v)
	r.Read(make([]byte, 4))
	r.Reset(&chunks{masked([]byte("Hello"), key), 5}, key)
	p := make([]byte, 5)
	if n, err := r.Read(p); n != 5 || err != io.EOF || string(p) != "Hello" {
		t.Fatalf("Read = %d, %v, %q; want 5, EOF, Hello", n, err, p)
	}
}
