package utf8validtest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/utf8validtest"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// emptyWriteOK is the reference's Validator, but a Write of nothing
// returns 0, nil whatever came before (as gobwas/ws's UTF8Reader does).
type emptyWriteOK struct{ ref.Validator }

func (e *emptyWriteOK) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	return e.Validator.Write(p)
}

// TestRelax: a Validator whose empty Write after a failure passes fails
// the suite, and passes it with utf8-empty-write-fails relaxed (the
// properties method's cut law included), the inputs left out counted
// under the clause's name; an unknown clause is an error naming the
// clauses there are.
func TestRelax(t *testing.T) {
	impl := utf8validtest.Impl{NewValidator: func() utf8validtest.Validator { return new(emptyWriteOK) }}
	props := equiv.WithMethods(func(m string) bool { return m == equiv.MethodProperties })
	if err := utf8validtest.Check(impl, props, equiv.WithSeed(1)); !errors.Is(err, equiv.ErrMismatch) {
		t.Fatalf("without Relax: %v, want a mismatch", err)
	}
	res, err := results(impl, props, equiv.WithSeed(1), utf8validtest.Relax("utf8-empty-write-fails"))
	if err != nil {
		t.Fatalf("with Relax: %v", err)
	}
	n := res[equiv.MethodProperties].Narrowed
	if len(n) != 1 || !strings.HasPrefix(n[0], `excluded "relaxed utf8-empty-write-fails": `) || strings.HasSuffix(n[0], ": 0 inputs") {
		t.Errorf("Narrowed = %q, want the clause with a nonzero count", n)
	}
	err = utf8validtest.Check(impl, utf8validtest.Relax("no-such-clause"))
	if err == nil || !strings.Contains(err.Error(), `utf8validtest.Relax: no clause "no-such-clause"`) || !strings.Contains(err.Error(), "utf8-empty-write-fails") {
		t.Errorf("an unknown clause: %v", err)
	}
}

// noOffset is a Validator without Offset (and without Unmask) whose Write
// of nothing after a failure returns 0, nil.
type noOffset struct{ v ref.Validator }

func (n *noOffset) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	return n.v.Write(p)
}
func (n *noOffset) Close() error { return n.v.Close() }
func (n *noOffset) Reset()       { n.v.Reset() }

// TestMessageWithoutOffset: a counterexample of a Validator that has no
// Offset shows no Offset, its own or the reference's (issue 32).
func TestMessageWithoutOffset(t *testing.T) {
	impl := utf8validtest.Impl{NewValidator: func() utf8validtest.Validator { return new(noOffset) }}
	props := equiv.WithMethods(func(m string) bool { return m == equiv.MethodProperties })
	ces := equiv.Counterexamples(utf8validtest.Check(impl, props, equiv.WithSeed(1)))
	if len(ces) != 1 {
		t.Fatalf("want one counterexample, got %d", len(ces))
	}
	if msg := ces[0].Error(); strings.Contains(msg, "Offset") || !strings.Contains(msg, "Close") {
		t.Errorf("counterexample %q: want Close and no Offset", msg)
	}
}
