// Package term builds the formulas of the prover: bit-vector and Boolean
// terms over named variables, hash-consed so that a shared subterm is one
// node, and folded as they are built, so that a term whose operands are
// all constants is a constant. Executing a function on constant inputs
// therefore computes constants all the way, which is how the executor is
// tested against the compiled code (eval.go has the same semantics for
// terms with variables).
//
// The semantics of every operation are SMT-LIB's theory of fixed-size
// bit-vectors (QF_BV), which smt.go prints terms in: division by zero is
// defined (bvudiv gives all ones, bvurem the dividend), shifts by the width
// or more give zero (or the sign, for bvashr). The executor adds Go's
// panics around them.
package term

import (
	"fmt"
	"math/bits"
)

// Op is a term's operation.
type Op uint8

// The operations. Bool-sorted: Not, And, Or, Eq, Ult, Ule, Slt, Sle (and
// Const, Var, Ite of width 0). The others are bit-vectors of the term's
// width.
const (
	Const Op = iota
	Var
	Not
	And
	Or
	Ite
	Eq
	Ult
	Ule
	Slt
	Sle
	BvNot
	Neg
	Add
	Sub
	Mul
	Udiv
	Urem
	Sdiv
	Srem
	BvAnd
	BvOr
	BvXor
	Shl
	Lshr
	Ashr
	Zext    // to the term's width
	Sext    // to the term's width
	Extract // bits Lo .. Lo+W-1 of the operand
	Concat  // Args[0] high, Args[1] low
	Lookup  // Table[Args[0]]: a constant table, 0 outside it
)

var opNames = [...]string{"const", "var", "not", "and", "or", "ite", "=", "bvult", "bvule", "bvslt", "bvsle",
	"bvnot", "bvneg", "bvadd", "bvsub", "bvmul", "bvudiv", "bvurem", "bvsdiv", "bvsrem", "bvand", "bvor", "bvxor",
	"bvshl", "bvlshr", "bvashr", "zero_extend", "sign_extend", "extract", "concat", "lookup"}

func (o Op) String() string { return opNames[o] }

// Term is a node of a formula. Terms are made only by a Builder and never
// changed; two terms of one Builder are the same formula exactly when they
// are the same pointer.
type Term struct {
	Op    Op
	W     uint8 // 0: Bool; else the bit-vector width, 1..64
	Args  []*Term
	Val   uint64 // Const: the value (Bool: 0 or 1); Extract: the lowest bit taken
	Name  string // Var: the variable's name
	Table *Table // Lookup
	ID    uint32 // unique in the Builder, in creation order
}

// Table is a constant table of bit-vectors of width W, indexed by a
// bit-vector of width In.
type Table struct {
	ID   int
	In   uint8
	W    uint8
	Vals []uint64
}

// IsConst reports whether t is a constant.
func (t *Term) IsConst() bool { return t.Op == Const }

// IsBool reports whether t is Bool-sorted.
func (t *Term) IsBool() bool { return t.W == 0 }

// IsTrue and IsFalse report whether t is the Bool constant.
func (t *Term) IsTrue() bool  { return t.Op == Const && t.W == 0 && t.Val == 1 }
func (t *Term) IsFalse() bool { return t.Op == Const && t.W == 0 && t.Val == 0 }

func (t *Term) String() string {
	switch t.Op {
	case Const:
		if t.W == 0 {
			return fmt.Sprint(t.Val == 1)
		}
		return fmt.Sprintf("%#x:%d", t.Val, t.W)
	case Var:
		return t.Name
	}
	return fmt.Sprintf("t%d", t.ID)
}

// mask returns the all-ones value of width w.
func mask(w uint8) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

// Mask is the all-ones value of width w.
func Mask(w uint8) uint64 { return mask(w) }

type key struct {
	op      Op
	w       uint8
	val     uint64
	a, b, c uint32
	name    string
	table   *Table
}

// Builder makes terms, one formula world: terms of different Builders must
// not be mixed. It is not safe for concurrent use.
type Builder struct {
	nodes  map[key]*Term
	next   uint32
	tables []*Table
	vars   []*Term
	tru    *Term
	fls    *Term
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	b := &Builder{nodes: map[key]*Term{}, next: 1}
	b.fls = b.intern(&Term{Op: Const, W: 0, Val: 0})
	b.tru = b.intern(&Term{Op: Const, W: 0, Val: 1})
	return b
}

// Size is the number of distinct terms made so far.
func (b *Builder) Size() int { return len(b.nodes) }

// Vars lists the variables made so far, in order.
func (b *Builder) Vars() []*Term { return b.vars }

func (b *Builder) intern(t *Term) *Term {
	k := key{op: t.Op, w: t.W, val: t.Val, name: t.Name, table: t.Table}
	ids := [3]uint32{}
	for i, a := range t.Args {
		ids[i] = a.ID
	}
	k.a, k.b, k.c = ids[0], ids[1], ids[2]
	if old, ok := b.nodes[k]; ok {
		return old
	}
	t.ID = b.next
	b.next++
	b.nodes[k] = t
	return t
}

// True and False are the Bool constants.
func (b *Builder) True() *Term  { return b.tru }
func (b *Builder) False() *Term { return b.fls }

// Bool returns the Bool constant v.
func (b *Builder) Bool(v bool) *Term {
	if v {
		return b.tru
	}
	return b.fls
}

// BV returns the constant v of width w (v is truncated to w bits).
func (b *Builder) BV(w uint8, v uint64) *Term {
	if w == 0 || w > 64 {
		panic(fmt.Sprintf("term: width %d", w))
	}
	return b.intern(&Term{Op: Const, W: w, Val: v & mask(w)})
}

// NewVar returns a fresh variable of width w (0: Bool). Names must be
// unique and made of letters, digits and underscores.
func (b *Builder) NewVar(name string, w uint8) *Term {
	for _, v := range b.vars {
		if v.Name == name {
			panic("term: variable " + name + " made twice")
		}
	}
	t := b.intern(&Term{Op: Var, W: w, Name: name})
	b.vars = append(b.vars, t)
	return t
}

// NewTable registers a constant table of width w indexed by in-bit values.
func (b *Builder) NewTable(in, w uint8, vals []uint64) *Table {
	t := &Table{ID: len(b.tables), In: in, W: w, Vals: make([]uint64, len(vals))}
	for i, v := range vals {
		t.Vals[i] = v & mask(w)
	}
	b.tables = append(b.tables, t)
	return t
}

// Tables lists the tables made so far.
func (b *Builder) Tables() []*Table { return b.tables }

func (b *Builder) node(op Op, w uint8, args ...*Term) *Term {
	return b.intern(&Term{Op: op, W: w, Args: args})
}

func checkW(op Op, x, y *Term) {
	if x.W != y.W {
		panic(fmt.Sprintf("term: %v of widths %d and %d", op, x.W, y.W))
	}
}

// Not is Boolean negation.
func (b *Builder) Not(x *Term) *Term {
	switch {
	case x.IsConst():
		return b.Bool(x.Val == 0)
	case x.Op == Not:
		return x.Args[0]
	}
	return b.node(Not, 0, x)
}

// And is Boolean conjunction.
func (b *Builder) And(x, y *Term) *Term {
	switch {
	case x.IsFalse() || y.IsFalse():
		return b.fls
	case x.IsTrue():
		return y
	case y.IsTrue() || x == y:
		return x
	case x.Op == Not && x.Args[0] == y, y.Op == Not && y.Args[0] == x:
		return b.fls
	}
	if x.ID > y.ID {
		x, y = y, x
	}
	return b.node(And, 0, x, y)
}

// Or is Boolean disjunction.
func (b *Builder) Or(x, y *Term) *Term {
	switch {
	case x.IsTrue() || y.IsTrue():
		return b.tru
	case x.IsFalse():
		return y
	case y.IsFalse() || x == y:
		return x
	case x.Op == Not && x.Args[0] == y, y.Op == Not && y.Args[0] == x:
		return b.tru
	}
	// (c and x) or (c and y) = c and (x or y): what merging the two arms
	// of a branch makes of their guards.
	if x.Op == And && y.Op == And {
		for _, i := range [2]int{0, 1} {
			for _, j := range [2]int{0, 1} {
				if x.Args[i] == y.Args[j] {
					return b.And(x.Args[i], b.Or(x.Args[1-i], y.Args[1-j]))
				}
			}
		}
	}
	if x.ID > y.ID {
		x, y = y, x
	}
	return b.node(Or, 0, x, y)
}

// Implies is x → y.
func (b *Builder) Implies(x, y *Term) *Term { return b.Or(b.Not(x), y) }

// Ite is if c then x else y; x and y have one sort.
func (b *Builder) Ite(c, x, y *Term) *Term {
	checkW(Ite, x, y)
	switch {
	case c.IsTrue() || x == y:
		return x
	case c.IsFalse():
		return y
	case c.Op == Not:
		return b.Ite(c.Args[0], y, x)
	case x.W == 0 && x.IsTrue() && y.IsFalse():
		return c
	case x.W == 0 && x.IsFalse() && y.IsTrue():
		return b.Not(c)
	case x.W == 0 && y.IsFalse():
		return b.And(c, x)
	case x.W == 0 && x.IsTrue():
		return b.Or(c, y)
	case y.Op == Ite && y.Args[0] == c:
		return b.Ite(c, x, y.Args[2])
	case x.Op == Ite && x.Args[0] == c:
		return b.Ite(c, x.Args[1], y)
	}
	return b.node(Ite, x.W, c, x, y)
}

// Eq is equality of two terms of one sort.
func (b *Builder) Eq(x, y *Term) *Term {
	checkW(Eq, x, y)
	switch {
	case x == y:
		return b.tru
	case x.IsConst() && y.IsConst():
		return b.Bool(x.Val == y.Val)
	case x.W == 0 && y.IsConst():
		return b.Ite(y, x, b.Not(x))
	case x.W == 0 && x.IsConst():
		return b.Ite(x, y, b.Not(y))
	}
	if x.ID > y.ID {
		x, y = y, x
	}
	return b.node(Eq, 0, x, y)
}

// Cmp is one of the comparisons Ult, Ule, Slt, Sle.
func (b *Builder) Cmp(op Op, x, y *Term) *Term {
	checkW(op, x, y)
	if x.IsConst() && y.IsConst() {
		return b.Bool(apply2(op, x.W, x.Val, y.Val) == 1)
	}
	switch {
	case x == y:
		return b.Bool(op == Ule || op == Sle)
	case op == Ult && y.IsConst() && y.Val == 0:
		return b.fls
	case op == Ule && x.IsConst() && x.Val == 0:
		return b.tru
	case op == Ult && x.IsConst() && x.Val == mask(x.W):
		return b.fls
	case op == Ule && y.IsConst() && y.Val == mask(y.W):
		return b.tru
	}
	return b.node(op, 0, x, y)
}

// Unary is BvNot or Neg.
func (b *Builder) Unary(op Op, x *Term) *Term {
	if x.IsConst() {
		return b.BV(x.W, apply1(op, x.W, x.Val))
	}
	if x.Op == op {
		return x.Args[0]
	}
	return b.node(op, x.W, x)
}

func commutative(op Op) bool {
	switch op {
	case Add, Mul, BvAnd, BvOr, BvXor:
		return true
	}
	return false
}

// Binary is one of the bit-vector operations of two operands of one width
// (Add .. Ashr, Concat excluded).
func (b *Builder) Binary(op Op, x, y *Term) *Term {
	checkW(op, x, y)
	w := x.W
	if x.IsConst() && y.IsConst() {
		return b.BV(w, apply2(op, w, x.Val, y.Val))
	}
	if commutative(op) && x.IsConst() {
		x, y = y, x
	}
	if t := b.simplify(op, x, y); t != nil {
		return t
	}
	if commutative(op) && !y.IsConst() && x.ID > y.ID {
		x, y = y, x
	}
	return b.node(op, w, x, y)
}

// simplify returns a simpler term for op(x, y), or nil. A constant
// operand of a commutative op is y.
func (b *Builder) simplify(op Op, x, y *Term) *Term {
	w := x.W
	zero, ones := y.IsConst() && y.Val == 0, y.IsConst() && y.Val == mask(w)
	switch op {
	case Add:
		if zero {
			return x
		}
		if y.IsConst() && x.Op == Add && x.Args[1].IsConst() {
			return b.Binary(Add, x.Args[0], b.BV(w, x.Args[1].Val+y.Val))
		}
	case Sub:
		switch {
		case zero:
			return x
		case x == y:
			return b.BV(w, 0)
		case y.IsConst():
			return b.Binary(Add, x, b.BV(w, -y.Val))
		}
	case Mul:
		switch {
		case zero:
			return y
		case y.IsConst() && y.Val == 1:
			return x
		case y.IsConst() && bits.OnesCount64(y.Val) == 1:
			return b.Binary(Shl, x, b.BV(w, uint64(bits.TrailingZeros64(y.Val))))
		}
	case BvAnd:
		switch {
		case zero:
			return y
		case ones || x == y:
			return x
		}
	case BvOr:
		switch {
		case zero || x == y:
			return x
		case ones:
			return y
		}
	case BvXor:
		switch {
		case zero:
			return x
		case x == y:
			return b.BV(w, 0)
		case ones:
			return b.Unary(BvNot, x)
		}
	case Shl, Lshr, Ashr:
		switch {
		case zero:
			return x
		case y.IsConst() && y.Val >= uint64(w) && op != Ashr:
			return b.BV(w, 0)
		case x.IsConst() && x.Val == 0:
			return x
		}
	case Udiv:
		if y.IsConst() && y.Val == 1 {
			return x
		}
	}
	return nil
}

// ZeroExt widens x to w bits with zeros.
func (b *Builder) ZeroExt(x *Term, w uint8) *Term {
	switch {
	case w == x.W:
		return x
	case w < x.W:
		panic("term: ZeroExt narrows")
	case x.IsConst():
		return b.BV(w, x.Val)
	case x.Op == Zext:
		return b.ZeroExt(x.Args[0], w)
	}
	return b.node(Zext, w, x)
}

// SignExt widens x to w bits with its sign bit.
func (b *Builder) SignExt(x *Term, w uint8) *Term {
	switch {
	case w == x.W:
		return x
	case w < x.W:
		panic("term: SignExt narrows")
	case x.IsConst():
		return b.BV(w, signExtend(x.Val, x.W))
	}
	return b.node(Sext, w, x)
}

// Extract returns w bits of x from bit lo.
func (b *Builder) Extract(x *Term, lo, w uint8) *Term {
	if lo+w > x.W || w == 0 {
		panic(fmt.Sprintf("term: extract %d bits from %d of a %d-bit term", w, lo, x.W))
	}
	switch {
	case lo == 0 && w == x.W:
		return x
	case x.IsConst():
		return b.BV(w, x.Val>>lo)
	case x.Op == Extract:
		return b.Extract(x.Args[0], uint8(x.Val)+lo, w)
	case x.Op == Zext:
		inner := x.Args[0]
		switch {
		case lo >= inner.W:
			return b.BV(w, 0)
		case lo+w <= inner.W:
			return b.Extract(inner, lo, w)
		}
	case x.Op == Concat:
		hi, low := x.Args[0], x.Args[1]
		switch {
		case lo+w <= low.W:
			return b.Extract(low, lo, w)
		case lo >= low.W:
			return b.Extract(hi, lo-low.W, w)
		}
	}
	t := b.intern(&Term{Op: Extract, W: w, Args: []*Term{x}, Val: uint64(lo)})
	return t
}

// Concat returns hi's bits above lo's.
func (b *Builder) Concat(hi, lo *Term) *Term {
	w := hi.W + lo.W
	if hi.W == 0 || lo.W == 0 || int(hi.W)+int(lo.W) > 64 {
		panic("term: concat widths")
	}
	if hi.IsConst() && lo.IsConst() {
		return b.BV(w, hi.Val<<lo.W|lo.Val)
	}
	if hi.IsConst() && hi.Val == 0 {
		return b.ZeroExt(lo, w)
	}
	// Two adjacent extracts of one term, as a byte-wise load of a word
	// that was stored byte-wise makes them.
	if hi.Op == Extract && lo.Op == Extract && hi.Args[0] == lo.Args[0] && lo.Val+uint64(lo.W) == hi.Val {
		return b.Extract(lo.Args[0], uint8(lo.Val), w)
	}
	return b.node(Concat, w, hi, lo)
}

// Lookup returns t[x] for the constant table t, 0 past its end.
func (b *Builder) Lookup(t *Table, x *Term) *Term {
	if x.W != t.In {
		panic("term: lookup index width")
	}
	if x.IsConst() {
		return b.BV(t.W, lookup(t, x.Val))
	}
	return b.intern(&Term{Op: Lookup, W: t.W, Args: []*Term{x}, Table: t})
}

func lookup(t *Table, i uint64) uint64 {
	if i < uint64(len(t.Vals)) {
		return t.Vals[i]
	}
	return 0
}

func signExtend(v uint64, w uint8) uint64 {
	if w >= 64 {
		return v
	}
	if v&(1<<(w-1)) != 0 {
		return v | ^mask(w)
	}
	return v
}

func toSigned(v uint64, w uint8) int64 { return int64(signExtend(v, w)) }

func apply1(op Op, w uint8, x uint64) uint64 {
	switch op {
	case BvNot:
		return ^x & mask(w)
	case Neg:
		return -x & mask(w)
	}
	panic("term: apply1 " + op.String())
}

// apply2 computes op on two constants of width w as SMT-LIB defines it
// (comparisons give 0 or 1).
func apply2(op Op, w uint8, x, y uint64) uint64 {
	m := mask(w)
	switch op {
	case Add:
		return (x + y) & m
	case Sub:
		return (x - y) & m
	case Mul:
		return (x * y) & m
	case Udiv:
		if y == 0 {
			return m
		}
		return x / y
	case Urem:
		if y == 0 {
			return x
		}
		return x % y
	case Sdiv:
		return sdiv(w, x, y)
	case Srem:
		return srem(w, x, y)
	case BvAnd:
		return x & y
	case BvOr:
		return x | y
	case BvXor:
		return x ^ y
	case Shl:
		if y >= uint64(w) {
			return 0
		}
		return (x << y) & m
	case Lshr:
		if y >= uint64(w) {
			return 0
		}
		return x >> y
	case Ashr:
		s := min(y, uint64(w)-1)
		return uint64(toSigned(x, w)>>s) & m
	case Ult:
		return b2u(x < y)
	case Ule:
		return b2u(x <= y)
	case Slt:
		return b2u(toSigned(x, w) < toSigned(y, w))
	case Sle:
		return b2u(toSigned(x, w) <= toSigned(y, w))
	}
	panic("term: apply2 " + op.String())
}

// sdiv is SMT-LIB's bvsdiv: division of the absolute values, negated when
// the signs differ, bvudiv's all-ones for a zero divisor included.
func sdiv(w uint8, x, y uint64) uint64 {
	m := mask(w)
	nx, ny := toSigned(x, w) < 0, toSigned(y, w) < 0
	ax, ay := x, y
	if nx {
		ax = -x & m
	}
	if ny {
		ay = -y & m
	}
	q := m
	if ay != 0 {
		q = ax / ay
	}
	if nx != ny {
		q = -q & m
	}
	return q
}

// srem is SMT-LIB's bvsrem: the remainder of the absolute values, with the
// dividend's sign (the dividend itself for a zero divisor).
func srem(w uint8, x, y uint64) uint64 {
	m := mask(w)
	nx, ny := toSigned(x, w) < 0, toSigned(y, w) < 0
	ax, ay := x, y
	if nx {
		ax = -x & m
	}
	if ny {
		ay = -y & m
	}
	r := ax
	if ay != 0 {
		r = ax % ay
	}
	if nx {
		r = -r & m
	}
	return r
}

func b2u(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// Signed returns the w-bit value v read as two's complement.
func Signed(v uint64, w uint8) int64 { return toSigned(v, w) }
