package equiv

import (
	"bytes"

	"github.com/equivcheck/equivcheck/internal/contractknob"
)

// keptResults are the last results a suite kept alive (Config.Keep): a
// ring of their slices, what each held when it was returned, and how to
// report one that changed.
type keptResults struct {
	ring [keepRing]kept
	next int
}

type kept struct {
	got, was []byte
	fail     func(now []byte) *Counterexample
}

// keepRing is how many results stay alive: each is compared again after
// each of the next keepRing results is kept, and at the end of the method.
const keepRing = 8

// Keep records got, a result the implementation returned that its contract
// says the caller owns (a fresh slice: an append to a nil or full buffer,
// a hash.Hash's Sum(nil)), after the suite has found it right. It stays
// alive while the next eight results are kept, and every Keep compares
// each kept result with what it held when it was returned: a result that
// changed was shared with later calls (an internal array, a package-level
// scratch buffer), and Keep returns fail(what it holds now), for the suite
// to report; else nil. A method's end (Run's last act) compares them once
// more. got must not be a slice the suite writes again (a Buffer's).
func (c *Config) Keep(got []byte, fail func(now []byte) *Counterexample) *Counterexample {
	if contractknob.NoKeep.Load() {
		return nil
	}
	if ce := c.kept.check(); ce != nil {
		return ce
	}
	k := &c.kept.ring[c.kept.next%keepRing]
	*k = kept{got: got, was: append(k.was[:0], got...), fail: fail}
	c.kept.next++
	return nil
}

// check compares every kept result with what it held, forgetting and
// reporting the first that changed.
func (k *keptResults) check() *Counterexample {
	for i := range k.ring {
		x := &k.ring[i]
		if x.fail == nil || bytes.Equal(x.got, x.was) {
			continue
		}
		ce := x.fail(bytes.Clone(x.got))
		x.fail = nil
		return ce
	}
	return nil
}

// reset forgets every kept result.
func (k *keptResults) reset() { *k = keptResults{} }
