//go:build !amd64 || purego

package utf8valid

import "encoding/binary"

// best is the kernel of Valid and of the zero Validator: this build has
// only the generic one.
const best = kernelGeneric

// archImpl returns the SIMD variant name as unavailable in this build.
func archImpl(name string, _ kernel) Impl {
	unavailable := func() { panic("utf8valid: variant " + name + " is not available in this build") }
	return Impl{
		Name:         name,
		Valid:        func([]byte) bool { unavailable(); return false },
		NewValidator: func() *Validator { unavailable(); return nil },
	}
}

// blocks is never called on this build, where every Validator runs the
// generic kernel: it runs it.
func blocks(_ kernel, p []byte, ctx uint32) int {
	n, _ := scanGeneric(stateOf(ctx), p)
	return n
}

// unmaskBlocks is never called on this build either: it runs the generic
// kernel.
func unmaskBlocks(_ kernel, b []byte, key uint32, ctx uint32) int {
	n, _ := unmaskGeneric(stateOf(ctx), b, key)
	return n
}

// valid is the generic kernel's Valid on this build. It takes the short
// paths of amd64's valid before scanGeneric: 2 to 4 octets by the
// automaton's steps written out, 5 to 15 by asciiShort then steps4 and
// run, and ASCII of 16 to 31 octets by asciiMid. Without them,
// scanGeneric's call and loops put this build's Valid behind
// unicode/utf8.Valid at most lengths under 16 octets
// (docs/performance.md). It is written here, not called from a function
// both builds share: Valid inlines only if valid is a call (cost 78; with
// valid inlined around a call, 82).
func valid(_ kernel, b []byte) bool {
	// n <= 15 and n >= 5, not n < 16 and n > 4 (the same code): their
	// boundary mutants then change what runs (15 octets reach asciiMid,
	// whose loads panic; 5 octets that are not ASCII are refused), where
	// n <= 16 and n >= 4 changed nothing (docs/mutation.md).
	if n := len(b); n <= 15 {
		if uint(n-2) < 3 {
			if n == 4 {
				return valid4(binary.LittleEndian.Uint32(b))
			}
			return valid23(b)
		}
		if asciiShort(b) {
			return true
		}
		if n >= 5 {
			return run(steps4(sAccept, binary.LittleEndian.Uint32(b)), b[4:])&63 == sAccept
		}
		return false
	}
	if len(b) < 32 && asciiMid(b) {
		return true
	}
	return validScan(b)
}

// validGeneric is the generic kernel's Valid: valid on this build. It
// works like reference/utf8valid.Valid.
func validGeneric(b []byte) bool {
	return valid(kernelGeneric, b)
}
