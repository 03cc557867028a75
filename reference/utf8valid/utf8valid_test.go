package utf8valid

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"unicode/utf8"
)

// A vector is a text and its verdict: bad is the offset of the first octet
// at which it can no longer be valid UTF-8, or -1 if every octet is
// acceptable; then complete says whether it ends between two UTF8-chars.
type vector struct {
	name     string
	text     string
	bad      int
	complete bool
}

func valid(name, text string) vector      { return vector{name, text, -1, true} }
func incomplete(name, text string) vector { return vector{name, text, -1, false} }
func invalid(name, text string, bad int) vector {
	return vector{name, text, bad, false}
}

// rfcVectors are the examples of RFC 3629 §7
// (https://www.rfc-editor.org/rfc/rfc3629#section-7), and the octets §3
// and §10 single out.
var rfcVectors = []vector{
	// §7: "A<NOT IDENTICAL TO><ALPHA>." U+0041 U+2262 U+0391 U+002E.
	valid("RFC 3629 §7 A≢Α.", "\x41\xE2\x89\xA2\xCE\x91\x2E"),
	// §7: Korean "hangugeo", U+D55C U+AD6D U+C5B4.
	valid("RFC 3629 §7 한국어", "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"),
	// §7: Japanese "nihongo", U+65E5 U+672C U+8A9E.
	valid("RFC 3629 §7 日本語", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"),
	// §7: U+233B4 preceded by a BOM, U+FEFF.
	valid("RFC 3629 §7 BOM U+233B4", "\xEF\xBB\xBF\xF0\xA3\x8E\xB4"),
	// §3: "The octet values C0, C1, F5 to FF never appear."
	invalid("RFC 3629 §3 C0", "\xC0", 0),
	invalid("RFC 3629 §3 C1", "\xC1", 0),
	invalid("RFC 3629 §3 F5", "\xF5", 0),
	invalid("RFC 3629 §3 FF", "\xFF", 0),
	// §10: the overlong C0 80 for NUL, and a decoder must not accept the
	// surrogate ED A0 80 (U+D800).
	invalid("RFC 3629 §10 overlong NUL", "\xC0\x80", 0),
	invalid("RFC 3629 §10 overlong slash", "a\xC0\xAF", 1),
	invalid("RFC 3629 §10 surrogate", "\xED\xA0\x80", 1),
}

// kuhnVectors follow the classes of Markus Kuhn's UTF-8 decoder stress
// test (https://www.cl.cam.ac.uk/~mgk25/ucs/examples/UTF-8-test.txt),
// derived here rather than copied, each with the verdict RFC 3629 gives:
// the first octet at which the text can no longer be valid.
var kuhnVectors = []vector{
	// 1: some correct UTF-8 text, Greek "kosme".
	valid("1 κόσμε", "\xCE\xBA\xE1\xBD\xB9\xCF\x83\xCE\xBC\xCE\xB5"),
	// 2.1: the first possible sequence of each length.
	valid("2.1 U+0000", "\x00"),
	valid("2.1 U+0080", "\xC2\x80"),
	valid("2.1 U+0800", "\xE0\xA0\x80"),
	valid("2.1 U+10000", "\xF0\x90\x80\x80"),
	invalid("2.1 5 octets", "\xF8\x88\x80\x80\x80", 0),
	invalid("2.1 6 octets", "\xFC\x84\x80\x80\x80\x80", 0),
	// 2.2: the last possible sequence of each length.
	valid("2.2 U+007F", "\x7F"),
	valid("2.2 U+07FF", "\xDF\xBF"),
	valid("2.2 U+FFFF", "\xEF\xBF\xBF"),
	invalid("2.2 U+1FFFFF", "\xF7\xBF\xBF\xBF", 0),
	invalid("2.2 5 octets", "\xFB\xBF\xBF\xBF\xBF", 0),
	invalid("2.2 6 octets", "\xFD\xBF\xBF\xBF\xBF\xBF", 0),
	// 2.3: other boundaries.
	valid("2.3 U+D7FF", "\xED\x9F\xBF"),
	valid("2.3 U+E000", "\xEE\x80\x80"),
	valid("2.3 U+FFFD", "\xEF\xBF\xBD"),
	valid("2.3 U+10FFFF", "\xF4\x8F\xBF\xBF"),
	invalid("2.3 U+110000", "\xF4\x90\x80\x80", 1),
	// 3.1: unexpected continuation octets.
	invalid("3.1 first continuation", "\x80", 0),
	invalid("3.1 last continuation", "\xBF", 0),
	invalid("3.1 two continuations", "\x80\xBF", 0),
	invalid("3.1 after text", "abc\x80\xBF\x80", 3),
	invalid("3.1 after a complete char", "\xC2\x80\x80", 2),
	// 3.2: lonely start octets, each followed by a space.
	invalid("3.2 C0 space", "\xC0 ", 0),
	invalid("3.2 C2 space", "\xC2 ", 1),
	invalid("3.2 DF space", "\xDF ", 1),
	invalid("3.2 E0 space", "\xE0 ", 1),
	invalid("3.2 EF space", "\xEF ", 1),
	invalid("3.2 F0 space", "\xF0 ", 1),
	invalid("3.2 F4 space", "\xF4 ", 1),
	invalid("3.2 F7 space", "\xF7 ", 0),
	invalid("3.2 FB space", "\xFB ", 0),
	invalid("3.2 FD space", "\xFD ", 0),
	// 3.3: sequences with the last continuation octet missing: at the end
	// of the text an incomplete but acceptable prefix, unless an earlier
	// octet already excludes every continuation.
	invalid("3.3 C0", "\xC0", 0),
	invalid("3.3 E0 80", "\xE0\x80", 1),
	invalid("3.3 F0 80 80", "\xF0\x80\x80", 1),
	incomplete("3.3 DF", "\xDF"),
	incomplete("3.3 EF BF", "\xEF\xBF"),
	incomplete("3.3 F4 8F BF", "\xF4\x8F\xBF"),
	invalid("3.3 F7 BF BF", "\xF7\xBF\xBF", 0),
	// 3.4: the incomplete sequences of 3.3 concatenated.
	invalid("3.4 DF EF BF", "\xDF\xEF\xBF", 1),
	invalid("3.4 C2 E1 80 F1 80 80", "\xC2\xE1\x80\xF1\x80\x80", 1),
	invalid("3.4 E1 80 F1 80 80", "\xE1\x80\xF1\x80\x80", 2),
	// 3.5: impossible octets.
	invalid("3.5 FE", "\xFE", 0),
	invalid("3.5 FF", "\xFF", 0),
	invalid("3.5 FE FE FF FF", "\xFE\xFE\xFF\xFF", 0),
	// 4.1: overlong forms of "/".
	invalid("4.1 C0 AF", "\xC0\xAF", 0),
	invalid("4.1 E0 80 AF", "\xE0\x80\xAF", 1),
	invalid("4.1 F0 80 80 AF", "\xF0\x80\x80\xAF", 1),
	invalid("4.1 F8 80 80 80 AF", "\xF8\x80\x80\x80\xAF", 0),
	// 4.2: the longest overlong form of each length.
	invalid("4.2 C1 BF", "\xC1\xBF", 0),
	invalid("4.2 E0 9F BF", "\xE0\x9F\xBF", 1),
	invalid("4.2 F0 8F BF BF", "\xF0\x8F\xBF\xBF", 1),
	// 4.3: overlong forms of NUL.
	invalid("4.3 C0 80", "\xC0\x80", 0),
	invalid("4.3 E0 80 80", "\xE0\x80\x80", 1),
	invalid("4.3 F0 80 80 80", "\xF0\x80\x80\x80", 1),
	// 5.1: single UTF-16 surrogates.
	invalid("5.1 U+D800", "\xED\xA0\x80", 1),
	invalid("5.1 U+DB7F", "\xED\xAD\xBF", 1),
	invalid("5.1 U+DC00", "\xED\xB0\x80", 1),
	invalid("5.1 U+DFFF", "\xED\xBF\xBF", 1),
	// 5.2: paired UTF-16 surrogates.
	invalid("5.2 U+D800 U+DC00", "\xED\xA0\x80\xED\xB0\x80", 1),
	invalid("5.2 after text", "x\xED\xAF\xBF\xED\xBF\xBF", 2),
	// 5.3: noncharacters are code points: RFC 3629 accepts them.
	valid("5.3 U+FFFE", "\xEF\xBF\xBE"),
	valid("5.3 U+FFFF", "\xEF\xBF\xBF"),
	valid("5.3 U+FDD0", "\xEF\xB7\x90"),
	valid("5.3 U+10FFFE", "\xF4\x8F\xBF\xBE"),
}

// check runs the vector through Valid, one Write, Write per octet and
// every split into two Writes, and checks each verdict.
func check(t *testing.T, vec vector) {
	t.Helper()
	text := []byte(vec.text)
	wantValid := vec.bad < 0 && vec.complete
	if got := Valid(text); got != wantValid {
		t.Errorf("%s: Valid(% x) = %v, want %v", vec.name, text, got, wantValid)
	}
	wantClose := error(nil)
	switch {
	case vec.bad >= 0:
		wantClose = ErrInvalid
	case !vec.complete:
		wantClose = ErrIncomplete
	}
	wantN, wantErr := len(text), error(nil)
	if vec.bad >= 0 {
		wantN, wantErr = vec.bad, ErrInvalid
	}
	// The standard library agrees on the verdict.
	if utf8.Valid(text) != wantValid {
		t.Errorf("%s: the vector disagrees with unicode/utf8.Valid", vec.name)
	}

	for cut := 0; cut <= len(text); cut++ {
		var v Validator
		n1, err1 := v.Write(text[:cut])
		n2, err2 := v.Write(text[cut:])
		n, err := n1+n2, err2
		if err1 != nil {
			n, err = n1, err1
			if n2 != 0 || err2 != ErrInvalid {
				t.Errorf("%s: split at %d: Write after a failure = %d, %v; want 0, ErrInvalid", vec.name, cut, n2, err2)
			}
		}
		if n != wantN || err != wantErr || v.Offset() != int64(wantN) || v.Close() != wantClose {
			t.Errorf("%s: split at %d: Writes = %d, %v, Offset %d, Close %v; want %d, %v, %v",
				vec.name, cut, n, err, v.Offset(), v.Close(), wantN, wantErr, wantClose)
		}
		// The failure is reported by the Write that holds the octet.
		if vec.bad >= 0 && (err1 != nil) != (vec.bad < cut) {
			t.Errorf("%s: split at %d: first Write = %d, %v; the bad octet %d is in the other", vec.name, cut, n1, err1, vec.bad)
		}
	}

	// One octet per Write, as Autobahn's case 6.3.2 sends a text: the
	// Write of the bad octet fails, none before it.
	var v Validator
	for i := range text {
		n, err := v.Write(text[i : i+1])
		if i < vec.bad || vec.bad < 0 {
			if n != 1 || err != nil {
				t.Fatalf("%s: octet %d alone: Write = %d, %v; want 1, nil", vec.name, i, n, err)
			}
		} else if n != 0 || err != ErrInvalid {
			t.Fatalf("%s: octet %d alone: Write = %d, %v; want 0, ErrInvalid", vec.name, i, n, err)
		}
	}
	if v.Offset() != int64(wantN) || v.Close() != wantClose {
		t.Errorf("%s: octet by octet: Offset %d, Close %v; want %d, %v", vec.name, v.Offset(), v.Close(), wantN, wantClose)
	}
}

func TestRFC3629Vectors(t *testing.T) {
	for _, vec := range rfcVectors {
		check(t, vec)
		// Trailing junk does not move the verdict of an invalid text,
		// and makes a valid one invalid exactly at the junk.
		junk := vector{vec.name + " + junk", vec.text + "\xFF", vec.bad, false}
		if vec.bad < 0 {
			junk.bad = len(vec.text)
		}
		check(t, junk)
		// Every truncation of a valid text is acceptable, complete only
		// at a UTF8-char boundary.
		if vec.bad < 0 {
			for i := range len(vec.text) {
				prefix := vec.text[:i]
				check(t, vector{fmt.Sprintf("%s[:%d]", vec.name, i), prefix, -1, utf8.ValidString(prefix)})
			}
		}
	}
}

func TestKuhnClasses(t *testing.T) {
	for _, vec := range kuhnVectors {
		check(t, vec)
	}
	// 3.1 and 3.2 in full: each of the 64 continuation octets alone, and
	// each start octet followed by a space.
	for o := 0x80; o <= 0xBF; o++ {
		check(t, invalid(fmt.Sprintf("3.1 %#x", o), string([]byte{byte(o)}), 0))
	}
	for o := 0xC0; o <= 0xFF; o++ {
		bad := 1
		if o <= 0xC1 || o >= 0xF5 {
			bad = 0
		}
		check(t, invalid(fmt.Sprintf("3.2 %#x space", o), string([]byte{byte(o), ' '}), bad))
	}
}

// kosme is the valid text of Autobahn's cases 6.x: κόσμε.
const kosme = "\xCE\xBA\xE1\xBD\xB9\xCF\x83\xCE\xBC\xCE\xB5"

// TestAutobahnFailFast follows the classes of the Autobahn test suite's
// cases 6.x (fail fast on invalid UTF-8): the message's fragments as
// Writes, and the failure reported by the fragment where it becomes
// certain, at the octet where it does.
func TestAutobahnFailFast(t *testing.T) {
	for _, tc := range []struct {
		name      string
		fragments []string
		frag, n   int // the failing fragment, and the octets of it accepted; frag -1: none fails
		close     error
	}{
		// 6.3.1: the text with an encoded surrogate, one frame.
		{"6.3.1", []string{kosme + "\xED\xA0\x80edited"}, 0, 12, ErrInvalid},
		// 6.4.1: the invalid code point U+110000 as a fragment of its
		// own: it is certain at its second octet.
		{"6.4.1", []string{kosme, "\xF4\x90\x80\x80", "edited"}, 1, 1, ErrInvalid},
		// 6.4.2: the fragment ends with F4, which may still start a
		// valid code point; the next fragment fails at its first octet.
		{"6.4.2", []string{kosme + "\xF4", "\x90\x80\x80edited"}, 1, 0, ErrInvalid},
		// 6.4.3 and 6.4.4: the same cut into chunks of a few octets.
		{"6.4.3", []string{kosme[:4], kosme[4:], "\xF4", "\x90", "\x80\x80", "edited"}, 3, 0, ErrInvalid},
		// 6.6.x: each prefix of κόσμε as a whole message: only the
		// complete ones pass at the end.
		{"6.6.1", []string{kosme[:1]}, -1, 0, ErrIncomplete},
		{"6.6.2", []string{kosme[:2]}, -1, 0, nil},
		{"6.6.4", []string{kosme[:4]}, -1, 0, ErrIncomplete},
		{"6.6.5", []string{kosme[:5]}, -1, 0, nil},
		// 6.8.x: 5- and 6-octet forms, certain at their first octet.
		{"6.8.1", []string{"\xF8\x88\x80\x80\x80"}, 0, 0, ErrInvalid},
		{"6.8.2", []string{"\xFC\x84\x80\x80\x80\x80"}, 0, 0, ErrInvalid},
		// 6.12.x: unexpected continuation octets after valid text.
		{"6.12.8", []string{"ab", "\x80\xBF\x80\xBF"}, 1, 0, ErrInvalid},
		// 6.14.x: sequences with the last continuation octet missing,
		// certain at the octet after them.
		{"6.14.2", []string{"\xE0\xA0", " "}, 1, 0, ErrInvalid},
		{"6.14.3", []string{"\xF0\x90\x80", "x"}, 1, 0, ErrInvalid},
	} {
		var v Validator
		accepted := 0
		for i, f := range tc.fragments {
			n, err := v.Write([]byte(f))
			switch {
			case tc.frag >= 0 && i > tc.frag:
				if n != 0 || err != ErrInvalid {
					t.Errorf("%s: fragment %d after the failure: Write = %d, %v; want 0, ErrInvalid", tc.name, i, n, err)
				}
			case i == tc.frag:
				if n != tc.n || err != ErrInvalid {
					t.Errorf("%s: fragment %d: Write = %d, %v; want %d, ErrInvalid", tc.name, i, n, err, tc.n)
				}
				accepted += n
			default:
				if n != len(f) || err != nil {
					t.Errorf("%s: fragment %d: Write = %d, %v; want %d, nil", tc.name, i, n, err, len(f))
				}
				accepted += n
			}
		}
		if v.Offset() != int64(accepted) || v.Close() != tc.close {
			t.Errorf("%s: Offset %d, Close %v; want %d, %v", tc.name, v.Offset(), v.Close(), accepted, tc.close)
		}
	}
}

// TestEveryShortText compares the validator with unicode/utf8 over every
// text of one and two octets and every three-octet text that starts with
// a lead octet: the verdict, and the offset of the failure against
// utf8.ValidString of each prefix.
func TestEveryShortText(t *testing.T) {
	try := func(text []byte) {
		bad := -1
		for i := 1; i <= len(text); i++ {
			if !prefixOK(text[:i]) {
				bad = i - 1
				break
			}
		}
		var v Validator
		n, err := v.Write(text)
		wantN, wantErr := len(text), error(nil)
		if bad >= 0 {
			wantN, wantErr = bad, ErrInvalid
		}
		if n != wantN || err != wantErr || Valid(text) != utf8.Valid(text) {
			t.Fatalf("Write(% x) = %d, %v, Valid %v; want %d, %v, %v", text, n, err, Valid(text), wantN, wantErr, utf8.Valid(text))
		}
	}
	for a := range 256 {
		try([]byte{byte(a)})
		for b := range 256 {
			try([]byte{byte(a), byte(b)})
			if a >= 0xE0 && a <= 0xF4 && b >= 0x80 && b <= 0xBF {
				for c := range 256 {
					try([]byte{byte(a), byte(b), byte(c)})
				}
			}
		}
	}
}

// prefixOK reports, with unicode/utf8, whether p can still be the start of
// valid UTF-8: some continuation of at most three octets makes it valid.
func prefixOK(p []byte) bool {
	if utf8.Valid(p) {
		return true
	}
	for _, tail := range []string{"\x80", "\x80\x80", "\x80\x80\x80", "\x90\x80\x80", "\xA0\x80", "\x8F\x80\x80", "\x9F\x80"} {
		if utf8.Valid(append(bytes.Clone(p), tail...)) {
			return true
		}
	}
	return false
}

// TestUnmask checks that Unmask is Mask then Write: the unmasked octets,
// the next position and the verdict, also after a failure, where all of b
// is still unmasked.
func TestUnmask(t *testing.T) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	text := []byte(kosme + "\xED\xA0\x80edited")
	masked := bytes.Clone(text)
	for i := range masked {
		masked[i] ^= key[(i+1)&3]
	}
	var v Validator
	b := bytes.Clone(masked)
	next, n, err := v.Unmask(b[:5], key, 1)
	if next != 2 || n != 5 || err != nil || !bytes.Equal(b[:5], text[:5]) {
		t.Fatalf("Unmask(first 5) = %d, %d, %v, % x; want 2, 5, nil, % x", next, n, err, b[:5], text[:5])
	}
	next, n, err = v.Unmask(b[5:], key, next)
	if next != (1+len(b))&3 || n != 7 || err != ErrInvalid || !bytes.Equal(b, text) {
		t.Fatalf("Unmask(rest) = %d, %d, %v, % x; want %d, 7, ErrInvalid, % x", next, n, err, b, (1+len(b))&3, text)
	}
	c := bytes.Clone(masked[:3])
	if next, n, err := v.Unmask(c, key, 1); next != 0 || n != 0 || err != ErrInvalid || !bytes.Equal(c, text[:3]) {
		t.Fatalf("Unmask after the failure = %d, %d, %v, % x; want 0, 0, ErrInvalid, % x", next, n, err, c, text[:3])
	}
	if v.Offset() != 12 || v.Close() != ErrInvalid {
		t.Fatalf("Offset %d, Close %v; want 12, ErrInvalid", v.Offset(), v.Close())
	}
}

// TestReset checks that Reset starts a new text, and that Close does not
// change the state.
func TestReset(t *testing.T) {
	var v Validator
	v.Write([]byte("\xE2\x82"))
	if v.Close() != ErrIncomplete || v.Close() != ErrIncomplete {
		t.Fatalf("Close of a partial char = %v, want ErrIncomplete twice", v.Close())
	}
	if n, err := v.Write([]byte("\xAC")); n != 1 || err != nil || v.Close() != nil || v.Offset() != 3 {
		t.Fatalf("completing €: %d, %v, Close %v, Offset %d; want 1, nil, nil, 3", n, err, v.Close(), v.Offset())
	}
	v.Write([]byte("\xFF"))
	v.Reset()
	if v.Offset() != 0 || v.Close() != nil {
		t.Fatalf("after Reset: Offset %d, Close %v; want 0, nil", v.Offset(), v.Close())
	}
	if n, err := v.Write([]byte("\xAC")); n != 0 || !errors.Is(err, ErrInvalid) {
		t.Fatalf("a continuation first after Reset: %d, %v; want 0, ErrInvalid", n, err)
	}
}
