package checksum

import "testing"

// The oracle's own vectors; the conformance suite in equiv checks them too.
func TestRFCVectors(t *testing.T) {
	// RFC 1071 §3: 00 01 f2 03 f4 f5 f6 f7 sums to ddf2.
	rfc1071 := []byte{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}
	if got := Sum(rfc1071, 0); got != 0xddf2 {
		t.Errorf("Sum(RFC 1071 §3) = %#04x, want 0xddf2", got)
	}
	if got := Checksum(rfc1071); got != 0x220d {
		t.Errorf("Checksum(RFC 1071 §3) = %#04x, want 0x220d", got)
	}
	// RFC 1071 §3's odd-boundary rule: every split of the example.
	for i := 0; i <= len(rfc1071); i++ {
		d := New()
		d.Write(rfc1071[:i])
		d.Write(rfc1071[i:])
		if got := d.Sum16(); got != 0xddf2 {
			t.Errorf("Digest split at %d: Sum16 = %#04x, want 0xddf2", i, got)
		}
		if got := d.Sum(nil); got[0] != 0x22 || got[1] != 0x0d {
			t.Errorf("Digest split at %d: Sum = %x, want 220d", i, got)
		}
	}
	// RFC 1624 §4: HC 0xDD2F, m 0x5555 → 0x3285 gives 0x0000.
	if got := Update(0xdd2f, 0x5555, 0x3285); got != 0x0000 {
		t.Errorf("Update(RFC 1624 §4) = %#04x, want 0x0000", got)
	}
	if got := Checksum([]byte{0xcd, 0x7a, 0x32, 0x85}); got != 0x0000 {
		t.Errorf("Checksum after the RFC 1624 §4 change = %#04x, want 0x0000", got)
	}
}

// TestNegativeZero: only all-zero input sums to 0x0000.
func TestNegativeZero(t *testing.T) {
	if got := Sum(nil, 0); got != 0 {
		t.Errorf("Sum(nil, 0) = %#04x", got)
	}
	if got := Sum([]byte{0xff, 0xff}, 0); got != 0xffff {
		t.Errorf("Sum(ffff, 0) = %#04x, want 0xffff", got)
	}
	if got := Sum([]byte{0x00, 0x01}, 0xfffe); got != 0xffff {
		t.Errorf("Sum(0001, 0xfffe) = %#04x, want 0xffff", got)
	}
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = 0xff
	}
	if got := Sum(big, 0xffff); got != 0xffff {
		t.Errorf("Sum(1 MiB of ff, 0xffff) = %#04x, want 0xffff", got)
	}
}

// ipv4Header is the classic 20-byte IPv4 header (192.168.0.1 →
// 192.168.0.199, UDP, TTL 64, total length 115) whose checksum field
// holds 0xb861: 4500 + 0073 + 0000 + 4000 + 4011 + c0a8 + 0001 + c0a8 +
// 00c7 = 0x2479c, folded 0x479e, complemented 0xb861.
var ipv4Header = []byte{
	0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
	0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
}

// TestPinned pins Sum, Checksum, Update and the Digest to values derived
// by hand from the RFCs, so that a bug the reference shared with the
// optimized code would fail here even though the two agree.
func TestPinned(t *testing.T) {
	zeroed := append([]byte(nil), ipv4Header...)
	zeroed[10], zeroed[11] = 0, 0
	ttl63 := append([]byte(nil), zeroed...)
	ttl63[8] = 0x3f
	ff := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = 0xff
		}
		return b
	}
	for _, tc := range []struct {
		name    string
		b       []byte
		initial uint16
		sum     uint16
	}{
		{"IPv4 header, field zero (RFC 791 §3.1)", zeroed, 0, 0x479e},
		{"IPv4 header with its checksum (RFC 1071 §1 (3))", ipv4Header, 0, 0xffff},
		// TTL 63: 0x479e - 0x0100.
		{"IPv4 header, TTL 63", ttl63, 0, 0x469e},
		// RFC 1071 §2(B): the byte-swapped input sums to the swapped sum.
		{"RFC 1071 §3 swapped", []byte{0x01, 0x00, 0x03, 0xf2, 0xf5, 0xf4, 0xf7, 0xf6}, 0, 0xf2dd},
		// An odd last byte is the high byte of a word (RFC 1071 §4.1).
		{"odd 0x01", []byte{0x01}, 0, 0x0100},
		{"odd 0x80, not sign-extended", []byte{0x80}, 0, 0x8000},
		// ffff + ff00 + 0001 = 0x1ff00 → 0xff01.
		{"odd with carry", []byte{0xff, 0xff, 0xff}, 0x0001, 0xff01},
		// Only all-zero data onto 0 is +0; onto 0xFFFF it stays -0.
		{"zeros onto 0", make([]byte, 64), 0, 0x0000},
		{"zeros onto 0xffff", make([]byte, 64), 0xffff, 0xffff},
		{"ffff onto 0xffff", []byte{0xff, 0xff}, 0xffff, 0xffff},
		// 65537 words of 0xFFFF (past a 32-bit accumulator's 65537) onto 1:
		// ≡ 1 (mod 0xFFFF).
		{"2^17+2 bytes of 0xff onto 1", ff(1<<17 + 2), 0x0001, 0x0001},
		{"2^17+2 bytes of 0xff onto 0", ff(1<<17 + 2), 0, 0xffff},
		// One more odd byte: ≡ 1 + 0xff00.
		{"2^17+3 bytes of 0xff onto 1", ff(1<<17 + 3), 0x0001, 0xff01},
	} {
		if got := Sum(tc.b, tc.initial); got != tc.sum {
			t.Errorf("Sum(%s, %#04x) = %#04x, want %#04x", tc.name, tc.initial, got, tc.sum)
		}
	}
	if got := Checksum(zeroed); got != 0xb861 {
		t.Errorf("Checksum(IPv4 header) = %#04x, want 0xb861", got)
	}
	// RFC 1624 Eqn. 3 for the TTL decrement 0x4011 → 0x3f11: 0xb961.
	if got := Update(0xb861, 0x4011, 0x3f11); got != 0xb961 || got != Checksum(ttl63) {
		t.Errorf("Update(0xb861, 0x4011, 0x3f11) = %#04x, want 0xb961 = Checksum after the change", got)
	}
	// Eqn. 3 by hand: ~(0 + 0 + ffff) = 0 for (0xffff, 0xffff, 0x0000);
	// ~(fffe + fffe + 0) = ~fffd = 2; ~(ffff + ffff + 1) = ~0001 = fffe.
	// Where old == new the field is returned as it is (RFC 1624 errata
	// 4782): Eqn. 3 gives the same, ~(~HC + ffff) = HC, for every field
	// but 0xFFFF, which it would turn into ~(0 + ffff) = 0.
	for _, u := range [][4]uint16{
		{0, 0, 0, 0}, {0xffff, 0xffff, 0x0000, 0xffff}, {0x0001, 0x0001, 0x0000, 0x0002}, {0x0000, 0x0000, 0x0001, 0xfffe},
		{0xffff, 0xffff, 0xffff, 0xffff}, {0xffff, 0x0000, 0x0000, 0xffff}, {0x1234, 0x5555, 0x5555, 0x1234},
	} {
		if got := Update(u[0], u[1], u[2]); got != u[3] {
			t.Errorf("Update(%#04x, %#04x, %#04x) = %#04x, want %#04x", u[0], u[1], u[2], got, u[3])
		}
	}
}

// TestDigestManyWrites writes RFC 1071 §3's example a byte at a time,
// with empty writes between, and the IPv4 header in 20 writes after 9
// other odd ones: the Digest keeps each odd byte's place however many
// writes there are (RFC 1071 §3).
func TestDigestManyWrites(t *testing.T) {
	d := New()
	for _, c := range []byte{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7} {
		d.Write(nil)
		d.Write([]byte{c})
		d.Write([]byte{})
	}
	if got := d.Sum16(); got != 0xddf2 {
		t.Errorf("RFC 1071 §3 a byte at a time: Sum16 = %#04x, want 0xddf2", got)
	}
	d.Reset()
	for range 9 {
		d.Write([]byte{0x00}) // nine zero bytes: odd, and worth nothing
	}
	d.Write([]byte{0x00}) // back to even
	for _, c := range ipv4Header {
		d.Write([]byte{c})
	}
	if got := d.Sum16(); got != 0xffff {
		t.Errorf("IPv4 header after 10 zero bytes, a byte a write: Sum16 = %#04x, want 0xffff", got)
	}
}
