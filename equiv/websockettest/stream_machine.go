package websockettest

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/equivcheck/equivcheck/equiv"
)

// streamMachines runs the MaskReader and the MaskWriter state machines, n
// cases each, for the streamers the implementation has.
func (c *checker) streamMachines(r *equiv.Run, n int) error {
	for _, fn := range []string{"MaskReader", "MaskWriter"} {
		if !c.has(fn) {
			continue
		}
		if err := r.Property(fn+" state machine", n, func(t *rapid.T) error { return c.runMachine(t, fn) }); err != nil {
			return err
		}
	}
	return nil
}

// maxFrame bounds a drawn MaskReader payload, a drawn offset and a drawn
// call's size.
const maxFrame = 600

// machine runs the implementation's streamer and the reference's side by
// side, as rapid draws the calls, comparing the transcripts after each.
type machine struct {
	fn        string // "MaskReader" or "MaskWriter"
	impl, ref *stream
	frame     streamCase // the payload since the last New or Reset, and its underlying kind
	ends      []int      // where the calls since then ended in it
	steps     []string   // every call so far, for the counterexample
}

// runMachine is one case: New over a drawn payload (a MaskReader's wire
// octets; a MaskWriter's are drawn call by call), key and underlying
// reader or writer, then up to 31 steps, each a Read or Write of a drawn
// size (empty ones included) or, one time in eight, a Reset to a new
// drawn payload, key and underlying reader or writer. A payload out of
// scope ends the case (and, if it is the first, the case is not counted).
func (c *checker) runMachine(t *rapid.T, fn string) error {
	align := rapid.IntRange(0, 63).Draw(t, "align")
	m := &machine{fn: fn,
		impl: &stream{impl: c.impl, a: harnessArena{c, align}, mapErr: c.cfg.MapError},
		ref:  &stream{impl: refStreams, a: refArena{&c.refBuf, align}}}
	for i := range rapid.IntRange(1, 32).Draw(t, "steps") {
		if i == 0 || rapid.IntRange(0, 7).Draw(t, "reset") == 0 {
			s := drawFrame(t, fn, align)
			if equiv.Excluded(c.cfg, s.input()) {
				if i == 0 {
					return equiv.ErrNotCompared
				}
				return nil
			}
			m.start(s, i == 0)
		} else {
			m.call(t)
		}
		if got, want, differs := c.differ(m.impl.t, m.ref.t); differs {
			return c.machineFailure(m, got, want)
		}
	}
	return nil
}

// drawFrame draws a payload's key, underlying reader or writer and the
// offset it acts at, and a MaskReader's wire octets.
func drawFrame(t *rapid.T, fn string, align int) streamCase {
	s := streamCase{fn: fn, key: drawKey(t), align: align}
	if fn == "MaskReader" {
		s.payload = rapid.SliceOfN(rapid.Byte(), 0, maxFrame).Draw(t, "wire")
		s.kind = rapid.IntRange(0, numSources-1).Draw(t, "source")
		s.at = rapid.IntRange(0, len(s.payload)).Draw(t, "at")
		return s
	}
	s.kind = rapid.IntRange(0, numSinks-1).Draw(t, "sink")
	s.at = rapid.IntRange(0, maxFrame).Draw(t, "at")
	return s
}

// both runs f on the reference's stream and the implementation's, unless
// that one has panicked already.
func (m *machine) both(f func(x *stream)) {
	for _, x := range []*stream{m.ref, m.impl} {
		if x.t.p == nil {
			if p := equiv.Catch(func() { f(x) }); x.t.p == nil {
				x.t.p = p
			}
		}
	}
}

// start makes a new streamer for s's payload (New), or resets the one
// there is to it.
func (m *machine) start(s streamCase, isNew bool) {
	m.frame, m.ends = s, nil
	if isNew {
		m.steps = append(m.steps, "New")
	} else {
		m.steps = append(m.steps, "Reset")
	}
	m.both(func(x *stream) {
		if m.fn == "MaskReader" {
			src := x.source(s.kind, s.at, s.payload)
			if isNew {
				x.r = x.newReader(src, s.key)
			} else {
				x.marking(equiv.MechReuse, func() { x.resetReader(src, s.key) })
			}
			return
		}
		x.sk = newSink(s.kind, s.at, x.impl, x.a.harness())
		if isNew {
			x.w = x.newWriter(x.sk, s.key)
		} else {
			x.marking(equiv.MechReuse, func() { x.note(cWReset); x.w.Reset(x.sk, s.key) })
		}
	})
}

// call makes one Read of a drawn size, or one Write of drawn octets
// (retried after an error the stream survives, as in a streamed case).
func (m *machine) call(t *rapid.T) {
	size := rapid.OneOf(rapid.IntRange(0, 8), rapid.IntRange(0, maxFrame)).Draw(t, "size")
	last := 0
	if len(m.ends) > 0 {
		last = m.ends[len(m.ends)-1]
	}
	if m.fn == "MaskReader" {
		m.steps = append(m.steps, fmt.Sprintf("Read(%d)", size))
		m.both(func(x *stream) { x.read(size) })
		m.ends = append(m.ends, min(last+size, len(m.frame.payload)))
		return
	}
	b := rapid.SliceOfN(rapid.Byte(), size, size).Draw(t, "b")
	m.frame.payload = append(m.frame.payload[:len(m.frame.payload):len(m.frame.payload)], b...)
	m.steps = append(m.steps, fmt.Sprintf("Write(%d)", size))
	m.both(func(x *stream) { x.writeOut(b) })
	m.ends = append(m.ends, len(m.frame.payload))
}

// machineFailure reports a failed step. If the payload since the last
// New or Reset, in calls ending where the machine's did, fails as a
// streamed case on a new streamer, that case's minimized counterexample is
// reported, since it replays as a fuzz input; else the steps are the only
// reproduction, and the counterexample has no fuzz form.
func (c *checker) machineFailure(m *machine, got, want string) *equiv.Counterexample {
	s := m.frame
	s.cuts = nil
	for _, e := range m.ends {
		if e < len(s.payload) {
			s.cuts = append(s.cuts, e)
		}
	}
	if ce, _ := c.checkStream(s, m.impl.a); ce != nil {
		return ce
	}
	ce := s.failure(got, want, m.impl.t.p)
	ce.Args += " steps=" + strings.Join(m.steps, ",")
	ce.FuzzArgs = nil
	return ce
}
