//go:build race || msan || asan

package checkptr

// Enabled is true: -race, -msan and -asan turn checkptr on.
const Enabled = true
