package websocket_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing/iotest"

	"github.com/equivcheck/equivcheck/optimized/websocket"
)

// rfcFrame is RFC 6455 §5.7's "single-frame masked text message" holding
// "Hello": FIN and opcode 1, MASK and payload length 5, the masking key,
// the masked payload.
var rfcFrame = []byte{0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58}

// A server reads a client's frame header, then unmasks the payload as it
// arrives; here the connection hands out one octet per Read, and the key
// position carries from each Read to the next.
func ExampleMaskReader() {
	conn := iotest.OneByteReader(bytes.NewReader(rfcFrame))
	var header [2]byte
	var key [4]byte
	io.ReadFull(conn, header[:])
	io.ReadFull(conn, key[:])
	length := int64(header[1] & 0x7f) // 5: no extended length

	payload, err := io.ReadAll(websocket.NewMaskReader(io.LimitReader(conn, length), key))
	fmt.Printf("%s %v\n", payload, err)
	// Output: Hello <nil>
}

// A client masks each frame's payload as it writes it, reusing one
// MaskWriter through Reset: RFC 6455 §5.7's text frame, then its masked
// Ping with the same key and payload. The caller's buffer is left as it
// was.
func ExampleMaskWriter() {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	payload := []byte("Hello")
	var conn bytes.Buffer
	w := websocket.NewMaskWriter(&conn, key)
	for _, opcode := range []byte{0x1, 0x9} { // text, Ping
		conn.Reset()
		conn.Write([]byte{0x80 | opcode, 0x80 | byte(len(payload))})
		conn.Write(key[:])
		w.Reset(&conn, key)
		w.Write(payload[:2]) // in two Writes, to show the position carried
		w.Write(payload[2:])
		fmt.Printf("% x\n", conn.Bytes())
	}
	fmt.Printf("%s\n", payload)
	// Output:
	// 81 85 37 fa 21 3d 7f 9f 4d 51 58
	// 89 85 37 fa 21 3d 7f 9f 4d 51 58
	// Hello
}

// A failed Write reports how much of its buffer the connection took, and
// the position moves by just that much: writing the rest again continues
// the masking where the connection stopped.
func ExampleMaskWriter_Write_retry() {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	var conn bytes.Buffer
	w := websocket.NewMaskWriter(&full{w: &conn, room: 3}, key)
	payload := []byte("Hello")
	n, err := w.Write(payload)
	fmt.Println(n, err)
	n, err = w.Write(payload[n:])
	fmt.Println(n, err)
	fmt.Printf("% x\n", conn.Bytes())
	// Output:
	// 3 connection full
	// 2 <nil>
	// 7f 9f 4d 51 58
}

// full takes room octets, fails once, then takes everything.
type full struct {
	w    io.Writer
	room int
}

func (f *full) Write(b []byte) (int, error) {
	if f.room < 0 || len(b) <= f.room {
		return f.w.Write(b)
	}
	n, _ := f.w.Write(b[:f.room])
	f.room = -1
	return n, errFull
}

var errFull = errors.New("connection full")
