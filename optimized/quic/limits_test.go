package quic_test

import (
	"strconv"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/internal/checkptr"
	"github.com/equivcheck/equivcheck/optimized/quic"
	ref "github.com/equivcheck/equivcheck/reference/quic"
)

// hugeInput returns a slice of n bytes whose first bytes are first and
// whose rest is not memory: only a parser that stops at its length check
// (or reads no further than the first bytes) may be given it. The suites
// cannot allocate a datagram past MaxInputLen (2^40-1 bytes), so this is
// how the one length check above 2^32 is exercised.
func hugeInput(first []byte, n uint64) []byte {
	buf := make([]byte, 64)
	copy(buf, first)
	return unsafe.Slice(&buf[0], n)
}

// TestMaxInputLen checks every variant's header parsers on either side of
// MaxInputLen: one byte more is ErrInvalidArgument before any byte is
// read, with and without options and through Packets; exactly MaxInputLen
// bytes of a 1-RTT packet parse as the reference parses them, reading
// only the first byte and the Header's 40-bit offsets holding.
func TestMaxInputLen(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("a slice longer than 2^40 bytes needs a 64-bit int")
	}
	if checkptr.Enabled {
		t.Skip("checkptr (-race, -msan, -asan) rejects a slice longer than its allocation")
	}
	for _, impl := range quic.Impls() {
		t.Run(impl.Name, func(t *testing.T) {
			for _, first := range []byte{0x41, 0xc0, 0x00} {
				over := hugeInput([]byte{first, 0, 0, 0, 1}, ref.MaxInputLen+1)
				for _, opts := range []quic.Options{0, quic.GreaseQUICBit} {
					if h, err := impl.ParseHeaderWith(over, 8, opts); err != quic.ErrInvalidArgument || h.Type() != quic.TypeNone {
						t.Errorf("ParseHeaderWith(first=%#02x, len=MaxInputLen+1, opts=%d) = %v, %v, want ErrInvalidArgument", first, opts, h.Type(), err)
					}
					for h, err := range impl.PacketsWith(over, 8, opts) {
						if err != quic.ErrInvalidArgument || h.Type() != quic.TypeNone {
							t.Errorf("PacketsWith(first=%#02x, len=MaxInputLen+1, opts=%d) yielded %v, %v, want ErrInvalidArgument", first, opts, h.Type(), err)
						}
					}
				}
				if _, err := impl.ParseHeader(over, 8); err != quic.ErrInvalidArgument {
					t.Errorf("ParseHeader(first=%#02x, len=MaxInputLen+1) = %v, want ErrInvalidArgument", first, err)
				}
			}
			at := hugeInput([]byte{0x41}, ref.MaxInputLen)
			for _, opts := range []quic.Options{0, quic.GreaseQUICBit} {
				got, gerr := impl.ParseHeaderWith(at, 8, opts)
				want, werr := ref.ParseHeaderWith(at, 8, opts)
				if gerr != werr || got.Type() != want.Type() || uint64(len(got.Packet())) != ref.MaxInputLen || got.PNOffset() != want.PNOffset() {
					t.Errorf("ParseHeaderWith(1-RTT, len=MaxInputLen, opts=%d) = %v len %d pn %d, %v; want %v pn %d, %v",
						opts, got.Type(), len(got.Packet()), got.PNOffset(), gerr, want.Type(), want.PNOffset(), werr)
				}
				n := 0
				for h, err := range impl.PacketsWith(at, 8, opts) {
					if n++; err != nil || uint64(len(h.Packet())) != quic.MaxInputLen {
						t.Errorf("PacketsWith(1-RTT, len=MaxInputLen, opts=%d) yielded %v len %d, %v; want the whole input, nil", opts, h.Type(), len(h.Packet()), err)
					}
				}
				if n != 1 {
					t.Errorf("PacketsWith(1-RTT, len=MaxInputLen, opts=%d) yielded %d packets, want 1", opts, n)
				}
			}
			// A 1-RTT packet and a long header of a version this package
			// does not know (opaque after its CIDs), which both run to the
			// end of the input without reading it, and a short header with
			// the Fixed Bit cleared (the slow path's own length check).
			for _, first := range [][]byte{{0x41}, {0xc0, 0xff, 0, 0, 0x1d, 1, 0xaa, 0}, {0x01}} {
				at := hugeInput(first, ref.MaxInputLen)
				got, gerr := impl.ParseHeader(at, 8)
				want, werr := ref.ParseHeader(at, 8)
				if gerr != werr || got.Type() != want.Type() || len(got.Packet()) != len(want.Packet()) || got.PNOffset() != want.PNOffset() {
					t.Errorf("ParseHeader(first=%#02x, len=MaxInputLen) = %v len %d pn %d, %v; want %v len %d pn %d, %v",
						first[0], got.Type(), len(got.Packet()), got.PNOffset(), gerr, want.Type(), len(want.Packet()), want.PNOffset(), werr)
				}
			}
		})
	}
}
