package equiv_test

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

func TestMaskReference(t *testing.T) {
	equiv.TestMask(t, equiv.MaskImpl{Mask: ref.Mask, MaskCopy: ref.MaskCopy})
}

// Known-bad maskers, each with a bug seen in real masking code.

// maskWords is a word-at-a-time masker in the usual shape (8-byte body,
// byte tail) with switches for the bugs below.
func maskWords(b []byte, key [4]byte, pos int, bug string) int {
	p := pos & 3
	i := 0
	if bug == "preamble-wrong-key" {
		// Align the body to 8 bytes first, but then rotate the key by the
		// original pos, forgetting the preamble's length.
		addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		for ; i < len(b) && (addr+uintptr(i))%8 != 0; i++ {
			b[i] ^= key[(p+i)&3]
		}
		for ; i+8 <= len(b); i += 8 {
			for k := range 8 {
				b[i+k] ^= key[(p+k)&3]
			}
		}
	} else {
		for ; i+8 <= len(b); i += 8 {
			for k := range 8 {
				b[i+k] ^= key[(p+i+k)&3]
			}
		}
	}
	for ; i < len(b); i++ {
		if bug == "tail-ignores-pos" {
			b[i] ^= key[i&3]
		} else {
			b[i] ^= key[(p+i)&3]
		}
	}
	if bug == "write-past-end" && len(b) > 0 {
		// A SIMD store of a whole vector over a short tail.
		q := (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), len(b)))
		sinkByte = *q
		*q ^= 1
	}
	if bug == "wrong-rotation-odd" && len(b)%2 == 1 {
		return (pos + len(b) + 1) & 3
	}
	return (pos + len(b)) & 3
}

var sinkByte byte

func TestMaskCatchesKnownBad(t *testing.T) {
	for _, tc := range []struct {
		bug    string
		method string
	}{
		{"wrong-rotation-odd", equiv.MethodVectors},
		{"tail-ignores-pos", equiv.MethodVectors},
		{"write-past-end", equiv.MethodVectors},
		{"write-past-end", equiv.MethodGuard},
		{"preamble-wrong-key", equiv.MethodExhaustive},
		{"tail-ignores-pos", equiv.MethodProperties},
	} {
		t.Run(tc.bug+"/"+tc.method, func(t *testing.T) {
			if tc.method == equiv.MethodGuard && !equiv.GuardPages {
				t.Skip("guard pages are implemented on Linux only")
			}
			impl := equiv.MaskImpl{Mask: func(b []byte, key [4]byte, pos int) int { return maskWords(b, key, pos, tc.bug) }}
			err := equiv.CheckMask(impl, equiv.WithMethods(func(m string) bool { return m == tc.method }))
			if !errors.Is(err, equiv.ErrMismatch) {
				t.Fatalf("%s: method %s returned %v, want a mismatch", tc.bug, tc.method, err)
			}
			if ces := equiv.Counterexamples(err); len(ces) > 0 {
				t.Logf("caught: %v", ces[0])
			} else {
				t.Logf("caught by a law: %v", err)
			}
		})
	}
	// The correct shape of the same code passes, so the bugs above are what
	// the suite caught.
	err := equiv.CheckMask(equiv.MaskImpl{Mask: func(b []byte, key [4]byte, pos int) int { return maskWords(b, key, pos, "") }},
		equiv.WithMethods(func(m string) bool { return m != equiv.MethodGuard }))
	if err != nil {
		t.Fatalf("the bug-free word masker failed: %v", err)
	}
}

// TestMaskCopyCatchesOverlapRule: a MaskCopy that accepts an inexact overlap
// disagrees with the reference, which panics.
func TestMaskCopyCatchesOverlapRule(t *testing.T) {
	lax := func(dst, src []byte, key [4]byte, pos int) int {
		if len(dst) < len(src) {
			panic("websocket: MaskCopy: dst shorter than src")
		}
		for i := range src {
			dst[i] = src[i] ^ key[(pos+i)&3]
		}
		return (pos + len(src)) & 3
	}
	err := equiv.CheckMask(equiv.MaskImpl{Mask: ref.Mask, MaskCopy: lax},
		equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors }))
	if !errors.Is(err, equiv.ErrMismatch) {
		t.Fatalf("got %v, want a mismatch", err)
	}
}
