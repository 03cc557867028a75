package utf8validtest

import (
	"slices"
	"unsafe"

	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
	"github.com/equivcheck/equivcheck/reference/websocket"
)

// scaleOracle is the reference's verdict on a scale text, at the cost of its
// windows rather than of its megabytes. The text is known-valid filler
// (whole characters) with windows written over it (octets of any kind);
// each run of filler starts and ends at a character boundary, at a window
// or at the text's ends. UTF-8 is self-synchronizing: in RFC 3629's
// ABNF a character is a lead octet (not 80..BF) and its continuations
// (80..BF), so a whole character takes reference/utf8valid's Validator
// from between characters to between characters and changes nothing but
// its count of octets. The oracle therefore runs the reference's own
// Validator on every octet of the windows, and on the filler wherever the
// reference is not between characters (a character a Write cuts, the
// first octet after a window that ended inside one, where the reference
// fails); the other filler octets, whole characters from a boundary on,
// it skips, counting them. docs/equivalence.md has the argument;
// TestOracle compares it with the reference run on the whole text.
type scaleOracle struct {
	text []byte
	at   [][2]int // the windows' [lo, hi), sorted and disjoint
}

// valid is the reference's Valid on the text.
func (o *scaleOracle) valid() bool {
	v := skipper{o: o}
	_, err := v.Write(o.text)
	return err == nil && v.Close() == nil
}

// skipper is reference/utf8valid's Validator fed a scaleOracle's text, the
// filler it may skip skipped (oracle).
type skipper struct {
	o       *scaleOracle
	v       ref.Validator
	pos     int   // octets of the text fed so far
	skipped int64 // octets skipped, all accepted
}

// Write is the reference's Write of p, the next len(p) octets of the
// text.
func (s *skipper) Write(p []byte) (int, error) {
	lo := s.pos
	s.pos += len(p)
	if len(p) == 0 || s.o == nil {
		return s.v.Write(p)
	}
	for q := lo; q < s.pos; {
		end, skip := s.o.stretch(q, s.pos, s.v.Close() == nil)
		if skip {
			s.skipped += int64(end - q)
		} else if n, err := s.v.Write(p[q-lo : end-lo]); err != nil {
			return q - lo + n, err
		}
		q = end
	}
	return len(p), nil
}

// Unmask is the reference's Unmask of b, the next len(b) octets of the
// text; with an oracle, b is the text as it is once unmasked (the oracle
// is given the text, not its masked form, which the implementation is
// given), and the position it returns is the reference's Mask's after
// len(b) octets.
func (s *skipper) Unmask(b []byte, key [4]byte, pos int) (next, n int, err error) {
	if s.o == nil {
		s.pos += len(b)
		return s.v.Unmask(b, key, pos)
	}
	n, err = s.Write(b)
	return websocket.Mask(b[:0], key, pos+len(b)), n, err
}

// Close is the reference's Close: the skipped characters left its state
// as it was.
func (s *skipper) Close() error { return s.v.Close() }

// Offset is the reference's count of accepted octets: those it was fed
// and accepted, and those it skipped, which all precede any it refused.
func (s *skipper) Offset() int64 { return s.skipped + s.v.Offset() }

// stretch returns where the stretch of the text from q (before hi) that
// the reference takes in one go ends, and whether it may skip it: a
// window, to its end; filler while a character is under way (or the
// text has failed), to the end of the octets that continue it; filler
// between characters, to the last character boundary before the next
// window or hi, skipped; and the octets of a character cut at hi, fed.
func (o *scaleOracle) stretch(q, hi int, between bool) (end int, skip bool) {
	limit, window := hi, false // limit: the next window's start, or hi
	for _, w := range o.at {
		if w[1] <= q {
			continue
		}
		if w[0] <= q {
			return min(w[1], hi), false
		}
		if w[0] < limit {
			limit, window = w[0], true
		}
		break
	}
	if !between {
		end = q + 1
		for end < limit && continuation(o.text[end]) {
			end++
		}
		return end, false
	}
	// A window's start and the text's end are boundaries; elsewhere the
	// filler's last boundary before limit is at most 3 octets back.
	end = limit
	if !window {
		for end > q && end < len(o.text) && continuation(o.text[end]) {
			end--
		}
	}
	if end > q {
		return end, true
	}
	return limit, false
}

// continuation reports whether o continues a character (80..BF).
func continuation(o byte) bool { return o&0xC0 == 0x80 }

// varied returns other contents for the text at the same addresses (for
// equiv.Again), judged at the cost of a window, with the other verdict:
// a valid text with its first 64 octets complemented (up to the
// filler's next character boundary), which fails at once; an invalid or
// incomplete one with its windows written over with ASCII, which is
// valid. An implementation that answers by the address it was given
// answers wrong either way.
func (o *scaleOracle) varied() ([]byte, *scaleOracle) {
	text := slices.Clone(o.text)
	if !o.valid() {
		for _, w := range o.at {
			for i := w[0]; i < w[1]; i++ {
				text[i] = 'z'
			}
		}
		return text, &scaleOracle{text: text}
	}
	e := min(64, len(text))
	for e < len(text) && continuation(text[e]) {
		e++
	}
	for i := range text[:e] {
		text[i] = ^text[i]
	}
	v := &scaleOracle{text: text, at: [][2]int{{0, e}}}
	for _, w := range o.at {
		if w[0] <= v.at[0][1] {
			v.at[0][1] = max(v.at[0][1], w[1])
		} else {
			v.at = append(v.at, w)
		}
	}
	return text, v
}

// within returns the oracle of d, a piece of o's text (a prefix or a
// suffix minimization cuts), or nil if o is nil or d does not lie in its
// text: d's windows are o's within it, and, where d cuts a character of
// the filler, the octets of it d holds (its continuations at d's start,
// where the reference fails at once; its first octets at d's end, which
// leave it incomplete), so that d's filler runs start and end at
// character boundaries too.
func (o *scaleOracle) within(d []byte) *scaleOracle {
	if o == nil {
		return nil
	}
	lo := int(uintptr(unsafe.Pointer(unsafe.SliceData(d))) - uintptr(unsafe.Pointer(unsafe.SliceData(o.text))))
	if lo < 0 || lo > len(o.text)-len(d) {
		return nil
	}
	hi := lo + len(d)
	sub := &scaleOracle{text: d}
	if lo > 0 {
		k := 0
		for k < len(d) && continuation(d[k]) {
			k++
		}
		if k > 0 {
			sub.at = append(sub.at, [2]int{0, k})
		}
	}
	for _, w := range o.at {
		if a, b := max(w[0], lo), min(w[1], hi); a < b {
			sub.at = append(sub.at, [2]int{a - lo, b - lo})
		}
	}
	if hi < len(o.text) && continuation(o.text[hi]) {
		s := hi
		for s > lo && continuation(o.text[s]) {
			s--
		}
		sub.at = append(sub.at, [2]int{s - lo, hi - lo})
	}
	slices.SortFunc(sub.at, func(a, b [2]int) int { return a[0] - b[0] })
	return sub
}
