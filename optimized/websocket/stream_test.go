package websocket

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// endless is a reader that fills p with octets and never ends, and a
// writer that takes everything: neither allocates, so what AllocsPerRun
// counts is the streamer's own.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e.n + i)
	}
	e.n += len(p)
	return len(p), nil
}

func (e *endless) Write(b []byte) (int, error) {
	e.n += len(b)
	return len(b), nil
}

// TestStreamAllocs: after NewMaskReader and NewMaskWriter, Read, Write
// and Reset do not allocate, for payloads shorter than the writer's
// buffer, as long as it, and several times longer.
func TestStreamAllocs(t *testing.T) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	e := &endless{}
	r, w := NewMaskReader(e, key), NewMaskWriter(e, key)
	b := make([]byte, 3*chunkLen+5)
	for _, n := range []int{0, 1, 2, 125, 1500, chunkLen, chunkLen + 1, 3*chunkLen + 5} {
		if a := testing.AllocsPerRun(100, func() { r.Read(b[:n]) }); a != 0 {
			t.Errorf("MaskReader.Read(len=%d) allocates %v times", n, a)
		}
		if a := testing.AllocsPerRun(100, func() { w.Write(b[:n]) }); a != 0 {
			t.Errorf("MaskWriter.Write(len=%d) allocates %v times", n, a)
		}
	}
	if a := testing.AllocsPerRun(100, func() { r.Reset(e, key); w.Reset(e, key) }); a != 0 {
		t.Errorf("Reset allocates %v times", a)
	}
}

// TestMaskWriterPieces: a Write longer than the buffer reaches the
// underlying writer in pieces of chunkLen octets, masked as one Mask call
// over the whole payload would (the suite, which leaves piece sizes free,
// checks the octets; this pins the sizes the doc comment promises).
func TestMaskWriterPieces(t *testing.T) {
	key := [4]byte{0x80, 0x01, 0xff, 0x5a}
	payload := make([]byte, 2*chunkLen+3)
	for i := range payload {
		payload[i] = byte(i * 151)
	}
	var pieces []int
	var out bytes.Buffer
	w := NewMaskWriter(writerFunc(func(b []byte) (int, error) {
		pieces = append(pieces, len(b))
		return out.Write(b)
	}), key)
	if n, err := w.Write(payload[:1]); n != 1 || err != nil {
		t.Fatalf("Write(1 octet) = %d, %v", n, err)
	}
	if n, err := w.Write(payload[1:]); n != len(payload)-1 || err != nil {
		t.Fatalf("Write(%d octets) = %d, %v", len(payload)-1, n, err)
	}
	want := bytes.Clone(payload)
	Mask(want, key, 0)
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("the writer got %x…, want %x…", out.Bytes()[:8], want[:8])
	}
	if len(pieces) != 4 || pieces[0] != 1 || pieces[1] != chunkLen || pieces[2] != chunkLen || pieces[3] != 2 {
		t.Errorf("pieces %v, want [1 %d %d 2]", pieces, chunkLen, chunkLen)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// TestMaskWriterZeroCount: a writer that takes nothing is a short write
// (io.ErrShortWrite, or its own error), not an invalid count, and the
// position stays. The writer fails from its tenth call on, so that a Write
// which kept retrying it fails instead of never returning.
func TestMaskWriterZeroCount(t *testing.T) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	broken := errors.New("broken")
	tooMany := errors.New("called 10 times")
	for _, werr := range []error{nil, broken} {
		var out bytes.Buffer
		take := false
		calls := 0
		w := NewMaskWriter(writerFunc(func(b []byte) (int, error) {
			calls++
			if calls >= 10 {
				return 0, tooMany
			}
			if !take {
				return 0, werr
			}
			return out.Write(b)
		}), key)
		want := werr
		if want == nil {
			want = io.ErrShortWrite
		}
		if n, err := w.Write([]byte("Hello")); n != 0 || err != want {
			t.Errorf("Write over (0, %v) = %d, %v; want 0, %v", werr, n, err, want)
		}
		take = true
		if n, err := w.Write([]byte("Hello")); n != 5 || err != nil || !bytes.Equal(out.Bytes(), []byte{0x7f, 0x9f, 0x4d, 0x51, 0x58}) {
			t.Errorf("after (0, %v): Write = %d, %v, wrote % x; want RFC 6455 §5.7's 7f 9f 4d 51 58", werr, n, err, out.Bytes())
		}
	}
}
