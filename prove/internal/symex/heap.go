package symex

import (
	"fmt"
	"go/types"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// object describes one object of the heap: what it is, for messages and
// for the rules on package variables.
type object struct {
	typ    types.Type // the type of its content
	what   string     // "package variable X", "input b", "new([4]byte) at file:line", …
	global bool       // a package variable: no function under proof may write it
	input  bool       // an input of the function under proof: compared after the call
}

// Heap is the contents of the objects as one execution sees them: its own
// writes over the World's base heap (the package variables after their
// initialization, the inputs as they were passed). Heaps are copied when
// a state splits, cheaply: contents are immutable values.
type Heap struct {
	w    *World
	objs map[int]Value
}

func (w *World) newHeap() *Heap { return &Heap{w: w, objs: map[int]Value{}} }

func (h *Heap) clone() *Heap {
	c := &Heap{w: h.w, objs: make(map[int]Value, len(h.objs))}
	for k, v := range h.objs {
		c.objs[k] = v
	}
	return c
}

// Get returns object id's content.
func (h *Heap) Get(id int) Value {
	if v, ok := h.objs[id]; ok {
		return v
	}
	return h.w.base[id]
}

func (h *Heap) set(id int, v Value) { h.objs[id] = v }

// alloc makes a new object of type t holding v.
func (w *World) alloc(h *Heap, t types.Type, v Value, what string) int {
	w.nextObj++
	id := w.nextObj
	w.objects[id] = &object{typ: t, what: what}
	if h == nil {
		w.base[id] = v
	} else {
		h.set(id, v)
	}
	return id
}

// mergeHeaps returns the heap that is a where c holds and b elsewhere, or
// ok false if some object's contents cannot be merged.
func (w *World) mergeHeaps(c *term.Term, a, b *Heap) (*Heap, bool) {
	out := &Heap{w: w, objs: make(map[int]Value, max(len(a.objs), len(b.objs)))}
	for id, av := range a.objs {
		bv := b.Get(id)
		if bv == nil { // allocated on a's path only
			out.objs[id] = av
			continue
		}
		m, ok := w.merge(c, av, bv)
		if !ok {
			return nil, false
		}
		out.objs[id] = m
	}
	for id, bv := range b.objs {
		if _, done := a.objs[id]; done {
			continue
		}
		av := a.Get(id)
		if av == nil {
			out.objs[id] = bv
			continue
		}
		m, ok := w.merge(c, av, bv)
		if !ok {
			return nil, false
		}
		out.objs[id] = m
	}
	return out, true
}

// load returns the element at path in v. Where a step's index is not a
// constant, the element is chosen among all by the index (the caller has
// made the index's bounds check a branch of its own, so out-of-range
// indices do not matter here).
func (w *World) load(v Value, path []Step) (Value, error) {
	for _, s := range path {
		switch agg := v.(type) {
		case *Struct:
			if s.Index != nil {
				return nil, fmt.Errorf("internal: index step into a struct")
			}
			v = agg.Fields[s.Field]
		case *Array:
			if s.Index == nil {
				return nil, fmt.Errorf("internal: field step into an array")
			}
			e, err := w.elem(agg, s.Index)
			if err != nil {
				return nil, err
			}
			v = e
		case Poison:
			return agg, nil
		default:
			return nil, fmt.Errorf("internal: path into %T", v)
		}
	}
	return v, nil
}

// elem returns a.Elems[i].
func (w *World) elem(a *Array, i *term.Term) (Value, error) {
	if len(a.Elems) == 0 {
		return nil, fmt.Errorf("internal: element of an empty array")
	}
	if i.IsConst() {
		if i.Val >= uint64(len(a.Elems)) {
			return a.Elems[0], nil // out of range: the bounds check panicked
		}
		return a.Elems[i.Val], nil
	}
	if t := w.constTable(a, i); t != nil {
		return t, nil
	}
	v := a.Elems[len(a.Elems)-1]
	for k := len(a.Elems) - 2; k >= 0; k-- {
		m, ok := w.merge(w.B.Eq(i, w.B.BV(i.W, uint64(k))), a.Elems[k], v)
		if !ok {
			return nil, errNotMergeable
		}
		v = m
	}
	return v, nil
}

// constTable returns a.Elems[i] as a lookup in a constant table when every
// element is a constant integer: a table of 256 words, as a DFA has, is
// one small definition for the solver instead of a chain of 256 choices
// per lookup.
func (w *World) constTable(a *Array, i *term.Term) *term.Term {
	if len(a.Elems) < 8 {
		return nil
	}
	t, ok := w.tables[a]
	if !ok {
		vals := make([]uint64, len(a.Elems))
		var width uint8
		for k, e := range a.Elems {
			c, isTerm := e.(*term.Term)
			if !isTerm || !c.IsConst() || c.W == 0 {
				w.tables[a] = nil
				return nil
			}
			vals[k], width = c.Val, c.W
		}
		t = &tableOf{vals: vals, width: width, by: map[uint8]*term.Table{}}
		w.tables[a] = t
	}
	if t == nil {
		return nil
	}
	// An index widened from a narrower value needs only that value.
	for i.Op == term.Zext && uint64(len(t.vals)) <= 1<<min(i.Args[0].W, 63) {
		i = i.Args[0]
	}
	tab, ok := t.by[i.W]
	if !ok {
		tab = w.B.NewTable(i.W, t.width, t.vals)
		t.by[i.W] = tab
	}
	return w.B.Lookup(tab, i)
}

// tableOf caches the tables made of one constant array, by index width.
type tableOf struct {
	vals  []uint64
	width uint8
	by    map[uint8]*term.Table
}

// store returns v with the element at path replaced by x.
func (w *World) store(v Value, path []Step, x Value) (Value, error) {
	if len(path) == 0 {
		return x, nil
	}
	s := path[0]
	switch agg := v.(type) {
	case *Struct:
		if s.Index != nil {
			return nil, fmt.Errorf("internal: index step into a struct")
		}
		f, err := w.store(agg.Fields[s.Field], path[1:], x)
		if err != nil {
			return nil, err
		}
		out := &Struct{Fields: append([]Value(nil), agg.Fields...)}
		out.Fields[s.Field] = f
		return out, nil
	case *Array:
		if s.Index == nil {
			return nil, fmt.Errorf("internal: field step into an array")
		}
		out := &Array{Elems: append([]Value(nil), agg.Elems...)}
		if s.Index.IsConst() {
			k := s.Index.Val
			if k >= uint64(len(agg.Elems)) {
				return v, nil // out of range: the bounds check panicked
			}
			e, err := w.store(agg.Elems[k], path[1:], x)
			if err != nil {
				return nil, err
			}
			out.Elems[k] = e
			return out, nil
		}
		for k, old := range agg.Elems {
			e, err := w.store(old, path[1:], x)
			if err != nil {
				return nil, err
			}
			m, ok := w.merge(w.B.Eq(s.Index, w.B.BV(s.Index.W, uint64(k))), e, old)
			if !ok {
				return nil, errNotMergeable
			}
			out.Elems[k] = m
		}
		return out, nil
	case Poison:
		return agg, nil
	}
	return nil, fmt.Errorf("internal: path into %T", v)
}
