package websocket

import (
	"bytes"
	"math"
	"testing"
)

// TestRFC6455Vector checks the masked "Hello" frame of RFC 6455 §5.7
// (https://www.rfc-editor.org/rfc/rfc6455#section-5.7):
// 0x81 0x85 0x37 0xfa 0x21 0x3d 0x7f 0x9f 0x4d 0x51 0x58.
func TestRFC6455Vector(t *testing.T) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	plain := []byte("Hello")
	masked := []byte{0x7f, 0x9f, 0x4d, 0x51, 0x58}

	b := bytes.Clone(plain)
	if next := Mask(b, key, 0); next != 1 || !bytes.Equal(b, masked) {
		t.Fatalf("Mask(%q, pos=0) = % x, next %d; want % x, next 1", plain, b, next, masked)
	}
	if Mask(b, key, 0); !bytes.Equal(b, plain) {
		t.Fatalf("Mask twice = %q, want %q", b, plain)
	}

	// Every truncation gives the same octets, and trailing junk does not
	// change the first five.
	for i := range len(plain) + 1 {
		b := bytes.Clone(plain[:i])
		if next := Mask(b, key, 0); next != i&3 || !bytes.Equal(b, masked[:i]) {
			t.Errorf("Mask(%q) = % x, next %d; want % x, next %d", plain[:i], b, next, masked[:i], i&3)
		}
	}
	b = append(bytes.Clone(plain), "\x00\xff junk"...)
	if Mask(b, key, 0); !bytes.Equal(b[:5], masked) {
		t.Errorf("Mask(%q + junk) starts % x, want % x", plain, b[:5], masked)
	}

	// Every split of the payload into two calls gives the same octets.
	for cut := range len(plain) + 1 {
		b := bytes.Clone(plain)
		next := Mask(b[:cut], key, 0)
		next = Mask(b[cut:], key, next)
		if next != 1 || !bytes.Equal(b, masked) {
			t.Errorf("Mask split at %d = % x, next %d; want % x, next 1", cut, b, next, masked)
		}
	}

	// pos is only taken mod 4: -4, 4 and math.MinInt all start at key
	// octet 0.
	for _, pos := range []int{-4, 4, math.MinInt} {
		b := bytes.Clone(plain)
		if Mask(b, key, pos); !bytes.Equal(b, masked) {
			t.Errorf("Mask(pos=%d) = % x, want % x", pos, b, masked)
		}
	}

	dst := make([]byte, 8)
	if next := MaskCopy(dst, plain, key, 0); next != 1 || !bytes.Equal(dst[:5], masked) || string(plain) != "Hello" {
		t.Fatalf("MaskCopy(%q, pos=0) = % x, next %d; want % x, next 1, src untouched", plain, dst[:5], next, masked)
	}
}

func TestMaskCopyPanics(t *testing.T) {
	key := [4]byte{1, 2, 3, 4}
	buf := make([]byte, 16)
	for _, tc := range []struct {
		name     string
		dst, src []byte
		want     string
	}{
		{"short dst", buf[:3], buf[8:12], errShortDst},
		{"dst inside src", buf[1:9], buf[0:8], errOverlap},
		{"dst before src", buf[0:8], buf[1:9], errOverlap},
	} {
		func() {
			defer func() {
				if r := recover(); r != tc.want {
					t.Errorf("%s: MaskCopy panicked with %v, want %q", tc.name, r, tc.want)
				}
			}()
			MaskCopy(tc.dst, tc.src, key, 0)
		}()
	}
	// Exact overlap is Mask; adjacent buffers do not overlap; only
	// dst[:len(src)] counts.
	MaskCopy(buf[0:8], buf[7:8], key, 0)
	MaskCopy(buf[4:8], buf[4:8], key, 0)
	MaskCopy(buf[0:4], buf[4:8], key, 0)
	MaskCopy(buf[4:8], buf[0:4], key, 0)
	MaskCopy(nil, nil, key, 0)
	MaskCopy(buf[:4], buf[:0], key, 0)
}

// helloMasked20 is "Hello" four times masked with RFC 6455 §5.7's key 37
// fa 21 3d from key octet 0, worked out by hand: 20 octets, the period of
// a 5-octet text under a 4-octet key. The first five are the RFC's own
// 7f 9f 4d 51 58; the next fifteen are 'H' 48, 'e' 65, 'l' 6c, 'o' 6f
// XORed with the key from octets 1, 2 and 3 (48^fa = b2, 65^21 = 44, …).
var helloMasked20 = []byte{
	0x7f, 0x9f, 0x4d, 0x51, 0x58,
	0xb2, 0x44, 0x51, 0x5b, 0x95,
	0x69, 0x58, 0x5b, 0x96, 0x4e,
	0x75, 0x52, 0x96, 0x4d, 0x52,
}

// TestPinnedLong pins the reference on long payloads with expected values
// that do not come from its own loop, so that a bug it shared with the
// optimized package (which the conformance suite could not see) fails
// here: zeros mask to the key repeated from octet pos&3 (RFC 6455 §5.3:
// 0 XOR k = k), ones to its complement, across 256 octets and at 2^16+4
// octets; and "Hello" repeated to 65540 octets masks to helloMasked20
// repeated, in one call, in chunks of 4093 octets and through MaskCopy.
func TestPinnedLong(t *testing.T) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	for _, n := range []int{256, 1<<16 + 4} {
		for pos := range 8 {
			rot := []byte{key[pos&3], key[(pos+1)&3], key[(pos+2)&3], key[(pos+3)&3]}
			want := bytes.Repeat(rot, n/4)
			b := make([]byte, n)
			if next := Mask(b, key, pos); next != pos&3 || !bytes.Equal(b, want) {
				t.Errorf("Mask(%d zeros, pos=%d): next %d, octets equal to the key repeated: %v", n, pos, next, bytes.Equal(b, want))
			}
			b = bytes.Repeat([]byte{0xff}, n)
			Mask(b, key, pos+math.MaxInt&^3) // ≡ pos (mod 4); wraps past MaxInt for pos >= 4
			for i := range b {
				if b[i] != ^want[i] {
					t.Fatalf("Mask(%d ones, pos=%d+MaxInt&^3)[%d] = %#x, want %#x", n, pos, i, b[i], ^want[i])
				}
			}
		}
	}
	plain := bytes.Repeat([]byte("Hello"), 65540/5)
	want := bytes.Repeat(helloMasked20, 65540/20)
	b := bytes.Clone(plain)
	if next := Mask(b, key, 0); next != 0 || !bytes.Equal(b, want) {
		t.Errorf("Mask(Hello×13108): next %d, equal %v", next, bytes.Equal(b, want))
	}
	b, next := bytes.Clone(plain), 0
	for at := 0; at < len(b); at += 4093 {
		next = Mask(b[at:min(at+4093, len(b))], key, next)
	}
	if next != 0 || !bytes.Equal(b, want) {
		t.Errorf("Mask(Hello×13108) in 4093-octet chunks: next %d, equal %v", next, bytes.Equal(b, want))
	}
	dst := make([]byte, len(plain)+3)
	if next := MaskCopy(dst, plain, key, -4); next != 0 || !bytes.Equal(dst[:len(plain)], want) || !bytes.Equal(dst[len(plain):], []byte{0, 0, 0}) {
		t.Errorf("MaskCopy(Hello×13108, pos=-4): next %d, equal %v, slack %x", next, bytes.Equal(dst[:len(plain)], want), dst[len(plain):])
	}
}
