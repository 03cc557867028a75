package quictest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/quictest"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// wireBitsPN is DecodePacketNumber as RFC 9000 Appendix A.3's pseudocode
// reads, with truncated used whole: correct for every value a packet
// carries, different from the reference's API where truncated has bits
// above 8·pnLen (quic-pn-masks-truncated).
func wireBitsPN(largest, truncated uint64, pnLen int) uint64 {
	if pnLen < 1 || pnLen > 4 || largest > quic.MaxVarint && largest != ^uint64(0) {
		return quic.DecodePacketNumber(largest, truncated, pnLen) // the same panics
	}
	expected := largest + 1
	win := uint64(1) << (8 * pnLen)
	hwin, mask := win/2, win-1
	candidate := expected&^mask | truncated
	switch {
	case candidate+hwin <= expected && candidate < 1<<62-win:
		return candidate + win
	case candidate > expected+hwin && candidate >= win:
		return candidate - win
	}
	return candidate
}

// TestRelax: an RFC-correct decoder that does not mask truncated fails
// the suite, and passes it with the clause relaxed, the inputs left out
// counted under the clause's name; an unknown clause is an error naming
// the clauses there are.
func TestRelax(t *testing.T) {
	impl := quictest.Impl{DecodePacketNumber: wireBitsPN}
	methods := equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors || m == equiv.MethodExhaustive })
	if err := quictest.Check(impl, methods); !errors.Is(err, equiv.ErrMismatch) {
		t.Fatalf("without Relax: %v, want a mismatch", err)
	}
	err, res := results(impl, methods, quictest.Relax("quic-pn-masks-truncated"))
	if err != nil {
		t.Fatalf("with Relax: %v", err)
	}
	for _, m := range []string{equiv.MethodVectors, equiv.MethodExhaustive} {
		n := res[m].Narrowed
		if len(n) != 1 || !strings.HasPrefix(n[0], `excluded "relaxed quic-pn-masks-truncated": `) || strings.HasSuffix(n[0], ": 0 inputs") {
			t.Errorf("%s: Narrowed = %q, want the clause with a nonzero count", m, n)
		}
	}
	err = quictest.Check(refImpl, quictest.Relax("no-such-clause"))
	if err == nil || !strings.Contains(err.Error(), `quictest.Relax: no clause "no-such-clause"`) || !strings.Contains(err.Error(), "quic-withlen-panics") {
		t.Errorf("an unknown clause: %v", err)
	}
}
