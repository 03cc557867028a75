//go:build !amd64 || purego

package checksum

// impls lists the variants of this build: only the portable one.
func impls() []Impl {
	return []Impl{
		{Name: "generic", Available: true, Sum: sumGeneric},
	}
}

// sumVector reports false: without assembly, Sum always uses sumLarge.
func sumVector([]byte) (uint64, bool) { return 0, false }
