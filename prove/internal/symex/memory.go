package symex

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// evalMemory computes the instructions that address, index and slice
// memory, with their bounds checks and nil checks as branches to panics.
func (r *run) evalMemory(s *state, ins ssa.Value) (Value, bool, error) {
	switch ins := ins.(type) {
	case *ssa.FieldAddr:
		x, err := r.value(s, ins.X)
		if err != nil {
			return nil, false, err
		}
		p := x.(Ptr)
		if p.Obj == 0 {
			r.panics(s, r.w.B.False(), "nil pointer dereference", ins.Pos())
			return nil, false, nil
		}
		return Ptr{Obj: p.Obj, Path: appendStep(p.Path, Step{Field: ins.Field})}, true, nil
	case *ssa.Field:
		x, err := r.value(s, ins.X)
		if err != nil {
			return nil, false, err
		}
		st, ok := x.(*Struct)
		if !ok {
			return nil, false, fmt.Errorf("internal: field of %T", x)
		}
		return st.Fields[ins.Field], true, nil
	case *ssa.IndexAddr:
		return r.indexAddr(s, ins)
	case *ssa.Index:
		return r.indexValue(s, ins.X, ins.Index, ins.Pos())
	case *ssa.Lookup:
		if _, ok := ins.X.Type().Underlying().(*types.Map); ok {
			return nil, false, r.unsupported("map lookup", ins.Pos())
		}
		return r.indexValue(s, ins.X, ins.Index, ins.Pos())
	case *ssa.Slice:
		return r.slice(s, ins)
	case *ssa.SliceToArrayPointer:
		return r.sliceToArray(s, ins)
	case *ssa.MakeSlice:
		return r.makeSlice(s, ins)
	case *ssa.TypeAssert:
		return r.typeAssert(s, ins)
	}
	return nil, false, r.unsupported(describe(ins.(ssa.Instruction)), ins.Pos())
}

// indexAddr is &x[i] for a slice or a pointer to an array.
func (r *run) indexAddr(s *state, ins *ssa.IndexAddr) (Value, bool, error) {
	B := r.w.B
	x, err := r.value(s, ins.X)
	if err != nil {
		return nil, false, err
	}
	i, err := r.index(s, ins.Index)
	if err != nil {
		return nil, false, err
	}
	switch x := x.(type) {
	case Slice:
		if !r.panics(s, B.Cmp(term.Ult, i, x.Len), "index out of range", ins.Pos()) {
			return nil, false, nil
		}
		return Ptr{Obj: x.Obj, Path: appendStep(x.Path, Step{Index: B.Binary(term.Add, x.Off, i)})}, true, nil
	case Ptr:
		if x.Obj == 0 {
			r.panics(s, B.False(), "nil pointer dereference", ins.Pos())
			return nil, false, nil
		}
		n := ins.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array).Len()
		if !r.panics(s, B.Cmp(term.Ult, i, B.BV(64, uint64(n))), "index out of range", ins.Pos()) {
			return nil, false, nil
		}
		return Ptr{Obj: x.Obj, Path: appendStep(x.Path, Step{Index: i})}, true, nil
	}
	return nil, false, fmt.Errorf("internal: index address of %T", x)
}

// indexValue is x[i] for an array value or a constant string.
func (r *run) indexValue(s *state, xv, iv ssa.Value, pos token.Pos) (Value, bool, error) {
	B := r.w.B
	x, err := r.value(s, xv)
	if err != nil {
		return nil, false, err
	}
	i, err := r.index(s, iv)
	if err != nil {
		return nil, false, err
	}
	switch x := x.(type) {
	case *Array:
		if !r.panics(s, B.Cmp(term.Ult, i, B.BV(64, uint64(len(x.Elems)))), "index out of range", pos) {
			return nil, false, nil
		}
		v, err := r.w.elem(x, i)
		if err == errNotMergeable {
			return nil, false, r.unsupported("indexing an array of pointers or interfaces with an index that depends on the input", pos)
		}
		return v, err == nil, err
	case Str:
		if !r.panics(s, B.Cmp(term.Ult, i, B.BV(64, uint64(len(x.S)))), "index out of range", pos) {
			return nil, false, nil
		}
		if len(x.S) == 0 {
			return B.BV(8, 0), true, nil
		}
		a, ok := r.w.strings[x.S]
		if !ok {
			a = &Array{Elems: make([]Value, len(x.S))}
			for k := range len(x.S) {
				a.Elems[k] = B.BV(8, uint64(x.S[k]))
			}
			r.w.strings[x.S] = a
		}
		v, err := r.w.elem(a, i)
		return v, err == nil, err
	}
	return nil, false, fmt.Errorf("internal: index of %T", x)
}

// slice is x[lo:hi:max] of a slice, a pointer to an array or a constant
// string, with Go's checks: 0 <= lo <= hi <= max <= cap.
func (r *run) slice(s *state, ins *ssa.Slice) (Value, bool, error) {
	B := r.w.B
	x, err := r.value(s, ins.X)
	if err != nil {
		return nil, false, err
	}
	bound := func(v ssa.Value, dflt *term.Term) (*term.Term, error) {
		if v == nil {
			return dflt, nil
		}
		return r.index(s, v)
	}
	var base Slice
	switch x := x.(type) {
	case Slice:
		base = x
	case Ptr:
		if x.Obj == 0 {
			r.panics(s, B.False(), "nil pointer dereference", ins.Pos())
			return nil, false, nil
		}
		n := B.BV(64, uint64(ins.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array).Len()))
		base = Slice{Obj: x.Obj, Path: x.Path, Off: B.BV(64, 0), Len: n, Cap: n}
	case Str:
		return r.sliceString(s, ins, x)
	default:
		return nil, false, fmt.Errorf("internal: slice of %T", x)
	}
	lo, err := bound(ins.Low, B.BV(64, 0))
	if err != nil {
		return nil, false, err
	}
	hi, err := bound(ins.High, base.Len)
	if err != nil {
		return nil, false, err
	}
	mx, err := bound(ins.Max, base.Cap)
	if err != nil {
		return nil, false, err
	}
	ok := B.And(B.Cmp(term.Ule, lo, hi), B.And(B.Cmp(term.Ule, hi, mx), B.Cmp(term.Ule, mx, base.Cap)))
	if !r.panics(s, ok, "slice bounds out of range", ins.Pos()) {
		return nil, false, nil
	}
	return Slice{Obj: base.Obj, Path: base.Path, Off: B.Binary(term.Add, base.Off, lo),
		Len: B.Binary(term.Sub, hi, lo), Cap: B.Binary(term.Sub, mx, lo)}, true, nil
}

func (r *run) sliceString(s *state, ins *ssa.Slice, x Str) (Value, bool, error) {
	B := r.w.B
	get := func(v ssa.Value, dflt int) (int, bool, error) {
		if v == nil {
			return dflt, true, nil
		}
		t, err := r.index(s, v)
		if err == nil {
			t = s.fix(t)
			err = r.needConst(t)
		}
		if err != nil {
			return 0, false, err
		}
		return int(t.Val), t.IsConst(), nil
	}
	lo, c1, err := get(ins.Low, 0)
	if err != nil {
		return nil, false, err
	}
	hi, c2, err := get(ins.High, len(x.S))
	if err != nil {
		return nil, false, err
	}
	if !c1 || !c2 {
		return nil, false, r.unsupported("slicing a string at a position that depends on the input", ins.Pos())
	}
	if !r.panics(s, B.Bool(0 <= lo && lo <= hi && hi <= len(x.S)), "slice bounds out of range", ins.Pos()) {
		return nil, false, nil
	}
	return Str{S: x.S[lo:hi]}, true, nil
}

// sliceToArray is (*[N]T)(x): a pointer to x's array when x starts at its
// array's start and N covers all of it (the only layout a path can name).
func (r *run) sliceToArray(s *state, ins *ssa.SliceToArrayPointer) (Value, bool, error) {
	B := r.w.B
	x, err := r.value(s, ins.X)
	if err != nil {
		return nil, false, err
	}
	sl := x.(Slice)
	n := ins.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array).Len()
	if !r.panics(s, B.Cmp(term.Ule, B.BV(64, uint64(n)), sl.Len), "slice to array conversion: length too short", ins.Pos()) {
		return nil, false, nil
	}
	if sl.Obj == 0 {
		return Ptr{}, true, nil
	}
	whole, err := r.w.load(s.heap.Get(sl.Obj), sl.Path)
	if a, ok := whole.(*Array); err == nil && ok && sl.Off.IsConst() && sl.Off.Val == 0 && len(a.Elems) == int(n) {
		return Ptr{Obj: sl.Obj, Path: sl.Path}, true, nil
	}
	return nil, false, r.unsupported("conversion of a slice to an array pointer other than of a whole array", ins.Pos())
}

// makeSlice is make([]T, len, cap) with lengths that do not depend on the
// input.
func (r *run) makeSlice(s *state, ins *ssa.MakeSlice) (Value, bool, error) {
	B := r.w.B
	n, err := r.index(s, ins.Len)
	if err != nil {
		return nil, false, err
	}
	c, err := r.index(s, ins.Cap)
	if err != nil {
		return nil, false, err
	}
	n, c = s.fix(n), s.fix(c)
	if err := r.needConst(n, c); err != nil {
		return nil, false, err
	}
	if !n.IsConst() || !c.IsConst() {
		return nil, false, r.unsupported("make of a slice whose length depends on the input", ins.Pos())
	}
	if !r.panics(s, B.Bool(int64(n.Val) >= 0 && n.Val <= c.Val && c.Val <= maxArray), "makeslice: len out of range", ins.Pos()) {
		return nil, false, nil
	}
	elem := ins.Type().Underlying().(*types.Slice).Elem()
	z, err := r.w.zero(elem)
	if err != nil {
		return nil, false, r.unsupported(err.Error(), ins.Pos())
	}
	a := &Array{Elems: make([]Value, c.Val)}
	for i := range a.Elems {
		a.Elems[i] = z
	}
	id := r.w.alloc(s.heap, types.NewArray(elem, int64(c.Val)), a, "make at "+r.w.P.Pos(ins.Pos()))
	return Slice{Obj: id, Off: B.BV(64, 0), Len: n, Cap: c}, true, nil
}

// typeAssert is x.(T) of an interface value, whose dynamic type is known.
func (r *run) typeAssert(s *state, ins *ssa.TypeAssert) (Value, bool, error) {
	B := r.w.B
	x, err := r.value(s, ins.X)
	if err != nil {
		return nil, false, err
	}
	i := x.(Iface)
	var ok bool
	var v Value
	if iface, isIface := ins.AssertedType.Underlying().(*types.Interface); isIface {
		ok = i.T != nil && types.Implements(i.T, iface)
		v = i
	} else {
		ok = i.T != nil && types.Identical(i.T, ins.AssertedType)
		v = i.V
		if !ok {
			if v, err = r.w.zero(ins.AssertedType); err != nil {
				return nil, false, r.unsupported(err.Error(), ins.Pos())
			}
		}
	}
	if ins.CommaOk {
		if !ok {
			if iface, isIface := ins.AssertedType.Underlying().(*types.Interface); isIface {
				_ = iface
				v = Iface{}
			}
		}
		return Tuple{Vals: []Value{v, B.Bool(ok)}}, true, nil
	}
	if !r.panics(s, B.Bool(ok), "type assertion", ins.Pos()) {
		return nil, false, nil
	}
	return v, true, nil
}

// loadPtr is *p.
func (r *run) loadPtr(s *state, x Value, pos token.Pos) (Value, bool, error) {
	p := x.(Ptr)
	if p.Obj == 0 {
		r.panics(s, r.w.B.False(), "nil pointer dereference", pos)
		return nil, false, nil
	}
	v, err := r.w.load(s.heap.Get(p.Obj), p.Path)
	if err == errNotMergeable {
		return nil, false, r.unsupported("loading a pointer or interface from an element chosen by the input", pos)
	}
	if err != nil {
		return nil, false, err
	}
	if !r.init {
		if reason := poisonIn(v, 0); reason != nil {
			return nil, false, reason
		}
	}
	return v, true, nil
}

// poisonIn returns the reason of the first Poison in v, or nil.
func poisonIn(v Value, depth int) error {
	if depth > 8 {
		return nil
	}
	switch v := v.(type) {
	case Poison:
		return v.Reason
	case *Struct:
		for _, f := range v.Fields {
			if e := poisonIn(f, depth+1); e != nil {
				return e
			}
		}
	case *Array:
		for _, e := range v.Elems {
			if err := poisonIn(e, depth+1); err != nil {
				return err
			}
		}
	case Iface:
		return poisonIn(v.V, depth+1)
	}
	return nil
}

// storeInstr is *p = v. No function under proof may write a package
// variable: its effect would not be compared.
func (r *run) storeInstr(s *state, f *frame, ins *ssa.Store) (bool, error) {
	x, err := r.value(s, ins.Addr)
	if err != nil {
		return false, err
	}
	v, err := r.value(s, ins.Val)
	if err != nil {
		return false, err
	}
	p := x.(Ptr)
	if p.Obj == 0 {
		r.panics(s, r.w.B.False(), "nil pointer dereference", ins.Pos())
		return false, nil
	}
	if o := r.w.objects[p.Obj]; o.global && !r.init {
		return false, r.unsupported("a write to "+o.what+" (writes to package variables are not compared)", ins.Pos())
	}
	nv, err := r.w.store(s.heap.Get(p.Obj), p.Path, v)
	if err == errNotMergeable {
		return false, r.unsupported("storing a pointer or interface at an element chosen by the input", ins.Pos())
	}
	if err != nil {
		return false, err
	}
	s.heap.set(p.Obj, nv)
	f.pc++
	return true, nil
}
