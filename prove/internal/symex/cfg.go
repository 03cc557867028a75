package symex

import (
	"fmt"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Function is an SSA function with what the scheduler needs to know of its
// control flow: its loops (natural loops, nested), an order of its blocks
// in which every edge but a loop's back edge goes forward and each loop's
// blocks are contiguous (a weak topological order), and which values are
// live where states meet.
type Function struct {
	Fn    *ssa.Function
	id    int32
	loops []*loop
	chain [][]*loop  // per block: the loops containing it, outermost first
	pos   [][]int32  // per block: its element's position at each level of chain (one more than chain)
	live  []valueSet // per block: the values live after its phis
	out   []valueSet // per block: the values live at its end
	midMu map[[2]int]valueSet
}

type loop struct {
	header *ssa.BasicBlock
	blocks map[int]bool // by index
	parent *loop
	depth  int
}

type valueSet map[ssa.Value]bool

// function returns fn's control-flow information, computed once.
func (p *Program) function(fn *ssa.Function) (*Function, error) {
	p.mu.Lock()
	f, ok := p.funcs[fn]
	p.mu.Unlock()
	if ok {
		return f, nil
	}
	f = &Function{Fn: fn, midMu: map[[2]int]valueSet{}}
	if err := f.analyze(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if old, ok := p.funcs[fn]; ok {
		return old, nil
	}
	f.id = int32(len(p.funcs) + 1)
	p.funcs[fn] = f
	return f, nil
}

func (f *Function) analyze() error {
	if err := f.findLoops(); err != nil {
		return err
	}
	n := len(f.Fn.Blocks)
	f.chain = make([][]*loop, n)
	f.pos = make([][]int32, n)
	for _, b := range f.Fn.Blocks {
		for _, l := range f.loops {
			if l.blocks[b.Index] {
				f.chain[b.Index] = append(f.chain[b.Index], l)
			}
		}
		slices.SortFunc(f.chain[b.Index], func(x, y *loop) int { return x.depth - y.depth })
		f.pos[b.Index] = make([]int32, len(f.chain[b.Index])+1)
	}
	if err := f.order(nil, 0); err != nil {
		return err
	}
	f.liveness()
	return nil
}

// findLoops finds the natural loops: for each block that dominates one of
// its predecessors (a loop header), the blocks that reach that back edge
// without passing through it. A cycle entered other than through a
// dominating header (an irreducible one, which goto can make) is refused.
func (f *Function) findLoops() error {
	byHeader := map[*ssa.BasicBlock]*loop{}
	for _, h := range f.Fn.Blocks {
		for _, p := range h.Preds {
			if !h.Dominates(p) {
				continue
			}
			l := byHeader[h]
			if l == nil {
				l = &loop{header: h, blocks: map[int]bool{h.Index: true}}
				byHeader[h] = l
				f.loops = append(f.loops, l)
			}
			work := []*ssa.BasicBlock{p}
			for len(work) > 0 {
				b := work[len(work)-1]
				work = work[:len(work)-1]
				if l.blocks[b.Index] {
					continue
				}
				l.blocks[b.Index] = true
				work = append(work, b.Preds...)
			}
		}
	}
	for _, l := range f.loops {
		for _, o := range f.loops {
			if o != l && o.blocks[l.header.Index] && (l.parent == nil || len(o.blocks) < len(l.parent.blocks)) {
				l.parent = o
			}
		}
	}
	for _, l := range f.loops {
		for p := l.parent; p != nil; p = p.parent {
			l.depth++
		}
	}
	return f.checkReducible()
}

// checkReducible reports an error if the graph without back edges has a
// cycle.
func (f *Function) checkReducible() error {
	state := make([]byte, len(f.Fn.Blocks)) // 0 new, 1 on stack, 2 done
	var visit func(b *ssa.BasicBlock) bool
	visit = func(b *ssa.BasicBlock) bool {
		state[b.Index] = 1
		for _, s := range b.Succs {
			if s.Dominates(b) {
				continue // a back edge
			}
			if state[s.Index] == 1 || (state[s.Index] == 0 && !visit(s)) {
				return false
			}
		}
		state[b.Index] = 2
		return true
	}
	if len(f.Fn.Blocks) > 0 && !visit(f.Fn.Blocks[0]) {
		return fmt.Errorf("irreducible control flow (a loop entered other than through its header)")
	}
	return nil
}

// order gives the elements of one level (the function's top level when l
// is nil, else the body of loop l: its blocks outside inner loops, and its
// inner loops as units) positions in a topological order of the edges
// between them, header first, and recurses into the inner loops.
func (f *Function) order(l *loop, level int) error {
	// element: the block itself, or the loop directly inside l holding it.
	elem := func(b *ssa.BasicBlock) any {
		ch := f.chain[b.Index]
		if len(ch) > level {
			return ch[level]
		}
		return b
	}
	in := func(b *ssa.BasicBlock) bool {
		if l == nil {
			return true
		}
		return l.blocks[b.Index]
	}
	var elems []any
	index := map[any]int{}
	for _, b := range f.Fn.Blocks {
		if !in(b) {
			continue
		}
		if e := elem(b); !slices.Contains(elems, e) {
			index[e] = len(elems)
			elems = append(elems, e)
		}
	}
	edges := make([][]int, len(elems))
	indeg := make([]int, len(elems))
	for _, b := range f.Fn.Blocks {
		if !in(b) {
			continue
		}
		for _, s := range b.Succs {
			if !in(s) || (l != nil && s == l.header) {
				continue // leaves this level, or goes round l
			}
			from, to := index[elem(b)], index[elem(s)]
			if from != to && !slices.Contains(edges[from], to) {
				edges[from] = append(edges[from], to)
				indeg[to]++
			}
		}
	}
	// Kahn's algorithm, lowest index first: the entry (or header) is
	// element 0, the only one without predecessors that can run first.
	var ready []int
	for i := range elems {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	var next int32
	for len(ready) > 0 {
		slices.Sort(ready)
		i := ready[0]
		ready = ready[1:]
		f.place(elems[i], level, next)
		next++
		for _, j := range edges[i] {
			if indeg[j]--; indeg[j] == 0 {
				ready = append(ready, j)
			}
		}
	}
	if int(next) != len(elems) {
		return fmt.Errorf("irreducible control flow")
	}
	for _, e := range elems {
		if inner, ok := e.(*loop); ok {
			if err := f.order(inner, level+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// place records position p at level for every block of element e.
func (f *Function) place(e any, level int, p int32) {
	switch e := e.(type) {
	case *ssa.BasicBlock:
		f.pos[e.Index][level] = p
	case *loop:
		for i := range e.blocks {
			f.pos[i][level] = p
		}
	}
}

// liveness computes, per block, the values live after its phis and at its
// end. Values are the function's parameters, free variables and
// value-producing instructions.
func (f *Function) liveness() {
	n := len(f.Fn.Blocks)
	f.live, f.out = make([]valueSet, n), make([]valueSet, n)
	for i := range n {
		f.live[i], f.out[i] = valueSet{}, valueSet{}
	}
	for changed := true; changed; {
		changed = false
		for i := n - 1; i >= 0; i-- {
			b := f.Fn.Blocks[i]
			out := valueSet{}
			for _, s := range b.Succs {
				for v := range f.live[s.Index] {
					if phi, ok := v.(*ssa.Phi); !ok || phi.Block() != s {
						out[v] = true
					}
				}
				for _, ins := range s.Instrs {
					phi, ok := ins.(*ssa.Phi)
					if !ok {
						break
					}
					if v := phi.Edges[slices.Index(s.Preds, b)]; tracked(v) {
						out[v] = true
					}
				}
			}
			live := f.liveBefore(b, firstNonPhi(b), out)
			if len(out) != len(f.out[i]) || len(live) != len(f.live[i]) {
				changed = true
			}
			f.out[i], f.live[i] = out, live
		}
	}
}

// liveBefore returns the values live before instruction i of b, given
// those live at its end.
func (f *Function) liveBefore(b *ssa.BasicBlock, i int, out valueSet) valueSet {
	live := valueSet{}
	for v := range out {
		live[v] = true
	}
	for j := len(b.Instrs) - 1; j >= i; j-- {
		ins := b.Instrs[j]
		if v, ok := ins.(ssa.Value); ok {
			delete(live, v)
		}
		if _, ok := ins.(*ssa.Phi); ok {
			continue
		}
		for _, op := range ins.Operands(nil) {
			if tracked(*op) {
				live[*op] = true
			}
		}
	}
	return live
}

// liveAt returns the values live before instruction i of b (after its
// phis when i is the first other instruction).
func (f *Function) liveAt(b *ssa.BasicBlock, i int) valueSet {
	if i <= firstNonPhi(b) {
		return f.live[b.Index]
	}
	k := [2]int{b.Index, i}
	if s, ok := f.midMu[k]; ok {
		return s
	}
	s := f.liveBefore(b, i, f.out[b.Index])
	f.midMu[k] = s
	return s
}

func tracked(v ssa.Value) bool {
	switch v.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return true
	case ssa.Instruction:
		return true
	}
	return false
}

func firstNonPhi(b *ssa.BasicBlock) int {
	for i, ins := range b.Instrs {
		if _, ok := ins.(*ssa.Phi); !ok {
			return i
		}
	}
	return len(b.Instrs)
}

// counters returns the values at block b (of those live there) that count
// a loop's turns: the phis of the headers of the loops around b, and at
// the entry of a function with loops, its parameters (the loops' bounds).
// States that have them as different constants are kept apart: merged,
// a loop's exit would depend on the inputs, and the loop be unrolled with
// the solver asked at every turn.
func (f *Function) counters(b *ssa.BasicBlock, live valueSet) []ssa.Value {
	var out []ssa.Value
	if b.Index == 0 && len(f.loops) > 0 {
		for _, p := range f.Fn.Params {
			out = append(out, p)
		}
	}
	for _, l := range f.chain[b.Index] {
		for _, ins := range l.header.Instrs {
			phi, ok := ins.(*ssa.Phi)
			if !ok {
				break
			}
			if live[phi] {
				out = append(out, phi)
			}
		}
	}
	return out
}
