package quic

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
)

// rfcPacket is a header test vector: the datagram is hex followed by pad
// zero bytes (a stand-in for the payload, which is not read).
type rfcPacket struct {
	name, source string
	hex          string
	pad          int
	shortDCIDLen int
	want         fields // slices as content; Packet as its length only
	packetLen    int
}

func (p rfcPacket) bytes() []byte {
	b, err := hex.DecodeString(p.hex)
	if err != nil {
		panic(err)
	}
	return append(b, make([]byte, p.pad)...)
}

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

var (
	rfcDCID = unhex("8394c8f03e515708") // RFC 9001 Appendix A
	rfcSCID = unhex("f067a5502a4262b5") // RFC 9001 Appendix A.3
	empty   = []byte{}
)

// rfcPackets are the packets of RFC 9001 Appendix A and RFC 9369
// Appendix A. The same vectors, with hand-built packets of the other
// types, are exported by equiv/internal/quicvectors.
var rfcPackets = []rfcPacket{
	{
		name: "v1-client-initial", source: "RFC 9001 §A.2",
		hex: "c300000001088394c8f03e5157080000449e00000002", pad: 1178,
		want:      fields{Type: TypeInitial, Version: Version1, DCID: rfcDCID, SCID: empty, Token: empty, Length: 1182, PNOffset: 18},
		packetLen: 1200,
	},
	{
		name: "v1-server-initial", source: "RFC 9001 §A.3",
		hex: "c1000000010008f067a5502a4262b50040750001", pad: 115,
		want:      fields{Type: TypeInitial, Version: Version1, DCID: empty, SCID: rfcSCID, Token: empty, Length: 117, PNOffset: 18},
		packetLen: 135,
	},
	{
		name: "v1-server-initial-protected", source: "RFC 9001 §A.3",
		hex: "cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a" +
			"5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3" +
			"dbcba3f6ea46c5b7684df3548e7ddeb9c3bf9c73cc3f3bded74b562bfb19fb84" +
			"022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4" +
			"2158407dd074ee",
		want:      fields{Type: TypeInitial, Version: Version1, DCID: empty, SCID: rfcSCID, Token: empty, Length: 117, PNOffset: 18},
		packetLen: 135,
	},
	{
		name: "v1-retry", source: "RFC 9001 §A.4",
		hex: "ff000000010008f067a5502a4262b5746f6b656e04a265ba2eff4d829058fb3f0f2496ba",
		want: fields{Type: TypeRetry, Version: Version1, DCID: empty, SCID: rfcSCID, Token: []byte("token"),
			IntegrityTag: unhex("04a265ba2eff4d829058fb3f0f2496ba")},
		packetLen: 36,
	},
	{
		name: "v1-chacha20-short", source: "RFC 9001 §A.5 (unprotected header and payload)",
		hex:       "4200bff4655e5cd55c41f69080575d7999c25a5bfb",
		want:      fields{Type: Type1RTT, DCID: empty, PNOffset: 1},
		packetLen: 21,
	},
	{
		name: "v1-chacha20-short-protected", source: "RFC 9001 §A.5",
		hex:       "4cfe4189655e5cd55c41f69080575d7999c25a5bfb",
		want:      fields{Type: Type1RTT, DCID: empty, PNOffset: 1},
		packetLen: 21,
	},
	{
		name: "v2-client-initial", source: "RFC 9369 §A.2",
		hex: "d36b3343cf088394c8f03e5157080000449e00000002", pad: 1178,
		want:      fields{Type: TypeInitial, Version: Version2, DCID: rfcDCID, SCID: empty, Token: empty, Length: 1182, PNOffset: 18},
		packetLen: 1200,
	},
	{
		name: "v2-server-initial", source: "RFC 9369 §A.3",
		hex: "d16b3343cf0008f067a5502a4262b50040750001", pad: 115,
		want:      fields{Type: TypeInitial, Version: Version2, DCID: empty, SCID: rfcSCID, Token: empty, Length: 117, PNOffset: 18},
		packetLen: 135,
	},
	{
		name: "v2-server-initial-protected", source: "RFC 9369 §A.3",
		hex: "dc6b3343cf0008f067a5502a4262b5004075d92faaf16f05d8a4398c47089698" +
			"baeea26b91eb761d9b89237bbf87263017915358230035f7fd3945d88965cf17" +
			"f9af6e16886c61bfc703106fbaf3cb4cfa52382dd16a393e42757507698075b2" +
			"c984c707f0a0812d8cd5a6881eaf21ceda98f4bd23f6fe1a3e2c43edd9ce7ca8" +
			"4bed8521e2e140",
		want:      fields{Type: TypeInitial, Version: Version2, DCID: empty, SCID: rfcSCID, Token: empty, Length: 117, PNOffset: 18},
		packetLen: 135,
	},
	{
		name: "v2-retry", source: "RFC 9369 §A.4",
		hex: "cf6b3343cf0008f067a5502a4262b5746f6b656ec8646ce8bfe33952d955543665dcc7b6",
		want: fields{Type: TypeRetry, Version: Version2, DCID: empty, SCID: rfcSCID, Token: []byte("token"),
			IntegrityTag: unhex("c8646ce8bfe33952d955543665dcc7b6")},
		packetLen: 36,
	},
	{
		name: "v2-chacha20-short", source: "RFC 9369 §A.5 (unprotected header and payload)",
		hex:       "4200bff40ae7b6b932bc27d786f4bc2bb20f2162ba",
		want:      fields{Type: Type1RTT, DCID: empty, PNOffset: 1},
		packetLen: 21,
	},
	{
		name: "v2-chacha20-short-protected", source: "RFC 9369 §A.5",
		hex:       "5558b1c60ae7b6b932bc27d786f4bc2bb20f2162ba",
		want:      fields{Type: Type1RTT, DCID: empty, PNOffset: 1},
		packetLen: 21,
	},
	// Built to RFC 9000 §17.2.1 / RFC 8999 §6: the Fixed Bit (0) is ignored.
	{
		name: "version-negotiation", source: "RFC 8999 §6 (built)",
		hex: "80" + "00000000" + "08" + "1122334455667788" + "08" + "aabbccddeeff0011" + "000000016b3343cf0a1a2a3aff00001d",
		want: fields{Type: TypeVersionNegotiation, DCID: unhex("1122334455667788"), SCID: unhex("aabbccddeeff0011"),
			SupportedVersions: unhex("000000016b3343cf0a1a2a3aff00001d")},
		packetLen: 39,
	},
	// Built to RFC 8999 §5.1: a 25-byte DCID is fine for other versions.
	{
		name: "unsupported-version-long-cid", source: "RFC 8999 §5.1 (built)",
		hex:       "801a2a3a4a19" + strings.Repeat("ab", 25) + "00" + "deadbeef",
		want:      fields{Type: TypeUnsupportedVersion, Version: 0x1a2a3a4a, DCID: bytes.Repeat([]byte{0xab}, 25), SCID: empty},
		packetLen: 36,
	},
}

// fields is a Header's fields, as its methods report them.
type fields struct {
	Type              PacketType
	Version           uint32
	DCID, SCID, Token []byte
	Length            uint64
	PNOffset          int
	SupportedVersions []byte
	IntegrityTag      []byte
	Spin              bool
	Packet            []byte
}

func fieldsOf(h Header) fields {
	return fields{
		Type: h.Type(), Version: h.Version(), DCID: h.DCID(), SCID: h.SCID(), Token: h.Token(),
		Length: h.Length(), PNOffset: h.PNOffset(), SupportedVersions: h.SupportedVersions(),
		IntegrityTag: h.IntegrityTag(), Spin: h.Spin(), Packet: h.Packet(),
	}
}

// offsetIn returns the offset of s in b, or -1 if s is empty or does not
// point into b.
func offsetIn(b, s []byte) int {
	if len(s) == 0 {
		return -1
	}
	for i := range b {
		if &b[i] == &s[0] {
			return i
		}
	}
	return -1
}

// checkSlice checks that got is present exactly when want is (nil-ness),
// has want's content, lies within b and has its capacity clipped.
func checkSlice(t *testing.T, ctx, field string, b, got, want []byte) {
	t.Helper()
	if (got == nil) != (want == nil) {
		t.Errorf("%s: %s = %#v, want %#v (nil-ness)", ctx, field, got, want)
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: %s = %x, want %x", ctx, field, got, want)
	}
	if cap(got) != len(got) {
		t.Errorf("%s: cap(%s) = %d, want %d", ctx, field, cap(got), len(got))
	}
	if len(got) > 0 && offsetIn(b, got) < 0 {
		t.Errorf("%s: %s does not alias the input", ctx, field)
	}
}

func checkHeader(t *testing.T, ctx string, b []byte, h Header, want fields, packetLen int) {
	got := fieldsOf(h)
	t.Helper()
	if got.Type != want.Type || got.Version != want.Version || got.Length != want.Length ||
		got.PNOffset != want.PNOffset || got.Spin != want.Spin {
		t.Errorf("%s: got {Type:%v Version:%#x Length:%d PNOffset:%d Spin:%v}, want {Type:%v Version:%#x Length:%d PNOffset:%d Spin:%v}",
			ctx, got.Type, got.Version, got.Length, got.PNOffset, got.Spin,
			want.Type, want.Version, want.Length, want.PNOffset, want.Spin)
	}
	checkSlice(t, ctx, "DCID", b, got.DCID, want.DCID)
	checkSlice(t, ctx, "SCID", b, got.SCID, want.SCID)
	checkSlice(t, ctx, "Token", b, got.Token, want.Token)
	checkSlice(t, ctx, "SupportedVersions", b, got.SupportedVersions, want.SupportedVersions)
	checkSlice(t, ctx, "IntegrityTag", b, got.IntegrityTag, want.IntegrityTag)
	checkSlice(t, ctx, "Packet", b, got.Packet, b[:packetLen])
	if len(got.Packet) > 0 && offsetIn(b, got.Packet) != 0 {
		t.Errorf("%s: Packet does not start at b[0]", ctx)
	}
}

func TestParseHeaderVectors(t *testing.T) {
	for _, v := range rfcPackets {
		b := v.bytes()
		ctx := v.name + " (" + v.source + ")"
		h, err := ParseHeader(b, v.shortDCIDLen)
		if err != nil {
			t.Errorf("%s: ParseHeader: %v", ctx, err)
			continue
		}
		checkHeader(t, ctx, b, h, v.want, v.packetLen)
	}
}

// TestParseHeaderTrailing appends 16 junk bytes to each vector: they are
// the next packet for types with a Length, and part of the packet for the
// others.
func TestParseHeaderTrailing(t *testing.T) {
	junk := unhex("0123456789abcdef0123456789abcdef")
	for _, v := range rfcPackets {
		b := append(v.bytes(), junk...)
		ctx := v.name + " + 16 junk bytes"
		h, err := ParseHeader(b, v.shortDCIDLen)
		if err != nil {
			t.Errorf("%s: ParseHeader: %v", ctx, err)
			continue
		}
		want, packetLen := v.want, v.packetLen+len(junk)
		switch want.Type {
		case TypeInitial, Type0RTT, TypeHandshake:
			packetLen = v.packetLen
		case TypeRetry:
			want.Token = append(bytes.Clone(want.Token), want.IntegrityTag...)
			want.IntegrityTag = junk
		case TypeVersionNegotiation:
			want.SupportedVersions = append(bytes.Clone(want.SupportedVersions), junk...)
		}
		checkHeader(t, ctx, b, h, want, packetLen)
	}
}

// TestParseHeaderTruncated parses every proper prefix of each vector and
// checks the outcome the rules in docs/quic.md give for that length.
func TestParseHeaderTruncated(t *testing.T) {
	for _, v := range rfcPackets {
		full := v.bytes()
		scidEnd := 0
		if v.want.Type.IsLongHeader() {
			scidEnd = 7 + len(v.want.DCID) + len(v.want.SCID)
		}
		for i := range v.packetLen {
			b := full[:i:i]
			ctx := v.name + " truncated to " + itoa(i)
			h, err := ParseHeader(b, v.shortDCIDLen)
			var want error
			switch {
			case i == 0:
				want = ErrTruncated
			case v.want.Type == TypeInitial || v.want.Type == TypeHandshake || v.want.Type == Type0RTT:
				want = ErrLengthExceedsDatagram
				if i < v.want.PNOffset {
					want = ErrTruncated
				}
			case v.want.Type == Type1RTT:
				switch {
				case i < v.want.PNOffset:
					want = ErrTruncated
				case i < v.want.PNOffset+4+SampleLen:
					want = ErrPacketTooShort
				}
			case v.want.Type == TypeRetry:
				switch {
				case i < scidEnd+RetryIntegrityTagLen:
					want = ErrTruncated
				case i == scidEnd+RetryIntegrityTagLen:
					want = ErrEmptyRetryToken
				}
			case v.want.Type == TypeVersionNegotiation:
				switch {
				case i < scidEnd:
					want = ErrTruncated
				case (i-scidEnd)%4 != 0 || i == scidEnd:
					want = ErrBadVersionList
				}
			case v.want.Type == TypeUnsupportedVersion:
				if i < scidEnd {
					want = ErrTruncated
				}
			}
			if err != want {
				t.Errorf("%s: ParseHeader error = %v, want %v", ctx, err, want)
				continue
			}
			if err != nil && err != ErrPacketTooShort && !isZero(h) {
				t.Errorf("%s: ParseHeader returned %+v with %v, want the zero Header", ctx, fieldsOf(h), err)
			}
			if (err == nil || err == ErrPacketTooShort) && len(h.Packet()) != i {
				t.Errorf("%s: len(Packet) = %d, want %d", ctx, len(h.Packet()), i)
			}
		}
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func isZero(h Header) bool {
	f := fieldsOf(h)
	return f.Type == 0 && f.Version == 0 && f.DCID == nil && f.SCID == nil && f.Token == nil &&
		f.Length == 0 && f.PNOffset == 0 && f.SupportedVersions == nil && f.IntegrityTag == nil &&
		!f.Spin && f.Packet == nil && h.info == 0
}

// longHeader builds a long header packet: first byte, version, the two
// CIDs, then rest.
func longHeader(first byte, version uint32, dcid, scid []byte, rest ...byte) []byte {
	b := []byte{first, byte(version >> 24), byte(version >> 16), byte(version >> 8), byte(version)}
	b = append(b, byte(len(dcid)))
	b = append(b, dcid...)
	b = append(b, byte(len(scid)))
	b = append(b, scid...)
	return append(b, rest...)
}

// handshakeRest is a Handshake Length of 20 and 20 payload bytes.
var handshakeRest = append([]byte{20}, make([]byte, 20)...)

// TestCIDLengths checks every DCID and SCID length in the Length byte, on
// both CIDs separately: 0..20 for versions 1 and 2, 0..255 for others.
// This is the check golang/go#78703 got wrong (DCID tested for the SCID).
func TestCIDLengths(t *testing.T) {
	for _, version := range []uint32{Version1, Version2, 0x1a2a3a4a, VersionNegotiation} {
		first := byte(0xe0) // Handshake in v1
		if version == Version2 {
			first = 0xf0 // Handshake in v2
		}
		rest := handshakeRest
		if version == VersionNegotiation {
			rest = []byte{0, 0, 0, 1}
		}
		for n := range 256 {
			cid := bytes.Repeat([]byte{0xcc}, n)
			for _, which := range []string{"DCID", "SCID"} {
				var b []byte
				if which == "DCID" {
					b = longHeader(first, version, cid, nil, rest...)
				} else {
					b = longHeader(first, version, nil, cid, rest...)
				}
				_, err := ParseHeader(b, 0)
				var want error
				if n > MaxCIDLen && (version == Version1 || version == Version2) {
					want = ErrCIDTooLong
				}
				if err != want {
					t.Errorf("version %#x, %s length %d: error = %v, want %v", version, which, n, err, want)
				}
			}
		}
	}
}

// TestFirstByte tries every first byte on one long header layout per
// version, and on a short header.
func TestFirstByte(t *testing.T) {
	v1Types := [4]PacketType{TypeInitial, Type0RTT, TypeHandshake, TypeRetry}
	v2Types := [4]PacketType{TypeRetry, TypeInitial, Type0RTT, TypeHandshake}
	dcid := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	for x := range 128 {
		first := byte(x) | 0x80
		for _, version := range []uint32{Version1, Version2} {
			// Token Length 0 (ignored for 0-RTT and Handshake, which read
			// it as a Length of 0: too short), then Length 20 and 20 bytes;
			// for Retry, a token and a tag.
			b := longHeader(first, version, dcid, nil, append([]byte{0, 20}, make([]byte, 20)...)...)
			h, err := ParseHeader(b, 8)
			if first&0x40 == 0 {
				if err != ErrFixedBitClear {
					t.Errorf("version %#x, first byte %#02x: error = %v, want ErrFixedBitClear", version, first, err)
				}
				continue
			}
			want := v1Types[first>>4&3]
			if version == Version2 {
				want = v2Types[first>>4&3]
			}
			if h.Type() != want {
				t.Errorf("version %#x, first byte %#02x: Type = %v (error %v), want %v", version, first, h.Type(), err, want)
			}
		}
		// Version Negotiation ignores the low 7 bits.
		b := longHeader(first, VersionNegotiation, dcid, nil, 0, 0, 0, 1)
		if h, err := ParseHeader(b, 8); err != nil || h.Type() != TypeVersionNegotiation {
			t.Errorf("VN, first byte %#02x: %v, %v", first, h.Type(), err)
		}
		// Short header: Fixed Bit checked, Spin Bit reported.
		b = append([]byte{first &^ 0x80}, make([]byte, 8+20)...)
		h, err := ParseHeader(b, 8)
		switch {
		case first&0x40 == 0:
			if err != ErrFixedBitClear {
				t.Errorf("short, first byte %#02x: error = %v, want ErrFixedBitClear", first&^0x80, err)
			}
		case err != nil || h.Type() != Type1RTT || h.Spin() != (first&0x20 != 0):
			t.Errorf("short, first byte %#02x: %+v, %v", first&^0x80, fieldsOf(h), err)
		}
	}
}

func TestShortDCIDLenArgument(t *testing.T) {
	long := longHeader(0xe0, Version1, nil, nil, handshakeRest...)
	short := make([]byte, 64)
	short[0] = 0x40
	for _, n := range []int{-1, 21, 255, -1 << 31} {
		for _, b := range [][]byte{nil, long, short} {
			if _, err := ParseHeader(b, n); err != ErrInvalidArgument {
				t.Errorf("ParseHeader(%x, %d) error = %v, want ErrInvalidArgument", b, n, err)
			}
		}
	}
	for n := range MaxCIDLen + 1 {
		h, err := ParseHeader(short, n)
		if err != nil || len(h.DCID()) != n || h.PNOffset() != 1+n {
			t.Errorf("ParseHeader(short, %d) = %+v, %v", n, fieldsOf(h), err)
		}
	}
}

func TestPackets(t *testing.T) {
	dcid := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	other := []byte{8, 7, 6, 5, 4, 3, 2, 1}
	initial := longHeader(0xc0, Version1, dcid, nil, append([]byte{0, 20}, make([]byte, 20)...)...)
	tiny := longHeader(0xc0, Version1, dcid, nil, 0, 2, 0xaa, 0xbb)
	handshake := longHeader(0xe0, Version1, dcid, nil, handshakeRest...)
	foreign := longHeader(0xe0, Version1, other, nil, handshakeRest...)
	oneRTT := append([]byte{0x40}, append(dcid, make([]byte, 20)...)...)
	bad := longHeader(0xe0, Version1, dcid, nil, append([]byte{21}, make([]byte, 20)...)...) // Length past the end

	type step struct {
		typ PacketType
		n   int
		err error
	}
	cat := func(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
	for _, tc := range []struct {
		name string
		in   []byte
		want []step
	}{
		{"empty", nil, []step{{TypeNone, 0, ErrTruncated}}},
		{"one", initial, []step{{TypeInitial, len(initial), nil}}},
		{"three", cat(initial, handshake, oneRTT), []step{{TypeInitial, len(initial), nil}, {TypeHandshake, len(handshake), nil}, {Type1RTT, len(oneRTT), nil}}},
		{"too-short-skipped", cat(tiny, handshake), []step{{TypeInitial, len(tiny), ErrPacketTooShort}, {TypeHandshake, len(handshake), nil}}},
		{"mismatch-skipped", cat(initial, foreign, handshake), []step{{TypeInitial, len(initial), nil}, {TypeHandshake, len(foreign), ErrDCIDMismatch}, {TypeHandshake, len(handshake), nil}}},
		{"mismatch-wins-over-too-short", cat(handshake, longHeader(0xc0, Version1, other, nil, 0, 2, 0, 0)), []step{{TypeHandshake, len(handshake), nil}, {TypeInitial, 19, ErrDCIDMismatch}}},
		{"stop-after-bad", cat(initial, bad), []step{{TypeInitial, len(initial), nil}, {TypeNone, len(bad), ErrTrailingBytes}}},
		{"stop-after-zeros", cat(initial, []byte{0, 0, 0}), []step{{TypeInitial, len(initial), nil}, {TypeNone, 3, ErrTrailingBytes}}},
		{"trailing-after-too-short", cat(tiny, []byte{0}), []step{{TypeInitial, len(tiny), ErrPacketTooShort}, {TypeNone, 1, ErrTrailingBytes}}},
		{"first-bad-is-not-trailing", bad, []step{{TypeNone, 0, ErrLengthExceedsDatagram}}},
		{"zeros-alone-are-not-trailing", []byte{0, 0, 0}, []step{{TypeNone, 0, ErrFixedBitClear}}},
	} {
		var got []step
		for h, err := range Packets(tc.in, 8) {
			got = append(got, step{h.Type(), len(h.Packet()), err})
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: Packets yielded %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: packet %d = %v, want %v", tc.name, i, got[i], tc.want[i])
			}
		}
	}
	// Stopping early stops.
	n := 0
	for range Packets(cat(initial, handshake, oneRTT), 8) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("break after 1 packet: %d iterations", n)
	}
	for _, err := range Packets(initial, 99) {
		if err != ErrInvalidArgument {
			t.Errorf("Packets(_, 99) error = %v, want ErrInvalidArgument", err)
		}
	}
}

func TestParseHeaderAllocs(t *testing.T) {
	for _, v := range rfcPackets {
		b := v.bytes()
		if n := testing.AllocsPerRun(100, func() { ParseHeader(b, v.shortDCIDLen) }); n != 0 {
			t.Errorf("%s: ParseHeader allocates %v times", v.name, n)
		}
	}
}

// TestRules has one input per rule of ParseHeader, each with its source;
// a few have two problems and check which error wins (docs/quic.md).
func TestRules(t *testing.T) {
	dcid := "0102030405060708"
	for _, r := range []struct {
		name, source string
		hex          string
		n            int
		want         error
	}{
		{"empty", "docs/quic.md", "", 0, ErrTruncated},
		{"bad argument before empty input", "docs/quic.md", "", 21, ErrInvalidArgument},
		{"short: fixed bit", "RFC 9000 §17.3.1", "00" + dcid + strings.Repeat("00", 20), 8, ErrFixedBitClear},
		{"short: DCID truncated", "RFC 9000 §17.3.1", "40010203", 8, ErrTruncated},
		{"short: no room for the sample", "RFC 9001 §5.4.2", "40" + dcid + strings.Repeat("00", 19), 8, ErrPacketTooShort},
		{"long: version truncated", "RFC 8999 §5.1", "c0000000", 0, ErrTruncated},
		{"v1: fixed bit", "RFC 9000 §17.2", "80000000010000" + "14" + strings.Repeat("00", 20), 0, ErrFixedBitClear},
		{"v1: fixed bit before DCID length", "docs/quic.md", "8000000001" + "15", 0, ErrFixedBitClear},
		{"v1: DCID length before DCID", "docs/quic.md", "c000000001" + "15" + "abab", 0, ErrCIDTooLong},
		{"v1: SCID 21 (golang/go#78703)", "RFC 9000 §17.2", "c000000001" + "00" + "15" + strings.Repeat("ab", 21) + "00" + "14" + strings.Repeat("00", 20), 0, ErrCIDTooLong},
		{"v1: SCID length missing", "RFC 9000 §17.2", "c000000001" + "01" + "aa", 0, ErrTruncated},
		{"v1: token truncated", "RFC 9000 §17.2.2", "c000000001" + "0000" + "0a" + "0102030405", 0, ErrTruncated},
		{"v1: Length varint truncated", "RFC 9000 §16", "c000000001" + "0000" + "00" + "80ff", 0, ErrTruncated},
		{"v1: Length past the datagram", "RFC 9000 §12.2", "e000000001" + "0000" + "15" + strings.Repeat("00", 20), 0, ErrLengthExceedsDatagram},
		{"v1: Length 19", "RFC 9001 §5.4.2", "e000000001" + "0000" + "13" + strings.Repeat("00", 19), 0, ErrPacketTooShort},
		{"v1: exceeds before too short", "docs/quic.md", "e000000001" + "0000" + "05" + "0000", 0, ErrLengthExceedsDatagram},
		{"v1: Retry without a tag", "RFC 9000 §17.2.5", "f000000001" + "0000" + strings.Repeat("ee", 15), 0, ErrTruncated},
		{"v1: Retry empty token", "RFC 9000 §17.2.5.2", "f000000001" + "0000" + strings.Repeat("ee", 16), 0, ErrEmptyRetryToken},
		{"VN: empty list", "RFC 8999 §6", "8000000000" + "0000", 0, ErrBadVersionList},
		{"VN: ragged list", "RFC 8999 §6", "8000000000" + "0000" + "000000", 0, ErrBadVersionList},
		{"VN: DCID 255", "RFC 8999 §5.1", "8000000000" + "ff" + strings.Repeat("ab", 255) + "00" + "00000001", 0, nil},
		{"unsupported: CID length before CID", "RFC 8999 §5.1", "801a2a3a4a" + "ff" + "abab", 0, ErrTruncated},
	} {
		_, err := ParseHeader(unhex(r.hex), r.n)
		if err != r.want {
			t.Errorf("%s (%s): ParseHeader(%s, %d) error = %v, want %v", r.name, r.source, r.hex, r.n, err, r.want)
		}
	}
}

func TestPacketTypeString(t *testing.T) {
	want := []string{"None", "Initial", "0-RTT", "Handshake", "Retry", "VersionNegotiation", "UnsupportedVersion", "1-RTT", "PacketType(8)"}
	for i, w := range want {
		if got := PacketType(i).String(); got != w {
			t.Errorf("PacketType(%d).String() = %q, want %q", i, got, w)
		}
	}
}
