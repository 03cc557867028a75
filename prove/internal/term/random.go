package term

import (
	"math/rand/v2"
)

// Random expressions, for the tests of this package (the Builder's
// simplifications against direct evaluation) and of package solver (the
// SMT-LIB printing against Eval). They live outside the test files so
// that both can use them.

// node is a random expression, kept apart from the Builder's terms so
// that it can be evaluated without the Builder's simplifications.
type node struct {
	op   Op
	w    uint8
	args []*node
	val  uint64 // Const; Extract: the low bit
	v    int    // Var: the index of the variable
	tab  []uint64
}

// naive evaluates n directly from apply1 and apply2, with no folding or
// rewriting: the reference for the Builder's simplifications.
func naive(n *node, vars []uint64) uint64 {
	a := func(i int) uint64 { return naive(n.args[i], vars) }
	switch n.op {
	case Const:
		return n.val
	case Var:
		return vars[n.v] & mask(max(n.w, 1))
	case Not:
		return 1 - a(0)
	case And:
		return a(0) & a(1)
	case Or:
		return a(0) | a(1)
	case Ite:
		if a(0) == 1 {
			return a(1)
		}
		return a(2)
	case Eq:
		return b2u(a(0) == a(1))
	case Ult, Ule, Slt, Sle:
		return apply2(n.op, n.args[0].w, a(0), a(1))
	case BvNot, Neg:
		return apply1(n.op, n.w, a(0))
	case Zext:
		return a(0)
	case Sext:
		return signExtend(a(0), n.args[0].w) & mask(n.w)
	case Extract:
		return (a(0) >> n.val) & mask(n.w)
	case Concat:
		return a(0)<<n.args[1].w | a(1)
	case Lookup:
		if i := a(0); i < uint64(len(n.tab)) {
			return n.tab[i] & mask(n.w)
		}
		return 0
	}
	return apply2(n.op, n.w, a(0), a(1))
}

var widths = []uint8{1, 7, 8, 16, 32, 64}

// gen makes random expressions of width w (0: Bool) over the variables,
// depth levels deep at most.
type gen struct {
	rng  *rand.Rand
	vars []*node
}

func (g *gen) leaf(w uint8) *node {
	if w > 0 && g.rng.IntN(3) == 0 {
		edges := []uint64{0, 1, mask(w), mask(w) >> 1, 1 << (w - 1), uint64(w)}
		return &node{op: Const, w: w, val: edges[g.rng.IntN(len(edges))] & mask(w)}
	}
	var cands []*node
	for _, v := range g.vars {
		if v.w == w {
			cands = append(cands, v)
		}
	}
	if len(cands) == 0 || g.rng.IntN(4) == 0 {
		return &node{op: Const, w: w, val: g.rng.Uint64() & mask(max(w, 1))}
	}
	return cands[g.rng.IntN(len(cands))]
}

func (g *gen) expr(w uint8, depth int) *node {
	if depth == 0 || g.rng.IntN(5) == 0 {
		return g.leaf(w)
	}
	d := depth - 1
	if w == 0 {
		switch g.rng.IntN(5) {
		case 0:
			return &node{op: Not, args: []*node{g.expr(0, d)}}
		case 1:
			return &node{op: []Op{And, Or}[g.rng.IntN(2)], args: []*node{g.expr(0, d), g.expr(0, d)}}
		case 2:
			return &node{op: Ite, args: []*node{g.expr(0, d), g.expr(0, d), g.expr(0, d)}}
		}
		x := widths[g.rng.IntN(len(widths))]
		return &node{op: []Op{Eq, Ult, Ule, Slt, Sle}[g.rng.IntN(5)], args: []*node{g.expr(x, d), g.expr(x, d)}}
	}
	switch k := g.rng.IntN(10); {
	case k < 5:
		op := []Op{Add, Sub, Mul, Udiv, Urem, Sdiv, Srem, BvAnd, BvOr, BvXor, Shl, Lshr, Ashr}[g.rng.IntN(13)]
		return &node{op: op, w: w, args: []*node{g.expr(w, d), g.expr(w, d)}}
	case k == 5:
		return &node{op: []Op{BvNot, Neg}[g.rng.IntN(2)], w: w, args: []*node{g.expr(w, d)}}
	case k == 6:
		return &node{op: Ite, w: w, args: []*node{g.expr(0, d), g.expr(w, d), g.expr(w, d)}}
	case k == 7 && w > 1:
		lo := uint8(g.rng.IntN(int(w) - 1))
		inner := g.expr(lo+uint8(g.rng.IntN(int(w-lo)))+1, d)
		if inner.w < w {
			return &node{op: []Op{Zext, Sext}[g.rng.IntN(2)], w: w, args: []*node{inner}}
		}
	case k == 8 && w < 64:
		src := []uint8{w + 1, 64}[g.rng.IntN(2)]
		from := uint8(g.rng.IntN(int(src - w + 1)))
		return &node{op: Extract, w: w, val: uint64(from), args: []*node{g.expr(src, d)}}
	case k == 9 && w > 1:
		hi := uint8(1 + g.rng.IntN(int(w)-1))
		return &node{op: Concat, w: w, args: []*node{g.expr(hi, d), g.expr(w-hi, d)}}
	}
	if w <= 8 {
		tab := make([]uint64, 1+g.rng.IntN(20))
		for i := range tab {
			tab[i] = g.rng.Uint64()
		}
		return &node{op: Lookup, w: w, tab: tab, args: []*node{g.expr(uint8(4+g.rng.IntN(5)), d)}}
	}
	return g.leaf(w)
}

// build makes n's term with the Builder (which simplifies as it goes).
func build(b *Builder, n *node, vars []*Term, tabs map[*node]*Table) *Term {
	args := make([]*Term, len(n.args))
	for i, a := range n.args {
		args[i] = build(b, a, vars, tabs)
	}
	switch n.op {
	case Const:
		if n.w == 0 {
			return b.Bool(n.val == 1)
		}
		return b.BV(n.w, n.val)
	case Var:
		return vars[n.v]
	case Not:
		return b.Not(args[0])
	case And:
		return b.And(args[0], args[1])
	case Or:
		return b.Or(args[0], args[1])
	case Ite:
		return b.Ite(args[0], args[1], args[2])
	case Eq:
		return b.Eq(args[0], args[1])
	case Ult, Ule, Slt, Sle:
		return b.Cmp(n.op, args[0], args[1])
	case BvNot, Neg:
		return b.Unary(n.op, args[0])
	case Zext:
		return b.ZeroExt(args[0], n.w)
	case Sext:
		return b.SignExt(args[0], n.w)
	case Extract:
		return b.Extract(args[0], uint8(n.val), n.w)
	case Concat:
		return b.Concat(args[0], args[1])
	case Lookup:
		t, ok := tabs[n]
		if !ok {
			t = b.NewTable(n.args[0].w, n.w, n.tab)
			tabs[n] = t
		}
		return b.Lookup(t, args[0])
	}
	return b.Binary(n.op, args[0], args[1])
}

// RandomExprs returns n random expressions of random widths (Bool too),
// depth levels deep at most, over the variables vars (widths as made by
// NewVar), built with b, and a function evaluating each directly under
// values of vars.
func RandomExprs(rng *rand.Rand, b *Builder, vars []*Term, n, depth int) ([]*Term, func(i int, vals []uint64) uint64) {
	g := &gen{rng: rng}
	for i, v := range vars {
		g.vars = append(g.vars, &node{op: Var, w: v.W, v: i})
	}
	nodes := make([]*node, n)
	terms := make([]*Term, n)
	for i := range nodes {
		nodes[i] = g.expr([]uint8{0, 8, 16, 32, 64}[rng.IntN(5)], depth)
		terms[i] = build(b, nodes[i], vars, map[*node]*Table{})
	}
	return terms, func(i int, vals []uint64) uint64 { return naive(nodes[i], vals) & mask(max(nodes[i].w, 1)) }
}
