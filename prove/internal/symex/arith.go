package symex

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// binop computes a binary operation: integer arithmetic with Go's panics
// (division by zero, a negative shift count), comparisons of integers,
// bools, constant strings, and == and != of everything comparable.
func (r *run) binop(s *state, ins *ssa.BinOp) (Value, bool, error) {
	x, err := r.value(s, ins.X)
	if err != nil {
		return nil, false, err
	}
	y, err := r.value(s, ins.Y)
	if err != nil {
		return nil, false, err
	}
	B := r.w.B
	if xs, ok := x.(Str); ok {
		v, err := r.stringOp(ins, xs, y)
		return v, err == nil, err
	}
	tx, okx := x.(*term.Term)
	ty, oky := y.(*term.Term)
	if !okx || !oky {
		if ins.Op != token.EQL && ins.Op != token.NEQ {
			return nil, false, r.unsupported(fmt.Sprintf("operator %s on %s", ins.Op, ins.X.Type()), ins.Pos())
		}
		eq, ok := r.w.same(x, y)
		if !ok {
			return nil, false, r.unsupported(fmt.Sprintf("comparison of %s values", ins.X.Type()), ins.Pos())
		}
		if ins.Op == token.NEQ {
			eq = B.Not(eq)
		}
		return eq, true, nil
	}
	if isFloat(ins.X.Type()) {
		return nil, false, r.unsupported("floating-point arithmetic", ins.Pos())
	}
	sgn := signed(ins.X.Type())
	switch ins.Op {
	case token.EQL:
		return B.Eq(tx, ty), true, nil
	case token.NEQ:
		return B.Not(B.Eq(tx, ty)), true, nil
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		return r.compare(ins.Op, sgn, tx, ty), true, nil
	case token.SHL, token.SHR:
		return r.shift(s, ins, tx, ty)
	case token.QUO, token.REM:
		if !r.panics(s, B.Not(B.Eq(ty, B.BV(ty.W, 0))), "integer divide by zero", ins.Pos()) {
			return nil, false, nil
		}
		op := map[bool]map[token.Token]term.Op{
			false: {token.QUO: term.Udiv, token.REM: term.Urem},
			true:  {token.QUO: term.Sdiv, token.REM: term.Srem},
		}[sgn][ins.Op]
		return B.Binary(op, tx, ty), true, nil
	case token.AND_NOT:
		return B.Binary(term.BvAnd, tx, B.Unary(term.BvNot, ty)), true, nil
	}
	op, ok := map[token.Token]term.Op{token.ADD: term.Add, token.SUB: term.Sub, token.MUL: term.Mul,
		token.AND: term.BvAnd, token.OR: term.BvOr, token.XOR: term.BvXor}[ins.Op]
	if !ok || tx.IsBool() {
		return nil, false, r.unsupported(fmt.Sprintf("operator %s on %s", ins.Op, ins.X.Type()), ins.Pos())
	}
	return B.Binary(op, tx, ty), true, nil
}

func (r *run) compare(op token.Token, sgn bool, x, y *term.Term) *term.Term {
	B := r.w.B
	lt, le := term.Ult, term.Ule
	if sgn {
		lt, le = term.Slt, term.Sle
	}
	switch op {
	case token.LSS:
		return B.Cmp(lt, x, y)
	case token.LEQ:
		return B.Cmp(le, x, y)
	case token.GTR:
		return B.Cmp(lt, y, x)
	}
	return B.Cmp(le, y, x)
}

// shift computes x << y or x >> y as Go does: a count of the width or
// more shifts everything out (a signed >> fills with the sign), and a
// negative count panics.
func (r *run) shift(s *state, ins *ssa.BinOp, x, y *term.Term) (Value, bool, error) {
	B := r.w.B
	if signed(ins.Y.Type()) {
		if !r.panics(s, B.Cmp(term.Sle, B.BV(y.W, 0), y), "negative shift amount", ins.Pos()) {
			return nil, false, nil
		}
	}
	w := x.W
	var n *term.Term
	switch {
	case y.W == w:
		n = y
	case y.W < w:
		n = B.ZeroExt(y, w)
	default:
		big := B.Cmp(term.Ule, B.BV(y.W, uint64(w)), y)
		n = B.Ite(big, B.BV(w, uint64(w)), B.Extract(y, 0, w))
	}
	op := term.Shl
	if ins.Op == token.SHR {
		op = term.Lshr
		if signed(ins.X.Type()) {
			op = term.Ashr
		}
	}
	return B.Binary(op, x, n), true, nil
}

// stringOp computes an operation on constant strings.
func (r *run) stringOp(ins *ssa.BinOp, x Str, yv Value) (Value, error) {
	y, ok := yv.(Str)
	if !ok {
		return nil, r.unsupported("string operation", ins.Pos())
	}
	B := r.w.B
	switch ins.Op {
	case token.ADD:
		return Str{S: x.S + y.S}, nil
	case token.EQL:
		return B.Bool(x.S == y.S), nil
	case token.NEQ:
		return B.Bool(x.S != y.S), nil
	case token.LSS:
		return B.Bool(x.S < y.S), nil
	case token.LEQ:
		return B.Bool(x.S <= y.S), nil
	case token.GTR:
		return B.Bool(x.S > y.S), nil
	case token.GEQ:
		return B.Bool(x.S >= y.S), nil
	}
	return nil, r.unsupported("string operator "+ins.Op.String(), ins.Pos())
}

func isFloat(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsFloat|types.IsComplex) != 0
}

// unop computes !x, -x, ^x and *x (a load, which panics on nil).
func (r *run) unop(s *state, ins *ssa.UnOp) (Value, bool, error) {
	if ins.Op == token.ARROW {
		return nil, false, r.unsupported("channel receive", ins.Pos())
	}
	x, err := r.value(s, ins.X)
	if err != nil {
		return nil, false, err
	}
	B := r.w.B
	if ins.Op == token.MUL {
		return r.loadPtr(s, x, ins.Pos())
	}
	t, ok := x.(*term.Term)
	if !ok || isFloat(ins.X.Type()) {
		return nil, false, r.unsupported(fmt.Sprintf("operator %s on %s", ins.Op, ins.X.Type()), ins.Pos())
	}
	switch ins.Op {
	case token.NOT:
		return B.Not(t), true, nil
	case token.SUB:
		return B.Unary(term.Neg, t), true, nil
	case token.XOR:
		return B.Unary(term.BvNot, t), true, nil
	}
	return nil, false, r.unsupported("operator "+ins.Op.String(), ins.Pos())
}

// convert computes a conversion between integer types (truncating, or
// widening with the sign of a signed source), and from a constant string
// to bytes.
func (r *run) convert(s *state, ins *ssa.Convert) (Value, error) {
	from, to := ins.X.Type(), ins.Type()
	x, err := r.value(s, ins.X)
	if err != nil {
		return nil, err
	}
	if isUnsafe(from) || isUnsafe(to) {
		return nil, r.unsupported("unsafe.Pointer conversion (unsafe)", ins.Pos())
	}
	if isFloat(from) || isFloat(to) {
		return nil, r.unsupported(fmt.Sprintf("floating point (conversion from %s to %s)", from, to), ins.Pos())
	}
	if intType(from) != nil && intType(to) != nil {
		t := x.(*term.Term)
		w := r.w.width(intType(to))
		switch {
		case w < t.W:
			return r.w.B.Extract(t, 0, w), nil
		case w > t.W && signed(from):
			return r.w.B.SignExt(t, w), nil
		}
		return r.w.B.ZeroExt(t, w), nil
	}
	if str, ok := x.(Str); ok {
		if sl, ok := to.Underlying().(*types.Slice); ok && isByte(sl.Elem()) {
			return r.w.bytesOf(s.heap, []byte(str.S), fmt.Sprintf("[]byte(%q)", str.S)), nil
		}
	}
	return nil, r.unsupported(fmt.Sprintf("conversion from %s to %s", from, to), ins.Pos())
}

func isUnsafe(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}

func isByte(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Uint8
}

// bytesOf makes a new array holding b and returns the slice of all of it.
func (w *World) bytesOf(h *Heap, b []byte, what string) Slice {
	a := &Array{Elems: make([]Value, len(b))}
	for i, c := range b {
		a.Elems[i] = w.B.BV(8, uint64(c))
	}
	t := types.NewArray(types.Typ[types.Uint8], int64(len(b)))
	id := w.alloc(h, t, a, what)
	n := w.B.BV(64, uint64(len(b)))
	return Slice{Obj: id, Off: w.B.BV(64, 0), Len: n, Cap: n}
}
