// Package fuzz holds the differential fuzz targets of equivcheck: each
// compares every available variant of an optimized package, and its
// dispatching API, with the reference, output and error class alike. Each
// target is one line over a pair package's Fuzz helper, exactly as a user's
// own target is.
//
// Run one with, for example:
//
//	go test ./fuzz -run '^$' -fuzz Checksum -fuzztime 100000x
//
// The targets are seeded from the shared corpus in ../corpus, and plain "go
// test ./fuzz" replays both that corpus and testdata/fuzz, where the release
// gate writes the counterexamples it finds (and which its corpus method
// replays too).
package fuzz
