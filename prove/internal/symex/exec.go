package symex

import (
	"container/heap"
	"errors"
	"fmt"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// Outcome is how one group of paths through a function ends: a return
// (Results), a panic (Panic) or a construct the executor does not run
// (Unsupported), under Guard, the condition on the inputs that leads
// there. Heap is the memory at the end.
type Outcome struct {
	Guard       *term.Term
	Results     []Value
	Panic       *Panic
	Unsupported *Unsupported
	Heap        *Heap
}

// Panic is a panic: its kind ("index out of range", "slice bounds out of
// range", "nil pointer dereference", "integer divide by zero", "negative
// shift amount", "type assertion", or "panic" for a call of panic) and,
// for a call of panic, the value.
type Panic struct {
	Kind  string
	Value Value
	Pos   string
}

// ErrLimit is wrapped by the error of an execution that reached one of
// its Limits: nothing is known about the paths it did not finish.
var ErrLimit = errors.New("execution limit reached")

// state is one group of paths: where they are (a stack of frames), under
// which condition, with which memory.
type state struct {
	guard  *term.Term
	frames []*frame
	heap   *Heap
	key    []int32
	// dirty is set when guard has grown, by a branch on a condition that
	// is not constant, since it was last found satisfiable.
	dirty bool
	// fixed holds the terms a split (splitOn) made constants on s's
	// paths.
	fixed map[*term.Term]*term.Term
}

// fix returns t's constant on s's paths if a split fixed it, else t.
func (s *state) fix(t *term.Term) *term.Term {
	if c, ok := s.fixed[t]; ok {
		return c
	}
	return t
}

// frame is one function activation.
type frame struct {
	fn    *Function
	env   map[ssa.Value]Value
	block *ssa.BasicBlock
	pc    int
	iters []int32 // iterations of the loops around block, outermost first
	// exits has bit i set when, in the current iteration of the loop at
	// level i, an exit test had a constant outcome.
	exits uint64
}

func (s *state) top() *frame { return s.frames[len(s.frames)-1] }

func (s *state) clone() *state {
	c := &state{guard: s.guard, heap: s.heap.clone(), frames: make([]*frame, len(s.frames)), dirty: s.dirty}
	if s.fixed != nil {
		c.fixed = make(map[*term.Term]*term.Term, len(s.fixed))
		for k, v := range s.fixed {
			c.fixed[k] = v
		}
	}
	for i, f := range s.frames {
		g := *f
		g.env = make(map[ssa.Value]Value, len(f.env))
		for k, v := range f.env {
			g.env[k] = v
		}
		g.iters = slices.Clone(f.iters)
		c.frames[i] = &g
	}
	return c
}

// computeKey orders states by where they are: frame by frame, the block's
// position in its function's order with the loop iterations interleaved,
// then the instruction. Every step a state takes makes its key larger,
// so states that reach one point are all queued before any leaves it.
func (s *state) computeKey() {
	k := s.key[:0]
	for _, f := range s.frames {
		k = append(k, f.fn.id)
		pos := f.fn.pos[f.block.Index]
		for i, it := range f.iters {
			k = append(k, pos[i], it)
		}
		k = append(k, pos[len(pos)-1], int32(f.pc))
	}
	s.key = k
}

// queue is the scheduler's priority queue of states, smallest key first.
type queue []*state

func (q queue) Len() int           { return len(q) }
func (q queue) Less(i, j int) bool { return slices.Compare(q[i].key, q[j].key) < 0 }
func (q queue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)        { *q = append(*q, x.(*state)) }
func (q *queue) Pop() any {
	old := *q
	s := old[len(old)-1]
	*q = old[:len(old)-1]
	return s
}

// run is one execution: the states waiting, the outcomes so far.
type run struct {
	w        *World
	q        queue
	outcomes []Outcome
	init     bool // a package initialization: failures poison values
}

// Execute runs fn on args from the base heap and returns its outcomes.
// It fails only when a limit is reached or the executor meets a state it
// cannot handle; constructs it does not run are Unsupported outcomes.
func (w *World) Execute(fn *ssa.Function, args []Value) ([]Outcome, error) {
	r := &run{w: w}
	s := &state{guard: w.B.True(), heap: w.newHeap()}
	if err := r.enter(s, fn, args, nil); err != nil {
		var u *Unsupported
		if !errors.As(err, &u) {
			return nil, err
		}
		return []Outcome{{Guard: w.B.True(), Unsupported: u, Heap: s.heap}}, nil
	}
	if err := r.loop(); err != nil {
		return nil, err
	}
	return r.outcomes, nil
}

// ExecuteFunc runs the function value fn (a closure, with the values of
// its free variables) on args from heap h (the memory its maker left; nil
// for the base heap) and returns its outcomes.
func (w *World) ExecuteFunc(fn Func, args []Value, h *Heap) ([]Outcome, error) {
	r := &run{w: w}
	if h == nil {
		h = w.newHeap()
	}
	s := &state{guard: w.B.True(), heap: h.clone()}
	if err := r.enter(s, fn.Fn.Fn, args, fn.Env); err != nil {
		var u *Unsupported
		if !errors.As(err, &u) {
			return nil, err
		}
		return []Outcome{{Guard: w.B.True(), Unsupported: u, Heap: s.heap}}, nil
	}
	if err := r.loop(); err != nil {
		return nil, err
	}
	return r.outcomes, nil
}

// enter pushes a frame for fn called with args (and free variables env)
// and queues the state at its first instruction.
func (r *run) enter(s *state, fn *ssa.Function, args, env []Value) error {
	if fn.Pkg != nil && len(fn.Blocks) == 0 {
		r.w.P.build(fn.Pkg)
	}
	if len(fn.Blocks) == 0 {
		return r.unsupported(fmt.Sprintf("call of %s, which has no Go body (assembly or a runtime function)", fn), fn.Pos())
	}
	if len(s.frames) >= r.w.Limits.Depth {
		return fmt.Errorf("%w: calls nested deeper than %d (at %s)", ErrLimit, r.w.Limits.Depth, fn)
	}
	if s.dirty && r.recursive(s, fn) && r.w.Feasible != nil && !s.guard.IsConst() {
		// A recursive call on a path whose condition has grown: like one
		// more iteration of a loop whose exit depends on the inputs.
		s.dirty = false
		ok, err := r.w.Feasible(s.guard)
		if err != nil || !ok {
			return err
		}
	}
	info, err := r.w.P.function(fn)
	if err != nil {
		return r.unsupported(fmt.Sprintf("%s: %v", fn, err), fn.Pos())
	}
	f := &frame{fn: info, env: make(map[ssa.Value]Value, 32), block: fn.Blocks[0]}
	if len(args) != len(fn.Params) || len(env) != len(fn.FreeVars) {
		return fmt.Errorf("internal: %s called with %d arguments and %d free variables", fn, len(args), len(env))
	}
	for i, p := range fn.Params {
		f.env[p] = args[i]
	}
	for i, v := range fn.FreeVars {
		f.env[v] = env[i]
	}
	s.frames = append(s.frames, f)
	r.push(s)
	return nil
}

func (r *run) push(s *state) {
	s.computeKey()
	heap.Push(&r.q, s)
}

// loop runs the queued states in key order, merging those that meet.
func (r *run) loop() error {
	for r.q.Len() > 0 {
		if r.q.Len() > r.w.Limits.States {
			return fmt.Errorf("%w: more than %d paths at once", ErrLimit, r.w.Limits.States)
		}
		first := heap.Pop(&r.q).(*state)
		group := []*state{first}
		for r.q.Len() > 0 && slices.Equal(r.q[0].key, first.key) {
			group = append(group, heap.Pop(&r.q).(*state))
		}
		for _, s := range r.mergeAll(group) {
			if err := r.exec(s); err != nil {
				return err
			}
		}
	}
	return nil
}

// mergeAll merges the states of one point into as few as their values
// allow.
func (r *run) mergeAll(group []*state) []*state {
	var out []*state
	for _, s := range group {
		merged := false
		for i, o := range out {
			if m, ok := r.mergeStates(o, s); ok {
				out[i], merged = m, true
				break
			}
		}
		if !merged {
			out = append(out, s)
		}
	}
	return out
}

// mergeStates merges two states at one point: the values live there and
// the memory, each chosen by a's guard.
func (r *run) mergeStates(a, b *state) (*state, bool) {
	w := r.w
	c := a.guard
	out := &state{guard: w.B.Or(a.guard, b.guard), frames: make([]*frame, len(a.frames)), dirty: a.dirty && b.dirty}
	for i, fa := range a.frames {
		fb := b.frames[i]
		pc := fa.pc
		if i < len(a.frames)-1 {
			pc++ // a caller waits at its call: what is live after it
		}
		live := fa.fn.liveAt(fa.block, pc)
		if differentConstants(fa.fn.counters(fa.block, live), fa.env, fb.env) {
			// Merged, the two constants would make a loop's count (an
			// index, a length) depend on the inputs: the loop would be
			// unrolled with the solver asked at every turn.
			return nil, false
		}
		f := &frame{fn: fa.fn, block: fa.block, pc: fa.pc, iters: fa.iters, exits: fa.exits & fb.exits,
			env: make(map[ssa.Value]Value, len(live))}
		for v := range live {
			va, okA := fa.env[v]
			vb, okB := fb.env[v]
			if !okA || !okB {
				if okA {
					f.env[v] = va
				} else if okB {
					f.env[v] = vb
				}
				continue
			}
			m, ok := w.merge(c, va, vb)
			if !ok {
				return nil, false
			}
			f.env[v] = m
		}
		out.frames[i] = f
	}
	h, ok := w.mergeHeaps(c, a.heap, b.heap)
	if !ok {
		return nil, false
	}
	out.heap = h
	out.key = a.key
	return out, true
}

// exec runs s until it leaves the current point: it ends, or it is queued
// again at a point where other states may meet it.
func (r *run) exec(s *state) error {
	for {
		f := s.top()
		if f.pc >= len(f.block.Instrs) {
			return fmt.Errorf("internal: ran off block %d of %s", f.block.Index, f.fn.Fn)
		}
		if r.w.steps++; r.w.steps > r.w.Limits.Steps {
			return fmt.Errorf("%w: more than %d instructions executed", ErrLimit, r.w.Limits.Steps)
		}
		ins := f.block.Instrs[f.pc]
		more, err := r.step(s, f, ins)
		if err != nil {
			var sp *splitOn
			if errors.As(err, &sp) {
				return r.split(s, sp.t)
			}
			var u *Unsupported
			if !errors.As(err, &u) {
				return err
			}
			if v, isValue := ins.(ssa.Value); r.init && isValue {
				// Package initialization goes on without this value:
				// reading it later says why it is missing.
				f.env[v] = Poison{Reason: u}
				f.pc++
				continue
			}
			if u.From == nil {
				for i := len(s.frames) - 2; i >= 0; i-- {
					f := s.frames[i]
					u.From = append(u.From, r.w.P.Pos(f.block.Instrs[f.pc].Pos()))
				}
			}
			r.end(s, Outcome{Unsupported: u})
			return nil
		}
		if !more {
			return nil
		}
	}
}

// end records s's paths as ending in o.
func (r *run) end(s *state, o Outcome) {
	o.Guard, o.Heap = s.guard, s.heap
	r.outcomes = append(r.outcomes, o)
}

// unsupported is the error for construct what at pos.
func (r *run) unsupported(what string, pos token.Pos) error {
	return &Unsupported{What: what, Pos: r.w.P.Pos(pos)}
}

// jump moves the top frame of s from its block to succ, evaluating succ's
// phis, and reports whether s may go on at once (false: it was queued, or
// dropped as infeasible).
func (r *run) jump(s *state, succ *ssa.BasicBlock) (bool, error) {
	f := s.top()
	from := f.block
	pred := slices.Index(succ.Preds, from)
	vals := make([]Value, 0, 4)
	var phis []*ssa.Phi
	for _, ins := range succ.Instrs {
		phi, ok := ins.(*ssa.Phi)
		if !ok {
			break
		}
		v, err := r.value(s, phi.Edges[pred])
		if err != nil {
			return false, err
		}
		phis, vals = append(phis, phi), append(vals, v)
	}
	for i, phi := range phis {
		f.env[phi] = vals[i]
	}
	exits := f.exits
	back, err := r.advanceLoops(f, from, succ)
	if err != nil {
		return false, err
	}
	f.block, f.pc = succ, firstNonPhi(succ)
	if level := len(f.iters) - 1; back && s.dirty && exits&(1<<level) == 0 {
		// One more iteration of a loop that no exit test with a constant
		// outcome kept going this time round, on a path whose condition
		// has grown since it was last found satisfiable: whether it goes
		// on depends on the inputs, and unrolling stops where no input
		// does. A loop that a constant test kept going (a counted loop,
		// even with early returns that depend on the inputs) ends by its
		// count and asks nothing.
		s.dirty = false
		if r.w.Feasible != nil && !s.guard.IsConst() {
			if r.w.Debug != nil {
				fmt.Fprintf(r.w.Debug, "symex: does the loop at %s go on (iterations %v)?\n", r.w.P.Pos(succ.Instrs[0].Pos()), f.iters)
			}
			ok, err := r.w.Feasible(s.guard)
			if err != nil {
				return false, err
			}
			if !ok {
				return false, nil
			}
		}
	}
	if len(succ.Preds) > 1 {
		r.push(s)
		return false, nil
	}
	return true, nil
}

// advanceLoops updates f's iteration counts for the edge from → to and
// reports whether it goes round a loop (a back edge).
func (r *run) advanceLoops(f *frame, from, to *ssa.BasicBlock) (bool, error) {
	cf, ct := f.fn.chain[from.Index], f.fn.chain[to.Index]
	for i, l := range cf {
		if l.header == to {
			iters := slices.Clone(f.iters[:i+1])
			iters[i]++
			f.exits &= 1<<i - 1 // a new iteration: no exit test seen yet at level i or deeper
			if int(iters[i]) > r.w.Limits.Loop {
				return false, fmt.Errorf("%w: a loop at %s ran more than %d times", ErrLimit, r.w.P.Pos(to.Instrs[0].Pos()), r.w.Limits.Loop)
			}
			f.iters = iters
			return true, nil
		}
	}
	n := 0
	for n < len(cf) && n < len(ct) && cf[n] == ct[n] {
		n++
	}
	iters := make([]int32, len(ct))
	copy(iters, f.iters[:n])
	f.iters = iters
	f.exits &= 1<<n - 1
	return false, nil
}

// splitOn asks exec to split the state on the values of t, a choice among
// constants, and to run the instruction again in each part, where t is
// that constant: for operations that need a constant (a length to append
// or copy), on a value that paths merged from different constants.
type splitOn struct{ t *term.Term }

func (e *splitOn) Error() string { return "internal: split on " + e.t.String() }

// maxLeaves bounds the constants a split makes.
const maxLeaves = 64

// choices returns the constants t can take, each with the condition
// under which it does: the leaves of an if-then-else tree of constants, or
// else every value up to a small bound on t (a length modulo 8, say); ok
// is false if there are too many.
func (w *World) choices(t *term.Term) ([]leaf, bool) {
	if ls, ok := w.leaves(t); ok {
		return ls, true
	}
	ub, ok := upperBound(t)
	if !ok || ub >= maxLeaves {
		return nil, false
	}
	out := make([]leaf, ub+1)
	for v := range ub + 1 {
		k := w.B.BV(t.W, v)
		out[v] = leaf{cond: w.B.Eq(t, k), val: k}
	}
	return out, true
}

// upperBound returns a bound on the values of the bit-vector t from its
// shape alone, or ok false.
func upperBound(t *term.Term) (uint64, bool) {
	switch t.Op {
	case term.Const:
		return t.Val, true
	case term.Zext:
		if ub, ok := upperBound(t.Args[0]); ok {
			return ub, true
		}
		return term.Mask(t.Args[0].W), true
	case term.BvAnd:
		a, okA := upperBound(t.Args[0])
		b, okB := upperBound(t.Args[1])
		switch {
		case okA && okB:
			return min(a, b), true
		case okA:
			return a, true
		}
		return b, okB
	case term.Urem:
		if d := t.Args[1]; d.IsConst() && d.Val > 0 {
			return d.Val - 1, true
		}
	case term.Lshr:
		if a, ok := upperBound(t.Args[0]); ok && t.Args[1].IsConst() {
			return a >> min(t.Args[1].Val, 63), true
		}
		if t.Args[1].IsConst() && t.Args[1].Val < uint64(t.W) {
			return term.Mask(t.W) >> t.Args[1].Val, true
		}
	case term.Ite:
		a, okA := upperBound(t.Args[1])
		b, okB := upperBound(t.Args[2])
		return max(a, b), okA && okB
	case term.Extract:
		return term.Mask(t.W), true
	}
	if t.W > 0 && t.W <= 6 {
		return term.Mask(t.W), true
	}
	return 0, false
}

// leaves returns the constants an if-then-else tree of constants t takes,
// each with the condition under which it does, or ok false.
func (w *World) leaves(t *term.Term) (out []leaf, ok bool) {
	var walk func(t, c *term.Term) bool
	walk = func(t, c *term.Term) bool {
		switch {
		case len(out) > maxLeaves:
			return false
		case t.IsConst():
			out = append(out, leaf{cond: c, val: t})
			return true
		case t.Op == term.Ite:
			return walk(t.Args[1], w.B.And(c, t.Args[0])) && walk(t.Args[2], w.B.And(c, w.B.Not(t.Args[0])))
		}
		return false
	}
	return out, walk(t, w.B.True())
}

type leaf struct{ cond, val *term.Term }

// split runs s once per constant t takes, t replaced by the constant in
// every value of its frames.
func (r *run) split(s *state, t *term.Term) error {
	ls, _ := r.w.choices(t)
	for _, l := range ls {
		g := r.w.B.And(s.guard, l.cond)
		if g.IsFalse() {
			continue
		}
		c := s.clone()
		c.guard, c.dirty = g, true
		if c.fixed == nil {
			c.fixed = map[*term.Term]*term.Term{}
		}
		if _, again := c.fixed[t]; again {
			return fmt.Errorf("internal: split on %s twice", t)
		}
		c.fixed[t] = l.val
		for _, f := range c.frames {
			for v, val := range f.env {
				f.env[v] = substitute(val, t, l.val)
			}
		}
		if err := r.exec(c); err != nil {
			return err
		}
	}
	return nil
}

// substitute returns v with the term from replaced by to where it stands
// as a value or as a slice's offset, length or capacity (not inside other
// terms).
func substitute(v Value, from, to *term.Term) Value {
	switch x := v.(type) {
	case *term.Term:
		if x == from {
			return to
		}
	case Slice:
		for _, p := range []**term.Term{&x.Off, &x.Len, &x.Cap} {
			if *p == from {
				*p = to
			}
		}
		return x
	case Tuple:
		out := Tuple{Vals: make([]Value, len(x.Vals))}
		for i, e := range x.Vals {
			out.Vals[i] = substitute(e, from, to)
		}
		return out
	}
	return v
}

// recursive reports whether fn is already on s's stack.
func (r *run) recursive(s *state, fn *ssa.Function) bool {
	for _, f := range s.frames {
		if f.fn.Fn == fn {
			return true
		}
	}
	return false
}

// differentConstants reports whether one of vs is a different integer
// constant in each environment.
func differentConstants(vs []ssa.Value, a, b map[ssa.Value]Value) bool {
	for _, v := range vs {
		x, okA := a[v].(*term.Term)
		y, okB := b[v].(*term.Term)
		if okA && okB && x != y && x.IsConst() && y.IsConst() && x.W > 0 {
			return true
		}
	}
	return false
}
