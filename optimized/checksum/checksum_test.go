package checksum

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"
)

// model is the naive in-test oracle: RFC 1071 §1 read literally. Big-endian
// byte pairs into a uint64, an odd last byte as the high byte of a word,
// then folded with end-around carry. It gives 0 only for an all-zero total
// and 0xFFFF for any other multiple of 0xFFFF.
func model(b []byte, initial uint16) uint16 {
	s := uint64(initial)
	for i := 0; i+1 < len(b); i += 2 {
		s += uint64(b[i])<<8 | uint64(b[i+1])
	}
	if len(b)%2 == 1 {
		s += uint64(b[len(b)-1]) << 8
	}
	for s > 0xFFFF {
		s = s>>16 + s&0xFFFF
	}
	return uint16(s)
}

// variants returns every Impl plus "dispatch" (the exported Sum, whose
// short-input path is its own code), skipping unavailable ones in t.Run.
func variants() []Impl {
	return append(Impls(), Impl{Name: "dispatch", Available: true, Sum: Sum})
}

// alignedBuf returns a buffer of n bytes whose first byte is 64-byte aligned,
// so that "align" in test names is the real address modulo 64.
func alignedBuf(n int) []byte {
	b := make([]byte, n+64)
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(b))) & 63)
	return b[off : off+n : off+n]
}

func TestRegistry(t *testing.T) {
	var names []string
	for _, i := range Impls() {
		names = append(names, i.Name)
		if i.Sum == nil {
			t.Errorf("Impls: %s has a nil Sum", i.Name)
		}
	}
	if last := names[len(names)-1]; last != "generic" {
		t.Errorf("Impls names = %v, want generic last", names)
	}
	if runtime.GOARCH == "amd64" && len(names) != 1 && len(names) != 3 {
		t.Errorf("Impls names = %v, want [avx512 avx2 generic] or [generic]", names)
	}
	for _, i := range Impls() {
		t.Logf("%s: available=%v", i.Name, i.Available)
	}
}

// TestGrid compares every variant with model over lengths 0..700 (past an
// aligned head, two 256-byte AVX-512 iterations, a 64-byte one and a tail),
// every alignment 0..63, three fillings and three initial values. The bytes
// around the input hold junk, so a variant that reads outside b gets a wrong
// sum.
func TestGrid(t *testing.T) {
	const maxLen, maxAlign = 700, 64
	seed := uint64(1071)
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1624))
	random := make([]byte, maxLen)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	fills := []struct {
		name string
		fill func(b []byte, n int)
	}{
		{"0xff", func(b []byte, n int) {
			for i := range b {
				b[i] = 0xFF
			}
		}},
		{"0x00", func(b []byte, n int) { clear(b) }},
		{"random", func(b []byte, n int) { copy(b, random[:n]) }},
	}
	buf := alignedBuf(maxAlign + maxLen + 64)
	for _, v := range variants() {
		t.Run(v.Name, func(t *testing.T) {
			if !v.Available {
				t.Skipf("%s is not available on this CPU", v.Name)
			}
			for _, f := range fills {
				for n := 0; n <= maxLen; n++ {
					for align := 0; align < maxAlign; align++ {
						for i := range buf {
							buf[i] = 0xA5 // junk guard bytes
						}
						b := buf[align : align+n : align+n]
						f.fill(b, n)
						for _, initial := range []uint16{0, 1, 0xFFFF} {
							got, want := v.Sum(b, initial), model(b, initial)
							if got != want {
								t.Fatalf("%s: Sum(len=%d align=%d fill=%s initial=%#04x) = %#04x, want %#04x",
									v.Name, n, align, f.name, initial, got, want)
							}
						}
					}
				}
			}
		})
	}
}

// TestLarge checks multi-MiB inputs of 0xFF (where a 32-bit accumulator
// would overflow after 128 KiB) and of random bytes, at odd lengths, and
// again with maxChunk shrunk so the chunking loops run many times.
func TestLarge(t *testing.T) {
	ff := bytes.Repeat([]byte{0xFF}, 4<<20+3)
	rnd := make([]byte, 3<<20+5)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range rnd {
		rnd[i] = byte(rng.Uint32())
	}
	defer func(old int) { maxChunk = old }(maxChunk)
	for _, chunk := range []int{maxChunk, 64, 130, 4096} {
		maxChunk = chunk
		for _, v := range variants() {
			if !v.Available {
				continue
			}
			for _, b := range [][]byte{ff, ff[1:], ff[:len(ff)-1], rnd, rnd[3:], rnd[:len(rnd)-2]} {
				for _, initial := range []uint16{0, 1, 0xFFFF} {
					if got, want := v.Sum(b, initial), model(b, initial); got != want {
						t.Errorf("%s: Sum(len=%d b[0]=%#x initial=%#04x maxChunk=%d) = %#04x, want %#04x",
							v.Name, len(b), b[0], initial, chunk, got, want)
					}
				}
			}
		}
	}
	// Chunk boundaries inside short inputs too (the grid only uses 1 GiB).
	maxChunk = 64
	for _, v := range variants() {
		if !v.Available {
			continue
		}
		for n := 0; n < 700; n++ {
			b := rnd[n%7 : n%7+n]
			if got, want := v.Sum(b, 0), model(b, 0); got != want {
				t.Errorf("%s: Sum(len=%d align=%d maxChunk=64) = %#04x, want %#04x", v.Name, n, n%7, got, want)
			}
		}
	}
}

func TestRFCVectors(t *testing.T) {
	// RFC 1071 §3: the words 0001 f203 f4f5 f6f7 sum to 2ddf0, folded ddf2.
	rfc1071 := []byte{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}
	for _, v := range variants() {
		if !v.Available {
			continue
		}
		if got := v.Sum(rfc1071, 0); got != 0xddf2 {
			t.Errorf("%s: Sum(RFC 1071 §3) = %#04x, want 0xddf2", v.Name, got)
		}
		// With trailing junk that the length excludes, and every truncation.
		junk := append(append([]byte(nil), rfc1071...), 0xde, 0xad)
		for n := 0; n <= len(rfc1071); n++ {
			if got, want := v.Sum(junk[:n], 0), model(rfc1071[:n], 0); got != want {
				t.Errorf("%s: Sum(RFC 1071 §3 [:%d]) = %#04x, want %#04x", v.Name, n, got, want)
			}
		}
	}
	if got := Checksum(rfc1071); got != ^uint16(0xddf2) {
		t.Errorf("Checksum(RFC 1071 §3) = %#04x, want %#04x", got, ^uint16(0xddf2))
	}
	// RFC 1624 §4: Eqn. 3 gives 0x0000 where Eqn. 2 gave the wrong 0xFFFF.
	if got := Update(0xDD2F, 0x5555, 0x3285); got != 0x0000 {
		t.Errorf("Update(0xDD2F, 0x5555, 0x3285) = %#04x, want 0x0000 (RFC 1624 §4)", got)
	}
	// Update agrees with recomputing, on headers that can never become all
	// zero (the first word stays 0x4500, as in IPv4).
	rng := rand.New(rand.NewPCG(3, 4))
	hdr := make([]byte, 20)
	for range 10000 {
		for i := range hdr {
			hdr[i] = byte(rng.Uint32())
		}
		hdr[0], hdr[1] = 0x45, 0x00
		w := 2 * (1 + rng.IntN(9))
		old := uint16(hdr[w])<<8 | uint16(hdr[w+1])
		ck := Checksum(hdr)
		nw := uint16(rng.Uint32())
		if rng.IntN(4) == 0 {
			nw = [...]uint16{0, 0xFFFF, old, ^old}[rng.IntN(4)]
		}
		hdr[w], hdr[w+1] = byte(nw>>8), byte(nw)
		if got, want := Update(ck, old, nw), Checksum(hdr); got != want {
			t.Fatalf("Update(%#04x, %#04x, %#04x) at word %d = %#04x, want %#04x (recomputed)", ck, old, nw, w/2, got, want)
		}
	}
}

// TestDigest splits inputs into writes of random lengths (empty and odd
// included) and checks Sum16 against the one-shot Sum, for every variant.
func TestDigest(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	data := make([]byte, 3000)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	ff := bytes.Repeat([]byte{0xFF}, 3000)
	digests := []struct {
		name string
		new  func() *Digest
	}{{"New", New}, {"zero", func() *Digest { return new(Digest) }}}
	for _, v := range Impls() {
		if v.Available {
			digests = append(digests, struct {
				name string
				new  func() *Digest
			}{v.Name, v.New})
		}
	}
	for _, dg := range digests {
		d := dg.new()
		if d.Size() != 2 || d.BlockSize() != 2 {
			t.Errorf("%s: Size, BlockSize = %d, %d, want 2, 2", dg.name, d.Size(), d.BlockSize())
		}
		for iter := range 2000 {
			src := data
			if iter%3 == 0 {
				src = ff
			}
			n := rng.IntN(len(src) + 1)
			if iter < 300 {
				n = iter
			}
			in := src[:n]
			d.Reset()
			var splits []int
			for rest := in; ; {
				k := min(rng.IntN(8)*[...]int{1, 7, 100}[rng.IntN(3)], len(rest))
				if rng.IntN(5) == 0 {
					k = 0
				}
				d.Write(rest[:k])
				splits = append(splits, k)
				rest = rest[k:]
				if len(rest) == 0 {
					break
				}
			}
			want := model(in, 0)
			if got := d.Sum16(); got != want {
				t.Fatalf("%s: Digest(len=%d writes=%v).Sum16() = %#04x, want %#04x", dg.name, n, splits, got, want)
			}
			if got := d.Sum([]byte{9}); !bytes.Equal(got, []byte{9, byte(^want >> 8), byte(^want)}) {
				t.Fatalf("%s: Digest(len=%d).Sum([9]) = %x, want 09%04x", dg.name, n, got, ^want)
			}
		}
	}
}

func TestAllocs(t *testing.T) {
	b := make([]byte, 1500)
	out := make([]byte, 0, 2)
	for _, v := range variants() {
		if !v.Available {
			continue
		}
		for _, n := range []int{20, 1500} {
			if a := testing.AllocsPerRun(100, func() { v.Sum(b[:n], 0) }); a != 0 {
				t.Errorf("%s: Sum(len=%d) allocates %v times", v.Name, n, a)
			}
		}
	}
	d := New()
	if a := testing.AllocsPerRun(100, func() {
		d.Write(b[:21])
		d.Write(b)
		_ = d.Sum16()
		out = d.Sum(out[:0])
		_ = Checksum(b)
		_ = Update(1, 2, 3)
		d.Reset()
	}); a != 0 {
		t.Errorf("Digest, Checksum, Update allocate %v times", a)
	}
}
