package prove

import (
	"fmt"
	"go/types"
	"reflect"
	"strings"
	"unicode"

	"github.com/equivcheck/equivcheck/prove/internal/symex"
	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// input is one free parameter of the functions, as both receive it: a
// value over variables, the objects it points at (compared after the
// calls), and how to rebuild it as a Go value from the variables' values.
type input struct {
	name string
	typ  types.Type
	val  symex.Value
	vars []*term.Term // in the order goValue consumes them
	objs []int        // input objects, compared after the calls
	lens []int        // lengths of the slices met, in the order goValue meets them
	caps []int
}

// makeInputs makes the size's inputs: every integer and bool a variable,
// every slice of its length (Lengths, or the size) plus Spare elements,
// every pointer to a fresh object.
func (p *proof) makeInputs() error {
	var lens []int
	if p.m.cfg.lengths != nil {
		lens = p.m.cfg.lengths(p.n)
	}
	slice := 0
	for i, prm := range p.ref.params {
		in := &input{name: prm.Name(), typ: prm.Type()}
		mk := &maker{p: p, in: in, lens: lens, slice: &slice}
		v, err := mk.value(prm.Type(), fmt.Sprintf("x%d_%s", i, ident(prm.Name())))
		if err != nil {
			return fmt.Errorf("parameter %s: %w", prm.Name(), err)
		}
		in.val = v
		p.inputs = append(p.inputs, in)
	}
	return nil
}

// ident makes s safe in an SMT-LIB symbol.
func ident(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '_'
	}, s)
}

type maker struct {
	p     *proof
	in    *input
	lens  []int
	slice *int
}

func (mk *maker) value(t types.Type, name string) (symex.Value, error) {
	w := mk.p.w
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Info()&(types.IsInteger|types.IsBoolean) == 0 {
			return nil, fmt.Errorf("the prover makes no symbolic %s", t)
		}
		v := w.B.NewVar(name, w.Width(t))
		mk.in.vars = append(mk.in.vars, v)
		return v, nil
	case *types.Array:
		a := &symex.Array{Elems: make([]symex.Value, u.Len())}
		for i := range a.Elems {
			e, err := mk.value(u.Elem(), fmt.Sprintf("%s_%d", name, i))
			if err != nil {
				return nil, err
			}
			a.Elems[i] = e
		}
		return a, nil
	case *types.Struct:
		s := &symex.Struct{Fields: make([]symex.Value, u.NumFields())}
		for i := range s.Fields {
			f, err := mk.value(u.Field(i).Type(), name+"_"+ident(u.Field(i).Name()))
			if err != nil {
				return nil, err
			}
			s.Fields[i] = f
		}
		return s, nil
	case *types.Slice:
		n := mk.p.n
		if *mk.slice < len(mk.lens) {
			n = mk.lens[*mk.slice]
		}
		*mk.slice++
		c := n + mk.p.m.cfg.spare
		mk.in.lens, mk.in.caps = append(mk.in.lens, n), append(mk.in.caps, c)
		a := &symex.Array{Elems: make([]symex.Value, c)}
		for i := range a.Elems {
			e, err := mk.value(u.Elem(), fmt.Sprintf("%s_%d", name, i))
			if err != nil {
				return nil, err
			}
			a.Elems[i] = e
		}
		id := w.NewInput(types.NewArray(u.Elem(), int64(c)), a, "input "+mk.in.name)
		mk.in.objs = append(mk.in.objs, id)
		return symex.Slice{Obj: id, Off: w.B.BV(64, 0), Len: w.B.BV(64, uint64(n)), Cap: w.B.BV(64, uint64(c))}, nil
	case *types.Pointer:
		e, err := mk.value(u.Elem(), name)
		if err != nil {
			return nil, err
		}
		id := w.NewInput(u.Elem(), e, "input *"+mk.in.name)
		mk.in.objs = append(mk.in.objs, id)
		return symex.Ptr{Obj: id}, nil
	}
	return nil, fmt.Errorf("the prover makes no symbolic %s", t)
}

// vars lists every input variable, in order.
func (p *proof) vars() []*term.Term {
	var out []*term.Term
	for _, in := range p.inputs {
		out = append(out, in.vars...)
	}
	return out
}

// goValues rebuilds the inputs as Go values from their variables' values
// (in the order of vars), of the types rts (the Go function's parameter
// types, or types made from the Go types where there is no function).
func (p *proof) goValues(vals []uint64, rts []reflect.Type) ([]any, error) {
	out := make([]any, len(p.inputs))
	k := 0
	for i, in := range p.inputs {
		g := &goMaker{vals: vals[k : k+len(in.vars)], lens: in.lens, caps: in.caps}
		k += len(in.vars)
		rt := rts[i]
		v, err := g.value(in.typ, rt)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", in.name, err)
		}
		out[i] = v.Interface()
	}
	return out, nil
}

type goMaker struct {
	vals       []uint64
	lens, caps []int
}

func (g *goMaker) next() uint64 {
	v := g.vals[0]
	g.vals = g.vals[1:]
	return v
}

func (g *goMaker) value(t types.Type, rt reflect.Type) (reflect.Value, error) {
	v := reflect.New(rt).Elem()
	switch rt.Kind() {
	case reflect.Bool:
		v.SetBool(g.next() != 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x := g.next()
		v.SetInt(term.Signed(x, uint8(rt.Bits())))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(g.next())
	case reflect.Array:
		at := t.Underlying().(*types.Array)
		for i := range rt.Len() {
			e, err := g.value(at.Elem(), rt.Elem())
			if err != nil {
				return v, err
			}
			v.Index(i).Set(e)
		}
	case reflect.Struct:
		st := t.Underlying().(*types.Struct)
		for i := range rt.NumField() {
			e, err := g.value(st.Field(i).Type(), rt.Field(i).Type)
			if err != nil {
				return v, err
			}
			if !v.Field(i).CanSet() {
				return v, fmt.Errorf("unexported field %s", rt.Field(i).Name)
			}
			v.Field(i).Set(e)
		}
	case reflect.Slice:
		n, c := g.lens[0], g.caps[0]
		g.lens, g.caps = g.lens[1:], g.caps[1:]
		st := t.Underlying().(*types.Slice)
		s := reflect.MakeSlice(rt, c, c)
		for i := range c {
			e, err := g.value(st.Elem(), rt.Elem())
			if err != nil {
				return v, err
			}
			s.Index(i).Set(e)
		}
		v.Set(s.Slice(0, n))
	case reflect.Pointer:
		e, err := g.value(t.Underlying().(*types.Pointer).Elem(), rt.Elem())
		if err != nil {
			return v, err
		}
		ptr := reflect.New(rt.Elem())
		ptr.Elem().Set(e)
		v.Set(ptr)
	default:
		return v, fmt.Errorf("no Go value of kind %s", rt.Kind())
	}
	return v, nil
}

// goType is the Go type of a parameter type made of basic types, arrays,
// slices and pointers, for functions given only by name.
func goType(t types.Type) (reflect.Type, error) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if rt, ok := basicTypes[u.Kind()]; ok {
			return rt, nil
		}
	case *types.Array:
		e, err := goType(u.Elem())
		if err != nil {
			return nil, err
		}
		return reflect.ArrayOf(int(u.Len()), e), nil
	case *types.Slice:
		e, err := goType(u.Elem())
		if err != nil {
			return nil, err
		}
		return reflect.SliceOf(e), nil
	case *types.Pointer:
		e, err := goType(u.Elem())
		if err != nil {
			return nil, err
		}
		return reflect.PointerTo(e), nil
	}
	return nil, fmt.Errorf("no Go type for %s", t)
}

var basicTypes = map[types.BasicKind]reflect.Type{
	types.Bool: reflect.TypeFor[bool](), types.Int: reflect.TypeFor[int](), types.Int8: reflect.TypeFor[int8](),
	types.Int16: reflect.TypeFor[int16](), types.Int32: reflect.TypeFor[int32](), types.Int64: reflect.TypeFor[int64](),
	types.Uint: reflect.TypeFor[uint](), types.Uint8: reflect.TypeFor[uint8](), types.Uint16: reflect.TypeFor[uint16](),
	types.Uint32: reflect.TypeFor[uint32](), types.Uint64: reflect.TypeFor[uint64](), types.Uintptr: reflect.TypeFor[uintptr](),
}
