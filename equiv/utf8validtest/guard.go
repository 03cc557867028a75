package utf8validtest

import (
	"math/rand/v2"

	"github.com/equivcheck/equivcheck/equiv"
)

// guardSite is where the guard method places a text: flush against the
// unmapped page after it (tail) or before it.
type guardSite struct {
	g    *equiv.Guarded
	tail bool
}

// at returns n octets flush against s's page.
func (s guardSite) at(n int) []byte {
	if s.tail {
		return s.g.Tail(n)
	}
	return s.g.Head(n)
}

func (s guardSite) String() string {
	if s.tail {
		return "ending at a guard page"
	}
	return "starting after a guard page"
}

// guard places every text of the grid's lengths 0..GridLen, of two
// classes (mixed, and mixed with its last character cut), flush against
// an unmapped page after it and before it: Valid, a Validator written it
// in one piece and in pieces cut at every 64 octets, Unmask likewise, and
// a Reader whose every p is flush against a page. A read or write one
// octet outside faults, and the fault is the call's panic.
func (c *checker) guard(r *equiv.Run) error {
	return r.Guarded(func(gs []*equiv.Guarded) error {
		count := tally(r)
		rng := rand.New(rand.NewPCG(1, 2)) // the guard's texts do not depend on the seed
		for n := 0; n <= GridLen; n++ {
			for _, cl := range []int{4, 8} { // mixed, cut-last
				text := textClasses[cl].fill(rng, n)
				for _, site := range []guardSite{{gs[0], true}, {gs[0], false}} {
					c.site = &site
					for _, in := range guardInputs(text, n) {
						ce, compared := c.compare(in)
						if ce != nil {
							ce.Args += " " + site.String()
						}
						if err := count(ce, compared); err != nil {
							c.site = nil
							return err
						}
					}
					c.site = nil
				}
			}
		}
		r.ReachN("texts ending and starting at a guard page", r.Checked())
		r.Expect("texts ending and starting at a guard page")
		return nil
	}, GridLen+1)
}

// guardInputs are the inputs the guard method makes of a text of n octets.
func guardInputs(text []byte, n int) []Input {
	every64 := []int{}
	for s := 64; s < n; s += 64 {
		every64 = append(every64, s)
	}
	return []Input{
		{Func: "Valid", Text: text},
		{Func: "Validator", Text: text},
		{Func: "Validator", Text: text, Splits: every64},
		{Func: "Unmask", Text: text, Key: keyOf(n), Pos: n & 3},
		{Func: "Unmask", Text: text, Splits: every64, Key: keyOf(n), Pos: n & 3},
		{Func: "Reader", Text: text, Key: keyOf(n), Underlying: sourceName(srcHalf, 0), rc: readerCase{kind: srcHalf}},
	}
}
