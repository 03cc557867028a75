//go:build !(race || msan || asan)

package checkptr

const Enabled = false
