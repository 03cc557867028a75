package quic

import (
	"strconv"
	"testing"
	"unsafe"
)

// TestMaxInputLen pins the one length limit no suite can allocate: an
// input of MaxInputLen+1 bytes is ErrInvalidArgument before any byte is
// read, in every parser; one of MaxInputLen bytes holding a 1-RTT packet
// parses, and its Header keeps its 40-bit offsets (the slice beyond the
// first bytes is not memory: a parser that read it would crash).
func TestMaxInputLen(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("a slice longer than 2^40 bytes needs a 64-bit int")
	}
	buf := make([]byte, 64)
	buf[0] = 0x41
	over := unsafe.Slice(&buf[0], MaxInputLen+1)
	if _, err := ParseHeader(over, 8); err != ErrInvalidArgument {
		t.Errorf("ParseHeader(len=MaxInputLen+1) = %v, want ErrInvalidArgument", err)
	}
	for _, opts := range []Options{0, GreaseQUICBit} {
		if _, err := ParseHeaderWith(over, 8, opts); err != ErrInvalidArgument {
			t.Errorf("ParseHeaderWith(len=MaxInputLen+1, %d) = %v, want ErrInvalidArgument", opts, err)
		}
		n := 0
		for h, err := range PacketsWith(over, 8, opts) {
			if n++; err != ErrInvalidArgument || h.Type() != TypeNone {
				t.Errorf("PacketsWith(len=MaxInputLen+1, %d) yielded %v, %v, want ErrInvalidArgument", opts, h.Type(), err)
			}
		}
		if n != 1 {
			t.Errorf("PacketsWith(len=MaxInputLen+1, %d) yielded %d items, want 1", opts, n)
		}
	}
	h, err := ParseHeader(over[:MaxInputLen], 8)
	if err != nil || h.Type() != Type1RTT || uint64(len(h.Packet())) != MaxInputLen || h.PNOffset() != 9 || len(h.DCID()) != 8 {
		t.Errorf("ParseHeader(1-RTT, len=MaxInputLen) = %v len %d pn %d dcid %d, %v; want 1-RTT, the whole input, offset 9, 8-byte DCID, nil",
			h.Type(), len(h.Packet()), h.PNOffset(), len(h.DCID()), err)
	}
}
