//go:build !purego

package bench

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// BenchmarkFloorMaskSmall prices what websocket.Mask pays at 1 to 4 octets
// against byte loops that the compiler inlines into their caller, as
// gorilla's and coder's are (impl=bytewise, impl=rotating). Mask is inlined
// too, but around one call into its assembly (xorKeyInPlace), and an
// assembly function outside the runtime is ABI0: its five argument words
// are stored on the stack by the caller and loaded back by the callee.
// impl=asmcall is that call with nothing behind it but one octet's XOR
// (maskOneFloor), and impl=gocall the same work in a Go function that is
// not inlined, whose arguments stay in registers. A Mask built on a call
// into assembly costs at least impl=asmcall at every length.
func BenchmarkFloorMaskSmall(b *testing.B) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	for _, align := range sweepAligns {
		buf := sweepBuf(64, align)
		for size := 1; size <= 4; size++ {
			in := buf[:size]
			name := fmt.Sprintf("align=%d/size=%d", align, size)
			b.Run(name+"/impl=equivcheck", benchMask(in, key))
			b.Run(name+"/impl=gobwas", benchCipher(in, key))
			b.Run(name+"/impl=bytewise", benchBytewise(in, key))
			b.Run(name+"/impl=rotating", benchRotating(in, key))
			b.Run(name+"/impl=asmcall", benchMaskOneFloor(in, key))
			b.Run(name+"/impl=gocall", benchMaskOneGo(in, key))
		}
	}
}

// benchMaskOneFloor runs maskOneFloor in benchMask's loop, the next
// position computed in the caller as the inlined Mask computes it.
//
//go:noinline
func benchMaskOneFloor(in []byte, key [4]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		k := binary.LittleEndian.Uint32(key[:])
		pos := 0
		for b.Loop() {
			maskOneFloor(in, k, pos)
			pos = (pos + len(in)) & 3
		}
	}
}

// benchMaskOneGo is benchMaskOneFloor with maskOneGo.
//
//go:noinline
func benchMaskOneGo(in []byte, key [4]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		k := binary.LittleEndian.Uint32(key[:])
		pos := 0
		for b.Loop() {
			maskOneGo(in, k, pos)
			pos = (pos + len(in)) & 3
		}
	}
}

// maskOneGo does maskOneFloor's work in Go, behind a call that passes its
// arguments in registers.
//
//go:noinline
func maskOneGo(b []byte, key uint32, pos int) {
	b[0] ^= byte(key)
}

// TestMaskOneFloor checks that the floors do the work they claim, the
// assembly's frame offsets included: each XORs b[0] with the key's low
// octet and touches nothing else.
func TestMaskOneFloor(t *testing.T) {
	for _, f := range []struct {
		name string
		mask func([]byte, uint32, int)
	}{{"maskOneFloor", maskOneFloor}, {"maskOneGo", maskOneGo}} {
		b := []byte{0x10, 0x20, 0x30}
		f.mask(b[:2], 0x3d21fa37, 3)
		if want := []byte{0x10 ^ 0x37, 0x20, 0x30}; string(b) != string(want) {
			t.Errorf("%s: got % x, want % x", f.name, b, want)
		}
	}
}
