package prove

import (
	"fmt"
	"go/types"

	"github.com/equivcheck/equivcheck/prove/internal/symex"
	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// differ returns the condition on the inputs under which the two
// functions' outcomes differ: for every pair of outcomes that one input
// can lead to (both guards hold), the two are not the same.
func (p *proof) differ(refOuts, implOuts []symex.Outcome) (*term.Term, error) {
	B := p.w.B
	d := B.False()
	for _, a := range refOuts {
		if a.Unsupported != nil {
			continue // no input reaches it (proof.unsupported)
		}
		for _, b := range implOuts {
			if b.Unsupported != nil {
				continue
			}
			g := B.And(a.Guard, b.Guard)
			if g.IsFalse() {
				continue
			}
			eq, err := p.sameOutcome(a, b)
			if err != nil {
				return nil, err
			}
			d = B.Or(d, B.And(g, B.Not(eq)))
		}
	}
	return d, nil
}

// sameOutcome is the condition under which outcomes a (the reference's)
// and b agree: both return the same results and leave the inputs with the
// same contents, or both panic (with the same kind and value, under
// PanicValues).
func (p *proof) sameOutcome(a, b symex.Outcome) (*term.Term, error) {
	B := p.w.B
	switch {
	case a.Panic != nil && b.Panic != nil:
		if !p.m.cfg.panics {
			return B.True(), nil
		}
		if a.Panic.Kind != b.Panic.Kind {
			return B.False(), nil
		}
		if a.Panic.Value == nil || b.Panic.Value == nil {
			return B.Bool(a.Panic.Value == nil && b.Panic.Value == nil), nil
		}
		c := &cmp{p: p, ha: a.Heap, hb: b.Heap}
		return c.same(a.Panic.Value, b.Panic.Value, types.NewInterfaceType(nil, nil), 0)
	case a.Panic != nil || b.Panic != nil:
		return B.False(), nil
	}
	c := &cmp{p: p, ha: a.Heap, hb: b.Heap}
	eq := B.True()
	results := p.ref.results
	for i := range a.Results {
		e, err := c.same(a.Results[i], b.Results[i], results.At(i).Type(), 0)
		if err != nil {
			return nil, fmt.Errorf("result %d: %w", i, err)
		}
		eq = B.And(eq, e)
	}
	for _, in := range p.inputs {
		for _, id := range in.objs {
			_, t := p.w.Object(id)
			e, err := c.same(a.Heap.Get(id), b.Heap.Get(id), t, 0)
			if err != nil {
				return nil, fmt.Errorf("input %s: %w", in.name, err)
			}
			eq = B.And(eq, e)
		}
	}
	return eq, nil
}

// cmp compares values of two executions, each in its own memory.
type cmp struct {
	p      *proof
	ha, hb *symex.Heap
}

// maxDepth bounds how deep pointers to new objects are followed.
const maxDepth = 4

// same is the condition under which x (in ha) and y (in hb), of type t,
// are equal as the prover compares results: integers and bools by value,
// slices by length and elements (a nil slice is an empty one, as
// bytes.Equal has it), pointers to objects that existed before the calls
// by identity and pointers to new objects by what they hold, interfaces
// by dynamic type and value.
func (c *cmp) same(x, y symex.Value, t types.Type, depth int) (*term.Term, error) {
	B := c.p.w.B
	if depth > maxDepth {
		return nil, fmt.Errorf("values nested deeper than %d pointers", maxDepth)
	}
	switch x := x.(type) {
	case *term.Term:
		return B.Eq(x, y.(*term.Term)), nil
	case symex.Str:
		return B.Bool(x == y.(symex.Str)), nil
	case *symex.Struct:
		st := t.Underlying().(*types.Struct)
		ys := y.(*symex.Struct)
		eq := B.True()
		for i := range x.Fields {
			e, err := c.same(x.Fields[i], ys.Fields[i], st.Field(i).Type(), depth)
			if err != nil {
				return nil, err
			}
			eq = B.And(eq, e)
		}
		return eq, nil
	case *symex.Array:
		at := t.Underlying().(*types.Array)
		ya := y.(*symex.Array)
		eq := B.True()
		for i := range x.Elems {
			e, err := c.same(x.Elems[i], ya.Elems[i], at.Elem(), depth)
			if err != nil {
				return nil, err
			}
			eq = B.And(eq, e)
		}
		return eq, nil
	case symex.Slice:
		return c.sameSlice(x, y.(symex.Slice), t.Underlying().(*types.Slice).Elem(), depth)
	case symex.Ptr:
		return c.samePtr(x, y.(symex.Ptr), t, depth)
	case symex.Iface:
		yi := y.(symex.Iface)
		switch {
		case x.T == nil || yi.T == nil:
			return B.Bool(x.T == nil && yi.T == nil), nil
		case !types.Identical(x.T, yi.T):
			return B.False(), nil
		}
		return c.same(x.V, yi.V, x.T, depth)
	case symex.Func:
		yf := y.(symex.Func)
		if x.Fn == nil || yf.Fn == nil {
			return B.Bool(x.Fn == nil && yf.Fn == nil), nil
		}
	}
	return nil, fmt.Errorf("the prover does not compare values of type %s", t)
}

// sameSlice compares two slices' lengths and elements up to the length.
func (c *cmp) sameSlice(x, y symex.Slice, elem types.Type, depth int) (*term.Term, error) {
	B := c.p.w.B
	eq := B.Eq(x.Len, y.Len)
	if x.Obj == 0 || y.Obj == 0 {
		return eq, nil // a nil slice equals an empty one
	}
	n, ok := maxConst(x.Len)
	if !ok {
		return nil, fmt.Errorf("a slice whose length has no bound")
	}
	for i := range n {
		k := B.BV(64, i)
		ex, err := c.elem(c.ha, x, k)
		if err != nil {
			return nil, err
		}
		ey, err := c.elem(c.hb, y, k)
		if err != nil {
			return nil, err
		}
		e, err := c.same(ex, ey, elem, depth)
		if err != nil {
			return nil, err
		}
		eq = B.And(eq, B.Implies(B.Cmp(term.Ult, k, x.Len), e))
	}
	return eq, nil
}

// elem is element k of slice s in h (a zero where s has no element k: the
// comparison does not look at it then).
func (c *cmp) elem(h *symex.Heap, s symex.Slice, k *term.Term) (symex.Value, error) {
	B := c.p.w.B
	path := append(append([]symex.Step(nil), s.Path...), symex.Step{Index: B.Binary(term.Add, s.Off, k)})
	return c.p.w.Load(h, s.Obj, path)
}

// samePtr compares pointers: to one object that existed before the calls
// (an input, a package variable), by the element they point at; to new
// objects, by what those hold.
func (c *cmp) samePtr(x, y symex.Ptr, t types.Type, depth int) (*term.Term, error) {
	B := c.p.w.B
	if x.Obj == 0 || y.Obj == 0 {
		return B.Bool(x.Obj == 0 && y.Obj == 0), nil
	}
	oldX, oldY := c.p.w.Base(x.Obj) != nil, c.p.w.Base(y.Obj) != nil
	if oldX || oldY {
		if x.Obj != y.Obj || len(x.Path) != len(y.Path) {
			return B.False(), nil
		}
		eq := B.True()
		for i := range x.Path {
			switch {
			case x.Path[i].Index == nil:
				eq = B.And(eq, B.Bool(x.Path[i].Field == y.Path[i].Field))
			default:
				eq = B.And(eq, B.Eq(x.Path[i].Index, y.Path[i].Index))
			}
		}
		return eq, nil
	}
	pt, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return nil, fmt.Errorf("a pointer of type %s", t)
	}
	vx, err := c.p.w.Load(c.ha, x.Obj, x.Path)
	if err != nil {
		return nil, err
	}
	vy, err := c.p.w.Load(c.hb, y.Obj, y.Path)
	if err != nil {
		return nil, err
	}
	return c.same(vx, vy, pt.Elem(), depth+1)
}

// maxConst returns the largest value t can take when it is a constant or a
// choice among constants.
func maxConst(t *term.Term) (uint64, bool) {
	switch {
	case t.IsConst():
		return t.Val, true
	case t.Op == term.Ite:
		a, okA := maxConst(t.Args[1])
		b, okB := maxConst(t.Args[2])
		return max(a, b), okA && okB
	}
	return 0, false
}
