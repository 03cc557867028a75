//go:build !(race || msan || asan)

package quic

const checkptr = false
