package bench

import (
	"fmt"
	"io"
	"testing"

	"github.com/equivcheck/equivcheck/optimized/websocket"
	"github.com/gobwas/ws/wsutil"
)

// Peer benchmarks for streaming masking (RFC 6455 §5.3) through the public
// APIs, one Read or Write of size octets per iteration:
//
//	impl=equivcheck  optimized/websocket.MaskReader / MaskWriter
//	impl=gobwas      github.com/gobwas/ws/wsutil.CipherReader / CipherWriter
//
// The underlying reader and writer cost nothing (free: it returns len(p)
// without touching p, and takes b without reading it), so what is measured
// is the streamer: its call, its masking, its bookkeeping and, for the
// writer, its copy out of the caller's buffer. The key position is carried
// from each call to the next, as on a connection.

var wsStreamSizes = []int{16, 125, 1024, 4096, 16384, 65536}

// free is an io.Reader and io.Writer that does no work.
type free struct{}

func (free) Read(p []byte) (int, error)  { return len(p), nil }
func (free) Write(b []byte) (int, error) { return len(b), nil }

var wsStreamKey = [4]byte{0x37, 0xfa, 0x21, 0x3d}

func BenchmarkMaskReader(b *testing.B) {
	for _, n := range wsStreamSizes {
		p := wsAlignedBuf(n, 0)
		for _, tc := range []struct {
			impl string
			r    io.Reader
		}{
			{"equivcheck", websocket.NewMaskReader(free{}, wsStreamKey)},
			{"gobwas", wsutil.NewCipherReader(free{}, wsStreamKey)},
		} {
			b.Run(fmt.Sprintf("size=%d/impl=%s", n, tc.impl), func(b *testing.B) {
				b.SetBytes(int64(n))
				b.ReportAllocs()
				for b.Loop() {
					tc.r.Read(p)
				}
			})
		}
	}
}

func BenchmarkMaskWriter(b *testing.B) {
	for _, n := range wsStreamSizes {
		p := wsAlignedBuf(n, 0)
		for _, tc := range []struct {
			impl string
			w    io.Writer
		}{
			{"equivcheck", websocket.NewMaskWriter(free{}, wsStreamKey)},
			{"gobwas", wsutil.NewCipherWriter(free{}, wsStreamKey)},
		} {
			b.Run(fmt.Sprintf("size=%d/impl=%s", n, tc.impl), func(b *testing.B) {
				b.SetBytes(int64(n))
				b.ReportAllocs()
				for b.Loop() {
					tc.w.Write(p)
				}
			})
		}
	}
}

// TestStreamAllocs: equivcheck's MaskReader.Read and MaskWriter.Write
// allocate nothing per call, at every benchmarked size. gobwas/ws's
// counts are logged beside them for the record, not checked: its
// CipherWriter copies into a buffer from its pool.
func TestStreamAllocs(t *testing.T) {
	for _, n := range wsStreamSizes {
		p := make([]byte, n)
		r, w := websocket.NewMaskReader(free{}, wsStreamKey), websocket.NewMaskWriter(free{}, wsStreamKey)
		if a := testing.AllocsPerRun(100, func() { r.Read(p) }); a != 0 {
			t.Errorf("MaskReader.Read(len=%d) allocates %v times", n, a)
		}
		if a := testing.AllocsPerRun(100, func() { w.Write(p) }); a != 0 {
			t.Errorf("MaskWriter.Write(len=%d) allocates %v times", n, a)
		}
		gr, gw := wsutil.NewCipherReader(free{}, wsStreamKey), wsutil.NewCipherWriter(free{}, wsStreamKey)
		t.Logf("len=%d: gobwas CipherReader.Read %v allocs, CipherWriter.Write %v allocs", n,
			testing.AllocsPerRun(100, func() { gr.Read(p) }), testing.AllocsPerRun(100, func() { gw.Write(p) }))
	}
}
