package symex

import (
	"fmt"
	"go/types"
	"reflect"
	"strconv"
	"strings"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// FromGo converts the Go value v, of type t, into a Value over the base
// heap: what its pointers and slices point at becomes objects (one per
// pointer, so that aliases stay aliases), each described by what. It reads
// unexported fields too (as reflect allows reading them). Interfaces and
// functions other than nil are refused: their dynamic types and code are
// not known from a reflect value.
func (w *World) FromGo(v reflect.Value, t types.Type, what string) (Value, error) {
	c := &fromGo{w: w, seen: map[uintptr]int{}}
	return c.value(v, t, what)
}

type fromGo struct {
	w    *World
	seen map[uintptr]int // pointer → object
}

func (c *fromGo) value(v reflect.Value, t types.Type, what string) (Value, error) {
	B := c.w.B
	switch v.Kind() {
	case reflect.Bool:
		return B.Bool(v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return B.BV(c.w.Width(t), uint64(v.Int())), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return B.BV(c.w.Width(t), v.Uint()), nil
	case reflect.String:
		return Str{S: v.String()}, nil
	case reflect.Array:
		at, ok := t.Underlying().(*types.Array)
		if !ok || int64(v.Len()) != at.Len() {
			return nil, fmt.Errorf("%s: a Go %s is no %s", what, v.Type(), t)
		}
		a := &Array{Elems: make([]Value, v.Len())}
		for i := range a.Elems {
			e, err := c.value(v.Index(i), at.Elem(), fmt.Sprintf("%s[%d]", what, i))
			if err != nil {
				return nil, err
			}
			a.Elems[i] = e
		}
		return a, nil
	case reflect.Struct:
		st, ok := t.Underlying().(*types.Struct)
		if !ok || st.NumFields() != v.NumField() {
			return nil, fmt.Errorf("%s: a Go %s is no %s", what, v.Type(), t)
		}
		s := &Struct{Fields: make([]Value, v.NumField())}
		for i := range s.Fields {
			f, err := c.value(v.Field(i), st.Field(i).Type(), what+"."+st.Field(i).Name())
			if err != nil {
				return nil, err
			}
			s.Fields[i] = f
		}
		return s, nil
	case reflect.Slice:
		return c.slice(v, t, what)
	case reflect.Pointer:
		pt, ok := t.Underlying().(*types.Pointer)
		if !ok {
			return nil, fmt.Errorf("%s: a Go %s is no %s", what, v.Type(), t)
		}
		if v.IsNil() {
			return Ptr{}, nil
		}
		if id, ok := c.seen[v.Pointer()]; ok {
			return Ptr{Obj: id}, nil
		}
		c.w.nextObj++ // reserve the id first, for cycles
		id := c.w.nextObj
		c.seen[v.Pointer()] = id
		e, err := c.value(v.Elem(), pt.Elem(), "*"+what)
		if err != nil {
			return nil, err
		}
		c.w.objects[id] = &object{typ: pt.Elem(), what: what}
		c.w.base[id] = e
		return Ptr{Obj: id}, nil
	case reflect.Interface, reflect.Func:
		if v.IsNil() {
			return c.w.zero(t)
		}
	}
	return nil, fmt.Errorf("%s: values of kind %s cannot be passed to the prover", what, v.Kind())
}

func (c *fromGo) slice(v reflect.Value, t types.Type, what string) (Value, error) {
	B := c.w.B
	st, ok := t.Underlying().(*types.Slice)
	if !ok {
		return nil, fmt.Errorf("%s: a Go %s is no %s", what, v.Type(), t)
	}
	if v.IsNil() {
		return c.w.zero(t)
	}
	full := v.Slice3(0, v.Cap(), v.Cap())
	a := &Array{Elems: make([]Value, v.Cap())}
	for i := range a.Elems {
		e, err := c.value(full.Index(i), st.Elem(), fmt.Sprintf("%s[%d]", what, i))
		if err != nil {
			return nil, err
		}
		a.Elems[i] = e
	}
	id := c.w.NewObject(types.NewArray(st.Elem(), int64(v.Cap())), a, what)
	return Slice{Obj: id, Off: B.BV(64, 0), Len: B.BV(64, uint64(v.Len())), Cap: B.BV(64, uint64(v.Cap()))}, nil
}

// Render writes x, of type t, in memory h, with its terms evaluated by
// ev, in a canonical form that RenderGo also writes for a Go value: two
// renderings are equal when the values are equal as the prover compares
// them (slices by their elements, pointers by what they point at, errors
// made by errors.New by their text).
func (w *World) Render(x Value, t types.Type, h *Heap, ev *term.Eval) string {
	var b strings.Builder
	w.render(&b, x, t, h, ev, 0)
	return b.String()
}

func (w *World) render(b *strings.Builder, x Value, t types.Type, h *Heap, ev *term.Eval, depth int) {
	if depth > 6 {
		b.WriteString("…")
		return
	}
	switch x := x.(type) {
	case *term.Term:
		if x.IsBool() {
			b.WriteString(strconv.FormatBool(ev.Bool(x)))
			return
		}
		v := ev.Value(x)
		if signed(t) {
			b.WriteString(strconv.FormatInt(term.Signed(v, x.W), 10))
		} else {
			b.WriteString(strconv.FormatUint(v, 10))
		}
	case Str:
		b.WriteString(strconv.Quote(x.S))
	case Slice:
		w.renderSlice(b, x, t, h, ev, depth)
	case Ptr:
		if x.Obj == 0 {
			b.WriteString("nil")
			return
		}
		pt, _ := t.Underlying().(*types.Pointer)
		e, err := w.loadEval(h, x, ev)
		if err != nil || pt == nil {
			b.WriteString("&?")
			return
		}
		b.WriteString("&")
		w.render(b, e, pt.Elem(), h, ev, depth+1)
	case *Struct:
		st := t.Underlying().(*types.Struct)
		w.renderList(b, "{", "}", len(x.Fields), func(i int) { w.render(b, x.Fields[i], st.Field(i).Type(), h, ev, depth+1) })
	case *Array:
		at := t.Underlying().(*types.Array)
		w.renderList(b, "[", "]", len(x.Elems), func(i int) { w.render(b, x.Elems[i], at.Elem(), h, ev, depth+1) })
	case Iface:
		w.renderIface(b, x, h, ev, depth)
	case Func:
		if x.Fn == nil {
			b.WriteString("nil")
			return
		}
		b.WriteString("func " + x.Fn.Fn.String())
	default:
		fmt.Fprintf(b, "%T", x)
	}
}

// renderList writes n elements between open and close, separated by
// spaces.
func (w *World) renderList(b *strings.Builder, open, close string, n int, elem func(i int)) {
	b.WriteString(open)
	for i := range n {
		if i > 0 {
			b.WriteString(" ")
		}
		elem(i)
	}
	b.WriteString(close)
}

// renderSlice writes a slice as its length and elements.
func (w *World) renderSlice(b *strings.Builder, x Slice, t types.Type, h *Heap, ev *term.Eval, depth int) {
	if x.Obj == 0 {
		b.WriteString("nil")
		return
	}
	n := ev.Value(x.Len)
	fmt.Fprintf(b, "[%d]", n)
	elem := t.Underlying().(*types.Slice).Elem()
	w.renderList(b, "{", "}", int(n), func(i int) {
		idx := w.B.BV(64, ev.Value(x.Off)+uint64(i))
		e, err := w.load(h.Get(x.Obj), appendStep(x.Path, Step{Index: idx}))
		if err != nil {
			b.WriteString("?")
			return
		}
		w.render(b, e, elem, h, ev, depth+1)
	})
}

// renderIface writes an interface value: an error made by errors.New by
// its text, another by its dynamic type and value.
func (w *World) renderIface(b *strings.Builder, x Iface, h *Heap, ev *term.Eval, depth int) {
	if x.T == nil {
		b.WriteString("nil")
		return
	}
	if msg, ok := w.errorText(x, h, ev); ok {
		fmt.Fprintf(b, "error(%q)", msg)
		return
	}
	fmt.Fprintf(b, "%s(", x.T)
	w.render(b, x.V, x.T, h, ev, depth+1)
	b.WriteString(")")
}

// loadEval loads what p points at, its indices evaluated by ev.
func (w *World) loadEval(h *Heap, p Ptr, ev *term.Eval) (Value, error) {
	path := make([]Step, len(p.Path))
	for i, s := range p.Path {
		path[i] = s
		if s.Index != nil {
			path[i].Index = w.B.BV(s.Index.W, ev.Value(s.Index))
		}
	}
	return w.load(h.Get(p.Obj), path)
}

// errorText returns the text of an error made by errors.New.
func (w *World) errorText(x Iface, h *Heap, ev *term.Eval) (string, bool) {
	if x.T.String() != "*errors.errorString" {
		return "", false
	}
	p, ok := x.V.(Ptr)
	if !ok || p.Obj == 0 {
		return "", false
	}
	v, err := w.loadEval(h, p, ev)
	if err != nil {
		return "", false
	}
	st, ok := v.(*Struct)
	if !ok || len(st.Fields) != 1 {
		return "", false
	}
	s, ok := st.Fields[0].(Str)
	return s.S, ok
}

// RenderGo writes the Go value v in Render's form.
func RenderGo(v reflect.Value) string {
	var b strings.Builder
	renderGo(&b, v, 0)
	return b.String()
}

func renderGo(b *strings.Builder, v reflect.Value, depth int) {
	if depth > 6 {
		b.WriteString("…")
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		fmt.Fprintf(b, "[%d]{", v.Len())
		for i := range v.Len() {
			if i > 0 {
				b.WriteString(" ")
			}
			renderGo(b, v.Index(i), depth+1)
		}
		b.WriteString("}")
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString("&")
		renderGo(b, v.Elem(), depth+1)
	case reflect.Struct:
		b.WriteString("{")
		for i := range v.NumField() {
			if i > 0 {
				b.WriteString(" ")
			}
			renderGo(b, v.Field(i), depth+1)
		}
		b.WriteString("}")
	case reflect.Array:
		b.WriteString("[")
		for i := range v.Len() {
			if i > 0 {
				b.WriteString(" ")
			}
			renderGo(b, v.Index(i), depth+1)
		}
		b.WriteString("]")
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		e := v.Elem()
		if e.Type().String() == "*errors.errorString" {
			fmt.Fprintf(b, "error(%q)", e.Elem().Field(0).String())
			return
		}
		fmt.Fprintf(b, "%s(", e.Type())
		renderGo(b, e, depth+1)
		b.WriteString(")")
	case reflect.Func:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString("func")
	default:
		fmt.Fprintf(b, "%s", v.Kind())
	}
}
