package utf8valid

import (
	"testing"

	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// modelFlags computes, as the SIMD kernels do (utf8valid_amd64.s), which
// octets of t, after the window ctx, are flagged.
func modelFlags(ctx uint32, t []byte) []bool {
	flags := make([]bool, len(t))
	for i, c := range t {
		w := window3(ctx, t, i)
		p3, p2, p1 := byte(w), byte(w>>8), byte(w>>16)
		special := lookup[0][p1>>4] & lookup[1][p1&15] & lookup[2][c>>4]
		var must byte
		if p2 >= 0xE0 || p3 >= 0xF0 {
			must = 0x80
		}
		flags[i] = special != must
	}
	return flags
}

// modelAlphabet has an octet of every class the tables and thresholds
// tell apart: each high nibble, each low nibble that matters after C, E
// and F, and both sides of E0 and F0.
var modelAlphabet = []byte{0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF,
	0xC0, 0xC1, 0xC2, 0xCF, 0xD0, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
	0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF}

// modelWindows are windows a text that can still be valid may end with:
// between characters, and inside each kind of UTF8-char.
var modelWindows = []uint32{0, 0x414141, 0xC30000, 0xE10000, 0x80E100, 0xE00000, 0xA0E000,
	0xED0000, 0x80ED00, 0xF00000, 0x90F000, 0x8090F0, 0xF40000, 0x8FF400, 0xBF8FF4,
	0xF10000, 0x80F100, 0x8080F1, 0x808080, 0x9FBFEF}

// TestLookupModel checks what settle, incomplete and stateOf rely on,
// with the kernels' check computed in Go (modelFlags), against the
// automaton (itself checked against the reference below), over every text
// of up to four octets of modelAlphabet after each window of modelWindows:
//
//   - no octet before the first failing one, m, is flagged;
//   - the first flagged octet is m, or m+1 when t[m] is C0, C1 or F5-FF
//     (badLead); when none is, m is the last octet and a badLead;
//   - when nothing fails, incomplete of the last window says whether the
//     text ends inside a UTF8-char, and stateOf of each window before an
//     octet gives the automaton's state there;
//   - an all-ASCII text is flagged exactly when its window is incomplete
//     (the kernels' shortcut for ASCII blocks).
func TestLookupModel(t *testing.T) {
	if lookup != buildLookup() || dfa != buildDFA() {
		t.Fatal("the tables changed after initialization")
	}
	buf := make([]byte, 4)
	longest := 4
	if testing.Short() || raceEnabled {
		longest = 3 // the emulated runs and the race detector
	}
	for _, ctx := range modelWindows {
		for n := 1; n <= longest; n++ {
			txt := buf[:n]
			count := 1
			for range n {
				count *= len(modelAlphabet)
			}
			for x := range count {
				for i := range txt {
					txt[i] = modelAlphabet[x%len(modelAlphabet)]
					x /= len(modelAlphabet)
				}
				if err := checkModel(ctx, txt); err != "" {
					t.Fatalf("window %06x, text % x: %s", ctx, txt, err)
				}
			}
		}
	}
}

// checkModel returns what is wrong with the model for txt after ctx.
func checkModel(ctx uint32, txt []byte) string {
	s0 := stateOf(ctx)
	m := firstError(s0, txt, 0)
	flags := modelFlags(ctx, txt)
	first := len(txt)
	for i, f := range flags {
		if f {
			first = i
			break
		}
	}
	switch {
	case first < m:
		return "an octet before the first failing one is flagged"
	case m < len(txt) && first == len(txt) && !(m == len(txt)-1 && badLead(txt[m])):
		return "the text fails and nothing is flagged"
	case m < len(txt) && first > m && !(first == m+1 && badLead(txt[m])):
		return "the first flag is not at the failing octet"
	case m == len(txt) && first < len(txt):
		return "an octet of a text that can still be valid is flagged"
	}
	if m == len(txt) {
		s := s0
		for i, o := range txt {
			if stateOf(window3(ctx, txt, i))&63 != s&63 {
				return "stateOf disagrees with the automaton"
			}
			s = step(s, o)
		}
		if incomplete(window3(ctx, txt, len(txt))) != (s&63 != sAccept) {
			return "incomplete disagrees with the automaton"
		}
	}
	ascii := true
	for _, o := range txt {
		ascii = ascii && o < 0x80
	}
	if ascii && (first < len(txt)) != incomplete(ctx) {
		return "an ASCII text's flags disagree with incomplete(window)"
	}
	return ""
}

// TestDFA compares the automaton with the reference over every text of
// one and two octets and every three-octet text that starts with a first
// octet of 3 or 4 and a continuation: the failing octet and the verdict
// at the end.
func TestDFA(t *testing.T) {
	try := func(txt []byte) {
		var v ref.Validator
		want, _ := v.Write(txt)
		s := uint64(sAccept)
		got := firstError(s, txt, 0)
		for _, o := range txt[:got] {
			s = step(s, o)
		}
		if got != want || (got == len(txt) && (s&63 == sAccept) != (v.Close() == nil)) {
			t.Fatalf("% x: automaton fails at %d (state %d), reference at %d (%v)", txt, got, s&63, want, v.Close())
		}
	}
	b := make([]byte, 3)
	for x := range 256 {
		b[0] = byte(x)
		try(b[:1])
		for y := range 256 {
			b[1] = byte(y)
			try(b[:2])
			if x >= 0xE0 && x <= 0xF4 && y >= 0x80 && y <= 0xBF {
				for z := range 256 {
					b[2] = byte(z)
					try(b[:3])
				}
			}
		}
	}
}
