// Package prove proves two Go functions equal for every input up to a
// bound, where the suites of package equiv only test them: an equiv.Method
// that, for each input length in turn, executes both functions on
// symbolic inputs (every octet and every integer argument a variable;
// loops unrolled, since the trip counts are known once the length is) and
// asks an SMT solver (z3 or cvc5, run as a subprocess) whether their
// results, the final contents of every input buffer, or whether they
// panic, can differ. Each length ends proved, with a minimized
// counterexample that replays as a "go test fuzz v1" file, or not proved
// within the time limit, which fails the method (equiv.ErrUnproved):
// nothing unproved reads as a pass.
//
//	suite.Methods = append(suite.Methods, prove.Method(ref.Mask, myMask,
//		prove.Sizes(prove.Upto(16, 64, 256))))
//
// It lives in a module of its own so that its dependency on
// golang.org/x/tools (go/packages, go/ssa: the functions are executed
// from their source) reaches only those who ask for proofs.
//
// # What is trusted
//
// A proof is as good as the executor's semantics of Go (package
// internal/symex, tested against the compiled code on every construct it
// supports, see its tests), the solver, and the modelling of the inputs:
// slices of the given lengths whose spare capacity (if any) is compared
// too, integer arguments over their whole range, arguments bound with
// Func.Args fixed. Package variables are read at the value their
// declaration gives them; one that any loaded function assigns stops the
// proof. Code the executor does not run (interface calls of unknown
// dynamic type, maps, channels, goroutines, defer, unsafe, reflect,
// floating point, assembly) stops the proof with the construct and its
// line, never a wrong verdict; it is only reported where the solver
// finds an input that reaches it.
package prove

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
)

// Func is a function for the prover: a Go function value, or a function
// named in source (for unexported ones and methods), with arguments bound
// to its first parameters.
type Func struct {
	// Value is a Go function: a function or a method expression
	// ((*T).M), not a closure or a method value, whose captured
	// variables the prover cannot read. It is also what a counterexample
	// is replayed on.
	Value any
	// Pkg and Name name the function in source when Value is nil: the
	// import path and "F", "T.M", "(*T).M", or a function literal as
	// "F.func1".
	Pkg, Name string
	// Args, if set, returns arguments bound to the parameters, from the
	// first, made afresh for every use (a receiver is changed by its
	// method): real Go values, which the prover reads (unexported fields
	// included). A struct of the same field types stands for an
	// unexported struct type. Free in a position, and every position past
	// the end, leaves that parameter free: an input of the proof.
	Args func() []any
	// Factory says that the function, called with Args (every one
	// bound), returns the function to prove: a closure, whose captured
	// variables the prover then knows.
	Factory bool
}

// Free marks a parameter left free among Func.Args.
var Free any = free{}

type free struct{}

// name is how messages name f.
func (f Func) name() string {
	if f.Value != nil {
		return runtime.FuncForPC(reflect.ValueOf(f.Value).Pointer()).Name()
	}
	return f.Pkg + "." + f.Name
}

// shortName is the function's name without its package path.
func (f Func) shortName() string {
	n := f.name()
	if i := strings.LastIndex(n, "/"); i >= 0 {
		n = n[i+1:]
	}
	if _, after, ok := strings.Cut(n, "."); ok {
		return after
	}
	return n
}

// Option configures a proof method.
type Option func(*config)

type config struct {
	name     string
	fn       string
	sizes    func(equiv.Level) []int
	lengths  func(n int) []int
	spare    int
	timeout  func(equiv.Level) time.Duration
	memoryMB int
	solver   string
	dir      string
	tags     []string
	fuzz     func(in []any) (target string, args []any)
	describe func(in []any) (input []byte, args string)
	confirm  func(in []any) *equiv.Counterexample
	panics   bool
}

func newConfig(opts []Option) *config {
	c := &config{name: equiv.MethodProve, sizes: Upto(16, 64, 64), memoryMB: 4096, timeout: defaultTimeout}
	for _, o := range opts {
		o(c)
	}
	return c
}

// defaultTimeout bounds each size's solver call: 30 s at quick, 2 minutes
// at standard, 10 at deep.
func defaultTimeout(l equiv.Level) time.Duration {
	switch l {
	case equiv.Quick:
		return 30 * time.Second
	case equiv.Standard:
		return 2 * time.Minute
	}
	return 10 * time.Minute
}

// Name names the method (default "prove"), so that a suite can carry
// several.
func Name(name string) Option { return func(c *config) { c.name = name } }

// FuncName is the name counterexamples give the function ("Mask").
// The default is the implementation's name.
func FuncName(name string) Option { return func(c *config) { c.fn = name } }

// Sizes chooses the sizes (input lengths) proved at each level, in the
// order they are tried; the first counterexample ends the method, so
// ascending sizes give the shortest. The default is Upto(16, 64, 64).
func Sizes(f func(equiv.Level) []int) Option { return func(c *config) { c.sizes = f } }

// Upto returns the sizes 0..quick at quick, 0..standard at standard and
// 0..deep at deep.
func Upto(quick, standard, deep int) func(equiv.Level) []int {
	return Range(0, quick, standard, deep)
}

// Range returns the sizes from..quick, from..standard and from..deep.
func Range(from, quick, standard, deep int) func(equiv.Level) []int {
	return func(l equiv.Level) []int {
		hi := map[equiv.Level]int{equiv.Quick: quick, equiv.Standard: standard, equiv.Deep: deep}[l]
		var out []int
		for n := from; n <= hi; n++ {
			out = append(out, n)
		}
		return out
	}
}

// Lengths sets the lengths of the slice parameters for size n, in the
// order of the parameters (bound ones excluded). The default gives every
// slice parameter length n.
func Lengths(f func(n int) []int) Option { return func(c *config) { c.lengths = f } }

// Spare gives every slice parameter k elements of spare capacity, which
// are symbolic too and compared after the call: an implementation that
// writes past the length (or appends in place) where the reference does
// not is caught.
func Spare(k int) Option { return func(c *config) { c.spare = k } }

// Timeout bounds each size's solver call at each level (default 30 s at
// quick, 2 minutes at standard, 10 at deep). A size the solver does not
// decide by then is not proved, and fails the method.
func Timeout(f func(equiv.Level) time.Duration) Option { return func(c *config) { c.timeout = f } }

// MemoryMB bounds each solver process's memory (default 4096).
func MemoryMB(mb int) Option { return func(c *config) { c.memoryMB = mb } }

// Solver picks the solver ("z3" or "cvc5"); the default is the first of
// those found on PATH.
func Solver(name string) Option { return func(c *config) { c.solver = name } }

// Dir is the directory the functions' packages are loaded from (one in a
// module that requires them); the default is the working directory.
func Dir(dir string) Option { return func(c *config) { c.dir = dir } }

// Tags are build tags the packages are loaded with (as go build -tags).
func Tags(tags ...string) Option { return func(c *config) { c.tags = tags } }

// FuzzTarget gives a counterexample its fuzz-target form: args turns the
// inputs (the free parameters' values, in order) into the target's
// arguments, so that the counterexample's FuzzFile replays it.
func FuzzTarget(f func(in []any) (target string, args []any)) Option {
	return func(c *config) { c.fuzz = f }
}

// Describe renders a counterexample's inputs: the octets shown as its
// input and the other coordinates. The default shows the first []byte
// parameter as the input and every other one as name=value.
func Describe(f func(in []any) (input []byte, args string)) Option {
	return func(c *config) { c.describe = f }
}

// Confirm replays a counterexample on the compiled code: f runs the
// implementation and the reference on the inputs and returns their
// disagreement (nil if they agree). It is needed where Func.Value is not
// given, and replaces the default replay (a call of both Values) where it
// is. A counterexample that does not replay is an error of the prover,
// reported as such, never a counterexample.
func Confirm(f func(in []any) *equiv.Counterexample) Option {
	return func(c *config) { c.confirm = f }
}

// PanicValues compares what two panics carry (the value of a call of
// panic, the kind of a runtime error), as equiv.Config.SamePanic does
// without AnyPanic; by default only whether each panics is compared, as
// with equiv.AnyPanic. Runtime errors are compared by kind (an index out
// of range, a nil dereference), not by the index in their message.
func PanicValues() Option { return func(c *config) { c.panics = true } }

// Method returns a method that proves impl equal to ref, which have one
// function type, for every input of each size (see Sizes): their results,
// the final contents of their slice and pointer arguments, and whether
// they panic. It is skipped, with the reason, where no solver is
// installed.
func Method[F any](ref, impl F, opts ...Option) equiv.Method {
	return Funcs(Func{Value: ref}, Func{Value: impl}, opts...)
}

// Funcs is Method for functions named in source or with bound arguments:
// their parameters after the bound ones, and their results, must have
// identical types.
func Funcs(ref, impl Func, opts ...Option) equiv.Method {
	c := newConfig(opts)
	if c.fn == "" {
		c.fn = impl.shortName()
	}
	m := &method{cfg: c, ref: ref, impl: impl}
	register(workingDir(c.dir), c.tags, packagesOf(ref, impl)...)
	em := equiv.Method{Name: c.name, Func: m.run}
	if s, err := m.pickSolver(); err != nil {
		em.Skip = err.Error()
	} else {
		m.solver = s
	}
	return em
}

func (f Func) String() string { return fmt.Sprint(f.name()) }
