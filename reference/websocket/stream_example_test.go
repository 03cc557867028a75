package websocket_test

import (
	"bytes"
	"fmt"
	"io"
	"testing/iotest"

	"github.com/equivcheck/equivcheck/reference/websocket"
)

// RFC 6455 §5.7's masked "Hello", unmasked as it is read, one octet per
// Read: the key position carries from each Read to the next.
func ExampleMaskReader() {
	masked := []byte{0x7f, 0x9f, 0x4d, 0x51, 0x58}
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	r := websocket.NewMaskReader(iotest.OneByteReader(bytes.NewReader(masked)), key)
	payload, err := io.ReadAll(r)
	fmt.Printf("%s %v\n", payload, err)
	// Output: Hello <nil>
}

// "Hello" masked as it is written, in two Writes, then again for a second
// frame after Reset; the caller's buffer is left as it was.
func ExampleMaskWriter() {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	payload := []byte("Hello")
	var conn bytes.Buffer
	w := websocket.NewMaskWriter(&conn, key)
	for range 2 {
		conn.Reset()
		w.Reset(&conn, key)
		w.Write(payload[:3])
		w.Write(payload[3:])
		fmt.Printf("% x\n", conn.Bytes())
	}
	fmt.Printf("%s\n", payload)
	// Output:
	// 7f 9f 4d 51 58
	// 7f 9f 4d 51 58
	// Hello
}
