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

// scan is the generic kernel's Write on this build.
func scan(_ kernel, p []byte, ctx uint32) int {
	return scanWindowGeneric(p, ctx)
}

// unmask is the generic kernel's Unmask on this build.
func unmask(_ kernel, b []byte, k uint32, ctx uint32) int {
	return unmaskWindowGeneric(b, k, ctx)
}

// valid is the generic kernel's Valid on this build.
func valid(_ kernel, b []byte) bool {
	return validGeneric(b)
}
