// Package symex executes Go functions in SSA form on symbolic inputs: the
// octets of a slice of one length and the integer arguments are
// variables, every value computed is a term over them, and every path
// through the function (loops unrolled, since with the lengths fixed the
// trip counts are known, or decided by the solver where they depend on
// the octets) ends in an Outcome: a return with its results and memory, or
// a panic, each under the condition on the inputs that leads to it.
// Paths meet again where the control flow does and are merged there, so
// that a function's outcomes are few even when it branches on every
// octet.
//
// Only a subset of Go is executed; anything outside it (interface calls
// of unknown dynamic type, maps, channels, goroutines, defer, unsafe,
// reflect, floating point, assembly) ends the path in an Unsupported
// outcome naming the construct and the line, which a caller must not take
// for a proof.
package symex

import (
	"errors"
	"fmt"
	"go/types"
	"io"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// Unsupported is a construct the executor does not execute, where it was
// met.
type Unsupported struct {
	What string   // "map lookup", "call of assembly function X", …
	Pos  string   // file:line
	From []string // the calls that led there, innermost first (file:line)
}

func (u *Unsupported) Error() string {
	s := fmt.Sprintf("%s: unsupported: %s", u.Pos, u.What)
	if len(u.From) > 0 {
		s += " (called at " + strings.Join(u.From, ", called at ") + ")"
	}
	return s
}

var errNotMergeable = errors.New("internal: values cannot be merged")

// Limits bound one execution.
type Limits struct {
	Steps  int // instructions executed, over all paths
	States int // paths alive at once
	Depth  int // nested calls
	Loop   int // iterations of one loop on one path
}

// DefaultLimits are generous for the kernels this module proves.
var DefaultLimits = Limits{Steps: 20_000_000, States: 20_000, Depth: 64, Loop: 1 << 20}

// World is one formula world: a term Builder, the heap the executions of
// one proof start from (package variables after initialization, inputs)
// and the functions' information. Both functions of a pair run in one
// World, so that their inputs are the same variables and their package
// variables the same objects.
type World struct {
	P      *Program
	B      *term.Builder
	Limits Limits
	// Feasible says whether a path condition can hold. The executor asks
	// it before it unrolls one more iteration of a loop whose exit
	// depends on the inputs; nil means every condition can.
	Feasible func(*term.Term) (bool, error)
	// Debug, if set, receives a line for each question to Feasible.
	Debug io.Writer

	sizes   types.Sizes
	base    map[int]Value
	objects map[int]*object
	nextObj int
	tables  map[*Array]*tableOf
	globals map[*ssa.Global]int
	inits   map[*ssa.Package]error // package initializations done, with their failure
	// initStored marks the objects package initializations assigned.
	initStored map[int]bool
	strings    map[string]*Array // constant strings' octets, for indexing
	unknowns   int               // fresh variables package initializations branched on
	steps      int
}

// NewWorld returns a World over p.
func NewWorld(p *Program) *World {
	return &World{P: p, B: term.NewBuilder(), Limits: DefaultLimits, sizes: p.sizes,
		base: map[int]Value{}, objects: map[int]*object{0: {what: "nil"}}, tables: map[*Array]*tableOf{},
		globals: map[*ssa.Global]int{}, inits: map[*ssa.Package]error{}, initStored: map[int]bool{},
		strings: map[string]*Array{}}
}

// Object describes object id: what it is and its type.
func (w *World) Object(id int) (what string, typ types.Type) {
	o := w.objects[id]
	if o == nil {
		return "?", nil
	}
	return o.what, o.typ
}

// Base returns object id's content before any execution.
func (w *World) Base(id int) Value { return w.base[id] }

// NewInput makes an input object of type t holding v in the base heap
// (compared after the call), named what, and returns its id.
func (w *World) NewInput(t types.Type, v Value, what string) int {
	id := w.alloc(nil, t, v, what)
	w.objects[id].input = true
	return id
}

// NewObject makes an object of type t holding v in the base heap (a bound
// argument's: not compared after the call).
func (w *World) NewObject(t types.Type, v Value, what string) int {
	return w.alloc(nil, t, v, what)
}

// Width is the width in bits of integer type t (0 for bool).
func (w *World) Width(t types.Type) uint8 {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return 0
	}
	return w.width(b)
}

// Zero returns the zero value of t.
func (w *World) Zero(t types.Type) (Value, error) { return w.zero(t) }

// Merge returns the value that is a where c holds and b elsewhere.
func (w *World) Merge(c *term.Term, a, b Value) (Value, bool) { return w.merge(c, a, b) }

// Load returns the content of the object, or of the element of an
// object, that path leads to.
func (w *World) Load(h *Heap, obj int, path []Step) (Value, error) {
	return w.load(h.Get(obj), path)
}

// BaseHeap is the heap before any execution.
func (w *World) BaseHeap() *Heap { return w.newHeap() }
