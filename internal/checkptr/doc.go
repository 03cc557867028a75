// Package checkptr reports whether the build checks unsafe pointer
// conversions (go build -d=checkptr, which -race, -msan and -asan turn on).
// Under it, a slice made longer than its allocation with unsafe.Slice is a
// fatal error whatever is read, so the tests that build such slices (inputs
// past MaxInputLen over 64 bytes of memory) skip when Enabled is true.
package checkptr
