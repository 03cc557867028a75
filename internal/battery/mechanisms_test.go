package battery

import (
	"flag"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/contractknob"
)

// mechanisms are the engine's contract mechanisms that a knob of
// internal/contractknob turns off, each with the battery bugs that
// docs/equivalence.md's contract table says only it catches.
//
// websocket/mask/tail-store-to-cap is not among them: the chunked Mask of
// every method masks pieces of one buffer, each with the rest as spare
// capacity, and catches it too.
var mechanisms = []struct {
	name string
	knob *atomic.Bool
	skip func() string // why the mechanism is not there to turn off, or ""
	// except are the methods (comma-separated) the knob does not reach,
	// left out of the run with the knob set, or "".
	except string
	// serial runs the suite with the knob set without the concurrent
	// caller, where a bug of the mechanism is shared state as well.
	serial bool
	bugs   []string
}{
	{"spare", &contractknob.NoSpare, nil, "", false, []string{
		"checksum/pad-from-capacity", "checksum/nil-data-pointer", "checksum/put/wide-store",
		"quic/varint/load-to-cap", "quic/header/bounds-by-cap", "quic/header/nil-first-byte",
		"utf8/tail-load-to-cap",
	}},
	{"readonly", &contractknob.NoReadOnly, equiv.ReadOnlySkip, "", false, []string{
		"checksum/swap-in-place", "checksum/digest/write-swaps-p", "checksum/verify/zeroes-field-in-place",
		"websocket/maskcopy/src-round-trip", "websocket/maskwriter/masks-p-and-restores",
		"quic/header/unprotects-in-place", "utf8/valid-scratch-in-place",
	}},
	// NoPoison reaches the suites' own poisoning of inputs at a guard page
	// too (checksumtest's and utf8validtest's poison). (utf8/keeps-tail-view
	// is caught by the Reader as well, whose next Read's p is placed over
	// the last: poison by placement, which no knob turns off.)
	// The properties method's Digest state machine and the scale method's
	// Digest histories place each Write's p where the last one lay (the
	// harness's buffers): poison by placement again, so the run without
	// poisoning leaves those methods out.
	{"poison", &contractknob.NoPoison, nil, equiv.MethodProperties + "," + equiv.MethodScale, false, []string{
		"checksum/digest/keeps-odd-view",
	}},
	// The scale method's overlap rounds call from two goroutines by
	// design (their own knob, NoOverlap, below): the run without the
	// concurrent caller leaves that method out.
	{"concurrent", &contractknob.NoConcurrent, nil, equiv.MethodScale, false, []string{
		"checksum/shared-scratch", "websocket/maskcopy/shared-scratch", "quic/packets/shared-scratch",
	}},
	// quic/append/static-buffer's arrays are shared by every caller: the
	// concurrent caller sees them change too (two goroutines can take the
	// same one), so the run without Keep is serial.
	{"keep", &contractknob.NoKeep, nil, "", true, []string{
		"checksum/digest/sum-internal-array", "quic/append/static-buffer", "quic/withlen/static-buffer",
	}},
	// Issue 29's mechanisms. NoEdges lays every slice out between
	// canaries: no unmapped page flush against an input, no read-only
	// octets flush against a writable range.
	{"edges", &contractknob.NoEdges, equiv.EdgeSkip, "", false, []string{
		"checksum/put/word-store-rmw", "checksum/digest/sum-word-store", "checksum/sum/tail-word-over-read",
		"websocket/mask/word-rmw-past-len", "websocket/maskwriter/word-load-past-p",
		"quic/packets/padding-word-over-read", "quic/withlen/word-rmw",
		"utf8/unmask/tail-word-rmw",
	}},
	{"exact-append", &contractknob.NoExactAppend, nil, "", false, []string{
		"checksum/digest/sum-room-off-by-two",
	}},
	// quictest's guard method fills fields whose buffer has exactly the
	// room of the append and ends at a guard page: an exact fit of its
	// own, which the knob does not reach.
	{"exact-append-but-guard", &contractknob.NoExactAppend, nil, equiv.MethodGuard, false, []string{
		"quic/withlen/room-off-by-two",
	}},
	{"reuse", &contractknob.NoReuse, nil, "", false, []string{
		"checksum/sum/memo-by-address", "websocket/maskcopy/memo-by-address", "websocket/maskwriter/memo-by-address",
		"quic/packets/parsed-at-call", "quic/header/memo-by-address",
		"utf8/valid/memo-by-address",
	}},
	{"history", &contractknob.NoHistory, nil, "", false, []string{
		"checksum/digest/lazy-after-512-writes", "websocket/maskwriter/lazy-after-512-writes",
		"quic/readvarint/bytes-reader-offset-uint16",
		"utf8/validator/lazy-after-1024-writes",
	}},
	{"scale", &contractknob.NoScale, nil, "", false, []string{
		"checksum/sum/wide-path-tail", "websocket/mask/wide-path-tail", "websocket/maskreader/wide-read-phase",
		"quic/append/offset-uint16",
		"utf8/valid/halves-split-characters", "utf8/validator/fragmented-large-write",
	}},
	{"overlap", &contractknob.NoOverlap, nil, "", false, []string{
		"checksum/sum/trylock-fallback", "websocket/maskcopy/trylock-fallback", "websocket/maskwriter/trylock-fallback",
		"quic/packets/pool-fallback",
		"utf8/valid/trylock-fallback",
	}},
	// NoIOEdges makes every reader and writer under a streamer a plain
	// one (websockettest's, but for its nested ones).
	{"io-edges", &contractknob.NoIOEdges, nil, "", false, []string{
		"websocket/maskwriter/drops-error-with-full-count", "websocket/maskreader/timeout-data-masked",
		"quic/peekvarint/error-before-data",
		"utf8/reader/drops-data-with-error",
	}},
}

// firstOnly is -mechanisms.first: TestMechanisms checks the first bug of
// each mechanism only.
var firstOnly = flag.Bool("mechanisms.first", false, "TestMechanisms: only the first bug of each mechanism")

// TestMechanisms shows that each mechanism is what catches its bugs: with
// its knob clear each bug is caught at quick as TestBattery requires
// (catches), and with it set the whole quick suite passes the bug. The
// knobs are package globals, so it must not run in parallel with another
// test (none of this package's does; its own escapes, two at a time, share
// their mechanism's setting). Each escape runs a whole quick suite, minutes
// in all on two cores: -short leaves it to its own step of .ci/run, and
// says so.
//
// With -mechanisms.first (.ci/run's step, which must stay within its time)
// only the first bug of each mechanism's list escapes without it; make
// mechanisms and .github/workflows/mechanisms.yml run every bug's escape.
func TestMechanisms(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the mechanisms run in .ci/run's own step and whole in make mechanisms")
	}
	bugs := map[string]Bug{}
	for _, b := range All() {
		bugs[b.Name] = b
	}
	for _, m := range mechanisms {
		t.Run(m.name, func(t *testing.T) {
			if m.skip != nil && m.skip() != "" {
				t.Skip(m.skip())
			}
			var mine []Bug
			names := m.bugs
			if *firstOnly {
				names = names[:1]
			}
			for _, name := range names {
				if b, ok := bugs[name]; ok {
					mine = append(mine, b)
				} else {
					t.Errorf("no battery bug %q", name)
				}
			}
			mechanismCatches(t, m.knob, m.except, m.serial, mine)
		})
	}
}

// mechanismCatches checks that each of bugs is caught with knob clear (one
// at a time: each within catchLimit), and escapes the quick suite (every
// method but except, serial if asked) with knob set, two at a time
// (parallel subtests, which share the knob's setting); it restores the knob
// after.
func mechanismCatches(t *testing.T, knob *atomic.Bool, except string, serial bool, bugs []Bug) {
	for _, b := range bugs {
		if msg, ok := catches(b.Bad); ok {
			t.Logf("%s: caught with the mechanism: %s", b.Name, msg)
		} else {
			t.Errorf("%s: not caught with the mechanism: %s", b.Name, msg)
		}
	}
	was := knob.Swap(true)
	defer knob.Store(was)
	opts := []equiv.Option{equiv.WithLevel(equiv.Quick), equiv.WithMethods(func(m string) bool { return !slices.Contains(strings.Split(except, ","), m) })}
	if serial {
		opts = append(opts, equiv.Serial())
	}
	forgetMemos()
	t.Run("without", func(t *testing.T) {
		for _, b := range bugs {
			t.Run(b.Name, func(t *testing.T) {
				t.Parallel()
				start := time.Now()
				if err := equiv.Check(b.Bad, opts...); err != nil {
					t.Errorf("caught without the mechanism, so not by it alone: %s", oneLine(err.Error()))
					return
				}
				t.Logf("escapes without it: quick passed in %v", time.Since(start).Round(time.Millisecond))
			})
		}
	})
}
