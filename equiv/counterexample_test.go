package equiv_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
)

// TestHexAt: short outputs in full, long ones as a 64-byte window from
// 32 bytes before the offset, with the elided lengths around it.
func TestHexAt(t *testing.T) {
	short := []byte{0xab, 0x01}
	long := bytes.Repeat([]byte{0}, 1000)
	long[500] = 0xff
	for _, c := range []struct {
		b    []byte
		at   int
		want string
	}{
		{short, 1, "ab01"},
		{long[:256], 100, fmt.Sprintf("%x", long[:256])},
		{long, 500, fmt.Sprintf("…(468 bytes)…%x…(468 bytes)…", long[468:532])},
		{long, 10, fmt.Sprintf("%x…(936 bytes)…", long[:64])},
		{long, 990, fmt.Sprintf("…(958 bytes)…%x", long[958:])},
		{long, -1, fmt.Sprintf("%x…(936 bytes)…", long[:64])},
		{long, 1000, fmt.Sprintf("%x…(936 bytes)…", long[:64])},
	} {
		if got := equiv.HexAt(c.b, c.at); got != c.want {
			t.Errorf("HexAt(%d bytes, %d) = %q, want %q", len(c.b), c.at, got, c.want)
		}
	}
}
