package quic_test

import (
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/optimized/quic"
	ref "github.com/equivcheck/equivcheck/reference/quic"
)

// benchPacket builds a datagram: the header bytes, then zero bytes up to
// size.
func benchPacket(header string, size int) []byte {
	b := unhex(header)
	return append(b, make([]byte, size-len(b))...)
}

// headerCases are the benchmark inputs, one per kind of packet that
// matters: the 1-RTT packets that make up most of a connection, the small
// Initial every handshake starts with, an Initial with the longest CIDs
// and a token, and Version Negotiation.
var headerCases = []struct {
	name         string
	datagram     []byte
	shortDCIDLen int
}{
	// 1-RTT, 8-byte DCID, 1200-byte datagram.
	{"short-dcid8", benchPacket("41"+dcid8, 1200), 8},
	// Initial, 8-byte CIDs, empty token, 2-byte Length (1200 - 26).
	{"initial-small", benchPacket("c300000001"+"08"+dcid8+"08"+scid8+"00"+"4496", 1200), 0},
	// Initial, 20-byte CIDs, 40-byte token, 2-byte Length (1200 - 90).
	{"initial-cid20-token40", benchPacket("c300000001"+"14"+dcid8+dcid8+"01020304"+"14"+scid8+scid8+"05060708"+
		"28"+strings.Repeat("7e", 40)+"4456", 1200), 0},
	// Version Negotiation, 8-byte CIDs, 4 versions.
	{"vn-4", unhex("8000000000" + "08" + dcid8 + "08" + scid8 + "000000016b3343cf0a1a2a3aff00001d"), 0},
}

var (
	sinkHeader quic.Header
	sinkErr    error
	sinkU64    uint64
	sinkInt    int
)

// BenchmarkParseHeader compares the reference with every variant, each
// called through its own function value.
func BenchmarkParseHeader(b *testing.B) {
	for _, c := range headerCases {
		// Every case must parse, or the benchmark measures an error path.
		if _, err := ref.ParseHeader(c.datagram, c.shortDCIDLen); err != nil {
			b.Fatalf("case %s: %v", c.name, err)
		}
		run := func(name string, parse func([]byte, int) (quic.Header, error)) {
			b.Run("case="+c.name+"/impl="+name, func(b *testing.B) {
				b.ReportAllocs()
				var h quic.Header
				var err error
				for b.Loop() {
					h, err = parse(c.datagram, c.shortDCIDLen)
				}
				sinkHeader, sinkErr = h, err
			})
		}
		run("reference", ref.ParseHeader)
		for _, impl := range quic.Impls() {
			if impl.Available {
				run(impl.Name, impl.ParseHeader)
			}
		}
	}
}

// varintCases are encodings of each length, followed by more packet bytes
// as they are inside a packet, and at the very end of the input, where
// the 8-byte load cannot be used.
var varintCases = []struct {
	name string
	in   []byte
}{
	{"len=1", unhex("25" + "0102030405060708")},
	{"len=2", unhex("7bbd" + "0102030405060708")},
	{"len=4", unhex("9d7f3e7d" + "0102030405060708")},
	{"len=8", unhex("c2197c5eff14e88c" + "0102030405060708")},
	{"len=1-at-end", unhex("25")},
	{"len=2-at-end", unhex("7bbd")},
	{"len=4-at-end", unhex("9d7f3e7d")},
}

// BenchmarkParseVarint compares the reference with every variant through
// function values (no inlining), and with the exported ParseVarint called
// directly ("direct"), which the compiler inlines.
func BenchmarkParseVarint(b *testing.B) {
	for _, c := range varintCases {
		run := func(name string, parse func([]byte) (uint64, int, error)) {
			b.Run("case="+c.name+"/impl="+name, func(b *testing.B) {
				b.ReportAllocs()
				var v uint64
				var n int
				var err error
				for b.Loop() {
					v, n, err = parse(c.in)
				}
				sinkU64, sinkInt, sinkErr = v, n, err
			})
		}
		run("reference", ref.ParseVarint)
		for _, impl := range quic.Impls() {
			if impl.Available {
				run(impl.Name, impl.ParseVarint)
			}
		}
		b.Run("case="+c.name+"/impl=direct", func(b *testing.B) {
			b.ReportAllocs()
			in := c.in
			var v uint64
			var n int
			var err error
			for b.Loop() {
				v, n, err = quic.ParseVarint(in)
			}
			sinkU64, sinkInt, sinkErr = v, n, err
		})
	}
}
