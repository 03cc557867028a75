package utf8valid

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
	"github.com/equivcheck/equivcheck/reference/websocket"
)

// chunks is an io.Reader that returns its data in pieces whose lengths it
// draws, with io.EOF alongside the last one.
type chunks struct {
	data []byte
	r    *rand.Rand
	max  int
}

func (c *chunks) Read(p []byte) (int, error) {
	n := copy(p, c.data[:min(1+c.r.IntN(c.max), len(c.data))])
	c.data = c.data[n:]
	if len(c.data) == 0 {
		return n, io.EOF
	}
	return n, nil
}

// TestReaderFrames reads a message of two masked frames through every
// variant's Reader and the reference's, with the same read sizes, and
// compares every Read's results, the octets, and the Validators at the end.
func TestReaderFrames(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 6))
	k1, k2 := [4]byte{0x37, 0xfa, 0x21, 0x3d}, [4]byte{1, 2, 3, 4}
	var texts [][]byte
	for _, n := range []int{0, 5, 70, 300} {
		texts = append(texts, variants(r, n)...)
	}
	for _, im := range withDispatch(t) {
		t.Run(im.Name, func(t *testing.T) {
			for i, txt := range texts {
				cut := len(txt) * i / len(texts)
				seed := uint64(i)
				v, rv := im.NewValidator(), new(ref.Validator)
				rd := NewReader(&chunks{masked(txt[:cut], k1, 0), rand.New(rand.NewPCG(seed, 0)), 90}, k1, v)
				rr := ref.NewReader(&chunks{masked(txt[:cut], k1, 0), rand.New(rand.NewPCG(seed, 0)), 90}, k1, rv)
				compareReads(t, txt[:cut], rd, rr)
				rd.Reset(&chunks{masked(txt[cut:], k2, 0), rand.New(rand.NewPCG(seed, 1)), 90}, k2)
				rr.Reset(&chunks{masked(txt[cut:], k2, 0), rand.New(rand.NewPCG(seed, 1)), 90}, k2)
				compareReads(t, txt[cut:], rd, rr)
				if v.Close() != rv.Close() || v.Offset() != rv.Offset() {
					t.Fatalf("% x: Close %v, Offset %d; want %v, %d", txt, v.Close(), v.Offset(), rv.Close(), rv.Offset())
				}
			}
		})
	}
}

// compareReads reads two Readers side by side until txt is read (their
// sources end with it).
func compareReads(t *testing.T, txt []byte, rd *Reader, rr *ref.Reader) {
	t.Helper()
	p, q := make([]byte, 100), make([]byte, 100)
	var got []byte
	for {
		n, err := rd.Read(p)
		m, rerr := rr.Read(q)
		if n != m || err != rerr || !bytes.Equal(p[:n], q[:m]) {
			t.Fatalf("% x: Read = %d, %v, % x; want %d, %v, % x", txt, n, err, p[:n], m, rerr, q[:m])
		}
		got = append(got, p[:n]...)
		if len(got) == len(txt) {
			break
		}
	}
	if !bytes.Equal(got, txt) {
		t.Fatalf("read % x, want % x", got, txt)
	}
}

// badCount is an io.Reader that returns a count outside 0..len(p).
type badCount struct{ n int }

func (b badCount) Read(p []byte) (int, error) { return b.n, nil }

// TestReaderInvalidRead checks that a count outside 0..len(p) unmasks and
// validates nothing, keeps the key position and returns the reference's
// ErrInvalidRead.
func TestReaderInvalidRead(t *testing.T) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	for _, im := range withDispatch(t) {
		// A count of 0 and one of len(p) are counts.
		v := im.NewValidator()
		for _, n := range []int{0, 4} {
			rd := NewReader(badCount{n}, key, v)
			p := masked([]byte("abcd"), key, 0)
			if got, err := rd.Read(p); got != n || err != nil || string(p[:n]) != "abcd"[:n] {
				t.Errorf("%s: count %d of 4: Read = %d, %v, % x", im.Name, n, got, err, p)
			}
		}
		v = im.NewValidator()
		for _, n := range []int{-1, 5} {
			rd := NewReader(badCount{n}, key, v)
			p := []byte{0xFF, 0xFF, 0xFF, 0xFF}
			if got, err := rd.Read(p); got != 0 || !errors.Is(err, websocket.ErrInvalidRead) || !bytes.Equal(p, []byte{0xFF, 0xFF, 0xFF, 0xFF}) {
				t.Errorf("%s: count %d: Read = %d, %v, % x", im.Name, n, got, err, p)
			}
			if rd.pos != 0 || v.Offset() != 0 || v.Close() != nil {
				t.Errorf("%s: count %d: position %d, Offset %d, Close %v", im.Name, n, rd.pos, v.Offset(), v.Close())
			}
		}
	}
}
