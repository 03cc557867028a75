//go:build amd64 && !purego

package checksum

import (
	"strings"
	"testing"
)

// TestFeatures checks which variants each combination of CPU features
// makes available, and which one Sum dispatches to: the AVX-512 kernel
// only with AVX512F, AVX512BW and AVX2 together, never on an AVX2-only
// CPU.
func TestFeatures(t *testing.T) {
	for _, tc := range []struct {
		f      features
		avail  string // available variants, best first
		chosen string
	}{
		{features{}, "generic", "generic"},
		{features{avx512f: true}, "generic", "generic"},
		{features{avx512bw: true}, "generic", "generic"},
		{features{avx512f: true, avx512bw: true}, "generic", "generic"},
		{features{avx2: true}, "avx2,generic", "avx2"},
		{features{avx2: true, avx512f: true}, "avx2,generic", "avx2"},
		{features{avx2: true, avx512bw: true}, "avx2,generic", "avx2"},
		{features{avx2: true, avx512f: true, avx512bw: true}, "avx512,avx2,generic", "avx512"},
	} {
		var avail []string
		for _, i := range implsFor(tc.f) {
			if i.Available {
				avail = append(avail, i.Name)
			}
		}
		got := strings.Join(avail, ",")
		if got != tc.avail || avail[0] != tc.chosen {
			t.Errorf("features %+v: available %s (chosen %s), want %s (chosen %s)", tc.f, got, avail[0], tc.avail, tc.chosen)
		}
	}
	if got, want := hasAVX512, cpuFeatures.avx512(); got != want {
		t.Errorf("hasAVX512 = %v, want %v for %+v", got, want, cpuFeatures)
	}
}

// TestSumVectorBound: Sum calls the AVX-512 kernel directly only when
// AVX-512 is the variant chosen and the input needs no chunking (len(b)
// <= maxChunk, the kernel's overflow bound); otherwise sumLarge chunks it.
func TestSumVectorBound(t *testing.T) {
	defer func(old int) { maxChunk = old }(maxChunk)
	maxChunk = 128
	b := make([]byte, maxChunk+1)
	for i := range b {
		b[i] = 0xff
	}
	if s, ok := sumVector(b[:maxChunk]); ok != hasAVX512 || ok && s == 0 {
		t.Errorf("sumVector(len=maxChunk) = %#x, %v, want a nonzero sum and %v", s, ok, hasAVX512)
	}
	if s, ok := sumVector(b); ok {
		t.Errorf("sumVector(len=maxChunk+1) = %#x, true, want false: the kernel is given at most maxChunk bytes", s)
	}
}
