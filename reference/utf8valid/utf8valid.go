// Package utf8valid is the reference for validating UTF-8 as RFC 3629 §4
// defines it (https://www.rfc-editor.org/rfc/rfc3629#section-4), one
// octet at a time, for WebSocket text messages (RFC 6455 §8.1).
//
// It is written to be read beside the RFC's ABNF, and serves as the oracle
// that the optimized package is tested against. Its name does not shadow
// unicode/utf8 in a user's imports.
package utf8valid

import (
	"errors"

	"github.com/equivcheck/equivcheck/reference/websocket"
)

// The verdicts on a text, shared with the optimized package so that a
// conformance suite can check that both rejected a text for the same
// reason.
var (
	// ErrInvalid says that the text is not, and can no longer become,
	// UTF-8: an octet appeared that no continuation can make valid.
	ErrInvalid = errors.New("utf8valid: invalid UTF-8")
	// ErrIncomplete says that the text ends inside a code point: every
	// octet was acceptable, but the last UTF8-char is not complete.
	ErrIncomplete = errors.New("utf8valid: text ends inside a code point")
)

// Valid reports whether b is entirely valid UTF-8 (RFC 3629 §4): every
// octet belongs to a UTF8-char of the ABNF, so there are no overlong
// forms, no surrogates U+D800..U+DFFF, nothing above U+10FFFF, and no
// sequence cut short at the end.
func Valid(b []byte) bool {
	var v Validator
	_, err := v.Write(b)
	return err == nil && v.Close() == nil
}

// alternative names the ABNF alternative of RFC 3629 §4 that the octets of
// a partial UTF8-char have chosen, by their first octet.
type alternative uint8

const (
	none     alternative = iota // between two UTF8-chars
	utf8x2                      // UTF8-2 = %xC2-DF UTF8-tail
	utf8x3E0                    // UTF8-3 = %xE0 %xA0-BF UTF8-tail
	utf8x3E1                    // UTF8-3 = %xE1-EC 2( UTF8-tail )
	utf8x3ED                    // UTF8-3 = %xED %x80-9F UTF8-tail
	utf8x3EE                    // UTF8-3 = %xEE-EF 2( UTF8-tail )
	utf8x4F0                    // UTF8-4 = %xF0 %x90-BF 2( UTF8-tail )
	utf8x4F1                    // UTF8-4 = %xF1-F3 3( UTF8-tail )
	utf8x4F4                    // UTF8-4 = %xF4 %x80-8F 2( UTF8-tail )
)

// length is the number of octets of a UTF8-char of alternative a.
func (a alternative) length() int {
	switch a {
	case utf8x2:
		return 2
	case utf8x3E0, utf8x3E1, utf8x3ED, utf8x3EE:
		return 3
	}
	return 4
}

// Validator checks a text that arrives in pieces: a WebSocket text
// message over its fragments and reads (RFC 6455 §8.1). It carries the
// partial UTF8-char at the end of one Write into the next, and rejects the
// text at the first octet after which it can no longer be valid, as
// Autobahn's cases 6.x require of a server that fails fast.
//
// The zero Validator is ready. A Validator is not safe for concurrent use.
type Validator struct {
	// alt is the alternative of the partial UTF8-char, and seen how
	// many of its octets have been accepted; none and 0 between two.
	alt  alternative
	seen int
	// failed is set at the first octet that cannot be accepted, and
	// offset counts the octets accepted before it.
	failed bool
	offset int64
}

// accept takes octet o as the next octet of the text and reports whether
// the text can still be valid UTF-8 (RFC 3629 §4,
// https://www.rfc-editor.org/rfc/rfc3629#section-4):
//
//	UTF8-octets = *( UTF8-char )
//	UTF8-char   = UTF8-1 / UTF8-2 / UTF8-3 / UTF8-4
//	UTF8-1      = %x00-7F
//	UTF8-2      = %xC2-DF UTF8-tail
//	UTF8-3      = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) /
//	              %xED %x80-9F UTF8-tail / %xEE-EF 2( UTF8-tail )
//	UTF8-4      = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F3 3( UTF8-tail ) /
//	              %xF4 %x80-8F 2( UTF8-tail )
//	UTF8-tail   = %x80-BF
func (v *Validator) accept(o byte) bool {
	if v.alt == none {
		// UTF8-char = UTF8-1 / UTF8-2 / UTF8-3 / UTF8-4: the first
		// octet alone chooses the alternative.
		switch {
		case o <= 0x7F:
			// UTF8-1 = %x00-7F: a whole UTF8-char.
			return true
		case 0xC2 <= o && o <= 0xDF:
			// UTF8-2 = %xC2-DF UTF8-tail
			v.alt = utf8x2
		case o == 0xE0:
			// UTF8-3 = %xE0 %xA0-BF UTF8-tail
			v.alt = utf8x3E0
		case 0xE1 <= o && o <= 0xEC:
			// UTF8-3 = ... / %xE1-EC 2( UTF8-tail )
			v.alt = utf8x3E1
		case o == 0xED:
			// UTF8-3 = ... / %xED %x80-9F UTF8-tail
			v.alt = utf8x3ED
		case o == 0xEE || o == 0xEF:
			// UTF8-3 = ... / %xEE-EF 2( UTF8-tail )
			v.alt = utf8x3EE
		case o == 0xF0:
			// UTF8-4 = %xF0 %x90-BF 2( UTF8-tail )
			v.alt = utf8x4F0
		case 0xF1 <= o && o <= 0xF3:
			// UTF8-4 = ... / %xF1-F3 3( UTF8-tail )
			v.alt = utf8x4F1
		case o == 0xF4:
			// UTF8-4 = ... / %xF4 %x80-8F 2( UTF8-tail )
			v.alt = utf8x4F4
		default:
			// %x80-C1 and %xF5-FF start no UTF8-char (RFC 3629 §3:
			// "The octet values C0, C1, F5 to FF never appear").
			return false
		}
		v.seen = 1
		return true
	}

	// Every octet after the first is UTF8-tail = %x80-BF, except the
	// second octet of four alternatives, which has a range of its own.
	lo, hi := byte(0x80), byte(0xBF)
	if v.seen == 1 {
		switch v.alt {
		case utf8x3E0:
			// %xE0 %xA0-BF: no overlong form of U+0000..U+07FF.
			lo = 0xA0
		case utf8x3ED:
			// %xED %x80-9F: no surrogate U+D800..U+DFFF.
			hi = 0x9F
		case utf8x4F0:
			// %xF0 %x90-BF: no overlong form of U+0000..U+FFFF.
			lo = 0x90
		case utf8x4F4:
			// %xF4 %x80-8F: nothing above U+10FFFF.
			hi = 0x8F
		}
	}
	if o < lo || o > hi {
		return false
	}
	v.seen++
	if v.seen == v.alt.length() {
		// The UTF8-char is complete.
		v.alt, v.seen = none, 0
	}
	return true
}

// Write validates p as the next octets of the text. While the text so far
// can still be the start of valid UTF-8, it returns len(p), nil.
// Otherwise it returns n, ErrInvalid, where p[n] is the first octet at
// which the text can no longer be valid: p[:n] extends the accepted
// prefix. After a failure every Write returns 0, ErrInvalid until Reset.
// Write does not retain p.
func (v *Validator) Write(p []byte) (n int, err error) {
	if v.failed {
		return 0, ErrInvalid
	}
	for i, o := range p {
		if !v.accept(o) {
			v.failed = true
			v.offset += int64(i)
			return i, ErrInvalid
		}
	}
	v.offset += int64(len(p))
	return len(p), nil
}

// Unmask unmasks b in place with the masking key from key octet pos&3, as
// reference/websocket.Mask does (RFC 6455 §5.3), then validates the
// unmasked octets as Write does. It returns Mask's next position,
// (pos+len(b))&3, and Write's n and err. All of b is unmasked even when
// the text is, or already was, invalid.
//
// The reference does the two literally, one pass after the other; the
// optimized package does both in one pass.
func (v *Validator) Unmask(b []byte, key [4]byte, pos int) (next, n int, err error) {
	next = websocket.Mask(b, key, pos)
	n, err = v.Write(b)
	return next, n, err
}

// Close reports the verdict at the end of the text: nil if it is valid
// UTF-8, ErrIncomplete if it ends inside a UTF8-char, ErrInvalid after a
// failure. It does not change the state: Reset starts the next text.
func (v *Validator) Close() error {
	switch {
	case v.failed:
		return ErrInvalid
	case v.alt != none:
		return ErrIncomplete
	}
	return nil
}

// Reset makes v ready for a new text.
func (v *Validator) Reset() {
	*v = Validator{}
}

// Offset returns the number of octets accepted so far. After a failure it
// is the offset, from the start of the text, of the first octet at which
// the text could no longer be valid.
func (v *Validator) Offset() int64 {
	return v.offset
}
