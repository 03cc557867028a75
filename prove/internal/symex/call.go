package symex

import (
	"fmt"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// call executes a call: a static call or a closure's is inlined (a frame
// is pushed), a method call on an interface whose dynamic type is known
// calls that type's method, builtins are computed here.
func (r *run) call(s *state, f *frame, ins *ssa.Call) (bool, error) {
	cc := ins.Common()
	args := make([]Value, 0, len(cc.Args)+1)
	for _, a := range cc.Args {
		v, err := r.value(s, a)
		if err != nil {
			return false, err
		}
		args = append(args, v)
	}
	if cc.IsInvoke() {
		return r.invoke(s, ins, args)
	}
	switch callee := cc.Value.(type) {
	case *ssa.Builtin:
		v, alive, err := r.builtin(s, ins, callee, args)
		if err != nil || !alive {
			return false, err
		}
		if v != nil {
			f.env[ins] = v
		}
		f.pc++
		return true, nil
	case *ssa.Function:
		if skipInit(callee) {
			f.pc++
			return true, nil
		}
		if callee.Pkg != nil && callee.Pkg.Pkg.Path() == "reflect" {
			return false, r.unsupported("reflect ("+callee.String()+")", ins.Pos())
		}
		return false, r.enter(s, callee, args, nil)
	}
	v, err := r.value(s, cc.Value)
	if err != nil {
		return false, err
	}
	fn, ok := v.(Func)
	if !ok {
		return false, fmt.Errorf("internal: call of %T", v)
	}
	if fn.Fn == nil {
		r.panics(s, r.w.B.False(), "nil pointer dereference", ins.Pos())
		return false, nil
	}
	return false, r.enter(s, fn.Fn.Fn, args, fn.Env)
}

// skipInit reports whether fn is a package's initializer or one of its
// init functions: package variables are initialized apart (global.go),
// and a variable an init function assigns is never read.
func skipInit(fn *ssa.Function) bool {
	return fn.Synthetic == "package initializer" || (fn.Signature.Params().Len() == 0 && strings.HasPrefix(fn.Name(), "init#"))
}

// invoke calls method m of the interface value args' receiver.
func (r *run) invoke(s *state, ins *ssa.Call, args []Value) (bool, error) {
	cc := ins.Common()
	recv, err := r.value(s, cc.Value)
	if err != nil {
		return false, err
	}
	i := recv.(Iface)
	if i.T == nil {
		r.panics(s, r.w.B.False(), "nil pointer dereference", ins.Pos())
		return false, nil
	}
	prog := r.w.P.SSA
	sel := prog.MethodSets.MethodSet(i.T).Lookup(cc.Method.Pkg(), cc.Method.Name())
	if sel == nil {
		return false, fmt.Errorf("internal: %s has no method %s", i.T, cc.Method.Name())
	}
	fn := prog.MethodValue(sel)
	if fn == nil {
		return false, r.unsupported(fmt.Sprintf("method %s of %s", cc.Method.Name(), i.T), ins.Pos())
	}
	return false, r.enter(s, fn, append([]Value{i.V}, args...), nil)
}

// builtin computes a call of a builtin function. A nil value is no
// result.
func (r *run) builtin(s *state, ins *ssa.Call, b *ssa.Builtin, args []Value) (Value, bool, error) {
	B := r.w.B
	switch b.Name() {
	case "len", "cap":
		switch x := args[0].(type) {
		case Slice:
			if b.Name() == "len" {
				return x.Len, true, nil
			}
			return x.Cap, true, nil
		case Str:
			return B.BV(64, uint64(len(x.S))), true, nil
		case Ptr, *Array:
			t := ins.Common().Args[0].Type().Underlying()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem().Underlying()
			}
			return B.BV(64, uint64(t.(*types.Array).Len())), true, nil
		}
		return nil, false, r.unsupported(b.Name()+" of "+ins.Common().Args[0].Type().String(), ins.Pos())
	case "append":
		return r.appendSlice(s, ins, args)
	case "copy":
		n, alive, err := r.copySlice(s, ins, args)
		return n, alive, err
	case "min", "max":
		return r.minMax(ins, args)
	case "ssa:wrapnilchk":
		p := args[0].(Ptr)
		if p.Obj == 0 {
			r.panics(s, B.False(), "nil pointer dereference", ins.Pos())
			return nil, false, nil
		}
		return p, true, nil
	case "recover":
		return Iface{}, true, nil // no deferred call runs: recover returns nil
	case "print", "println":
		return nil, true, nil // output only
	case "clear":
		return r.clearSlice(s, ins, args)
	case "Add", "Slice", "SliceData", "String", "StringData", "Sizeof", "Offsetof", "Alignof":
		return nil, false, r.unsupported("unsafe."+b.Name()+" (unsafe)", ins.Pos())
	}
	return nil, false, r.unsupported("builtin "+b.Name(), ins.Pos())
}

// elems returns the constant length n of slice (or constant string) v
// and a function reading its element i, or ok false if its length is not
// constant.
func (r *run) elems(s *state, v Value) (n int, get func(i int) (Value, error), ok bool) {
	switch x := v.(type) {
	case Str:
		return len(x.S), func(i int) (Value, error) { return r.w.B.BV(8, uint64(x.S[i])), nil }, true
	case Slice:
		if !x.Len.IsConst() {
			return 0, nil, false
		}
		return int(x.Len.Val), func(i int) (Value, error) {
			return r.w.load(s.heap.Get(x.Obj), appendStep(x.Path, Step{Index: r.w.B.Binary(term.Add, x.Off, r.w.B.BV(64, uint64(i)))}))
		}, true
	}
	return 0, nil, false
}

// appendSlice is append(x, y...), where the lengths do not depend on the
// input. In place when the capacity suffices; else into a new array whose
// capacity is what the running Go's growslice gives.
func (r *run) appendSlice(s *state, ins *ssa.Call, args []Value) (Value, bool, error) {
	B := r.w.B
	x := fixSlice(s, args[0].(Slice))
	args[1] = fixValue(s, args[1])
	if err := r.needConst(x.Len, x.Cap, lenOf(args[1])); err != nil {
		return nil, false, err
	}
	n, get, ok := r.elems(s, args[1])
	if !ok {
		return nil, false, r.unsupported("append where a length depends on the input", ins.Pos())
	}
	if n == 0 {
		return x, true, nil
	}
	add := make([]Value, n)
	for i := range add {
		v, err := get(i)
		if err != nil {
			return nil, false, err
		}
		add[i] = v
	}
	old, c := int(x.Len.Val), int(x.Cap.Val)
	elemT := ins.Type().Underlying().(*types.Slice).Elem()
	if old+n <= c {
		// In place, over the spare capacity: the caller's array sees it.
		for i, v := range add {
			if err := r.storeElem(s, x, old+i, v); err != nil {
				return nil, false, err
			}
		}
		return Slice{Obj: x.Obj, Path: x.Path, Off: x.Off, Len: B.BV(64, uint64(old+n)), Cap: x.Cap}, true, nil
	}
	newCap, err := r.w.growCap(elemT, old, c, n)
	if err != nil {
		return nil, false, r.unsupported(err.Error(), ins.Pos())
	}
	z, err := r.w.zero(elemT)
	if err != nil {
		return nil, false, r.unsupported(err.Error(), ins.Pos())
	}
	a := &Array{Elems: make([]Value, newCap)}
	for i := range a.Elems {
		switch {
		case i < old:
			v, err := r.w.load(s.heap.Get(x.Obj), appendStep(x.Path, Step{Index: B.Binary(term.Add, x.Off, B.BV(64, uint64(i)))}))
			if err != nil {
				return nil, false, err
			}
			a.Elems[i] = v
		case i < old+n:
			a.Elems[i] = add[i-old]
		default:
			a.Elems[i] = z
		}
	}
	id := r.w.alloc(s.heap, types.NewArray(elemT, int64(newCap)), a, "append at "+r.w.P.Pos(ins.Pos()))
	return Slice{Obj: id, Off: B.BV(64, 0), Len: B.BV(64, uint64(old+n)), Cap: B.BV(64, uint64(newCap))}, true, nil
}

func (r *run) storeElem(s *state, x Slice, i int, v Value) error {
	B := r.w.B
	path := appendStep(x.Path, Step{Index: B.Binary(term.Add, x.Off, B.BV(64, uint64(i)))})
	nv, err := r.w.store(s.heap.Get(x.Obj), path, v)
	if err != nil {
		return err
	}
	if o := r.w.objects[x.Obj]; o.global && !r.init {
		return &Unsupported{What: "a write to " + o.what, Pos: "(append or copy)"}
	}
	s.heap.set(x.Obj, nv)
	return nil
}

// growCap returns the capacity append gives a slice of elements of type
// elem, of length old and capacity c, growing by n: the running Go's
// growslice, asked through reflect with an element of the same size (its
// rounding to size classes depends on the size only).
func (w *World) growCap(elem types.Type, old, c, n int) (int, error) {
	size := w.sizes.Sizeof(elem)
	if size == 0 || size > 1<<16 {
		return 0, fmt.Errorf("append of %d-byte elements", size)
	}
	t := reflect.SliceOf(reflect.ArrayOf(int(size), reflect.TypeFor[byte]()))
	v := reflect.MakeSlice(t, old, c)
	v = reflect.AppendSlice(v, reflect.MakeSlice(t, n, n))
	if v.Cap() > maxArray {
		return 0, fmt.Errorf("append beyond %d elements", maxArray)
	}
	return v.Cap(), nil
}

// copySlice is copy(dst, src) with lengths that do not depend on the
// input; like memmove, every element is read before any is written.
func (r *run) copySlice(s *state, ins *ssa.Call, args []Value) (Value, bool, error) {
	dst, ok := args[0].(Slice)
	dst, args[1] = fixSlice(s, dst), fixValue(s, args[1])
	if err := r.needConst(dst.Len, lenOf(args[1])); ok && err != nil {
		return nil, false, err
	}
	n, get, ok2 := r.elems(s, args[1])
	if !ok || !ok2 || !dst.Len.IsConst() {
		return nil, false, r.unsupported("copy where a length depends on the input", ins.Pos())
	}
	n = min(n, int(dst.Len.Val))
	vals := make([]Value, n)
	for i := range vals {
		v, err := get(i)
		if err != nil {
			return nil, false, err
		}
		vals[i] = v
	}
	for i, v := range vals {
		if err := r.storeElem(s, dst, i, v); err != nil {
			return nil, false, err
		}
	}
	return r.w.B.BV(64, uint64(n)), true, nil
}

// clearSlice is clear(x) for a slice of constant length.
func (r *run) clearSlice(s *state, ins *ssa.Call, args []Value) (Value, bool, error) {
	x, ok := args[0].(Slice)
	x = fixSlice(s, x)
	if ok {
		if err := r.needConst(x.Len); err != nil {
			return nil, false, err
		}
	}
	if !ok || !x.Len.IsConst() {
		return nil, false, r.unsupported("clear of a map, or of a slice whose length depends on the input", ins.Pos())
	}
	z, err := r.w.zero(ins.Common().Args[0].Type().Underlying().(*types.Slice).Elem())
	if err != nil {
		return nil, false, r.unsupported(err.Error(), ins.Pos())
	}
	for i := range int(x.Len.Val) {
		if err := r.storeElem(s, x, i, z); err != nil {
			return nil, false, err
		}
	}
	return nil, true, nil
}

// minMax is min or max of integers.
func (r *run) minMax(ins *ssa.Call, args []Value) (Value, bool, error) {
	B := r.w.B
	t := ins.Type()
	if intType(t) == nil {
		return nil, false, r.unsupported(ins.Common().Value.Name()+" of "+t.String(), ins.Pos())
	}
	lt := term.Ult
	if signed(t) {
		lt = term.Slt
	}
	acc := args[0].(*term.Term)
	for _, a := range args[1:] {
		x := a.(*term.Term)
		if ins.Common().Value.Name() == "min" {
			acc = B.Ite(B.Cmp(lt, x, acc), x, acc)
		} else {
			acc = B.Ite(B.Cmp(lt, acc, x), x, acc)
		}
	}
	return acc, true, nil
}

// lenOf is the length term of a slice, or nil.
func lenOf(v Value) *term.Term {
	if s, ok := v.(Slice); ok {
		return s.Len
	}
	return nil
}

// needConst asks for a split of the state (splitOn) on the first of ts
// that is not a constant but a choice among constants.
func (r *run) needConst(ts ...*term.Term) error {
	for _, t := range ts {
		if t == nil || t.IsConst() {
			continue
		}
		if _, ok := r.w.choices(t); ok {
			return &splitOn{t: t}
		}
	}
	return nil
}

// fixSlice returns x with the terms a split fixed replaced.
func fixSlice(s *state, x Slice) Slice {
	x.Off, x.Len, x.Cap = s.fix(x.Off), s.fix(x.Len), s.fix(x.Cap)
	return x
}

func fixValue(s *state, v Value) Value {
	if x, ok := v.(Slice); ok {
		return fixSlice(s, x)
	}
	return v
}
