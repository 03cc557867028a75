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
