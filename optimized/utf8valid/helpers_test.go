package utf8valid

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
	"github.com/equivcheck/equivcheck/reference/websocket"
)

// available returns the Impls this machine can run, and reports the others
// as skipped subtests.
func available(t *testing.T) []Impl {
	var ims []Impl
	for _, im := range Impls() {
		if !im.Available {
			t.Run(im.Name, func(t *testing.T) { t.Skipf("%s: not available on this CPU or build", im.Name) })
			continue
		}
		ims = append(ims, im)
	}
	return ims
}

// withDispatch adds the exported API (Valid and the zero Validator), which
// picks a kernel itself, to the available Impls.
func withDispatch(t *testing.T) []Impl {
	return append(available(t), Impl{Name: "dispatch", Available: true, Valid: Valid,
		NewValidator: func() *Validator { return new(Validator) }})
}

// The classes of text the tests and benchmarks draw from: UTF8-1, -2, -3
// and -4 characters, and a mix with the boundaries of RFC 3629 §4.
var classes = map[string][]string{
	"ascii": {"a", "Z", " ", "0", "\x00", "\x7F"},
	"latin": {"é", "ß", "ñ", "ø", "\xC2\x80", "\xDF\xBF"},
	"cjk":   {"日", "本", "語", "한", "\xE0\xA0\x80", "\xED\x9F\xBF", "\xEE\x80\x80", "\xEF\xBF\xBF"},
	"emoji": {"😀", "🚀", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF", "\xF3\xBF\xBF\xBF"},
	"mixed": {"a", "é", "€", "😀", " ", "\xE0\xA0\x80", "\xED\x9F\xBF", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF"},
}

// text returns n octets of valid UTF-8 of class, drawn with r, filled up
// with ASCII where the last character would not fit.
func text(r *rand.Rand, class string, n int) []byte {
	chars := classes[class]
	b := make([]byte, 0, n)
	for len(b) < n {
		c := chars[r.IntN(len(chars))]
		if len(b)+len(c) > n {
			c = "x"
		}
		b = append(b, c...)
	}
	return b
}

// breaks are octet strings that make a text invalid where they are put in,
// or leave it inside a character.
var breaks = []string{"\x80", "\xBF", "\xC0", "\xC1", "\xF5", "\xFF", "\xC2", "\xE0\x80", "\xE0\x9F", "\xED\xA0",
	"\xED\xBF", "\xF0\x8F", "\xF4\x90", "\xE1", "\xF1\x80", "\xF1\x80\x80", "\xE1\x80", "\xF0\x90\x80"}

// variants returns texts of n octets of every class, each valid, with a
// break put in at a position drawn with r, and with a break at its end.
func variants(r *rand.Rand, n int) [][]byte {
	var out [][]byte
	for _, class := range []string{"ascii", "latin", "cjk", "emoji", "mixed"} {
		b := text(r, class, n)
		out = append(out, b)
		if n == 0 {
			continue
		}
		brk := breaks[r.IntN(len(breaks))]
		at := r.IntN(n)
		bad := append(bytes.Clone(b[:at]), brk...)
		bad = append(bad, b[at:]...)
		out = append(out, bad[:n])
		end := bytes.Clone(b)
		copy(end[max(0, n-len(brk)):], brk)
		out = append(out, end)
	}
	return out
}

// verdict is what the reference says of a text written in the given
// pieces: each Write's results, then Close and Offset.
type verdict struct {
	writes []string
	close  error
	offset int64
}

func (v verdict) String() string {
	return fmt.Sprintf("writes %v, Close %v, Offset %d", v.writes, v.close, v.offset)
}

func equal(a, b verdict) bool {
	if a.close != b.close || a.offset != b.offset || len(a.writes) != len(b.writes) {
		return false
	}
	for i := range a.writes {
		if a.writes[i] != b.writes[i] {
			return false
		}
	}
	return true
}

// writer is what the reference's and this package's Validators share.
type writer interface {
	Write(p []byte) (int, error)
	Close() error
	Offset() int64
}

// writeAll writes text to v cut at the given offsets and records the results.
func writeAll(v writer, text []byte, cuts ...int) verdict {
	var out verdict
	prev := 0
	for _, c := range append(cuts, len(text)) {
		n, err := v.Write(text[prev:c])
		out.writes = append(out.writes, fmt.Sprintf("%d %v", n, err))
		prev = c
	}
	out.close, out.offset = v.Close(), v.Offset()
	return out
}

// refRun is run with the reference.
func refRun(text []byte, cuts ...int) verdict {
	return writeAll(new(ref.Validator), text, cuts...)
}

// masked returns b masked with key from key octet pos, by the reference.
func masked(b []byte, key [4]byte, pos int) []byte {
	c := bytes.Clone(b)
	websocket.Mask(c, key, pos)
	return c
}
