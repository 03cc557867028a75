package bench

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/optimized/websocket"
	"github.com/gobwas/ws"
)

// Peer benchmarks for WebSocket masking (RFC 6455 §5.3), in place:
//
//	impl=equivcheck  optimized/websocket.Mask (dispatch)
//	impl=gobwas      github.com/gobwas/ws.Cipher
//	impl=copy        copy() of the same size between two buffers, the
//	                 bandwidth proxy: masking reads and writes each octet once
//
// gorilla/websocket is not here: its masking (maskBytes) is unexported and
// only reachable through a whole frame read or write.
// coder/websocket's mask is unexported too.
//
// size=N/align=1/impl=equivcheck is the same payload one octet past a 64-octet
// boundary; the others are 64-octet aligned.

var wsMaskSizes = []int{2, 16, 125, 1024, 16384, 1048576}

// wsAlignedBuf returns n octets starting align octets past a 64-octet boundary.
func wsAlignedBuf(n, align int) []byte {
	buf := make([]byte, n+64+align)
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf))) & 63)
	return buf[off+align : off+align+n : off+align+n]
}

func BenchmarkMask(b *testing.B) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	for _, n := range wsMaskSizes {
		b.Run(fmt.Sprintf("size=%d/impl=equivcheck", n), func(b *testing.B) {
			buf := wsAlignedBuf(n, 0)
			b.SetBytes(int64(n))
			pos := 0
			for b.Loop() {
				pos = websocket.Mask(buf, key, pos)
			}
		})
		b.Run(fmt.Sprintf("size=%d/align=1/impl=equivcheck", n), func(b *testing.B) {
			buf := wsAlignedBuf(n, 1)
			b.SetBytes(int64(n))
			pos := 0
			for b.Loop() {
				pos = websocket.Mask(buf, key, pos)
			}
		})
		b.Run(fmt.Sprintf("size=%d/impl=gobwas", n), func(b *testing.B) {
			buf := wsAlignedBuf(n, 0)
			b.SetBytes(int64(n))
			pos := 0
			for b.Loop() {
				ws.Cipher(buf, key, pos)
				pos = (pos + n) & 3
			}
		})
		b.Run(fmt.Sprintf("size=%d/impl=copy", n), func(b *testing.B) {
			src := wsAlignedBuf(n, 0)
			dst := wsAlignedBuf(n, 0)
			b.SetBytes(int64(n))
			for b.Loop() {
				copy(dst, src)
			}
		})
	}
}
