//go:build linux && (amd64 || arm64)

package checksum

import (
	"net/netip"
	"syscall"
	"testing"
)

// TestPast4GiB sums an input of 2^32 + 3 bytes, where a 32-bit length
// or counter anywhere in a variant (a Go int32, an assembly MOVL/SUBL, a
// uint32 loop bound) would wrap: Sum of 2^32 + 3 bytes would then sum 3.
// The 4 GiB are mapped without reserving memory: only the pages written are
// allocated, the others read as the kernel's zero page. Nonzero bytes sit
// at the start and on both sides of 2^32, so a wrapped length loses them.
// It also runs each variant's real chunking (maxChunk = 1 GiB, four
// chunks) and VerifyUDP at its 2^32-1 byte limit.
func TestPast4GiB(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: sums 4 GiB several times")
	}
	const span = 1<<32 + 1<<12
	mem, err := syscall.Mmap(-1, 0, span, syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("cannot map 4 GiB: %v", err)
	}
	defer syscall.Munmap(mem)
	const lo = 1<<32 - 8 // even, so words from lo pair as in the whole
	for i := range 8 {
		mem[i] = byte(0xa1 + i)
		mem[lo+i] = byte(0xf0 + i)
		mem[1<<32+i] = byte(0x11 * (i + 1))
	}
	b := mem[:1<<32+3]
	// The words of b are those of b[:8] and b[lo:], the rest zero.
	want := model(b[lo:], model(b[:8], 0x1234))
	for _, v := range variants() {
		if v.Available {
			if got := v.Sum(b, 0x1234); got != want {
				t.Errorf("%s: Sum(len=2^32+3, 0x1234) = %#04x, want %#04x", v.Name, got, want)
			}
		}
	}
	checkVerifyAt4GiB(t, mem)
}

// checkVerifyAt4GiB checks VerifyUDP on a valid IPv6 segment of 2^32-1
// bytes (the largest a 32-bit length can carry: it must pass) and of 2^32
// (it must fail), over :: → ::, whose pseudo-header is the length's two
// words and the protocol 17.
func checkVerifyAt4GiB(t *testing.T, mem []byte) {
	const n = 1<<32 - 1
	seg := mem[:n]
	seg[6], seg[7] = 0, 0
	ph := model([]byte{0xff, 0xff, 0xff, 0xff, 0, 17}, 0)
	c := ^model(seg[1<<32-8:], model(seg[:8], ph))
	seg[6], seg[7] = byte(c>>8), byte(c)
	any6 := netip.IPv6Unspecified()
	if !VerifyUDP(any6, any6, seg) {
		t.Errorf("VerifyUDP(:: → ::, a valid segment of 2^32-1 bytes) = false, want true")
	}
	if VerifyUDP(any6, any6, mem[:n+1]) {
		t.Errorf("VerifyUDP(:: → ::, 2^32 bytes) = true, want false: no 32-bit length carries it")
	}
}
