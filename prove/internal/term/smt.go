package term

import (
	"bufio"
	"fmt"
	"io"
)

// Script writes an SMT-LIB 2 script in the logic QF_BV that declares the
// variables, asserts every term of asserts (Bool terms), checks
// satisfiability and, if the solver finds a model, asks for the values of
// the terms of values. A term used more than once is named once (a
// constant asserted equal to it), so the script grows with the number of
// distinct terms, not with the unfolded formula.
func Script(w io.Writer, asserts, values []*Term) error {
	bw := bufio.NewWriter(w)
	p := &printer{w: bw, uses: map[*Term]int{}, seen: map[*Term]bool{}, named: map[*Term]bool{}, tables: map[*Table]bool{}}
	fmt.Fprintln(bw, "(set-logic QF_BV)")
	fmt.Fprintln(bw, "(set-option :produce-models true)")
	for _, t := range append(append([]*Term(nil), asserts...), values...) {
		p.count(t)
	}
	for _, t := range asserts {
		p.define(t)
	}
	for _, t := range values {
		p.define(t)
	}
	for _, t := range asserts {
		fmt.Fprint(bw, "(assert ")
		p.expr(t)
		fmt.Fprintln(bw, ")")
	}
	fmt.Fprintln(bw, "(check-sat)")
	if len(values) > 0 {
		fmt.Fprint(bw, "(get-value (")
		for i, t := range values {
			if i > 0 {
				fmt.Fprint(bw, " ")
			}
			p.expr(t)
		}
		fmt.Fprintln(bw, "))")
	}
	fmt.Fprintln(bw, "(exit)")
	return bw.Flush()
}

type printer struct {
	w      *bufio.Writer
	uses   map[*Term]int
	seen   map[*Term]bool // visited by define
	named  map[*Term]bool // defined with define-fun
	tables map[*Table]bool
}

// count counts the uses of every term under t, visiting each once.
func (p *printer) count(t *Term) {
	p.uses[t]++
	if p.uses[t] > 1 {
		return
	}
	for _, a := range t.Args {
		p.count(a)
	}
}

// define declares the variables and tables under t and names, children
// first, every compound term under t that is used more than once.
func (p *printer) define(t *Term) {
	if p.seen[t] {
		return
	}
	p.seen[t] = true
	switch t.Op {
	case Const:
		return
	case Var:
		fmt.Fprintf(p.w, "(declare-fun %s () %s)\n", t.Name, sort(t.W))
		return
	}
	for _, a := range t.Args {
		p.define(a)
	}
	if t.Op == Lookup && !p.tables[t.Table] {
		p.tables[t.Table] = true
		p.table(t.Table)
	}
	if p.uses[t] < 2 {
		return
	}
	// A constant declared and asserted equal, not a define-fun: z3
	// 4.8.12 took seconds to read a few hundred nested define-funs (20 s
	// for 23 KB of UTF-8 path conditions; 0.14 s like this).
	fmt.Fprintf(p.w, "(declare-fun t%d () %s)\n(assert (= t%d ", t.ID, sort(t.W), t.ID)
	p.expr(t)
	fmt.Fprintln(p.w, "))")
	p.named[t] = true
}

// table defines t as a function of its index: a balanced tree of choices
// on the index's bits, equal subtrees shared. (A chain of 256 comparisons
// with the index, the obvious encoding, made z3 spend seconds rewriting
// before it reached the SAT solver; the tree is the circuit itself.)
func (p *printer) table(t *Table) {
	k := uint8(0)
	for 1<<k < len(t.Vals) {
		k++
	}
	k = min(k, t.In)
	fmt.Fprintf(p.w, "(define-fun tbl%d ((i %s)) %s ", t.ID, sort(t.In), sort(t.W))
	body := p.tree(t, 0, 1<<k, int(k)-1)
	if k < t.In {
		// Indices past the tree's bits are past the table: 0.
		body = fmt.Sprintf("(ite (bvult i %s) %s %s)", bv(t.In, uint64(len(t.Vals))), body, bv(t.W, 0))
	}
	fmt.Fprintf(p.w, "%s)\n", body)
}

// tree is the subtree of t's entries lo..hi-1 (a power of two of them),
// chosen by index bits bit, bit-1, … 0.
func (p *printer) tree(t *Table, lo, hi, bit int) string {
	if hi-lo == 1 {
		return bv(t.W, lookup(t, uint64(lo)))
	}
	mid := (lo + hi) / 2
	a, b := p.tree(t, lo, mid, bit-1), p.tree(t, mid, hi, bit-1)
	if a == b {
		return a
	}
	return fmt.Sprintf("(ite (= ((_ extract %d %d) i) #b1) %s %s)", bit, bit, b, a)
}

func sort(w uint8) string {
	if w == 0 {
		return "Bool"
	}
	return fmt.Sprintf("(_ BitVec %d)", w)
}

func bv(w uint8, v uint64) string { return fmt.Sprintf("(_ bv%d %d)", v, w) }

// expr prints t, by name if it has one.
func (p *printer) expr(t *Term) {
	w := p.w
	switch {
	case t.Op == Const && t.W == 0:
		fmt.Fprint(w, t.Val == 1)
		return
	case t.Op == Const:
		fmt.Fprint(w, bv(t.W, t.Val))
		return
	case t.Op == Var:
		fmt.Fprint(w, t.Name)
		return
	case p.named[t]:
		fmt.Fprintf(w, "t%d", t.ID)
		return
	}
	switch t.Op {
	case Zext:
		fmt.Fprintf(w, "((_ zero_extend %d) ", t.W-t.Args[0].W)
	case Sext:
		fmt.Fprintf(w, "((_ sign_extend %d) ", t.W-t.Args[0].W)
	case Extract:
		fmt.Fprintf(w, "((_ extract %d %d) ", uint64(t.W)+t.Val-1, t.Val)
	case Lookup:
		fmt.Fprintf(w, "(tbl%d ", t.Table.ID)
	default:
		fmt.Fprintf(w, "(%s ", t.Op)
	}
	for i, a := range t.Args {
		if i > 0 {
			fmt.Fprint(w, " ")
		}
		p.expr(a)
	}
	fmt.Fprint(w, ")")
}
