//go:build linux && (amd64 || arm64)

package checksum

import (
	"net/netip"
	"os"
	"syscall"
	"testing"
	"unsafe"
)

// period is the size of the file mapped again and again to make a 4 GiB
// input out of 2 MiB.
const period = 2 << 20

// mapRepeated returns 2^32 + period readable bytes that are one 2 MiB file
// mapped 2049 times over, so that every period holds the same bytes
// (writing one writes them all), or skips t where that cannot be done.
func mapRepeated(t *testing.T) []byte {
	f, err := os.CreateTemp(t.TempDir(), "period")
	if err == nil {
		defer f.Close()
		err = f.Truncate(period)
	}
	if err != nil {
		t.Skipf("a 2 MiB file: %v", err)
	}
	const span = 1<<32 + period
	mem, err := syscall.Mmap(-1, 0, span, syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("cannot reserve 4 GiB: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	for off := 0; off < span; off += period {
		_, _, errno := syscall.Syscall6(syscall.SYS_MMAP, uintptr(unsafe.Pointer(&mem[off])), period,
			syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED|syscall.MAP_FIXED|syscall.MAP_POPULATE, f.Fd(), 0)
		if errno != 0 {
			t.Skipf("mmap at %d: %v", off, errno)
		}
	}
	return mem
}

// fold is RFC 1071's fold of a 64-bit sum.
func fold(s uint64) uint16 {
	for s>>16 != 0 {
		s = s&0xffff + s>>16
	}
	return uint16(s)
}

// TestPast4GiB: Sum of 2^32 + 3 bytes is that of 2048 periods and 3
// bytes (each period starts at an even offset, so adds the same words),
// not that of 3 bytes; VerifyUDP passes a valid segment of 2^32-1 bytes,
// the most its 32-bit pseudo-header length carries, and fails one of 2^32.
func TestPast4GiB(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: sums 4 GiB twice")
	}
	mem := mapRepeated(t)
	for i := range period / 8 {
		mem[i*8+i%8] = byte(0x80 + i)
	}
	whole := uint64(Sum(mem[:period], 0))
	if got, want := Sum(mem[:1<<32+3], 0x1234), fold(0x1234+2048*whole+uint64(Sum(mem[:3], 0))); got != want {
		t.Errorf("Sum(2^32+3 bytes, 0x1234) = %#04x, want %#04x", got, want)
	}
	// The checksum field, bytes 6-7, is in each of the 2048 periods the
	// segment covers; over :: → :: the pseudo-header is ffff + ffff + 0011.
	const n = 1<<32 - 1
	mem[6], mem[7] = 0, 0
	rest := 0xffff + 0xffff + 17 + 2047*uint64(Sum(mem[:period], 0)) + uint64(Sum(mem[:n%period], 0))
	c := uint16(0)
	for fold(rest+2048*uint64(c)) != 0xffff {
		c++
	}
	mem[6], mem[7] = byte(c>>8), byte(c)
	any6 := netip.IPv6Unspecified()
	if !VerifyUDP(any6, any6, mem[:n]) {
		t.Errorf("VerifyUDP(:: → ::, a valid segment of 2^32-1 bytes) = false, want true")
	}
	if VerifyUDP(any6, any6, mem[:n+1]) {
		t.Errorf("VerifyUDP(:: → ::, 2^32 bytes) = true, want false")
	}
}
