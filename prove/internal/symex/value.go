package symex

import (
	"fmt"
	"go/types"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// Value is what an SSA value holds during execution: one of
//
//   - *term.Term: an integer (a bit-vector of the type's width) or a bool;
//   - Str: a constant string;
//   - Ptr: a pointer into an object of the heap (Obj 0 is nil);
//   - Slice: a slice of an array in the heap (Obj 0 is a nil slice);
//   - *Struct, *Array: aggregates, element by element;
//   - Iface: an interface value, its dynamic type known (nil: a nil
//     interface);
//   - Func: a function or closure (Fn nil: a nil func);
//   - Tuple: the results of a call with several;
//   - Poison: a value package initialization could not compute.
//
// Values are never changed in place: a store builds new aggregates along
// its path, so states can share them.
type Value any

// Str is a constant string.
type Str struct{ S string }

// Step is one step of a path into an object: a field (Index nil) or an
// array element.
type Step struct {
	Field int
	Index *term.Term
}

// Ptr points at the element Path leads to in object Obj.
type Ptr struct {
	Obj  int
	Path []Step
}

// Slice is elements Off .. Off+Len of the array at Path in Obj, with Cap
// elements from Off on.
type Slice struct {
	Obj           int
	Path          []Step
	Off, Len, Cap *term.Term
}

// Struct is a struct value, field by field.
type Struct struct{ Fields []Value }

// Array is an array value, element by element.
type Array struct{ Elems []Value }

// Iface is an interface value of dynamic type T (nil: a nil interface).
type Iface struct {
	T types.Type
	V Value
}

// Func is a function value: an SSA function and, for a closure, the
// values of its free variables.
type Func struct {
	Fn  *Function
	Env []Value
}

// Tuple holds the results of a call that has several.
type Tuple struct{ Vals []Value }

// Poison is a value that package initialization could not compute; reading
// it during a proof stops the proof with Reason.
type Poison struct{ Reason error }

// maxArray bounds the arrays the executor represents element by element.
const maxArray = 1 << 16

// zero returns the zero value of type t.
func (w *World) zero(t types.Type) (Value, error) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return w.B.False(), nil
		case u.Info()&types.IsInteger != 0:
			return w.B.BV(w.width(u), 0), nil
		case u.Info()&types.IsString != 0:
			return Str{}, nil
		case u.Kind() == types.UnsafePointer:
			return Ptr{}, nil
		case u.Info()&(types.IsFloat|types.IsComplex) != 0:
			return nil, fmt.Errorf("floating point (%s)", t)
		}
		return nil, fmt.Errorf("values of type %s", t)
	case *types.Pointer:
		return Ptr{}, nil
	case *types.Slice:
		z := w.B.BV(64, 0)
		return Slice{Off: z, Len: z, Cap: z}, nil
	case *types.Struct:
		s := &Struct{Fields: make([]Value, u.NumFields())}
		for i := range s.Fields {
			f, err := w.zero(u.Field(i).Type())
			if err != nil {
				return nil, err
			}
			s.Fields[i] = f
		}
		return s, nil
	case *types.Array:
		if u.Len() > maxArray {
			return nil, fmt.Errorf("arrays of more than %d elements (%s)", maxArray, t)
		}
		e, err := w.zero(u.Elem())
		if err != nil {
			return nil, err
		}
		a := &Array{Elems: make([]Value, u.Len())}
		for i := range a.Elems {
			a.Elems[i] = e
		}
		return a, nil
	case *types.Interface:
		return Iface{}, nil
	case *types.Signature:
		return Func{}, nil
	case *types.Chan:
		return nil, fmt.Errorf("channels (%s)", t)
	case *types.Map:
		return nil, fmt.Errorf("maps (%s)", t)
	}
	return nil, fmt.Errorf("values of type %s", t)
}

// width is the bit width of a basic integer type on the target (int and
// uintptr are the words of the executing machine, which runs the compiled
// code compared).
func (w *World) width(b *types.Basic) uint8 {
	if b.Info()&types.IsBoolean != 0 {
		return 0
	}
	return uint8(8 * w.sizes.Sizeof(b))
}

// intType returns the basic integer type under t, or nil.
func intType(t types.Type) *types.Basic {
	b, ok := t.Underlying().(*types.Basic)
	if ok && b.Info()&types.IsInteger != 0 {
		return b
	}
	return nil
}

func signed(t types.Type) bool {
	b := intType(t)
	return b != nil && b.Info()&types.IsUnsigned == 0
}

// merge returns the value that is a if c holds and b otherwise, or ok
// false where one value cannot stand for both (pointers to different
// objects, interfaces of different dynamic types, different strings): the
// states then stay apart.
func (w *World) merge(c *term.Term, a, b Value) (Value, bool) {
	if c.IsTrue() {
		return a, true
	}
	if c.IsFalse() {
		return b, true
	}
	switch a := a.(type) {
	case *term.Term:
		b, ok := b.(*term.Term)
		if !ok || a.W != b.W {
			return nil, false
		}
		return w.B.Ite(c, a, b), true
	case Str:
		b, ok := b.(Str)
		return a, ok && a == b
	case *Struct:
		b, ok := b.(*Struct)
		if !ok || a == b {
			return a, ok
		}
		f, ok := w.mergeAll(c, a.Fields, b.Fields)
		return &Struct{Fields: f}, ok
	case *Array:
		b, ok := b.(*Array)
		if !ok || a == b {
			return a, ok
		}
		e, ok := w.mergeAll(c, a.Elems, b.Elems)
		return &Array{Elems: e}, ok
	case Tuple:
		b, ok := b.(Tuple)
		if !ok {
			return nil, false
		}
		v, ok := w.mergeAll(c, a.Vals, b.Vals)
		return Tuple{Vals: v}, ok
	}
	return w.mergeRef(c, a, b)
}

// mergeAll merges two lists of values element by element.
func (w *World) mergeAll(c *term.Term, a, b []Value) ([]Value, bool) {
	if len(a) != len(b) {
		return nil, false
	}
	out := make([]Value, len(a))
	for i := range a {
		m, ok := w.merge(c, a[i], b[i])
		if !ok {
			return nil, false
		}
		out[i] = m
	}
	return out, true
}

// mergeRef merges values that refer to something: pointers and slices
// into one object, interfaces of one dynamic type, one function.
func (w *World) mergeRef(c *term.Term, a, b Value) (Value, bool) {
	switch a := a.(type) {
	case Ptr:
		b, ok := b.(Ptr)
		if !ok || a.Obj != b.Obj {
			return nil, false
		}
		p, ok := w.mergePath(c, a.Path, b.Path)
		return Ptr{Obj: a.Obj, Path: p}, ok
	case Slice:
		b, ok := b.(Slice)
		if !ok || a.Obj != b.Obj {
			return nil, false
		}
		if a.Len != b.Len && a.Len.IsConst() && b.Len.IsConst() {
			// Slices of different known lengths stay apart: merged, a
			// loop over them (for len(q) > 7) would branch on a length
			// that depends on the inputs, and be unrolled with the
			// solver asked at every turn.
			return nil, false
		}
		p, ok := w.mergePath(c, a.Path, b.Path)
		return Slice{Obj: a.Obj, Path: p, Off: w.B.Ite(c, a.Off, b.Off), Len: w.B.Ite(c, a.Len, b.Len),
			Cap: w.B.Ite(c, a.Cap, b.Cap)}, ok
	case Iface:
		b, ok := b.(Iface)
		switch {
		case !ok:
			return nil, false
		case a.T == nil || b.T == nil:
			return a, a.T == nil && b.T == nil
		case !types.Identical(a.T, b.T):
			return nil, false
		}
		v, ok := w.merge(c, a.V, b.V)
		return Iface{T: a.T, V: v}, ok
	case Func:
		b, ok := b.(Func)
		if !ok || a.Fn != b.Fn {
			return nil, false
		}
		env, ok := w.mergeAll(c, a.Env, b.Env)
		return Func{Fn: a.Fn, Env: env}, ok
	}
	return nil, false
}

func (w *World) mergePath(c *term.Term, a, b []Step) ([]Step, bool) {
	if len(a) != len(b) {
		return nil, false
	}
	out := make([]Step, len(a))
	for i := range a {
		switch {
		case (a[i].Index == nil) != (b[i].Index == nil):
			return nil, false
		case a[i].Index == nil:
			if a[i].Field != b[i].Field {
				return nil, false
			}
			out[i] = a[i]
		default:
			out[i] = Step{Index: w.B.Ite(c, a[i].Index, b[i].Index)}
		}
	}
	return out, true
}

// same returns the condition under which a and b, of one type, are equal
// as Go's == compares them, or ok false for values == cannot compare here.
func (w *World) same(a, b Value) (*term.Term, bool) {
	B := w.B
	switch a := a.(type) {
	case *term.Term:
		b, ok := b.(*term.Term)
		if !ok || a.W != b.W {
			return nil, false
		}
		return B.Eq(a, b), true
	case Str:
		b, ok := b.(Str)
		return B.Bool(a == b), ok
	case Ptr:
		b, ok := b.(Ptr)
		if !ok {
			return nil, false
		}
		return w.samePlace(a.Obj, a.Path, b.Obj, b.Path), true
	case *Struct:
		b, ok := b.(*Struct)
		if !ok || len(a.Fields) != len(b.Fields) {
			return nil, false
		}
		eq := B.True()
		for i := range a.Fields {
			e, ok := w.same(a.Fields[i], b.Fields[i])
			if !ok {
				return nil, false
			}
			eq = B.And(eq, e)
		}
		return eq, true
	case *Array:
		b, ok := b.(*Array)
		if !ok || len(a.Elems) != len(b.Elems) {
			return nil, false
		}
		eq := B.True()
		for i := range a.Elems {
			e, ok := w.same(a.Elems[i], b.Elems[i])
			if !ok {
				return nil, false
			}
			eq = B.And(eq, e)
		}
		return eq, true
	case Iface:
		b, ok := b.(Iface)
		switch {
		case !ok:
			return nil, false
		case a.T == nil || b.T == nil:
			return B.Bool(a.T == nil && b.T == nil), true
		case !types.Identical(a.T, b.T):
			return B.False(), true
		}
		return w.same(a.V, b.V)
	case Func:
		b, ok := b.(Func)
		if ok && (a.Fn == nil || b.Fn == nil) { // only comparison with nil is legal
			return B.Bool(a.Fn == nil && b.Fn == nil), true
		}
	case Slice:
		b, ok := b.(Slice)
		if ok && (a.Obj == 0 || b.Obj == 0) { // only comparison with nil is legal
			return B.Bool(a.Obj == 0 && b.Obj == 0), true
		}
	}
	return nil, false
}

// samePlace is the condition under which two paths name one element.
func (w *World) samePlace(ao int, ap []Step, bo int, bp []Step) *term.Term {
	B := w.B
	if ao != bo || len(ap) != len(bp) {
		return B.False()
	}
	eq := B.True()
	for i := range ap {
		switch {
		case (ap[i].Index == nil) != (bp[i].Index == nil):
			return B.False()
		case ap[i].Index == nil:
			if ap[i].Field != bp[i].Field {
				return B.False()
			}
		default:
			eq = B.And(eq, B.Eq(ap[i].Index, bp[i].Index))
		}
	}
	return eq
}

// appendStep returns p with s appended, never sharing p's backing array
// with another path.
func appendStep(p []Step, s Step) []Step {
	out := make([]Step, len(p)+1)
	copy(out, p)
	out[len(p)] = s
	return out
}
