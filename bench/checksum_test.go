package bench

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/equivcheck/equivcheck/optimized/checksum"
	gvisorchecksum "gvisor.dev/gvisor/pkg/tcpip/checksum"
)

// BenchmarkChecksum compares the dispatching equivcheck Sum with gVisor's
// tcpip checksum (its Checksum(buf, 0), the same un-complemented sum) on the
// same buffers, and with bytes.IndexByte scanning a buffer that does not
// contain the byte sought: a read-only pass over the same bytes by the
// standard library's vectorized code, the memory-bandwidth yardstick for a
// checksum, which must also read every byte once.
//
// Each loop calls its function directly, as an application would. b.Loop
// keeps every call and its result alive, so no sink variable is needed; a
// global sink would add a store-to-load dependency between iterations
// (about 2 ns here) that hides the cost of the small sizes.
func BenchmarkChecksum(b *testing.B) {
	sizes := []int{20, 40, 64, 256, 1500, 9000, 65536}
	buf := make([]byte, 65536)
	for i := range buf {
		buf[i] = byte(i*7 + 3)
		if buf[i] == 0xFF {
			buf[i] = 0xFE // so that IndexByte(buf, 0xFF) scans everything
		}
	}
	for _, size := range sizes {
		in := buf[:size]
		b.Run(fmt.Sprintf("size=%d/impl=equivcheck", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				checksum.Sum(in, 0)
			}
		})
		b.Run(fmt.Sprintf("size=%d/impl=gvisor", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				gvisorchecksum.Checksum(in, 0)
			}
		})
		b.Run(fmt.Sprintf("size=%d/impl=indexbyte", size), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				bytes.IndexByte(in, 0xFF)
			}
		})
	}
}
