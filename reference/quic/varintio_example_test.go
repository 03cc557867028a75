package quic_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/equivcheck/equivcheck/reference/quic"
)

// Reading RFC 9000 Appendix A.1's four examples from a stream, one after
// the other, then the clean end of the stream, then a stream that ends
// inside an integer.
func ExampleReadVarint() {
	r := bytes.NewReader([]byte{0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c, 0x9d, 0x7f, 0x3e, 0x7d, 0x7b, 0xbd, 0x25})
	for {
		v, n, err := quic.ReadVarint(r)
		if err == io.EOF {
			break
		}
		fmt.Println(v, n, err)
	}
	v, n, err := quic.ReadVarint(bytes.NewReader([]byte{0x9d, 0x7f}))
	fmt.Println(v, n, err)
	// Output:
	// 151288809941952652 8 <nil>
	// 494878333 4 <nil>
	// 15293 2 <nil>
	// 37 1 <nil>
	// 0 2 unexpected EOF
}

// Peeking at a frame's type before deciding who reads it: the integer
// stays in the reader until it is discarded. When the stream ends inside
// the integer, n still says how many bytes it needs.
func ExamplePeekVarint() {
	r := bufio.NewReader(bytes.NewReader([]byte{0x7b, 0xbd, 0x25}))
	v, n, err := quic.PeekVarint(r)
	fmt.Println(v, n, err, r.Buffered())
	r.Discard(n)
	v, n, err = quic.PeekVarint(r)
	fmt.Println(v, n, err)

	v, n, err = quic.PeekVarint(bufio.NewReader(bytes.NewReader([]byte{0xc2, 0x19})))
	fmt.Println(v, n, err)
	// Output:
	// 15293 2 <nil> 3
	// 37 1 <nil>
	// 0 8 unexpected EOF
}

// Reserving a 2-byte Length field, writing the payload, then filling the
// field in place: RFC 9000 §16 lets 37 be sent as 0x4025.
func ExampleAppendVarintWithLen() {
	b := []byte{0xe0}
	at := len(b)
	b = quic.AppendVarintWithLen(b, 0, 2) // placeholder
	b = append(b, bytes.Repeat([]byte{0xaa}, 37)...)
	quic.AppendVarintWithLen(b[:at], uint64(len(b)-at-2), 2)
	fmt.Printf("% x … (%d bytes)\n", b[:5], len(b))

	defer func() { fmt.Println("panic:", recover()) }()
	quic.AppendVarintWithLen(nil, 16384, 2)
	// Output:
	// e0 40 25 aa aa … (40 bytes)
	// panic: quic: AppendVarintWithLen: value does not fit in the length
}
