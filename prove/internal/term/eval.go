package term

// Eval computes terms under an assignment of their variables, with the
// same semantics as the folding the Builder does (and as SMT-LIB): it is
// how a formula with variables is checked against the compiled code on
// concrete inputs, and how a solver's model is checked before it is
// believed. A variable the assignment lacks is 0.
type Eval struct {
	vals map[*Term]uint64
	memo map[*Term]uint64
}

// NewEval returns an evaluator under the assignment vals (variable to
// value, Bool variables 0 or 1).
func NewEval(vals map[*Term]uint64) *Eval {
	return &Eval{vals: vals, memo: map[*Term]uint64{}}
}

// Value returns t's value (Bool: 0 or 1).
func (e *Eval) Value(t *Term) uint64 {
	if v, ok := e.memo[t]; ok {
		return v
	}
	v := e.compute(t)
	e.memo[t] = v
	return v
}

// Bool returns the value of the Bool term t.
func (e *Eval) Bool(t *Term) bool { return e.Value(t) == 1 }

func (e *Eval) compute(t *Term) uint64 {
	switch t.Op {
	case Const:
		return t.Val
	case Var:
		return e.vals[t] & mask(max(t.W, 1))
	case Not:
		return 1 - e.Value(t.Args[0])
	case And:
		return e.Value(t.Args[0]) & e.Value(t.Args[1])
	case Or:
		return e.Value(t.Args[0]) | e.Value(t.Args[1])
	case Ite:
		if e.Value(t.Args[0]) == 1 {
			return e.Value(t.Args[1])
		}
		return e.Value(t.Args[2])
	case Eq:
		return b2u(e.Value(t.Args[0]) == e.Value(t.Args[1]))
	case Ult, Ule, Slt, Sle:
		return apply2(t.Op, t.Args[0].W, e.Value(t.Args[0]), e.Value(t.Args[1]))
	case BvNot, Neg:
		return apply1(t.Op, t.W, e.Value(t.Args[0]))
	case Zext:
		return e.Value(t.Args[0])
	case Sext:
		return signExtend(e.Value(t.Args[0]), t.Args[0].W) & mask(t.W)
	case Extract:
		return (e.Value(t.Args[0]) >> t.Val) & mask(t.W)
	case Concat:
		return e.Value(t.Args[0])<<t.Args[1].W | e.Value(t.Args[1])
	case Lookup:
		return lookup(t.Table, e.Value(t.Args[0]))
	}
	return apply2(t.Op, t.W, e.Value(t.Args[0]), e.Value(t.Args[1]))
}
