package battery

import (
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv"
)

// funcBugs lists the known-bad implementations of functions outside the
// four network pairs, each checked against a plain reference by a suite
// equiv/functest derives from the two functions alone: the wiring a user
// writes for a pair of their own. Each function has one model
// implementation, written the way optimized versions of it ship
// (slicing-by-8 tables, deferred modulo, SWAR words, unrolled loops), and
// each bug is a switch in the model; the twin is the model with every
// switch off, shared by the function's bugs.
func funcBugs() []Bug {
	var out []Bug
	for _, m := range funcModels() {
		for _, b := range m.bugs {
			out = append(out, Bug{Name: "func/" + m.name + "/" + b.name, Record: b.record, Axis: b.axis,
				Bad: m.suite(b.name), Twin: m.suite(""), TwinKey: "func/" + m.name + "/model"})
		}
	}
	return out
}

// funcModel is one function's model implementation: suite returns the
// derived suite of the model with bug switched on ("" for none), checked
// against the function's reference.
type funcModel struct {
	name  string
	suite func(bug string) equiv.Suite
	bugs  []funcBug
}

// funcBug is one switch of a model: its name, the public record it is
// modelled on, and the input axis where it shows.
type funcBug struct{ name, record, axis string }

// funcModels are the functions, each in its own file (functest_*.go).
func funcModels() []funcModel {
	return []funcModel{crc32cModel(), adler32Model(), lowerModel(), hexModel(), uvarintModel(),
		indexByteModel(), countByteModel(), onesCountModel(), appendRuneModel()}
}

// addrMod8 is the offset of b's first octet from the 8-octet boundary
// before it: what an alignment prologue looks at.
func addrMod8(b []byte) int { return int(uintptr(unsafe.Pointer(unsafe.SliceData(b))) & 7) }

// SWAR constants: an octet's low and high bit in every lane of a word.
const (
	lanesLow  = 0x0101010101010101
	lanesHigh = 0x8080808080808080
	lanes7f   = 0x7f7f7f7f7f7f7f7f
)
