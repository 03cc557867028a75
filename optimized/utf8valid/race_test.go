//go:build race

package utf8valid

// raceEnabled makes the exhaustive tests take their -short domain under
// the race detector, which runs them 10 to 20 times slower (go test -race
// ./optimized/... in .ci/run): the race detector checks the Validators'
// state, not the kernels' answers, which the normal run checks in full.
const raceEnabled = true
