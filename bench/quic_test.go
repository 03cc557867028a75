package bench

// Peer benchmarks for optimized/quic, to be compared with
//
//	go test -run '^$' -bench 'Varint|Header' -count 6 . > quic.txt
//	benchstat -col /impl quic.txt
//
// BenchmarkVarint: our ParseVarint against quic-go's quicvarint.Parse, on
// the same inputs: an encoding of each length followed by 8 more packet
// bytes, as varints sit inside packets. BenchmarkVarintAtEnd repeats it
// with nothing after the encoding, where our 8-byte load cannot be used.
//
// BenchmarkHeader: our ParseHeader on a 1-RTT packet with an 8-byte DCID
// and on a small Initial (8-byte CIDs, empty token, 2-byte Length), each
// against copy20, which copies 20 bytes of the packet into a local array
// and reads one byte of it back: a floor for touching a header's worth of
// bytes, the cost any parser has to be measured against.

import (
	"encoding/hex"
	"testing"

	"github.com/equivcheck/equivcheck/optimized/quic"
)

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

var (
	sinkU64    uint64
	sinkInt    int
	sinkErr    error
	sinkByte   byte
	sinkHeader quic.Header
)

// varintCases are RFC 9000 Appendix A.1 encodings of each length.
var varintCases = []struct {
	name, hex string
}{
	{"len=1", "25"},
	{"len=2", "7bbd"},
	{"len=4", "9d7f3e7d"},
	{"len=8", "c2197c5eff14e88c"},
}

// benchVarint measures each varintCases encoding followed by tail, each
// in a buffer of its own as in BenchmarkSweepVarint (varintBuf).
func benchVarint(b *testing.B, tail string) {
	for _, c := range varintCases {
		in := varintBuf(c.hex + tail)
		b.Run(c.name+"/impl=equivcheck", benchParseVarint(in))
		b.Run(c.name+"/impl=quicgo", benchQuicvarint(in))
	}
}

func BenchmarkVarint(b *testing.B) { benchVarint(b, "0102030405060708") }

// BenchmarkLoopFloor is the cost of b.Loop itself with a one-byte load in
// the body, which every other benchmark here pays too: the floor under
// the inlined ParseVarint.
func BenchmarkLoopFloor(b *testing.B) {
	in := unhex("25" + "0102030405060708")
	var x byte
	for b.Loop() {
		x = in[0]
	}
	sinkByte = x
}

func BenchmarkVarintAtEnd(b *testing.B) { benchVarint(b, "") }

// padTo appends zero bytes to the hex-decoded header up to size bytes.
func padTo(header string, size int) []byte {
	b := unhex(header)
	return append(b, make([]byte, size-len(b))...)
}

var headerCases = []struct {
	name         string
	packet       []byte
	shortDCIDLen int
}{
	// 1-RTT packet, 8-byte DCID, in a 1200-byte datagram.
	{"short-dcid8", padTo("41"+"1122334455667788", 1200), 8},
	// Initial, 8-byte DCID and SCID, empty token, 2-byte Length 1174.
	{"initial-small", padTo("c300000001"+"08"+"1122334455667788"+"08"+"aabbccddeeff0011"+"00"+"4496", 1200), 0},
}

// copy20 copies the 20 bytes after the first into a local array and reads
// back the byte the first byte's low bits select: the work cannot be
// dropped, since the index is only known at run time and the byte goes to
// a package-level sink.
func copy20(p []byte) byte {
	var a [20]byte
	copy(a[:], p[1:21])
	return a[p[0]&15]
}

func BenchmarkHeader(b *testing.B) {
	for _, c := range headerCases {
		if _, err := quic.ParseHeader(c.packet, c.shortDCIDLen); err != nil {
			b.Fatalf("case %s: %v", c.name, err)
		}
		b.Run("case="+c.name+"/impl=equivcheck", func(b *testing.B) {
			b.ReportAllocs()
			p, n := c.packet, c.shortDCIDLen
			var h quic.Header
			var err error
			for b.Loop() {
				h, err = quic.ParseHeader(p, n)
			}
			sinkHeader, sinkErr = h, err
		})
		b.Run("case="+c.name+"/impl=copy20", func(b *testing.B) {
			b.ReportAllocs()
			p := c.packet
			var x byte
			for b.Loop() {
				x = copy20(p)
			}
			sinkByte = x
		})
	}
}
