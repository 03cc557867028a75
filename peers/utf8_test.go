package peers

import (
	"testing"
	stdutf8 "unicode/utf8"

	"github.com/gobwas/ws/wsutil"
	asmutf8 "github.com/segmentio/asm/utf8"
	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/utf8validtest"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// peers:begin stdutf8
// stdUTF8Impl is the standard library's unicode/utf8.Valid.
var stdUTF8Impl = utf8validtest.Impl{Name: "unicode/utf8", Valid: stdutf8.Valid}

func TestPeerStdUTF8(t *testing.T) {
	t.Parallel()
	utf8validtest.Test(t, stdUTF8Impl, quick)
}

// peers:end stdutf8

// peers:begin segmentio
// segmentioImpl is segmentio/asm's utf8.Valid, AVX2 assembly on amd64
// (a Go fallback elsewhere): the suite calls it as a user does, and
// reaches the kernel the CPU selects.
var segmentioImpl = utf8validtest.Impl{Name: "segmentio/asm", Valid: asmutf8.Valid}

func TestPeerSegmentio(t *testing.T) {
	t.Parallel()
	utf8validtest.Test(t, segmentioImpl, quick)
}

// peers:end segmentio

// peers:begin xtext
// xtextImpl is golang.org/x/text's encoding.UTF8Validator, a
// transform.Transformer that stops with ErrInvalidUTF8 at the first
// sequence that is not UTF-8, and with transform.ErrShortSrc where src
// ends inside a character that can still be completed. Valid transforms
// b at EOF; the Validator feeds each Write's octets to it one at a time,
// after the octets of an unfinished character it keeps, so that the
// octet at which the verdict turns is Write's n. An empty Write
// transforms what is pending, as transform.Writer's Write does.
var xtextImpl = utf8validtest.Impl{
	Name: "x/text",
	Valid: func(b []byte) bool {
		_, _, err := encoding.UTF8Validator.Transform(make([]byte, len(b)), b, true)
		return err == nil
	},
	NewValidator: func() utf8validtest.Validator { return new(xtextValidator) },
}

type xtextValidator struct{ pending []byte }

func (v *xtextValidator) Write(p []byte) (int, error) {
	if len(p) == 0 {
		if err := v.Close(); err != transform.ErrShortSrc {
			return 0, err
		}
	}
	for i, c := range p {
		if err := v.transform(c); err != nil {
			return i, err
		}
	}
	return len(p), nil
}

// transform feeds c after what is pending, and keeps what the
// transformer leaves unconsumed.
func (v *xtextValidator) transform(c byte) error {
	v.pending = append(v.pending, c)
	var dst [stdutf8.UTFMax + 1]byte
	_, n, err := encoding.UTF8Validator.Transform(dst[:], v.pending, false)
	v.pending = append(v.pending[:0], v.pending[n:]...)
	if err == transform.ErrShortSrc {
		return nil
	}
	return err
}

// Close asks the transformer about the pending octets without atEOF:
// ErrShortSrc there is a text that ends inside a character.
func (v *xtextValidator) Close() error {
	var dst [stdutf8.UTFMax]byte
	_, _, err := encoding.UTF8Validator.Transform(dst[:], v.pending, false)
	return err
}

func (v *xtextValidator) Reset() { v.pending = v.pending[:0] }

// xtextOptions map the transformer's errors onto the reference's. An
// octet at a time costs a Transform call each: the quick run compares a
// sample of the exhaustive method's domain (sampledAtQuick).
var xtextOptions = []equiv.Option{
	equiv.MapErrors(func(err error) error {
		switch err {
		case encoding.ErrInvalidUTF8:
			return ref.ErrInvalid
		case transform.ErrShortSrc:
			return ref.ErrIncomplete
		}
		return err
	}),
	sampledAtQuick(4),
}

func TestPeerXtext(t *testing.T) {
	t.Parallel()
	utf8validtest.Test(t, xtextImpl, append(xtextOptions, quick)...)
}

// peers:end xtext

// peers:begin gobwasutf8
// gobwasUTF8Impl is gobwas/ws's wsutil.UTF8Reader as a Validator. The
// reader validates what it reads from its Source and returns
// ErrInvalidUTF8 with the count of octets up to the last whole character
// before the failure, not the failing octet's index; Valid reports
// whether it stands between characters. The adapter reads each Write's
// octets through it one at a time, so that the octet at which it fails
// is Write's n, and remembers the failure for Close, which Valid alone
// cannot tell from a text that ends inside a character.
var gobwasUTF8Impl = utf8validtest.Impl{
	Name:         "gobwas/wsutil.UTF8Reader",
	NewValidator: func() utf8validtest.Validator { return new(gobwasValidator) },
}

type gobwasValidator struct {
	r      wsutil.UTF8Reader
	failed bool
}

func (v *gobwasValidator) Write(p []byte) (int, error) {
	for i := range p {
		v.r.Source = &oneByte{c: p[i]}
		var b [1]byte
		if _, err := v.r.Read(b[:]); err != nil {
			v.failed = true
			return i, err
		}
	}
	return len(p), nil
}

func (v *gobwasValidator) Close() error {
	switch {
	case v.failed:
		return wsutil.ErrInvalidUTF8
	case !v.r.Valid():
		return ref.ErrIncomplete
	}
	return nil
}

func (v *gobwasValidator) Reset() { v.r.Reset(nil); v.failed = false }

// oneByte is a reader of one octet.
type oneByte struct {
	c    byte
	done bool
}

func (o *oneByte) Read(p []byte) (int, error) {
	if o.done || len(p) == 0 {
		return 0, nil
	}
	o.done = true
	p[0] = o.c
	return 1, nil
}

// gobwasUTF8Options map ErrInvalidUTF8 onto the reference's ErrInvalid,
// and relax utf8-empty-write-fails (docs/strictness.md): an empty Write
// after the text failed reads nothing and returns 0, nil, where this
// module's API fails it again. An octet at a time costs a Read each, the
// slowest adapter here: the exhaustive method runs a sixteenth of its
// domain at quick (sampledAtQuick).
var gobwasUTF8Options = []equiv.Option{
	equiv.MapErrors(func(err error) error {
		if err == wsutil.ErrInvalidUTF8 {
			return ref.ErrInvalid
		}
		return err
	}),
	utf8validtest.Relax("utf8-empty-write-fails"),
	sampledAtQuick(16),
}

func TestPeerGobwasUTF8(t *testing.T) {
	t.Parallel()
	equiv.Test(t, utf8validtest.NewSuite(gobwasUTF8Impl), append(gobwasUTF8Options, quick)...)
}

// peers:end gobwasutf8

// TestDivergeGobwasUTF8: what gobwasUTF8Options relax, as the suite
// reports it without the clause relaxed (docs/peers.md): a Validator
// input with an empty Write after the failure.
func TestDivergeGobwasUTF8(t *testing.T) {
	t.Parallel()
	// The properties method's differential cases draw their splits from
	// the seed: seed 1 meets an empty Write after a failing octet first.
	props := equiv.WithMethods(func(m string) bool { return m == equiv.MethodProperties })
	assertDivergence(t, "gobwas/wsutil: an empty Write after a failure",
		utf8validtest.Check(gobwasUTF8Impl, props, gobwasUTF8Options[0], equiv.WithSeed(1)),
		`calls ending at [1 1]`, `; 0, nil;`, `want 0, ErrInvalid; 0, ErrInvalid;`)
}
