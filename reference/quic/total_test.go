package quic_test

import (
	"fmt"
	"testing"

	"github.com/equivcheck/equivcheck/reference/quic"
)

// TestHeaderMethodsTotal: after a header is parsed, whatever happens to the
// bytes of its packet (every byte of the header set to every value), no
// method of the Header panics or returns a slice outside the packet.
// optimized/quic's Header is this type, so this holds for both trees.
func TestHeaderMethodsTotal(t *testing.T) {
	initial := quic.AppendVarint(nil, 5) // Token Length
	initial = append(append([]byte{0xc1, 0, 0, 0, 1, 8, 1, 2, 3, 4, 5, 6, 7, 8, 4, 9, 9, 9, 9}, initial...), "token"...)
	initial = quic.AppendVarint(initial, 30) // Length
	initial = append(initial, make([]byte, 30)...)
	retry := append([]byte{0xf0, 0, 0, 0, 1, 0, 0}, make([]byte, 5+quic.RetryIntegrityTagLen)...)
	short := append([]byte{0x41}, make([]byte, 40)...)
	vn := []byte{0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}
	for _, tc := range []struct {
		name string
		b    []byte
		sdl  int
	}{{"initial", initial, 0}, {"retry", retry, 0}, {"short", short, 8}, {"vn", vn, 0}} {
		b := append([]byte(nil), tc.b...)
		h, err := quic.ParseHeader(b, tc.sdl)
		if err != nil && err != quic.ErrPacketTooShort {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i := range min(len(b), 40) {
			orig := b[i]
			for v := range 256 {
				b[i] = byte(v)
				if err := allMethods(h, b); err != nil {
					t.Fatalf("%s with byte %d set to %#02x: %v", tc.name, i, v, err)
				}
			}
			b[i] = orig
		}
	}
}

// allMethods calls every method of h and checks that each slice lies in b.
func allMethods(h quic.Header, b []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	_, _, _, _, _ = h.Type(), h.Version(), h.Length(), h.PNOffset(), h.Spin()
	for name, s := range map[string][]byte{"DCID": h.DCID(), "SCID": h.SCID(), "Token": h.Token(),
		"SupportedVersions": h.SupportedVersions(), "IntegrityTag": h.IntegrityTag(), "Packet": h.Packet()} {
		if len(s) > 0 && !within(s, b) {
			return fmt.Errorf("%s is not within the packet", name)
		}
	}
	return nil
}

func within(s, b []byte) bool {
	for i := range b {
		if &b[i] == &s[0] {
			return i+len(s) <= len(b)
		}
	}
	return false
}
