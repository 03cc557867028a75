package websocket_test

import (
	"fmt"

	"github.com/equivcheck/equivcheck/reference/websocket"
)

// RFC 6455 §5.7: "Hello" masked with the key 37 fa 21 3d.
func ExampleMask() {
	b := []byte("Hello")
	next := websocket.Mask(b, [4]byte{0x37, 0xfa, 0x21, 0x3d}, 0)
	fmt.Printf("% x, next position %d\n", b, next)
	// Output: 7f 9f 4d 51 58, next position 1
}
