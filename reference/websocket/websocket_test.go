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
