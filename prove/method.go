package prove

import (
	"context"
	"errors"
	"fmt"
	"go/types"
	"os"
	"reflect"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/prove/internal/solver"
	"github.com/equivcheck/equivcheck/prove/internal/symex"
	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// ErrUnsupported is matched by the error of a proof that met Go the
// executor does not run, on a path some input takes: the error names the
// construct and its line.
var ErrUnsupported = errors.New("unsupported by the prover")

// ErrProver is matched by the error of a proof whose counterexample did
// not replay on the compiled code: a bug in the prover (its executor or
// the solver), reported as such and never as a counterexample.
var ErrProver = errors.New("the prover disagrees with the compiled code")

// debugMode, from PROVE_DEBUG, logs every solver call ("dump": and writes
// its script to /tmp).
var debugMode = os.Getenv("PROVE_DEBUG")

// method is one proof method: a pair of functions and its options.
type method struct {
	cfg       *config
	ref, impl Func
	solver    solver.Solver
}

// pickSolver finds the solver the options ask for, or the first one
// installed.
func (m *method) pickSolver() (solver.Solver, error) {
	found := solver.Find()
	if len(found) == 0 {
		return solver.Solver{}, errors.New("no SMT solver on PATH (apt-get install z3, or cvc5)")
	}
	if m.cfg.solver == "" {
		return found[0], nil
	}
	for _, s := range found {
		if s.Name == m.cfg.solver {
			return s, nil
		}
	}
	return solver.Solver{}, fmt.Errorf("solver %s not on PATH", m.cfg.solver)
}

// side is one of the two functions, resolved.
type side struct {
	f       Func
	fn      *ssa.Function // the function named: for a factory, the factory
	params  []*types.Var  // the free parameters, in order
	at      []int         // their positions among the function's parameters
	results *types.Tuple
}

// resolve finds f's function in prog and sorts its parameters into bound
// and free ones.
func resolve(prog *symex.Program, f Func) (side, error) {
	var fn *ssa.Function
	var err error
	if f.Value != nil {
		if reflect.TypeOf(f.Value).Kind() != reflect.Func {
			return side{}, fmt.Errorf("%v is not a function", f.Value)
		}
		fn, err = prog.LookupRuntime(f.name())
	} else {
		fn, err = prog.Lookup(f.Pkg, f.Name)
	}
	if err != nil {
		return side{}, err
	}
	s := side{f: f, fn: fn}
	var args []any
	if f.Args != nil {
		args = f.Args()
	}
	if len(args) > len(fn.Params) {
		return side{}, fmt.Errorf("%s: %d arguments given, it has %d parameters", f.name(), len(args), len(fn.Params))
	}
	if f.Factory {
		for _, a := range args {
			if a == Free {
				return side{}, fmt.Errorf("%s: a factory's arguments are all bound", f.name())
			}
		}
		res := fn.Signature.Results()
		sig, ok := types.Unalias(res.At(0).Type()).Underlying().(*types.Signature)
		if res.Len() != 1 || !ok || len(args) != len(fn.Params) {
			return side{}, fmt.Errorf("%s is no factory: it must take the arguments given and return one function", f.name())
		}
		for i := range sig.Params().Len() {
			s.params, s.at = append(s.params, sig.Params().At(i)), append(s.at, i)
		}
		s.results = sig.Results()
		return s, nil
	}
	for i, prm := range fn.Params {
		if i >= len(args) || args[i] == Free {
			s.params, s.at = append(s.params, types.NewVar(prm.Pos(), nil, prm.Name(), prm.Type())), append(s.at, i)
		}
	}
	s.results = fn.Signature.Results()
	return s, nil
}

// sameSignature checks that the two sides' free parameters and results
// have identical types.
func sameSignature(a, b side) error {
	ok := len(a.params) == len(b.params) && a.results.Len() == b.results.Len()
	for i := 0; ok && i < len(a.params); i++ {
		ok = types.Identical(a.params[i].Type(), b.params[i].Type())
	}
	for i := 0; ok && i < a.results.Len(); i++ {
		ok = types.Identical(a.results.At(i).Type(), b.results.At(i).Type())
	}
	if !ok {
		return fmt.Errorf("%s and %s take or return different types", a.f.name(), b.f.name())
	}
	return nil
}

// run is the method's Func: each size in turn, until the first that is
// not proved.
func (m *method) run(r *equiv.Run) error {
	ctx, stop := m.context(r)
	defer stop()
	dir := workingDir(m.cfg.dir)
	prog, err := program(dir, m.cfg.tags, packagesOf(m.ref, m.impl)...)
	if err != nil {
		return r.Errorf("%w", err)
	}
	ref, err := resolve(prog, m.ref)
	if err != nil {
		return r.Errorf("%w", err)
	}
	impl, err := resolve(prog, m.impl)
	if err != nil {
		return r.Errorf("%w", err)
	}
	if err := sameSignature(ref, impl); err != nil {
		return r.Errorf("%w", err)
	}
	version := m.solver.Version()
	for _, n := range m.cfg.sizes(r.Level()) {
		if ctx.Err() != nil {
			return r.Errorf("after %d sizes: %w", r.Checked(), equiv.ErrInterrupted)
		}
		p := &proof{m: m, r: r, ctx: ctx, prog: prog, ref: ref, impl: impl, n: n}
		start := time.Now()
		out, err := p.prove()
		b := equiv.Bound{Size: n, Elapsed: time.Since(start), Solver: version, Note: out.note}
		switch {
		case err != nil:
			b.Outcome = equiv.Unproved
			b.Note = err.Error()
			r.Bound(b)
			return err
		case out.ce != nil:
			b.Outcome = equiv.Refuted
			r.Bound(b)
			return r.Fail(out.ce)
		case !out.proved:
			b.Outcome = equiv.Unproved
			r.Bound(b)
			return r.Errorf("%s, size %d: %s: %w", m.cfg.fn, n, out.note, equiv.ErrUnproved)
		}
		b.Outcome = equiv.Proved
		r.Bound(b)
		r.Size(n)
		r.Count(1)
	}
	return nil
}

// context is cancelled when the run is stopped; while it lives, the
// watchdog hears from the method every second (each step it waits on is
// bounded by a limit of its own).
func (m *method) context(r *equiv.Run) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-r.Stopped():
				cancel()
				return
			case <-done:
				return
			case <-t.C:
				r.Alive()
			}
		}
	}()
	return ctx, func() { close(done); cancel() }
}

// packagesOf lists the packages of the functions.
func packagesOf(fs ...Func) []string {
	var out []string
	for _, f := range fs {
		if f.Value != nil {
			out = append(out, pkgPath(f.name()))
		} else {
			out = append(out, f.Pkg)
		}
	}
	return out
}

// outcome is what one size came to.
type outcome struct {
	proved bool
	ce     *equiv.Counterexample
	note   string
}

// proof is the work on one size.
type proof struct {
	m         *method
	r         *equiv.Run
	ctx       context.Context
	prog      *symex.Program
	ref, impl side
	n         int
	w         *symex.World
	inputs    []*input
	calls     int // solver calls made (the executor's questions and the proof's)
}

// prove executes both functions on the size's symbolic inputs and asks
// the solver whether their outcomes can differ.
func (p *proof) prove() (outcome, error) {
	p.w = symex.NewWorld(p.prog)
	p.w.Feasible = p.feasible
	if debugMode != "" {
		p.w.Debug = os.Stderr
	}
	if err := p.makeInputs(); err != nil {
		return outcome{}, p.r.Errorf("%w", err)
	}
	refOuts, err := p.execute(p.ref)
	if err != nil {
		return outcome{note: err.Error()}, nil
	}
	implOuts, err := p.execute(p.impl)
	if err != nil {
		return outcome{note: err.Error()}, nil
	}
	for _, o := range append(refOuts, implOuts...) {
		if err := p.unsupported(o); err != nil {
			return outcome{}, err
		}
	}
	differ, err := p.differ(refOuts, implOuts)
	if err != nil {
		return outcome{}, p.r.Errorf("%w", err)
	}
	if differ.IsFalse() {
		return outcome{proved: true, note: "no path differs"}, nil
	}
	res, err := p.solve([]*term.Term{differ}, p.vars(), p.m.cfg.timeout(p.r.Level()))
	if err != nil {
		return outcome{}, p.r.Errorf("%w", err)
	}
	switch res.Status {
	case solver.Unsat:
		return outcome{proved: true, note: fmt.Sprintf("solver cpu %v, %d-byte formula, %d solver calls in all",
			res.CPU.Round(time.Millisecond), res.Script, p.calls)}, nil
	case solver.Unknown:
		return outcome{note: res.Reason}, nil
	}
	ce, err := p.counterexample(res.Values, differ, refOuts, implOuts)
	return outcome{ce: ce}, err
}

// execute runs one side on the size's inputs: the function with its bound
// arguments and the inputs, or the function its factory returns.
func (p *proof) execute(s side) ([]symex.Outcome, error) {
	var bound []any
	if s.f.Args != nil {
		bound = s.f.Args()
	}
	args := make([]symex.Value, len(s.fn.Params))
	for i, prm := range s.fn.Params {
		if i < len(bound) && bound[i] != Free {
			v, err := p.w.FromGo(reflect.ValueOf(bound[i]), prm.Type(), prm.Name())
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
	}
	inputs := make([]symex.Value, len(p.inputs))
	for i, in := range p.inputs {
		inputs[i] = in.val
	}
	if s.f.Factory {
		return p.executeFactory(s, args, inputs)
	}
	for i, at := range s.at {
		args[at] = inputs[i]
	}
	start := time.Now()
	outs, err := p.w.Execute(s.fn, args)
	if err != nil {
		return nil, fmt.Errorf("executing %s: %w", s.f.name(), err)
	}
	if debugMode != "" {
		fmt.Fprintf(os.Stderr, "prove: size %d: executed %s in %v: %d outcomes, %d terms\n", p.n, s.f.name(), time.Since(start), len(outs), p.w.B.Size())
	}
	return outs, nil
}

// executeFactory calls the factory on its arguments (constants: it has
// one outcome), then the function it returns on the inputs.
func (p *proof) executeFactory(s side, args, inputs []symex.Value) ([]symex.Outcome, error) {
	outs, err := p.w.Execute(s.fn, args)
	if err != nil {
		return nil, fmt.Errorf("executing %s: %w", s.f.name(), err)
	}
	if len(outs) != 1 || len(outs[0].Results) != 1 || !outs[0].Guard.IsTrue() {
		if len(outs) == 1 && outs[0].Unsupported != nil {
			return nil, outs[0].Unsupported
		}
		return nil, fmt.Errorf("%s did not return a function", s.f.name())
	}
	fn, ok := outs[0].Results[0].(symex.Func)
	if !ok || fn.Fn == nil {
		return nil, fmt.Errorf("%s did not return a function", s.f.name())
	}
	outs, err = p.w.ExecuteFunc(fn, inputs, outs[0].Heap)
	if err != nil {
		return nil, fmt.Errorf("executing the function %s returns: %w", s.f.name(), err)
	}
	return outs, nil
}

// unsupported returns the error for an Unsupported outcome some input
// reaches.
func (p *proof) unsupported(o symex.Outcome) error {
	if o.Unsupported == nil {
		return nil
	}
	if !o.Guard.IsTrue() {
		res, err := p.solve([]*term.Term{o.Guard}, nil, p.feasibilityTimeout())
		if err != nil {
			return p.r.Errorf("%w", err)
		}
		if res.Status == solver.Unsat {
			return nil
		}
	}
	return p.r.Errorf("%s, size %d: %v: %w", p.m.cfg.fn, p.n, o.Unsupported, ErrUnsupported)
}

// feasible is the executor's question whether a path condition can hold.
func (p *proof) feasible(g *term.Term) (bool, error) {
	res, err := p.solve([]*term.Term{g}, nil, p.feasibilityTimeout())
	if err != nil {
		return false, err
	}
	if res.Status == solver.Unknown {
		return false, fmt.Errorf("whether a loop goes on could not be decided: %s", res.Reason)
	}
	return res.Status == solver.Sat, nil
}

func (p *proof) feasibilityTimeout() time.Duration {
	return min(p.m.cfg.timeout(p.r.Level()), 20*time.Second)
}

func (p *proof) solve(asserts, values []*term.Term, timeout time.Duration) (solver.Result, error) {
	p.r.Alive()
	p.calls++
	res, err := p.m.solver.Check(p.ctx, asserts, values, solver.Limits{Timeout: timeout, MemoryMB: p.m.cfg.memoryMB})
	if debugMode != "" {
		fmt.Fprintf(os.Stderr, "prove: size %d: %d values: %s in %v, %d bytes, %d terms\n", p.n, len(values), res.Status, res.Elapsed, res.Script, p.w.B.Size())
		if debugMode == "dump" {
			f, _ := os.Create(fmt.Sprintf("/tmp/prove-%d-%d.smt2", p.n, time.Now().UnixNano()))
			term.Script(f, asserts, values)
			f.Close()
		}
	}
	if p.ctx.Err() != nil {
		return res, equiv.ErrInterrupted
	}
	return res, err
}
