package bench

// Peer benchmarks for optimized/quic's stream varint helpers against
// quic-go's quicvarint, through both public APIs, in the same run:
//
//	go test -run '^$' -bench 'ReadVarint|PeekVarint|AppendVarintWithLen' -count 6 . > helpers.txt
//	benchstat -col /impl helpers.txt
//
// BenchmarkReadVarint: ReadVarint against quicvarint.Read on RFC 9000
// Appendix A.1's encoding of each length, from a *bytes.Reader (reset to
// the encoding on every iteration, for both) and from a byte reader of
// our own that is not one (the io.ByteReader interface path).
//
// BenchmarkPeekVarint: PeekVarint against quicvarint.Peek, from a
// *bufio.Reader holding the encoding (quic-go's Peeker interface takes a
// buffer to copy into, so it gets a one-line adapter over the same
// *bufio.Reader), and from a peeker over a slice for each API (returning
// a subslice for ours, copying for quic-go's).
//
// BenchmarkAppendVarintWithLen: AppendVarintWithLen against
// quicvarint.AppendWithLen, value 37 at each width, into a buffer with
// room.

import (
	"bufio"
	"bytes"
	"io"
	"testing"

	"github.com/equivcheck/equivcheck/optimized/quic"
	"github.com/quic-go/quic-go/quicvarint"
)

// varintByteReader is an io.ByteReader over a slice that is not a
// *bytes.Reader.
type varintByteReader struct{ b []byte }

func (r *varintByteReader) ReadByte() (byte, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c, nil
}

func BenchmarkReadVarint(b *testing.B) {
	for _, c := range varintCases {
		in := unhex(c.hex)
		br := bytes.NewReader(in)
		b.Run("reader=bytes.Reader/"+c.name+"/impl=equivcheck", func(b *testing.B) {
			b.ReportAllocs()
			var v uint64
			var err error
			for b.Loop() {
				br.Reset(in)
				v, _, err = quic.ReadVarint(br)
			}
			sinkU64, sinkErr = v, err
		})
		b.Run("reader=bytes.Reader/"+c.name+"/impl=quicgo", func(b *testing.B) {
			b.ReportAllocs()
			var v uint64
			var err error
			for b.Loop() {
				br.Reset(in)
				v, err = quicvarint.Read(br)
			}
			sinkU64, sinkErr = v, err
		})
		r := &varintByteReader{}
		b.Run("reader=byte-reader/"+c.name+"/impl=equivcheck", func(b *testing.B) {
			b.ReportAllocs()
			var v uint64
			var err error
			for b.Loop() {
				r.b = in
				v, _, err = quic.ReadVarint(r)
			}
			sinkU64, sinkErr = v, err
		})
		b.Run("reader=byte-reader/"+c.name+"/impl=quicgo", func(b *testing.B) {
			b.ReportAllocs()
			var v uint64
			var err error
			for b.Loop() {
				r.b = in
				v, err = quicvarint.Read(r)
			}
			sinkU64, sinkErr = v, err
		})
	}
}

// varintBufioPeeker is quicvarint.Peeker over a *bufio.Reader.
type varintBufioPeeker struct{ r *bufio.Reader }

func (p varintBufioPeeker) Peek(b []byte) (int, error) {
	s, err := p.r.Peek(len(b))
	return copy(b, s), err
}

// varintSlicePeeker is quic.Peeker over a slice; varintCopyPeeker is
// quicvarint.Peeker over one.
type (
	varintSlicePeeker struct{ b []byte }
	varintCopyPeeker  struct{ b []byte }
)

func (p *varintSlicePeeker) Peek(n int) ([]byte, error) {
	if n > len(p.b) {
		return p.b, io.EOF
	}
	return p.b[:n], nil
}

func (p *varintCopyPeeker) Peek(b []byte) (int, error) {
	n := copy(b, p.b)
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}

func BenchmarkPeekVarint(b *testing.B) {
	for _, c := range varintCases {
		in := unhex(c.hex)
		br := bufio.NewReaderSize(bytes.NewReader(in), 16)
		if v, _, err := quic.PeekVarint(br); err != nil {
			b.Fatalf("%s: PeekVarint: %d, %v", c.name, v, err)
		}
		b.Run("peeker=bufio.Reader/"+c.name+"/impl=equivcheck", func(b *testing.B) {
			b.ReportAllocs()
			var v uint64
			var err error
			for b.Loop() {
				v, _, err = quic.PeekVarint(br)
			}
			sinkU64, sinkErr = v, err
		})
		b.Run("peeker=bufio.Reader/"+c.name+"/impl=quicgo", func(b *testing.B) {
			b.ReportAllocs()
			var v uint64
			var err error
			p := varintBufioPeeker{br}
			for b.Loop() {
				v, err = quicvarint.Peek(p)
			}
			sinkU64, sinkErr = v, err
		})
		b.Run("peeker=slice/"+c.name+"/impl=equivcheck", func(b *testing.B) {
			b.ReportAllocs()
			var v uint64
			var err error
			p := &varintSlicePeeker{in}
			for b.Loop() {
				v, _, err = quic.PeekVarint(p)
			}
			sinkU64, sinkErr = v, err
		})
		b.Run("peeker=slice/"+c.name+"/impl=quicgo", func(b *testing.B) {
			b.ReportAllocs()
			var v uint64
			var err error
			p := &varintCopyPeeker{in}
			for b.Loop() {
				v, err = quicvarint.Peek(p)
			}
			sinkU64, sinkErr = v, err
		})
	}
}

var sinkVarintBytes []byte

func BenchmarkAppendVarintWithLen(b *testing.B) {
	buf := make([]byte, 0, 16)
	for _, c := range varintCases {
		n := len(unhex(c.hex))
		b.Run(c.name+"/impl=equivcheck", func(b *testing.B) {
			b.ReportAllocs()
			var out []byte
			for b.Loop() {
				out = quic.AppendVarintWithLen(buf, 37, n)
			}
			sinkVarintBytes = out
		})
		b.Run(c.name+"/impl=quicgo", func(b *testing.B) {
			b.ReportAllocs()
			var out []byte
			for b.Loop() {
				out = quicvarint.AppendWithLen(buf, 37, n)
			}
			sinkVarintBytes = out
		})
	}
}
