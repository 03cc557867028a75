//go:build race

package equiv_test

// raceEnabled: the race detector is on, and reports the shared state of
// the deliberately racy implementations itself.
const raceEnabled = true
