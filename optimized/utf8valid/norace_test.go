//go:build !race

package utf8valid

// raceEnabled is false outside the race detector: see race_test.go.
const raceEnabled = false
