package quic

import (
	"strconv"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/internal/checkptr"
)

// TestMaxInputLen pins the one length limit no suite can allocate: an
// input of 2^40 bytes is ErrInvalidArgument before any byte is read, in
// every parser; one of 2^40-1 bytes holding a 1-RTT packet parses, and its
// Header keeps its 40-bit offsets (the slice beyond the first bytes is not
// memory: a parser that read it would crash). The lengths are written out
// rather than taken from MaxInputLen: a Header keeps the packet number
// offset in 40 bits, so the limit is 2^40-1 and no other value.
func TestMaxInputLen(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("a slice longer than 2^40 bytes needs a 64-bit int")
	}
	if checkptr.Enabled {
		t.Skip("checkptr (-race, -msan, -asan) rejects a slice longer than its allocation")
	}
	limit := uint64(1)<<40 - 1 // a variable: 2^40 overflows a 32-bit int
	buf := make([]byte, 64)
	buf[0] = 0x41
	over := unsafe.Slice(&buf[0], limit+1)
	if _, err := ParseHeader(over, 8); err != ErrInvalidArgument {
		t.Errorf("ParseHeader(len=2^40) = %v, want ErrInvalidArgument", err)
	}
	for _, opts := range []Options{0, GreaseQUICBit} {
		if _, err := ParseHeaderWith(over, 8, opts); err != ErrInvalidArgument {
			t.Errorf("ParseHeaderWith(len=2^40, %d) = %v, want ErrInvalidArgument", opts, err)
		}
		n := 0
		for h, err := range PacketsWith(over, 8, opts) {
			if n++; err != ErrInvalidArgument || h.Type() != TypeNone {
				t.Errorf("PacketsWith(len=2^40, %d) yielded %v, %v, want ErrInvalidArgument", opts, h.Type(), err)
			}
		}
		if n != 1 {
			t.Errorf("PacketsWith(len=2^40, %d) yielded %d items, want 1", opts, n)
		}
	}
	h, err := ParseHeader(over[:limit], 8)
	if err != nil || h.Type() != Type1RTT || uint64(len(h.Packet())) != limit || h.PNOffset() != 9 || len(h.DCID()) != 8 {
		t.Errorf("ParseHeader(1-RTT, len=2^40-1) = %v len %d pn %d dcid %d, %v; want 1-RTT, the whole input, offset 9, 8-byte DCID, nil",
			h.Type(), len(h.Packet()), h.PNOffset(), len(h.DCID()), err)
	}
}

// TestWidthEdges pins, with values worked from RFC 9000 §12.2, §16 and
// §17.2 and RFC 8999 §6, the length-like quantities at the integer widths
// a narrow counter would get wrong, so that a bug both trees shared would
// fail here.
func TestWidthEdges(t *testing.T) {
	dcid := make([]byte, 20)
	for i := range dcid {
		dcid[i] = byte(0x11 + i)
	}
	late := append([]byte(nil), dcid...)
	late[19] ^= 0x80
	payload := make([]byte, 24)
	hs := func(id []byte) []byte { return longHeader(0xe0, Version1, id, nil, append([]byte{24}, payload...)...) }
	// §12.2: the second packet's DCID differs in its last byte only.
	var got []error
	for _, err := range Packets(append(hs(dcid), hs(late)...), 20) {
		got = append(got, err)
	}
	if len(got) != 2 || got[0] != nil || got[1] != ErrDCIDMismatch {
		t.Errorf("Packets(20-byte DCIDs differing at byte 19) = %v, want [nil ErrDCIDMismatch]", got)
	}
	// 256 coalesced Handshake packets with an empty payload, then zero
	// padding: 256 packets too short for a sample, then the padding.
	tiny := longHeader(0xe0, Version1, dcid[:8], nil, 0)
	var d []byte
	for range 256 {
		d = append(d, tiny...)
	}
	n, last := 0, error(nil)
	for _, err := range Packets(append(d, 0, 0, 0), 8) {
		n, last = n+1, err
	}
	if n != 257 || last != ErrTrailingBytes {
		t.Errorf("Packets(256 packets + 3 zero bytes) yielded %d, last %v; want 257, ErrTrailingBytes", n, last)
	}
	// RFC 8999 §6: a list of 256 versions is 1024 bytes, a multiple of 4.
	vn := longHeader(0x80, VersionNegotiation, dcid[:8], nil, make([]byte, 1024)...)
	if h, err := ParseHeader(vn, 8); err != nil || len(h.SupportedVersions()) != 1024 {
		t.Errorf("ParseHeader(VN with 256 versions) = %d bytes of versions, %v; want 1024, nil", len(h.SupportedVersions()), err)
	}
	// §17.2: a Length of 2^16+20 (0x80010014) past a 24-byte payload, and
	// a Token Length of 2^32+5 (0xc000000100000005) before a 5-byte token.
	length := longHeader(0xe0, Version1, dcid[:8], nil, append([]byte{0x80, 0x01, 0x00, 0x14}, payload...)...)
	if _, err := ParseHeader(length, 8); err != ErrLengthExceedsDatagram {
		t.Errorf("ParseHeader(Length 2^16+20, 24 bytes left) = %v, want ErrLengthExceedsDatagram", err)
	}
	token := longHeader(0xc0, Version1, dcid[:8], nil, append([]byte{0xc0, 0, 0, 1, 0, 0, 0, 5, 1, 2, 3, 4, 5, 24}, payload...)...)
	if _, err := ParseHeader(token, 8); err != ErrTruncated {
		t.Errorf("ParseHeader(Token Length 2^32+5, 5-byte token) = %v, want ErrTruncated", err)
	}
	// shortDCIDLen whose low byte or low 32 bits are valid.
	for _, sdl := range []uint64{264, 1<<32 + 8} {
		if _, err := ParseHeader(hs(dcid), int(sdl)); int(sdl) != 8 && err != ErrInvalidArgument {
			t.Errorf("ParseHeader(shortDCIDLen=%d) = %v, want ErrInvalidArgument", int(sdl), err)
		}
	}
}

// TestFieldPresence pins the error of a header cut just after each field
// whose presence is checked, where the next check would answer
// differently if the cut were taken for a field further on (RFC 9000
// §17.2, §17.3.1; the order of errors is docs/quic.md's).
func TestFieldPresence(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    []byte
		sdl  int
		want error
	}{
		// A short header's DCID cut anywhere: ErrTruncated.
		{"short, DCID of 8 cut at 6", []byte{0x41, 1, 2, 3, 4, 5, 6}, 8, ErrTruncated},
		{"short, DCID of 8 cut at 7", []byte{0x41, 1, 2, 3, 4, 5, 6, 7}, 8, ErrTruncated},
		{"short, DCID of 20 cut at 19", append([]byte{0x41}, make([]byte, 19)...), 20, ErrTruncated},
		// A version 1 long header of exactly 5 bytes has its Version: the
		// Fixed Bit is checked before the missing DCID Length.
		{"long, Version complete, Fixed Bit 0", []byte{0x80, 0, 0, 0, 1}, 0, ErrFixedBitClear},
		{"long, Version cut", []byte{0x80, 0, 0, 0}, 0, ErrTruncated},
		// A DCID Length byte of 21 is checked before the DCID it announces
		// is found missing.
		{"long, DCID Length 21 alone", []byte{0xc0, 0, 0, 0, 1, 21}, 0, ErrCIDTooLong},
		{"long, SCID Length 21 alone", []byte{0xc0, 0, 0, 0, 1, 0, 21}, 0, ErrCIDTooLong},
	} {
		h, err := ParseHeader(tc.b, tc.sdl)
		if err != tc.want || h.Type() != TypeNone {
			t.Errorf("%s: ParseHeader(%x, %d) = %v, %v; want the zero Header, %v", tc.name, tc.b, tc.sdl, h.Type(), err, tc.want)
		}
	}
}

// TestGreasedPadding pins RFC 9000 §14.1 padding under GreaseQUICBit,
// where zero bytes parse as a 1-RTT packet too short for a sample: a rest
// of zeros is trailing bytes, a rest that parses and holds no zero byte is
// a packet.
func TestGreasedPadding(t *testing.T) {
	first := []byte{0x41}
	for range 24 {
		first = append(first, 0x5a)
	}
	second := append([]byte(nil), first...) // no zero byte anywhere
	type item struct {
		t   PacketType
		n   int
		err error
	}
	for _, tc := range []struct {
		name string
		d    []byte
		want []item
	}{
		{"Handshake then zeros", append(append([]byte{}, longHeader(0xe0, Version1, nil, nil, 0)...), 0, 0, 0),
			[]item{{TypeHandshake, 8, ErrPacketTooShort}, {TypeNone, 3, ErrTrailingBytes}}},
		{"Handshake then a 1-RTT without zeros", append(longHeader(0xe0, Version1, nil, nil, 0), second...),
			[]item{{TypeHandshake, 8, ErrPacketTooShort}, {Type1RTT, len(second), nil}}},
	} {
		var got []item
		for h, err := range PacketsWith(tc.d, 0, GreaseQUICBit) {
			got = append(got, item{h.Type(), len(h.Packet()), err})
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: PacketsWith(%x, 0, GreaseQUICBit) = %v, want %v", tc.name, tc.d, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: PacketsWith(%x, 0, GreaseQUICBit) = %v, want %v", tc.name, tc.d, got, tc.want)
				break
			}
		}
	}
}

// TestTokenBounds pins Token's reading of the Token Length again, at its
// bounds: a Token that ends right before a 1-byte Length field is the
// Token; changed after parsing to one byte longer, it would cover the
// Length field, and Token is nil; one byte shorter, it is that prefix.
func TestTokenBounds(t *testing.T) {
	token := []byte{0xa1, 0xa2, 0xa3, 0xa4, 0xa5}
	rest := append(append([]byte{byte(len(token))}, token...), 24)
	b := longHeader(0xc0, Version1, []byte{1, 2, 3, 4}, []byte{5, 6}, append(rest, make([]byte, 24)...)...)
	h, err := ParseHeader(b, 0)
	if err != nil || string(h.Token()) != string(token) {
		t.Fatalf("ParseHeader: Token %x, %v; want %x, nil", h.Token(), err, token)
	}
	at := 7 + 4 + 2 // the Token Length byte
	for _, tc := range []struct {
		tokenLen byte
		want     []byte
	}{{5, token}, {6, nil}, {7, nil}, {4, token[:4]}, {0, []byte{}}} {
		b[at] = tc.tokenLen
		if got := h.Token(); string(got) != string(tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("Token Length changed to %d after parsing: Token = %x (nil %v), want %x (nil %v)", tc.tokenLen, got, got == nil, tc.want, tc.want == nil)
		}
	}
}
