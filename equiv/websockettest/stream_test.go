package websockettest_test

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/websockettest"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// Known-bad streamers, each with a bug seen in (or easily made in) real
// streaming maskers, switched on by name in one model reader and one
// model writer, whose bug-free twins pass the whole suite.

// modelReader unmasks what it reads, with an optional bug.
type modelReader struct {
	r   io.Reader
	key [4]byte
	pos int
	bug string
}

func (m *modelReader) Reset(r io.Reader, key [4]byte) {
	m.r = r
	if m.bug != "reset-keeps-key" {
		m.key = key
	}
	if m.bug != "reset-keeps-pos" {
		m.pos = 0
	}
}

func (m *modelReader) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	switch m.bug {
	case "trusts-count":
		// gobwas/ws's CipherReader: p[:n] panics for n > len(p).
	case "skip-on-error":
		if err != nil {
			return n, err
		}
	default:
		if n < 0 || n > len(p) {
			return 0, ref.ErrInvalidRead
		}
	}
	start := m.pos
	if m.bug == "pos-not-carried" {
		start = 0
	}
	for i := range p[:n] {
		p[i] ^= m.key[(start+i)&3]
	}
	switch m.bug {
	case "pos-by-len-p":
		m.pos += len(p)
	case "unmask-past-end":
		// A vector store over the octet after p.
		if n > 0 {
			q := (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(p)), len(p)))
			*q ^= m.key[(m.pos+n)&3]
		}
		m.pos += n
	default:
		m.pos += n
	}
	return n, err
}

// modelWriter masks into a 13-octet buffer, with an optional bug. (A
// piece of a length that is not a multiple of 4 is what makes a stale
// position between pieces show.)
type modelWriter struct {
	w   io.Writer
	key [4]byte
	pos int
	bug string
	buf [13]byte
}

func (m *modelWriter) Reset(w io.Writer, key [4]byte) {
	m.w, m.key = w, key
	if m.bug != "reset-keeps-pos" {
		m.pos = 0
	}
}

func (m *modelWriter) Write(p []byte) (int, error) {
	switch m.bug {
	case "masks-callers-p", "masks-and-restores":
		return m.inPlace(p)
	}
	written, start := 0, m.pos
	for written < len(p) {
		piece := p[written:min(len(p), written+len(m.buf))]
		from := m.pos
		if m.bug == "stale-pos" {
			from = start // each piece masked from the Write's first position
		}
		for i := range piece {
			m.buf[i] = piece[i] ^ m.key[(from+i)&3]
		}
		n, err := m.w.Write(m.buf[:len(piece)])
		if m.bug == "trusts-count" {
			// gobwas/ws's CipherWriter: the count passed through.
			written, m.pos = written+n, m.pos+n
			if err != nil || n != len(piece) {
				return written, err
			}
			continue
		}
		if n < 0 || n > len(piece) {
			return written, ref.ErrInvalidWrite
		}
		written += n
		if m.bug == "pos-by-attempted" {
			m.pos += len(piece)
		} else {
			m.pos += n
		}
		switch {
		case err != nil:
			return written, err
		case n < len(piece) && m.bug == "drops-short-write":
			return len(p), nil
		case n < len(piece) && m.bug != "short-nil-error":
			return written, io.ErrShortWrite
		case n < len(piece):
			return written, nil
		}
	}
	return written, nil
}

// inPlace masks p itself, writes it, and for "masks-and-restores" masks
// it back afterwards, so that only a look during the call sees it.
func (m *modelWriter) inPlace(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	mask := func() {
		for i := range p {
			p[i] ^= m.key[(m.pos+i)&3]
		}
	}
	mask()
	n, err := m.w.Write(p)
	if m.bug == "masks-and-restores" {
		mask()
	}
	if n < 0 || n > len(p) {
		return 0, ref.ErrInvalidWrite
	}
	m.pos += n
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	return n, err
}

// modelImpl is the reference's Mask and MaskCopy with the model streamers,
// each with bug (one of them is bug-free when bug is for the other).
func modelImpl(bug string) websockettest.Impl {
	return websockettest.Impl{
		Mask: ref.Mask, MaskCopy: ref.MaskCopy,
		NewMaskReader: func(r io.Reader, key [4]byte) websockettest.MaskReader {
			return &modelReader{r: r, key: key, bug: bug}
		},
		NewMaskWriter: func(w io.Writer, key [4]byte) websockettest.MaskWriter {
			return &modelWriter{w: w, key: key, bug: bug}
		},
	}
}

// streamsOnly leaves Mask and MaskCopy, which the model streamers take
// from the reference, out of an exhaustive run, so that only the streamers
// are compared there and the run stays short. (Other methods need Mask:
// the laws would have no case left.)
var streamsOnly = websockettest.Exclude("Mask and MaskCopy", func(in websockettest.Input) bool {
	return in.Func == "Mask" || in.Func == "MaskCopy"
})

func TestCatchesKnownBadStreamers(t *testing.T) {
	for _, tc := range []struct {
		bug, fn string
		methods []string
	}{
		{"pos-not-carried", "MaskReader", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties, equiv.MethodCorpus}},
		{"pos-by-len-p", "MaskReader", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
		{"skip-on-error", "MaskReader", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
		{"reset-keeps-key", "MaskReader", []string{equiv.MethodExhaustive, equiv.MethodProperties}},
		{"trusts-count", "MaskReader", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
		{"unmask-past-end", "MaskReader", []string{equiv.MethodVectors, equiv.MethodGuard}},
		{"reset-keeps-pos", "MaskReader", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
		{"reset-keeps-pos", "MaskWriter", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
		{"masks-callers-p", "MaskWriter", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodGuard, equiv.MethodProperties, equiv.MethodCorpus}},
		{"masks-and-restores", "MaskWriter", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodGuard, equiv.MethodProperties, equiv.MethodCorpus}},
		{"drops-short-write", "MaskWriter", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
		{"pos-by-attempted", "MaskWriter", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
		{"short-nil-error", "MaskWriter", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
		{"stale-pos", "MaskWriter", []string{equiv.MethodExhaustive, equiv.MethodGuard, equiv.MethodProperties, equiv.MethodCorpus}},
		{"trusts-count", "MaskWriter", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
	} {
		for _, method := range tc.methods {
			t.Run(tc.fn+"/"+tc.bug+"/"+method, func(t *testing.T) {
				if method == equiv.MethodGuard && equiv.GuardSkip() != "" {
					t.Skip(equiv.GuardSkip())
				}
				impl := modelImpl(tc.bug)
				// Only the streamer under test has the bug.
				if tc.fn == "MaskReader" {
					impl.NewMaskWriter = modelImpl("").NewMaskWriter
				} else {
					impl.NewMaskReader = modelImpl("").NewMaskReader
				}
				opts := []equiv.Option{only(method), equiv.WithSeed(1)}
				if method == equiv.MethodExhaustive {
					opts = append(opts, streamsOnly)
				}
				err := websockettest.Check(impl, opts...)
				ces := equiv.Counterexamples(err)
				if !errors.Is(err, equiv.ErrMismatch) || len(ces) == 0 {
					t.Fatalf("returned %v, want a counterexample", err)
				}
				if ces[0].Func != tc.fn {
					t.Errorf("caught in %s, want %s: %v", ces[0].Func, tc.fn, ces[0])
				}
				t.Logf("caught: %v", ces[0])
			})
		}
	}
	// The bug-free twins pass every method, so the bugs above are what the
	// suite caught.
	if err := websockettest.Check(modelImpl(""), equiv.WithSeed(1)); err != nil {
		t.Fatalf("the bug-free model streamers failed: %v", err)
	}
}

// TestStreamCounterexample: a streamer's counterexample comes minimized,
// replays through FuzzMask's CheckInput, and names the streamer's calls.
func TestStreamCounterexample(t *testing.T) {
	impl := modelImpl("pos-not-carried")
	err := websockettest.Check(impl, only(equiv.MethodExhaustive), equiv.WithSeed(1), streamsOnly)
	ces := equiv.Counterexamples(err)
	if len(ces) != 1 {
		t.Fatalf("got %v, want one counterexample", err)
	}
	ce := ces[0]
	// Two zero octets, in two Reads however made, show it; or one, after
	// a warm-up, through a nested MaskReader of the same implementation.
	if len(ce.Input) > 2 || !bytes.Equal(ce.Input, make([]byte, len(ce.Input))) || !strings.Contains(ce.Got, "call 2 Read") {
		t.Errorf("not minimized: %v", ce)
	}
	if ce.FuzzTarget != "FuzzMask" || len(ce.FuzzArgs) != 4 {
		t.Fatalf("no fuzz form: %v", ce)
	}
	a := ce.FuzzArgs
	if err := websockettest.CheckInput(impl, a[0].([]byte), a[1].(uint32), a[2].(int), a[3].([]byte)); err == nil {
		t.Errorf("the fuzz form %v does not reproduce %v", a, ce)
	}
	if err := websockettest.CheckInput(modelImpl(""), a[0].([]byte), a[1].(uint32), a[2].(int), a[3].([]byte)); err != nil {
		t.Errorf("the bug-free twin fails the fuzz form: %v", err)
	}
}

// TestExcludeUnderlying: a streamer that trusts its underlying reader's
// count (as gobwas/ws's CipherReader does) passes once streams over
// readers that return invalid counts are declared out of scope, and every
// Result says how many were left out.
func TestExcludeUnderlying(t *testing.T) {
	impl := modelImpl("")
	impl.NewMaskReader = modelImpl("trusts-count").NewMaskReader
	trusted := websockettest.Exclude("invalid counts", func(in websockettest.Input) bool {
		return strings.HasPrefix(in.Underlying, "count ")
	})
	notExhaustive := equiv.WithMethods(func(m string) bool { return m != equiv.MethodExhaustive })
	err, res := report(impl, equiv.WithSeed(1), trusted, notExhaustive)
	if err != nil {
		t.Fatalf("with invalid counts excluded: %v", err)
	}
	err, ex := report(impl, equiv.WithSeed(1), trusted, only(equiv.MethodExhaustive), streamsOnly)
	if err != nil {
		t.Fatalf("exhaustive, with invalid counts excluded: %v", err)
	}
	res[equiv.MethodExhaustive] = ex[equiv.MethodExhaustive]
	for _, m := range []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties} {
		i := slices.IndexFunc(res[m].Narrowed, func(s string) bool { return strings.HasPrefix(s, `excluded "invalid counts": `) })
		if i < 0 || strings.HasSuffix(res[m].Narrowed[i], ": 0 inputs") {
			t.Errorf("%s: Narrowed = %q, want the invalid counts counted", m, res[m].Narrowed)
		}
	}
}

// TestValidUnderlyingCounts: streamers that pass on the count their
// reader or writer returns (as gobwas/ws's CipherReader and CipherWriter
// do) fail by default, on a count io's contract forbids, and pass with
// ValidUnderlyingCounts, whose exclusion every Result counts.
func TestValidUnderlyingCounts(t *testing.T) {
	impl := modelImpl("trusts-count")
	err := websockettest.Check(impl, equiv.WithSeed(1), only(equiv.MethodVectors))
	ces := equiv.Counterexamples(err)
	if len(ces) != 1 || !strings.Contains(ces[0].Args, `over "count `) && !strings.Contains(ces[0].Args, `over "short count `) {
		t.Fatalf("without the option: %v, want a counterexample over a reader or writer breaking the count clause", err)
	}
	valid := websockettest.ValidUnderlyingCounts()
	notExhaustive := equiv.WithMethods(func(m string) bool { return m != equiv.MethodExhaustive })
	err, res := report(impl, equiv.WithSeed(1), valid, notExhaustive)
	if err != nil {
		t.Fatalf("with ValidUnderlyingCounts: %v", err)
	}
	err, ex := report(impl, equiv.WithSeed(1), valid, only(equiv.MethodExhaustive), streamsOnly)
	if err != nil {
		t.Fatalf("exhaustive, with ValidUnderlyingCounts: %v", err)
	}
	res[equiv.MethodExhaustive] = ex[equiv.MethodExhaustive]
	const label = `excluded "underlying reader or writer breaks io's count contract": `
	for _, m := range []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties} {
		i := slices.IndexFunc(res[m].Narrowed, func(s string) bool { return strings.HasPrefix(s, label) })
		if i < 0 || strings.HasSuffix(res[m].Narrowed[i], ": 0 inputs") {
			t.Errorf("%s: Narrowed = %q, want the streams left out counted", m, res[m].Narrowed)
		}
	}
}
