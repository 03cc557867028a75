package checksum

import (
	"fmt"
	"testing"

	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// BenchmarkSum measures every available variant, the dispatching Sum
// (impl=dispatch) and the RFC-literal reference (impl=reference), at 64-byte-aligned inputs (align=0) and one byte off
// (align=1). All are called through a func value, so they pay the same
// indirect call; applications calling Sum directly save it.
// size=20 is an IPv4 header; size=1500 an Ethernet MTU packet; size=9000 a
// jumbo frame; size=65536 a 64 KiB GSO/GRO segment.
func BenchmarkSum(b *testing.B) {
	sizes := []int{20, 40, 64, 256, 1500, 9000, 65536}
	buf := alignedBuf(65536 + 64)
	for i := range buf {
		buf[i] = byte(i*7 + 3)
	}
	for _, size := range sizes {
		for _, align := range []int{0, 1} {
			for _, v := range append(variants(), Impl{Name: "reference", Available: true, Sum: ref.Sum}) {
				if !v.Available {
					continue
				}
				in := buf[align : align+size]
				b.Run(fmt.Sprintf("size=%d/align=%d/impl=%s", size, align, v.Name), func(b *testing.B) {
					b.SetBytes(int64(size))
					b.ReportAllocs()
					for b.Loop() { // b.Loop keeps the result alive
						v.Sum(in, 0)
					}
				})
			}
		}
	}
}
