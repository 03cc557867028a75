package quictest

import (
	"testing"

	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// TestStructuredShapes checks that FuzzQUICStructured's shape seeds decode
// to the size classes the exhaustive method enumerates, so that fuzzing
// starts from them.
func TestStructuredShapes(t *testing.T) {
	seeds := structuredSeeds()
	shapes := seeds[len(seeds)-7:]
	count := func(d []byte, sdl int) int {
		n := 0
		for range quic.Packets(d, sdl) {
			n++
		}
		return n
	}
	for i, want := range []struct {
		name  string
		check func(d []byte, sdl int) bool
	}{
		{"256 packets", func(d []byte, sdl int) bool { return count(d, sdl) == 256 }},
		{"Length 2^16", func(d []byte, sdl int) bool {
			_, err := quic.ParseHeader(d, sdl)
			return err == quic.ErrLengthExceedsDatagram && len(d) < 100
		}},
		{"Length 2^32+20", func(d []byte, sdl int) bool {
			v, _, _ := quic.ParseVarint(d[len(d)-9:])
			return v == 1<<32+20
		}},
		{"256 versions", func(d []byte, sdl int) bool {
			h, err := quic.ParseHeader(d, sdl)
			return err == nil && len(h.SupportedVersions()) == 4*256
		}},
		{"65536 versions", func(d []byte, sdl int) bool {
			h, err := quic.ParseHeader(d, sdl)
			return err == nil && len(h.SupportedVersions()) == 4*65536
		}},
		{"2^16-byte token", func(d []byte, sdl int) bool {
			h, err := quic.ParseHeader(d, sdl)
			return err == nil && len(h.Token()) == 1<<16
		}},
		{"Token Length 2^16+3", func(d []byte, sdl int) bool {
			_, err := quic.ParseHeader(d, sdl)
			return err == quic.ErrTruncated && len(d) < 100
		}},
	} {
		if d, sdl := decodeStructured(shapes[i]); !want.check(d, sdl) {
			t.Errorf("shape seed %d (%s): decodes to %d bytes that are not that", i, want.name, len(d))
		}
	}
}
