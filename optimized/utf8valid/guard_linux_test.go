package utf8valid

import (
	"bytes"
	"math/rand/v2"
	"syscall"
	"testing"

	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// guardPages maps three pages and makes the first and the last
// inaccessible: a slice that ends at the end of the middle page, or starts
// at its start, faults on any read past its end or before its start, as
// crypto/subtle's tests do with dangerousSlice.
type guardPages struct {
	mem, page []byte
}

func newGuardPages(t *testing.T) *guardPages {
	size := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	for _, g := range [][]byte{mem[:size], mem[2*size:]} {
		if err := syscall.Mprotect(g, syscall.PROT_NONE); err != nil {
			t.Fatalf("mprotect: %v", err)
		}
	}
	return &guardPages{mem: mem, page: mem[size : 2*size]}
}

// protect sets the middle page's protection.
func (g *guardPages) protect(t *testing.T, prot int) {
	if err := syscall.Mprotect(g.page, prot); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
}

// guardLen is the longest text TestGuardPages places at a guard page:
// past 544 octets, the shortest text whose ASCII run the AVX2 Unmask
// kernel moves to 32-octet boundaries (one ASCII block, then 512 octets),
// and past the lengths up to 576 at which that run ends at every distance
// from the end of the text.
const guardLen = 600

// TestGuardPages runs every variant's Valid and Write on read-only texts
// of every length 0..guardLen that end at an unmapped page or start right
// after one, and Unmask on the same slices made writable: a kernel that
// reads an octet outside its slice faults, one that writes its input under
// Valid or Write faults too.
func TestGuardPages(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 5))
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	g := newGuardPages(t)
	size := len(g.page)
	for _, im := range withDispatch(t) {
		t.Run(im.Name, func(t *testing.T) {
			for n := 0; n <= guardLen; n++ {
				for _, txt := range variants(r, n)[:6] {
					for _, lo := range []int{size - n, 0} {
						b := g.page[lo : lo+n : lo+n]
						g.protect(t, syscall.PROT_READ|syscall.PROT_WRITE)
						copy(b, txt)
						g.protect(t, syscall.PROT_READ)
						if im.Valid(b) != ref.Valid(txt) {
							t.Fatalf("len=%d at %d: Valid(% x) wrong", n, lo, txt)
						}
						if got, want := writeAll(im.NewValidator(), b, n/2), refRun(txt, n/2); !equal(got, want) {
							t.Fatalf("len=%d at %d: Write(% x): %v, want %v", n, lo, txt, got, want)
						}
						g.protect(t, syscall.PROT_READ|syscall.PROT_WRITE)
						mb := masked(txt, key, 1)
						copy(b, mb)
						v, rv := im.NewValidator(), new(ref.Validator)
						_, got, err := v.Unmask(b, key, 1)
						_, want, werr := rv.Unmask(mb, key, 1)
						if got != want || err != werr || !bytes.Equal(b, mb) {
							t.Fatalf("len=%d at %d: Unmask(% x) = %d, %v, % x; want %d, %v, % x", n, lo, txt, got, err, b, want, werr, mb)
						}
					}
				}
			}
		})
	}
}
