package solver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

func solvers(t *testing.T) []Solver {
	found := Find()
	if len(found) == 0 {
		t.Skip("no SMT solver on PATH (apt-get install z3 cvc5)")
	}
	return found
}

// TestEncoding checks the SMT-LIB printing of every operation, tables
// included, against the semantics the executor folds with: random
// expressions, their variables pinned to random values, each solver asked
// for their values, compared with term.Eval.
func TestEncoding(t *testing.T) {
	rounds := 60
	if testing.Short() {
		rounds = 15
	}
	for _, s := range solvers(t) {
		rng := rand.New(rand.NewPCG(21, 22))
		for r := range rounds {
			b := term.NewBuilder()
			var vars []*term.Term
			for i, w := range []uint8{8, 16, 64, 32, 1, 0, 8} {
				vars = append(vars, b.NewVar(fmt.Sprintf("v%d", i), w))
			}
			exprs, _ := term.RandomExprs(rng, b, vars, 16, 5)
			assign := map[*term.Term]uint64{}
			var pins []*term.Term
			for _, v := range vars {
				x := rng.Uint64() & term.Mask(max(v.W, 1))
				if rng.IntN(4) == 0 {
					x = []uint64{0, 1, term.Mask(max(v.W, 1))}[rng.IntN(3)] & term.Mask(max(v.W, 1))
				}
				assign[v] = x
				if v.W == 0 {
					pins = append(pins, b.Eq(v, b.Bool(x == 1)))
				} else {
					pins = append(pins, b.Eq(v, b.BV(v.W, x)))
				}
			}
			res, err := s.Check(context.Background(), pins, exprs, Limits{Timeout: 20 * time.Second, MemoryMB: 1024})
			if err != nil || res.Status != Sat {
				t.Fatalf("%s, round %d: %v %v %s", s.Name, r, err, res.Status, res.Reason)
			}
			ev := term.NewEval(assign)
			for i, e := range exprs {
				if want := ev.Value(e); res.Values[i] != want {
					var sb strings.Builder
					term.Script(&sb, pins, []*term.Term{e})
					t.Fatalf("%s, round %d: expression %d is %#x, Eval says %#x\n%s", s.Name, r, i, res.Values[i], want, sb.String())
				}
			}
		}
	}
}

// TestVerdicts checks sat with a model, unsat, and a timeout reported as
// unknown with its reason.
func TestVerdicts(t *testing.T) {
	for _, s := range solvers(t) {
		b := term.NewBuilder()
		x := b.NewVar("x", 32)
		lim := Limits{Timeout: 10 * time.Second, MemoryMB: 512}
		res, err := s.Check(context.Background(), []*term.Term{b.Eq(b.Binary(term.Mul, x, b.BV(32, 3)), b.BV(32, 21))}, []*term.Term{x}, lim)
		if err != nil || res.Status != Sat || res.Values[0]*3%(1<<32) != 21 {
			t.Errorf("%s: 3x = 21: %v %v %v", s.Name, res.Status, res.Values, err)
		}
		y := b.NewVar("y", 32)
		res, err = s.Check(context.Background(), []*term.Term{b.Cmp(term.Ult, x, y), b.Cmp(term.Ult, y, x)}, nil, lim)
		if err != nil || res.Status != Unsat {
			t.Errorf("%s: x < y < x: %v %v", s.Name, res.Status, err)
		}
		// Factoring the square of a 32-bit prime in 64-bit arithmetic:
		// no solver finishes it in 50 ms.
		p, q := b.NewVar("p", 64), b.NewVar("q", 64)
		hard := []*term.Term{b.Eq(b.Binary(term.Mul, p, q), b.BV(64, 0xfffffffb*0xfffffffb)),
			b.Cmp(term.Ult, b.BV(64, 1), p), b.Cmp(term.Ult, p, b.BV(64, 0xfffffffb)), b.Cmp(term.Ult, b.BV(64, 1), q)}
		res, err = s.Check(context.Background(), hard, nil, Limits{Timeout: 50 * time.Millisecond, MemoryMB: 512})
		if err != nil || res.Status != Unknown || !strings.Contains(res.Reason, "timeout") {
			t.Errorf("%s: factoring in 50 ms: %v %q %v", s.Name, res.Status, res.Reason, err)
		}
	}
}

func TestParseValues(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want []uint64
	}{
		{"((x #x0a) (y #b101))", 2, []uint64{10, 5}},
		{"((x (_ bv300 16)) (b true) (c false))", 3, []uint64{300, 1, 0}},
		{"(((bvadd x y) #xff))", 1, []uint64{255}},
		{"((|odd name| #x01))", 1, []uint64{1}},
	} {
		got, err := parseValues(c.in, c.n)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("parseValues(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "((x", "((x #xzz))", "((x #x1) (y #x2))"} {
		if _, err := parseValues(bad, 1); err == nil {
			t.Errorf("parseValues(%q): no error", bad)
		}
	}
}
