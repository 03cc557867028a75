package symex

import (
	"fmt"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// Symbolize replaces every integer and bool constant in v (and in the
// objects it points at, in the base heap) by a fresh variable, recording
// the constant as its value in assign.
func (w *World) Symbolize(v Value, name string, assign map[*term.Term]uint64) Value {
	n := 0
	seen := map[int]bool{}
	var walk func(v Value) Value
	walk = func(v Value) Value {
		switch x := v.(type) {
		case *term.Term:
			if !x.IsConst() {
				return x
			}
			n++
			nv := w.B.NewVar(fmt.Sprintf("%s_%d", name, n), x.W)
			assign[nv] = x.Val
			return nv
		case *Struct:
			out := &Struct{Fields: make([]Value, len(x.Fields))}
			for i, f := range x.Fields {
				out.Fields[i] = walk(f)
			}
			return out
		case *Array:
			out := &Array{Elems: make([]Value, len(x.Elems))}
			for i, e := range x.Elems {
				out.Elems[i] = walk(e)
			}
			return out
		case Ptr:
			if x.Obj != 0 && !seen[x.Obj] {
				seen[x.Obj] = true
				w.base[x.Obj] = walk(w.base[x.Obj])
			}
		case Slice:
			if x.Obj != 0 && !seen[x.Obj] {
				seen[x.Obj] = true
				w.base[x.Obj] = walk(w.base[x.Obj])
			}
		}
		return v
	}
	return walk(v)
}
