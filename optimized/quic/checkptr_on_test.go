//go:build race || msan || asan

package quic_test

// checkptr is on with -race, -msan and -asan: a slice longer than its
// allocation (hugeInput) is then a fatal error, whatever is read.
const checkptr = true
