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

var (
	// NoEdges places no slice flush against an unmapped or read-only
	// page (equiv.Edge): canaries only.
	NoEdges atomic.Bool
	// NoExactAppend gives a slice appended to the spare capacities of
	// equiv.LayoutOf, not the exact fits of the append schedule.
	NoExactAppend atomic.Bool
	// NoReuse makes equiv.Again check nothing again.
	NoReuse atomic.Bool
	// NoOverlap makes Run.Overlap run its lanes one after the other, not
	// released together.
	NoOverlap atomic.Bool
	// NoScale makes the scale methods stop below equiv.ScaleMin.
	NoScale atomic.Bool
	// NoHistory makes the suites' long histories empty.
	NoHistory atomic.Bool
	// NoIOEdges makes the suites' readers and writers plain ones.
	NoIOEdges atomic.Bool
)
