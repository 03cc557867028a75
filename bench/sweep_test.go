package bench

// Size sweeps: every pair against its peers over a dense grid, so that a
// dip between the headline sizes of checksum_test.go, websocket_test.go and
// quic_test.go cannot hide. Run them with `make bench-sweep`, which keeps
// the raw output and the benchstat tables in docs/perf/ and plots the
// ratio curves with ./cmd/plot; for one pair:
//
//	go test -run '^$' -bench '^BenchmarkSweepMask$' -benchtime 20ms -count 6 -timeout 60m . > sweep-mask.txt
//	benchstat -col /impl sweep-mask.txt > sweep-mask-benchstat.txt
//	benchstat -format csv -col /impl sweep-mask.txt > sweep-mask.csv
//	go run ./cmd/plot -out ../docs/perf sweep-*.csv > sweep-summary.txt
//
// The whole sweep is about 19,000 benchmark runs: about 11 minutes at
// -benchtime 20ms.
//
// The small-size region (every length up to 257 octets, issue 31) needs
// more samples than the whole grid can afford: a point of a few
// nanoseconds moves by 10-50% between single samples on the shared
// machine. The test flags -sweep.max and -sweep.min limit every sweep to
// the sizes up to and from them, so that `make bench-small` can run that
// region alone in ten or more interleaved rounds (and `make bench-sweep
// SWEEPMIN=258` the rest):
//
//	go test -c -o bench.test && ./bench.test -test.run '^$' -test.bench '^BenchmarkSweepMask$' -test.benchtime 10000x -sweep.max 257
//
// Every benchmark name is Sweep<Pair>/<coordinates>/impl=<name>, so that
// benchstat -col /impl puts the implementations side by side, one row per
// point of the grid. Each loop calls the function directly, as an
// application would, and b.Loop keeps every call and its result alive.

import (
	"flag"
	"fmt"
	"math/bits"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/optimized/checksum"
	"github.com/equivcheck/equivcheck/optimized/quic"
	"github.com/equivcheck/equivcheck/optimized/websocket"
	"github.com/gobwas/ws"
	"github.com/quic-go/quic-go/quicvarint"
	gvisorchecksum "gvisor.dev/gvisor/pkg/tcpip/checksum"
)

// sweepMin and sweepMax are the -sweep.min and -sweep.max flags: when
// positive, the sweeps measure only the sizes from sweepMin and up to
// sweepMax (see the top of this file).
var (
	sweepMin = flag.Int("sweep.min", 0, "measure only sweep sizes from `n` octets (0: every size)")
	sweepMax = flag.Int("sweep.max", 0, "measure only sweep sizes up to `n` octets (0: every size)")
)

// sweepSizes returns every length from 1 to 256, then each power of two
// from 512 to 4 MiB with its neighbours 2^k-1 and 2^k+1: the lengths where
// a kernel changes block count, dispatch threshold or cache level. With
// -sweep.min or -sweep.max, only those between them.
func sweepSizes() []int {
	all := make([]int, 0, 300)
	for n := 1; n <= 257; n++ {
		all = append(all, n)
	}
	for n := 512; n <= 4<<20; n *= 2 {
		all = append(all, n-1, n, n+1)
	}
	var sizes []int
	for _, n := range all {
		if n >= *sweepMin && (*sweepMax <= 0 || n <= *sweepMax) {
			sizes = append(sizes, n)
		}
	}
	return sizes
}

// sweepAligns are the start offsets past a 64-byte boundary: a cache-line
// aligned start, and one byte off (odd for the checksum, unaligned for
// every vector load).
var sweepAligns = []int{0, 1}

// sweepBuf returns n bytes starting align bytes past a 64-byte boundary,
// filled with a pattern that has no runs of zeros or 0xFF.
func sweepBuf(n, align int) []byte {
	buf := make([]byte, n+64+align)
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf))) & 63)
	b := buf[off+align : off+align+n : off+align+n]
	for i := range b {
		b[i] = byte(i*7 + 3)
	}
	return b
}

// BenchmarkSweepChecksum compares checksum.Sum with gVisor's
// checksum.Checksum (the same un-complemented sum) at every sweep size and
// alignment.
func BenchmarkSweepChecksum(b *testing.B) {
	for _, align := range sweepAligns {
		buf := sweepBuf(4<<20+1, align)
		for _, size := range sweepSizes() {
			in := buf[:size]
			name := fmt.Sprintf("align=%d/size=%d", align, size)
			b.Run(name+"/impl=equivcheck", benchSum(in))
			b.Run(name+"/impl=gvisor", benchGvisor(in))
		}
	}
}

// benchSum measures checksum.Sum(in, 0), called directly.
//
// The bench* helpers are not inlined on purpose: a closure returned by a
// helper that is inlined into its caller is compiled as a copy in which no
// call is inlined, not even b.Loop, so the benchmark paid for a call to the
// Mask wrapper (2 ns more at 1 to 4 octets) that user code never pays.
//
//go:noinline
func benchSum(in []byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			checksum.Sum(in, 0)
		}
	}
}

// benchGvisor measures gVisor's checksum.Checksum(in, 0), called directly.
//
//go:noinline
func benchGvisor(in []byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			gvisorchecksum.Checksum(in, 0)
		}
	}
}

// BenchmarkSweepMask compares websocket.Mask with gobwas/ws.Cipher, both in
// place, and with copy() between two buffers of the same size and
// alignment (the bandwidth proxy: masking reads and writes every byte
// once), at every sweep size and alignment. Below 16 octets it also
// compares Mask with the byte loops gorilla/websocket and coder/websocket
// run at those lengths (maskBytewise, maskRotating): 1 to 4 octets are
// most of a chat's frames.
func BenchmarkSweepMask(b *testing.B) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	for _, align := range sweepAligns {
		buf := sweepBuf(4<<20+1, align)
		src := sweepBuf(4<<20+1, align)
		for _, size := range sweepSizes() {
			in, from := buf[:size], src[:size]
			name := fmt.Sprintf("align=%d/size=%d", align, size)
			b.Run(name+"/impl=equivcheck", benchMask(in, key))
			b.Run(name+"/impl=gobwas", benchCipher(in, key))
			b.Run(name+"/impl=copy", benchCopy(in, from))
			if size < 16 {
				b.Run(name+"/impl=bytewise", benchBytewise(in, key))
				b.Run(name+"/impl=rotating", benchRotating(in, key))
			}
		}
	}
}

// maskBytewise masks b in place one octet at a time, the key octet chosen
// by the position: the loop gorilla/websocket's maskBytes runs for
// payloads shorter than two words (16 octets on 64-bit machines), written
// here after its description, as a yardstick. It is plain Go that the
// compiler may inline into the caller, which the library's function, with
// its word loop, is not.
func maskBytewise(b []byte, key [4]byte, pos int) int {
	for i := range b {
		b[i] ^= key[pos&3]
		pos++
	}
	return pos & 3
}

// maskRotating masks b in place one octet at a time with the key as a
// little-endian word, rotated by one octet after each: the loop
// coder/websocket's mask runs for payloads shorter than 8 octets and for
// the tail of longer ones, written here as a yardstick like maskBytewise.
// It returns the key word for the next octet.
func maskRotating(b []byte, key uint32) uint32 {
	for i := range b {
		b[i] ^= byte(key)
		key = bits.RotateLeft32(key, -8)
	}
	return key
}

// benchBytewise measures maskBytewise on in, in place, as benchMask does.
//
//go:noinline
func benchBytewise(in []byte, key [4]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		pos := 0
		for b.Loop() {
			pos = maskBytewise(in, key, pos)
		}
	}
}

// benchRotating measures maskRotating on in, in place, the key word
// carried from each call to the next as the position is in benchMask.
//
//go:noinline
func benchRotating(in []byte, key [4]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		k := uint32(key[0]) | uint32(key[1])<<8 | uint32(key[2])<<16 | uint32(key[3])<<24
		for b.Loop() {
			k = maskRotating(in, k)
		}
	}
}

// BenchmarkSweepMaskCopy compares websocket.MaskCopy with copy() over the
// same grid and buffers: both read one buffer and write another, so
// neither waits for its own previous stores. SweepMask's in-place masking
// does (each call reads what the previous one wrote), which copy does not;
// this sweep measures the masking kernel against copy with the same memory
// traffic.
func BenchmarkSweepMaskCopy(b *testing.B) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	for _, align := range sweepAligns {
		dst := sweepBuf(4<<20+1, align)
		src := sweepBuf(4<<20+1, align)
		for _, size := range sweepSizes() {
			to, from := dst[:size], src[:size]
			name := fmt.Sprintf("align=%d/size=%d", align, size)
			b.Run(name+"/impl=equivcheck", func(b *testing.B) {
				b.SetBytes(int64(size))
				pos := 0
				for b.Loop() {
					pos = websocket.MaskCopy(to, from, key, pos)
				}
			})
			b.Run(name+"/impl=copy", benchCopy(to, from))
		}
	}
}

// benchMask measures websocket.Mask on in, in place, each call carrying on
// from the previous one's position.
//
//go:noinline
func benchMask(in []byte, key [4]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		pos := 0
		for b.Loop() {
			pos = websocket.Mask(in, key, pos)
		}
	}
}

// benchCipher measures gobwas/ws.Cipher on in, in place, as benchMask does.
//
//go:noinline
func benchCipher(in []byte, key [4]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		pos := 0
		for b.Loop() {
			ws.Cipher(in, key, pos)
			pos = (pos + len(in)) & 3
		}
	}
}

// benchCopy measures copy(dst, src), the bandwidth proxy of the masking
// sweeps.
//
//go:noinline
func benchCopy(dst, src []byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			copy(dst, src)
		}
	}
}

// BenchmarkSweepVarint compares quic.ParseVarint with quicvarint.Parse for
// each encoding length followed by 0 to 8 more bytes, the last of them at
// the very end of its array (capacity equal to length), as the last
// frame's length field of a packet is: tail=0 is a varint that ends the
// buffer, tail=8 one with a full word after it. The buffer starts at a
// 64-byte boundary (align=0) or one byte past it.
func BenchmarkSweepVarint(b *testing.B) {
	for _, c := range varintCases {
		for _, align := range sweepAligns {
			for tail := 0; tail <= 8; tail++ {
				in := varintBufAt(c.hex+"0102030405060708"[:2*tail], align)
				name := fmt.Sprintf("%s/align=%d/tail=%d", c.name, align, tail)
				b.Run(name+"/impl=equivcheck", benchParseVarint(in))
				b.Run(name+"/impl=quicgo", benchQuicvarint(in))
			}
		}
	}
}

// varintBuf returns the bytes of hex at the start of a 64-byte-aligned
// buffer of their own that they end (capacity equal to length), as the
// last frame's length field of a packet ends it: inputs of 1 to 4 bytes
// from the tiny allocator made the time depend on their address.
func varintBuf(hex string) []byte {
	return varintBufAt(hex, 0)
}

// varintBufAt is varintBuf with the bytes align bytes past the boundary.
func varintBufAt(hex string, align int) []byte {
	raw := unhex(hex)
	in := sweepBuf(len(raw), align)
	copy(in, raw)
	return in
}

// appendValues are RFC 9000 Appendix A.1's values, one for each encoded
// length (1, 2, 4, 8).
var appendValues = []uint64{37, 15293, 494878333, 151288809941952652}

// BenchmarkSweepAppendVarint compares quic.AppendVarint with
// quicvarint.Append, each appending a value of every encoded length to an
// empty slice with room for it that starts at a 64-byte boundary or one
// byte past it.
func BenchmarkSweepAppendVarint(b *testing.B) {
	for _, v := range appendValues {
		for _, align := range sweepAligns {
			buf := sweepBuf(16, align)[:0]
			name := fmt.Sprintf("len=%d/align=%d", quic.VarintLen(v), align)
			b.Run(name+"/impl=equivcheck", benchAppendVarint(buf, v))
			b.Run(name+"/impl=quicgo", benchQuicAppend(buf, v))
		}
	}
}

// benchAppendVarint measures quic.AppendVarint(buf, v), inlined into the
// loop.
//
//go:noinline
func benchAppendVarint(buf []byte, v uint64) func(*testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		var out []byte
		for b.Loop() {
			out = quic.AppendVarint(buf, v)
		}
		sinkByte = out[0]
	}
}

// benchQuicAppend measures quic-go's quicvarint.Append(buf, v).
//
//go:noinline
func benchQuicAppend(buf []byte, v uint64) func(*testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		var out []byte
		for b.Loop() {
			out = quicvarint.Append(buf, v)
		}
		sinkByte = out[0]
	}
}

// benchParseVarint measures quic.ParseVarint(in), inlined into the loop.
//
//go:noinline
func benchParseVarint(in []byte) func(*testing.B) {
	return func(b *testing.B) {
		var v uint64
		var n int
		var err error
		b.ReportAllocs()
		for b.Loop() {
			v, n, err = quic.ParseVarint(in)
		}
		sinkU64, sinkInt, sinkErr = v, n, err
	}
}

// benchQuicvarint measures quic-go's quicvarint.Parse(in), a real call.
//
//go:noinline
func benchQuicvarint(in []byte) func(*testing.B) {
	return func(b *testing.B) {
		var v uint64
		var n int
		var err error
		b.ReportAllocs()
		for b.Loop() {
			v, n, err = quicvarint.Parse(in)
		}
		sinkU64, sinkInt, sinkErr = v, n, err
	}
}

// sweepHeaderCases returns one 1200-byte datagram per packet type and
// connection ID length: 1-RTT packets with every DCID length 0..20, and
// version 1 Initial (empty token), 0-RTT, Handshake and Retry packets with
// DCID and SCID lengths 0, 4, 8, 12, 16 and 20. quic-go exports no header
// parser (its wire package is internal), so the only yardstick is copy20.
func sweepHeaderCases() []struct {
	name         string
	packet       []byte
	shortDCIDLen int
} {
	type hc = struct {
		name         string
		packet       []byte
		shortDCIDLen int
	}
	cid := "0102030405060708090a0b0c0d0e0f1011121314"
	var cases []hc
	for l := 0; l <= 20; l++ {
		cases = append(cases, hc{fmt.Sprintf("type=1rtt/cid=%d", l), padTo("41"+cid[:2*l], 1200), l})
	}
	for l := 0; l <= 20; l += 4 {
		c := fmt.Sprintf("%02x", l) + cid[:2*l]
		// Length 1200 - header size, as a 2-byte varint.
		length := func(header int) string { return fmt.Sprintf("%04x", 0x4000|(1200-header-2)) }
		long := 7 + 2*l // first byte, version, two CID lengths and CIDs
		cases = append(cases,
			hc{fmt.Sprintf("type=initial/cid=%d", l), padTo("c300000001"+c+c+"00"+length(long+1), 1200), 0},
			hc{fmt.Sprintf("type=0rtt/cid=%d", l), padTo("d300000001"+c+c+length(long), 1200), 0},
			hc{fmt.Sprintf("type=handshake/cid=%d", l), padTo("e300000001"+c+c+length(long), 1200), 0},
			hc{fmt.Sprintf("type=retry/cid=%d", l), padTo("f000000001"+c+c+"aabbccdd", long+4+16), 0},
		)
	}
	return cases
}

// BenchmarkSweepHeader measures quic.ParseHeader for every case of
// sweepHeaderCases against copy20 (see quic_test.go).
func BenchmarkSweepHeader(b *testing.B) {
	for _, c := range sweepHeaderCases() {
		if _, err := quic.ParseHeader(c.packet, c.shortDCIDLen); err != nil {
			b.Fatalf("case %s: %v", c.name, err)
		}
		b.Run(c.name+"/impl=equivcheck", func(b *testing.B) {
			p, n := c.packet, c.shortDCIDLen
			var h quic.Header
			var err error
			for b.Loop() {
				h, err = quic.ParseHeader(p, n)
			}
			sinkHeader, sinkErr = h, err
		})
		b.Run(c.name+"/impl=copy20", func(b *testing.B) {
			p := c.packet
			var x byte
			for b.Loop() {
				x = copy20(p)
			}
			sinkByte = x
		})
	}
}

// utf8SweepSizes returns sweepSizes up to 1 MiB + 1: the validators'
// larger sizes only repeat the memory system's rate.
func utf8SweepSizes() []int {
	var sizes []int
	for _, n := range sweepSizes() {
		if n <= 1<<20+1 {
			sizes = append(sizes, n)
		}
	}
	return sizes
}

// BenchmarkSweepUTF8 compares utf8valid.Valid with unicode/utf8.Valid and
// segmentio/asm/utf8.Valid for every class of text of utf8valid_test.go at
// every size, each benchmark cycling through its texts (utf8Texts), which
// start at a 64-octet boundary (align=0) or one octet past it.
func BenchmarkSweepUTF8(b *testing.B) {
	textCells(utf8ClassNames, utf8SweepSizes(), func(name string, texts [][]byte) {
		b.Run(name+"/impl=equivcheck", benchUTF8Valid(texts))
		b.Run(name+"/impl=stdlib", benchStdlibValid(texts))
		b.Run(name+"/impl=segmentio", benchSegmentioValid(texts))
	})
}

// textCells calls cell with the name and the texts (utf8TextsAt) of
// every class, start (sweepAligns) and size, in that order of loops.
func textCells(classes []string, sizes []int, cell func(name string, texts [][]byte)) {
	for _, class := range classes {
		for _, align := range sweepAligns {
			for _, size := range sizes {
				cell(fmt.Sprintf("class=%s/align=%d/size=%d", class, align, size), utf8TextsAt(class, size, align))
			}
		}
	}
}

// unmaskClasses are the classes of the fused sweeps: ASCII, one class
// of only non-ASCII characters (Latin, 2 octets each) and mixed text.
var unmaskClasses = []string{"ascii", "latin", "mixed"}

// unmaskSweepSizes returns the sweep sizes up to 64 KiB + 1.
func unmaskSweepSizes() []int {
	var sizes []int
	for _, n := range utf8SweepSizes() {
		if n <= 64<<10+1 {
			sizes = append(sizes, n)
		}
	}
	return sizes
}

// BenchmarkSweepUnmask compares a Validator's Unmask (the fused path) with
// websocket.Mask followed by utf8valid.Valid at every size up to 64 KiB +
// 1, each cycling through its texts in place with fusedKey (see
// utf8Classes), at a 64-octet boundary and one octet past it.
func BenchmarkSweepUnmask(b *testing.B) {
	textCells(unmaskClasses, unmaskSweepSizes(), func(name string, texts [][]byte) {
		b.Run(name+"/impl=equivcheck", benchUnmask(texts))
		b.Run(name+"/impl=mask+valid", benchMaskValid(texts))
	})
}

// BenchmarkSweepUnmaskParts measures, on BenchmarkSweepUnmask's
// non-ASCII texts, the fused path (impl=equivcheck), websocket.Mask then
// utf8valid.Valid (impl=mask+valid), each of the two alone (impl=mask,
// impl=valid), a Validator's Write, which checks as Unmask does
// without unmasking (impl=write), and Mask then Write (impl=mask+write,
// the two passes of a reader that keeps the message's state as Unmask
// does), interleaved in one run. A fused path does Write's work and more,
// so mask+valid over write bounds the speed-up it can reach over the two
// passes (docs/perf/unmask-parts/bound.py reads the run).
func BenchmarkSweepUnmaskParts(b *testing.B) {
	textCells([]string{"latin", "mixed"}, unmaskSweepSizes(), func(name string, texts [][]byte) {
		b.Run(name+"/impl=equivcheck", benchUnmask(texts))
		b.Run(name+"/impl=mask+valid", benchMaskValid(texts))
		b.Run(name+"/impl=valid", benchUTF8Valid(texts))
		b.Run(name+"/impl=mask", benchMaskTexts(texts))
		b.Run(name+"/impl=write", benchValidatorWrite(texts))
		b.Run(name+"/impl=mask+write", benchMaskWrite(texts))
	})
}

// BenchmarkSweepUnmaskCopy is BenchmarkSweepUnmask on a frame copied into
// the buffer right before the call, as a reader's Read puts it there:
// each iteration copies the next text into one buffer (at a 64-octet
// boundary or one past it), then unmasks and validates the buffer, so
// the fused path's loads meet octets stored just before. Both sides pay
// the same copy.
func BenchmarkSweepUnmaskCopy(b *testing.B) {
	for _, class := range unmaskClasses {
		for _, align := range sweepAligns {
			for _, size := range unmaskSweepSizes() {
				texts := utf8Texts(class, size)
				buf := wsAlignedBuf(size, align)
				name := fmt.Sprintf("class=%s/align=%d/size=%d", class, align, size)
				b.Run(name+"/impl=equivcheck", benchUnmaskCopy(buf, texts))
				b.Run(name+"/impl=mask+valid", benchMaskValidCopy(buf, texts))
			}
		}
	}
}
