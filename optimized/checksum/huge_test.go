//go:build linux && (amd64 || arm64)

package checksum

import (
	"net/netip"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// period is the size of the memory mapped again and again to make a
// 4 GiB input out of 2 MiB.
const period = 2 << 20

// mapRepeated returns 2^32 + period readable bytes that are one period of
// memory mapped 2049 times over, so that every period holds the same bytes
// (writing one writes them all), or skips t where that cannot be done.
func mapRepeated(t *testing.T) []byte {
	fd, err := unix.MemfdCreate("checksum-4gib", 0)
	if err != nil {
		t.Skipf("memfd_create: %v", err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	if err := unix.Ftruncate(fd, period); err != nil {
		t.Skipf("ftruncate: %v", err)
	}
	const span = 1<<32 + period
	mem, err := syscall.Mmap(-1, 0, span, syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("cannot reserve 4 GiB: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	for off := 0; off < span; off += period {
		_, err := unix.MmapPtr(fd, 0, unsafe.Pointer(&mem[off]), period,
			unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_FIXED|unix.MAP_POPULATE)
		if err != nil {
			t.Skipf("mmap at %d: %v", off, err)
		}
	}
	return mem
}

// repeatedSum is the Sum of the first n bytes of mem (mapRepeated's) onto
// initial, from the sums of one period and of the last part period: each
// period starts at an even offset, so contributes the same words.
func repeatedSum(mem []byte, n int, initial uint16) uint16 {
	whole := uint64(model(mem[:period], 0))
	return foldModel(uint64(initial) + uint64(n/period)*whole + uint64(model(mem[:n%period], 0)))
}

// TestPast4GiB sums an input of 2^32 + 3 bytes, where a 32-bit length or
// counter anywhere in a variant (a Go int32, an assembly MOVL/SUBL, a
// uint32 loop bound) would wrap and sum 3 bytes, through every variant,
// which also runs the real chunking (maxChunk = 1 GiB, five chunks). It
// then checks VerifyUDP at its limit: a valid segment of 2^32-1 bytes (the
// most a 32-bit length carries) passes, one of 2^32 fails.
func TestPast4GiB(t *testing.T) {
	mem := mapRepeated(t)
	for i := range period / 8 {
		mem[i*8+i%8] = byte(0x80 + i) // the same bytes in every period
	}
	const n = 1<<32 + 3
	want := repeatedSum(mem, n, 0x1234)
	for _, v := range Impls() { // "dispatch" is avx512's code at this size
		if v.Available {
			if got := v.Sum(mem[:n], 0x1234); got != want {
				t.Errorf("%s: Sum(len=2^32+3, 0x1234) = %#04x, want %#04x", v.Name, got, want)
			}
		}
	}
	checkVerifyAt4GiB(t, mem)
}

// checkVerifyAt4GiB sets the UDP checksum field (bytes 6-7, so in each of
// the 2048 periods a segment of 2^32-1 bytes covers) so that the segment
// verifies over :: → ::, whose pseudo-header is the length's two words
// and the protocol, 17.
func checkVerifyAt4GiB(t *testing.T, mem []byte) {
	const n = 1<<32 - 1
	mem[6], mem[7] = 0, 0
	ph := uint64(model([]byte{0xff, 0xff, 0xff, 0xff, 0, 17}, 0))
	rest := ph + uint64(repeatedSum(mem, n, 0))
	c := uint16(0)
	for foldModel(rest+2048*uint64(c)) != 0xffff {
		c++
	}
	mem[6], mem[7] = byte(c>>8), byte(c)
	any6 := netip.IPv6Unspecified()
	if !VerifyUDP(any6, any6, mem[:n]) {
		t.Errorf("VerifyUDP(:: → ::, a valid segment of 2^32-1 bytes) = false, want true")
	}
	if VerifyUDP(any6, any6, mem[:n+1]) {
		t.Errorf("VerifyUDP(:: → ::, 2^32 bytes) = true, want false: no 32-bit length carries it")
	}
}
