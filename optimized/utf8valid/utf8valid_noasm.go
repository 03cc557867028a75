//go:build !amd64 || purego

package utf8valid

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

// valid is the generic kernel's Valid on this build.
func valid(_ kernel, b []byte) bool {
	return validGeneric(b)
}
