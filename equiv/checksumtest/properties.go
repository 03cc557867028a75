package checksumtest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// runProperties runs rapid (Sum on generated inputs, the Digest as a state
// machine against the reference's, and the helpers) and gopter (algebraic
// laws of the implementation alone). c counts nothing: Property and Law count cases.
func runProperties(c *checker, r *equiv.Run) error {
	checks := equiv.Pick(r, 300, 3000, 30000)
	if c.impl.Sum != nil {
		for _, sc := range sizeClasses {
			r.Expect(sc.name) // reached by the Sum property's draws
		}
	}
	// Bytes biased towards the carry-heavy ones.
	byteGen := rapid.OneOf(rapid.Byte(), rapid.SampledFrom([]byte{0x00, 0xff, 0x80, 0x7f, 0x01}))
	if c.impl.Sum != nil {
		sum := func(t *rapid.T) error {
			initial := rapid.OneOf(rapid.Uint16(), rapid.SampledFrom(initials)).Draw(t, "initial")
			data := drawData(r, t, byteGen, len(sizeClasses), initial)
			align := rapid.IntRange(0, 63).Draw(t, "align")
			if ce := c.sum(aligned(align), data, initial); ce != nil {
				return ce
			}
			return nil
		}
		if err := r.Property("Sum", checks, sum); err != nil {
			return err
		}
	}
	if c.impl.New != nil {
		if err := r.Property("Digest state machine", checks/3, func(t *rapid.T) error {
			return c.digestMachine(r, t, byteGen)
		}); err != nil {
			return err
		}
	}
	if err := runHelperProperties(c, r, checks, byteGen); err != nil {
		return err
	}
	for _, l := range c.laws() {
		if err := r.Law(l.name, checks, l.prop); err != nil {
			return err
		}
	}
	return nil
}

// sizeClasses are the length classes the properties draw from, each
// first, so that every class is reached by construction (rapid's
// SliceOfN(gen, 0, max) averages about 5 elements whatever max is): below
// and above the 20- and 32-byte paths of the short-input code, the
// 64-byte vector threshold, the 128- and 256-byte strides, and whole
// multi-block inputs to 16 KiB.
var sizeClasses = []struct {
	name   string
	lo, hi int
}{
	{"len=0..7", 0, 7},
	{"len=8..63", 8, 63},
	{"len=64..127", 64, 127},
	{"len=128..256", 128, 256},
	{"len=257..1024", 257, 1024},
	{"len=2KiB..3KiB", 2048, 3072},
	{"len=3KiB..16KiB", 3073, 16384},
}

// writeClasses is how many of sizeClasses a Digest write draws from (to
// 256 bytes).
const writeClasses = 4

// rawMax is the longest input drawn byte by byte (so that rapid shrinks
// it byte by byte); longer ones are a content class filled from a drawn
// seed, a few draws however long.
const rawMax = 64

// drawData draws a size class among the first k of sizeClasses, a length
// in it, then the bytes (or, past rawMax, a content class and a seed to
// fill them with, initial being the one the content is built for), and
// records the class reached.
func drawData(r *equiv.Run, t *rapid.T, byteGen *rapid.Generator[byte], k int, initial uint16) []byte {
	sc := sizeClasses[rapid.IntRange(0, k-1).Draw(t, "size class")]
	n := rapid.IntRange(sc.lo, sc.hi).Draw(t, "len")
	r.Reach(sc.name)
	if n <= rawMax {
		return rapid.SliceOfN(byteGen, n, n).Draw(t, "data")
	}
	ct := contents[rapid.IntRange(0, len(contents)-1).Draw(t, "content")]
	seed := rapid.Uint64().Draw(t, "seed")
	b := make([]byte, n)
	ct.fill(rand.New(rand.NewPCG(seed, 0)), b, initial)
	return b
}

// machine is the Digest as a state machine: the implementation's Digest
// and the reference's, given the same actions.
type machine struct {
	c      *checker // whose harness places each Write's p
	d      Digest
	model  *ref.Digest
	since  []byte   // bytes written since the last Reset
	splits []int    // where the writes since the last Reset ended
	steps  []string // the actions so far, for the counterexample
}

// maxSteps bounds the actions of one case; rapid's Repeat averages 30.
const maxSteps = 60

// digestMachine draws a number of steps, then an action per step (Write of
// a drawn slice, Reset, or Sum), and after each compares what the action
// returned and Sum16 with the reference's, unless the bytes written since
// the last Reset are out of scope.
func (c *checker) digestMachine(r *equiv.Run, t *rapid.T, byteGen *rapid.Generator[byte]) error {
	m := &machine{model: ref.New(), c: c}
	if p := equiv.Catch(func() { m.d = c.newDigest() }); p != nil {
		return mismatch(site{}, m.input(), "", "a Digest", p)
	}
	for range rapid.IntRange(0, maxSteps).Draw(t, "steps") {
		action := rapid.SampledFrom([]string{"Write", "Reset", "Sum"}).Draw(t, "action")
		var data []byte
		if action == "Write" {
			data = drawData(r, t, byteGen, writeClasses, 0)
		}
		var problem string
		p := equiv.Catch(func() { problem = m.step(action, data) })
		if equiv.Excluded(c.cfg, m.input()) {
			if p != nil {
				return nil // the Digest's state is unknown after a panic
			}
			continue
		}
		if problem != "" || !c.cfg.SamePanic(equiv.PanicValue(p), nil) {
			return c.machineFailure(m, problem, p)
		}
	}
	return nil
}

// step performs action (writing data, for "Write") on both Digests and
// describes the first difference in what they return, then in Sum16, or
// returns "".
func (m *machine) step(action string, data []byte) string {
	switch action {
	case "Write":
		m.steps = append(m.steps, fmt.Sprintf("Write(%d)", len(data)))
		if len(m.since) > 0 {
			m.splits = append(m.splits, len(m.since))
		}
		m.since = append(m.since, data...)
		m.model.Write(data)
		if p := m.write(data); p != "" {
			return p
		}
	case "Reset":
		m.steps = append(m.steps, action)
		m.since, m.splits = m.since[:0], m.splits[:0]
		m.c.h.Note(cReset)
		m.d.Reset()
		m.model.Reset()
	case "Sum":
		m.steps = append(m.steps, action)
		m.c.h.Note(cDigestSum)
		if got, want := m.d.Sum(nil), m.model.Sum(nil); !bytes.Equal(got, want) {
			return fmt.Sprintf("Sum(nil) = %x, want %x", got, want)
		}
	}
	if got := m.c.sum16(m.d); got != m.model.Sum16() {
		return fmt.Sprintf("Sum16() = %#04x", got)
	}
	return ""
}

// write writes data to the Digest, placed by the harness at an alignment
// that moves with the steps, and describes a wrong count or a memory
// flaw, or returns "".
func (m *machine) write(data []byte) string {
	k := m.c.h.Call(cWrite)
	defer k.End()
	p := k.Bytes(0, data, len(m.steps)*7&63)
	if n, err := m.d.Write(p); n != len(data) || err != nil {
		return fmt.Sprintf("Write(%d bytes) = %d, %v", len(data), n, err)
	}
	if f := k.Flaw(); f != "" {
		return fmt.Sprintf("Write(%d bytes %s) %s", len(data), k.Layout(0), f)
	}
	return ""
}

// input is what the Digest was fed since the last Reset.
func (m *machine) input() Input {
	return Input{Func: "Digest", Data: m.since, Splits: m.splits}
}

// machineFailure reports a failed step. If the same bytes in the same
// writes fail the plain Digest check, that check's minimized counterexample
// is reported, since it replays as a fuzz input; else the step sequence is
// the only reproduction, and the counterexample has no fuzz form.
func (c *checker) machineFailure(m *machine, problem string, p *equiv.Panic) *equiv.Counterexample {
	in := Input{Func: "Digest", Data: bytes.Clone(m.since), Splits: slices.Clone(m.splits)}
	if ce := c.call(aligned(0), in); ce != nil {
		return c.minimize(aligned(0), in, ce)
	}
	ce := mismatch(site{}, in, problem, fmt.Sprintf("Sum16() = %#04x", m.model.Sum16()), p)
	ce.Args += " steps=" + strings.Join(m.steps, ",")
	ce.FuzzArgs = nil
	return ce
}
