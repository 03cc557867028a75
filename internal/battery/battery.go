// Package battery is the project's measure of its own power: known-bad
// implementations, each carrying one bug modelled on a bug shipped by a
// real checksum, masking or QUIC parser, each with a bug-free twin. The
// suites must catch every bad one at the quick level, with a minimized
// counterexample, and pass every twin; battery_test.go checks both and
// prints the catch rate, which CI (.ci/run) shows.
//
// Each pair's bugs are in its own files (checksum.go, websocket.go,
// quic.go and their helpers), and the bugs of the contract that
// docs/equivalence.md tabulates (what a function may read, write, keep
// and share) in checksum_contract.go, checksum_digest.go,
// websocket_contract.go and quic_contract.go, each listed by a function
// that All joins; issue 29's (the bugs only its harness and scale
// methods catch) in checksum_scale.go, websocket_scale.go and
// quic_scale.go; the bugs of functions outside the pairs (CRC-32C,
// Adler-32, ASCII lower-casing, hexadecimal decoding, varints, octet
// search and count, population count, UTF-8 encoding), each checked by
// the suite equiv/functest derives from the function and a plain
// reference, in functest.go and functest_*.go. TestMechanisms
// (mechanisms_test.go) shows that each of the engine's contract
// mechanisms is what catches the bugs the table gives it.
package battery

import "github.com/equivcheck/equivcheck/equiv"

// Bug is one known-bad implementation and its twin.
type Bug struct {
	// Name is "<pair>/<short-name>".
	Name string
	// Record is the public record the bug is modelled on: the project,
	// and the issue, commit or advisory (or the class of bug and where it
	// was seen), in a sentence.
	Record string
	// Axis is the input axis, and the boundary class on it, where the bug
	// shows: the part of the domain the suite must reach to catch it.
	Axis string
	// Bad is the suite over the buggy implementation; Twin over the same
	// implementation with the bug fixed (everything else identical).
	Bad, Twin equiv.Suite
	// TwinKey, if not empty, names a twin that other bugs share: one
	// model with every bug switched off (websocket's masker, quic's mini
	// parser, the utf8 validator). TestBattery checks each shared twin
	// once: it is the same code each time.
	TwinKey string
}

// All lists every bug of every pair.
func All() []Bug {
	var all []Bug
	for _, pair := range [][]Bug{checksumBugs(), websocketBugs(), websocketContractBugs(), websocketScaleBugs(), quicBugs(), quicContractBugs(), quicScaleBugs(), utf8Bugs(), funcBugs()} {
		all = append(all, pair...)
	}
	return all
}
