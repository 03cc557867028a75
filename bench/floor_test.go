package bench

import (
	"bytes"
	"fmt"
	"testing"
)

// Floors: what the machine itself costs where a target of issue 12 is out
// of reach, measured in the same run as the code and its peer, so that a
// miss is shown to be a limit and not a slow kernel.

// BenchmarkFloorMask sets in-place masking (impl=equivcheck, and gobwas'
// Cipher) beside the standard library's vectorized single passes over the
// same buffer: impl=clear writes every byte (the runtime's memclr) and
// impl=indexbyte reads every byte (bytes.IndexByte of a byte the buffer
// does not hold). Masking in place must do both. From 64 KiB the buffer no
// longer fits the 48 KiB L1 data cache, every line comes from L2 and goes
// back dirty, and a pass that only writes costs what masking costs.
func BenchmarkFloorMask(b *testing.B) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	for _, size := range []int{1 << 10, 4 << 10, 16 << 10, 32 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20} {
		in := sweepBuf(size, 0)
		zeros := sweepBuf(size, 0)
		clear(zeros)
		name := fmt.Sprintf("size=%d", size)
		b.Run(name+"/impl=equivcheck", benchMask(in, key))
		b.Run(name+"/impl=gobwas", benchCipher(in, key))
		b.Run(name+"/impl=clear", func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				clear(in)
			}
		})
		b.Run(name+"/impl=indexbyte", func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				bytes.IndexByte(zeros, 0xFF)
			}
		})
	}
}

// BenchmarkFloorChecksum measures what a call to Sum costs before it sums
// anything: impl=call is a function with Sum's signature that cannot be
// inlined and reads one byte, the least any checksum call does; Sum of 20
// bytes (five loads, one fold, no loop) is the cheapest real sum. From 64
// to 384 bytes the AVX-512 kernel's setup and final reduction dominate and
// Sum's time barely grows with the length, while gvisor's grows by about a
// nanosecond per 32 bytes: at 64 bytes, twice gvisor's speed would leave
// Sum 0.7 ns more than this empty call, less than its 40-byte sum takes,
// and twice gvisor only exceeds Sum's fixed cost from about 256 bytes.
func BenchmarkFloorChecksum(b *testing.B) {
	buf := sweepBuf(384, 0)
	for _, size := range []int{20, 40, 64, 128, 192, 256, 320, 384} {
		in := buf[:size]
		name := fmt.Sprintf("size=%d", size)
		b.Run(name+"/impl=equivcheck", benchSum(in))
		b.Run(name+"/impl=gvisor", benchGvisor(in))
		b.Run(name+"/impl=call", func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				callFloor(in, 0)
			}
		})
	}
}

// callFloor has Sum's signature and does the least a checksum can: it
// reads one byte. It is not inlined, as Sum is not (inlining cost 663
// with Go 1.26).
//
//go:noinline
func callFloor(b []byte, initial uint16) uint16 {
	return initial + uint16(b[0])
}

// BenchmarkFloorVarint measures what a varint parse costs in the sweep's
// loop before it parses anything. impl=loop is SweepVarint's loop with the
// least an inlined parse does in place of ParseVarint: read the first byte
// and return it with length 1 and no error. impl=call is the same work in a
// function that is not inlined, with Parse's signature: the least a
// quicvarint.Parse call costs. A ratio against quicvarint cannot exceed
// quicgo/loop however little ParseVarint's own instructions cost.
func BenchmarkFloorVarint(b *testing.B) {
	for _, c := range varintCases {
		for _, tail := range []string{"", "0102030405060708"} {
			in := varintBuf(c.hex + tail)
			name := fmt.Sprintf("%s/tail=%d", c.name, len(tail)/2)
			b.Run(name+"/impl=equivcheck", benchParseVarint(in))
			b.Run(name+"/impl=quicgo", benchQuicvarint(in))
			b.Run(name+"/impl=loop", func(b *testing.B) {
				var v uint64
				var n int
				var err error
				for b.Loop() {
					v, n, err = uint64(in[0]), 1, nil
				}
				sinkU64, sinkInt, sinkErr = v, n, err
			})
			b.Run(name+"/impl=call", func(b *testing.B) {
				var v uint64
				var n int
				var err error
				for b.Loop() {
					v, n, err = parseFloor(in)
				}
				sinkU64, sinkInt, sinkErr = v, n, err
			})
		}
	}
}

// parseFloor has quicvarint.Parse's signature and does the least a parse
// can: it returns the first byte. It is not inlined, as Parse is not
// (inlining cost 115).
//
//go:noinline
func parseFloor(b []byte) (uint64, int, error) {
	return uint64(b[0]), 1, nil
}
