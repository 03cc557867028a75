package websocket_test

import (
	"fmt"

	"github.com/equivcheck/equivcheck/optimized/websocket"
)

// Unmasking a message that arrived in fragments: each call starts at the
// key position the previous one returned.
func ExampleMask_fragmented() {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	// RFC 6455 §5.7's masked "Hello", split across three reads.
	fragments := [][]byte{{0x7f}, {0x9f, 0x4d, 0x51}, {0x58}}
	pos := 0
	var msg []byte
	for _, f := range fragments {
		pos = websocket.Mask(f, key, pos)
		msg = append(msg, f...)
	}
	fmt.Printf("%s (next position %d)\n", msg, pos)
	// Output: Hello (next position 1)
}

// MaskCopy masks into another buffer, leaving the source as it was.
func ExampleMaskCopy() {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	src := []byte("Hello")
	dst := make([]byte, len(src))
	websocket.MaskCopy(dst, src, key, 0)
	fmt.Printf("% x / %s\n", dst, src)
	// Output: 7f 9f 4d 51 58 / Hello
}
