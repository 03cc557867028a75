package checksumtest

import (
	"bytes"
	"fmt"
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
	// Bytes biased towards the carry-heavy ones.
	byteGen := rapid.OneOf(rapid.Byte(), rapid.SampledFrom([]byte{0x00, 0xff, 0x80, 0x7f, 0x01}))
	if err := r.Property("Sum", checks, func(t *rapid.T) error {
		data := rapid.SliceOfN(byteGen, 0, 4*GridLen).Draw(t, "data")
		initial := rapid.OneOf(rapid.Uint16(), rapid.SampledFrom(initials)).Draw(t, "initial")
		align := rapid.IntRange(0, 63).Draw(t, "align")
		if ce := c.sum(aligned(align), data, initial); ce != nil {
			return ce
		}
		return nil
	}); err != nil {
		return err
	}
	if c.impl.New != nil {
		if err := r.Property("Digest state machine", checks/3, func(t *rapid.T) error {
			return c.digestMachine(t, byteGen)
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

// machine is the Digest as a state machine: the implementation's Digest
// and the reference's, given the same actions.
type machine struct {
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
func (c *checker) digestMachine(t *rapid.T, byteGen *rapid.Generator[byte]) error {
	m := &machine{model: ref.New()}
	if p := equiv.Catch(func() { m.d = c.impl.New() }); p != nil {
		return mismatch(site{}, m.input(), "", "a Digest", p)
	}
	for range rapid.IntRange(0, maxSteps).Draw(t, "steps") {
		action := rapid.SampledFrom([]string{"Write", "Reset", "Sum"}).Draw(t, "action")
		var data []byte
		if action == "Write" {
			data = rapid.SliceOfN(byteGen, 0, 300).Draw(t, "p")
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
		if n, err := m.d.Write(data); n != len(data) || err != nil {
			return fmt.Sprintf("Write(%d bytes) = %d, %v", len(data), n, err)
		}
	case "Reset":
		m.steps = append(m.steps, action)
		m.since, m.splits = m.since[:0], m.splits[:0]
		m.d.Reset()
		m.model.Reset()
	case "Sum":
		m.steps = append(m.steps, action)
		if got, want := m.d.Sum(nil), m.model.Sum(nil); !bytes.Equal(got, want) {
			return fmt.Sprintf("Sum(nil) = %x, want %x", got, want)
		}
	}
	if got := m.d.Sum16(); got != m.model.Sum16() {
		return fmt.Sprintf("Sum16() = %#04x", got)
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
