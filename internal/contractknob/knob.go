// Package contractknob turns off, one at a time, the mechanisms with
// which package equiv checks a function's contract beyond its results, so
// that a test can show each one is what catches the bugs it is there for
// (internal/battery's TestMechanisms, docs/equivalence.md's contract
// table). Only tests set them, one test at a time; users cannot import
// it.
package contractknob

import "sync/atomic"

var (
	// NoSpare lays every input out with no spare capacity, and an empty
	// one as an empty non-nil slice (equiv.LayoutOf).
	NoSpare atomic.Bool
	// NoReadOnly places Buffer.Input's inputs on writable pages,
	// compared with a copy after the call.
	NoReadOnly atomic.Bool
	// NoPoison makes Buffer.Poison and PoisonRange do nothing.
	NoPoison atomic.Bool
	// NoConcurrent runs no concurrent caller beside a method, and a
	// Split method on one lane.
	NoConcurrent atomic.Bool
	// NoKeep makes Config.Keep keep nothing.
	NoKeep atomic.Bool
)
