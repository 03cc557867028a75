package quic_test

import (
	"bufio"
	"bytes"
	"io"
	"testing"

	"github.com/equivcheck/equivcheck/optimized/quic"
)

// sliceReader is an io.ByteReader that is not a *bytes.Reader, to take
// ReadVarint's interface path.
type sliceReader struct{ b []byte }

func (r *sliceReader) ReadByte() (byte, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c, nil
}

// slicePeeker is a Peeker over a byte slice.
type slicePeeker struct{ b []byte }

func (p *slicePeeker) Peek(n int) ([]byte, error) {
	if n > len(p.b) {
		return p.b, io.EOF
	}
	return p.b[:n], nil
}

var rfcVarints = []string{"25", "7bbd", "9d7f3e7d", "c2197c5eff14e88c"} // RFC 9000 Appendix A.1

// TestAllocsHelpers checks that the functions added for padded datagrams,
// greasing and streams allocate nothing on their paths, on every variant
// and through the exported API.
func TestAllocsHelpers(t *testing.T) {
	padded := append(bytes.Clone(vectors[1].datagram), make([]byte, 1065)...) // RFC 9001 §A.3's server Initial, zero-padded
	greased := unhex("0cfe4189655e5cd55c41f69080575d7999c25a5bfb")            // RFC 9001 §A.5, Fixed Bit cleared
	for _, impl := range quic.Impls() {
		allocs := func(name string, f func()) {
			t.Helper()
			if n := testing.AllocsPerRun(50, f); n != 0 {
				t.Errorf("impl=%s: %s allocates %v times", impl.Name, name, n)
			}
		}
		allocs("ParseHeaderWith(GreaseQUICBit)", func() { impl.ParseHeaderWith(greased, 0, quic.GreaseQUICBit) })
		allocs("ParseHeaderWith(0)", func() { impl.ParseHeaderWith(padded, 0, 0) })
		for _, s := range rfcVarints {
			enc := unhex(s)
			br, sr := bytes.NewReader(enc), &sliceReader{}
			allocs("ReadVarint(*bytes.Reader "+s+")", func() { br.Reset(enc); impl.ReadVarint(br) })
			allocs("ReadVarint(io.ByteReader "+s+")", func() { sr.b = enc; impl.ReadVarint(sr) })
			bp, sp := bufio.NewReaderSize(bytes.NewReader(enc), 16), &slicePeeker{enc}
			allocs("PeekVarint(*bufio.Reader "+s+")", func() { impl.PeekVarint(bp) })
			allocs("PeekVarint(Peeker "+s+")", func() { impl.PeekVarint(sp) })
			buf := make([]byte, 0, 16)
			allocs("AppendVarintWithLen "+s, func() { impl.AppendVarintWithLen(buf[:0], 37, len(enc)) })
		}
	}
	// The iterator: ranging over PacketsWith, as a caller does.
	for _, opts := range []quic.Options{0, quic.GreaseQUICBit} {
		if n := testing.AllocsPerRun(50, func() {
			for h, err := range quic.PacketsWith(padded, 0, opts) {
				_, _ = h, err
			}
		}); n != 0 {
			t.Errorf("ranging over PacketsWith(padded, 0, %d) allocates %v times", opts, n)
		}
	}
}
