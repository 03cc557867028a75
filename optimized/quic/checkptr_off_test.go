//go:build !(race || msan || asan)

package quic_test

const checkptr = false
