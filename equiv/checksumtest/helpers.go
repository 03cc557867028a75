package checksumtest

import (
	"bytes"
	"fmt"
	"net/netip"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// The helpers around the sum: Combine, Put, PseudoHeaderSum and the UDP
// rules (FinishUDP, UpdateUDP, UpdateUDP6, VerifyUDP). Each is compared
// with reference/checksum's function of the same name, one call at a time,
// like Sum and Update.

// combine, put, pseudo, finishUDP, updateUDP, verifyUDP compare one call of
// the function they name (a nil optional function is not compared) and
// return the minimized counterexample if the implementation disagrees.
func (c *checker) combine(sum, next uint16, offset int) *equiv.Counterexample {
	return c.compare(site{}, Input{Func: "Combine", Initial: sum, Value: next, Offset: offset})
}

func (c *checker) put(s site, data []byte, v uint16) *equiv.Counterexample {
	return c.compare(s, Input{Func: "Put", Data: data, Value: v})
}

func (c *checker) pseudo(src, dst netip.Addr, proto uint8, length uint32) *equiv.Counterexample {
	return c.compare(site{}, Input{Func: "PseudoHeaderSum", Src: src, Dst: dst, Proto: proto, Length: length})
}

func (c *checker) finishUDP(sum uint16) *equiv.Counterexample {
	return c.compare(site{}, Input{Func: "FinishUDP", Initial: sum})
}

// updateUDP compares both UpdateUDP and UpdateUDP6 on one triple.
func (c *checker) updateUDP(checksum, old, new uint16) *equiv.Counterexample {
	u := [3]uint16{checksum, old, new}
	if ce := c.compare(site{}, Input{Func: "UpdateUDP", Update: u}); ce != nil {
		return ce
	}
	return c.compare(site{}, Input{Func: "UpdateUDP6", Update: u})
}

func (c *checker) verifyUDP(s site, src, dst netip.Addr, segment []byte) *equiv.Counterexample {
	return c.compare(s, Input{Func: "VerifyUDP", Src: src, Dst: dst, Data: segment})
}

// hasHelper reports whether the implementation provides the helper fn.
func (c *checker) hasHelper(fn string) bool {
	switch fn {
	case "Combine":
		return c.impl.Combine != nil
	case "Put":
		return c.impl.Put != nil
	case "PseudoHeaderSum":
		return c.impl.PseudoHeaderSum != nil
	case "FinishUDP":
		return c.impl.FinishUDP != nil
	case "UpdateUDP":
		return c.impl.UpdateUDP != nil
	case "UpdateUDP6":
		return c.impl.UpdateUDP6 != nil
	case "VerifyUDP":
		return c.impl.VerifyUDP != nil
	}
	return false
}

// sumOK is the result of PseudoHeaderSum and UpdateUDP6.
type sumOK struct {
	sum uint16
	ok  bool
}

func (r sumOK) String() string { return fmt.Sprintf("%#04x, %v", r.sum, r.ok) }

// word formats a 16-bit result.
type word uint16

func (w word) String() string { return fmt.Sprintf("%#04x", uint16(w)) }

// callHelper runs the helper in.Func on in (at s, if it takes a buffer)
// and returns the disagreement, not minimized, or nil.
func (c *checker) callHelper(s site, in Input) *equiv.Counterexample {
	im, u := c.impl, in.Update
	switch in.Func {
	case "Combine":
		return callValue(c, s, in, func() word { return word(im.Combine(in.Initial, in.Value, in.Offset)) },
			word(ref.Combine(in.Initial, in.Value, in.Offset)))
	case "FinishUDP":
		return callValue(c, s, in, func() word { return word(im.FinishUDP(in.Initial)) }, word(ref.FinishUDP(in.Initial)))
	case "UpdateUDP":
		return callValue(c, s, in, func() word { return word(im.UpdateUDP(u[0], u[1], u[2])) },
			word(ref.UpdateUDP(u[0], u[1], u[2])))
	case "UpdateUDP6":
		want, wantOK := ref.UpdateUDP6(u[0], u[1], u[2])
		return callValue(c, s, in, func() sumOK { v, ok := im.UpdateUDP6(u[0], u[1], u[2]); return sumOK{v, ok} },
			sumOK{want, wantOK})
	case "PseudoHeaderSum":
		want, wantOK := ref.PseudoHeaderSum(in.Src, in.Dst, in.Proto, in.Length)
		return callValue(c, s, in, func() sumOK {
			v, ok := im.PseudoHeaderSum(in.Src, in.Dst, in.Proto, in.Length)
			return sumOK{v, ok}
		}, sumOK{want, wantOK})
	case "Put":
		return c.callPut(s, in)
	case "VerifyUDP":
		return c.callVerify(s, in)
	}
	panic("checksumtest: no function " + in.Func)
}

// callValue calls got, which computes a helper's result from values alone,
// and judges it against want: it must not panic (the reference never does)
// and must return want.
func callValue[T interface {
	comparable
	fmt.Stringer
}](c *checker, s site, in Input, got func() T, want T) *equiv.Counterexample {
	var g T
	c.h.Note(contract(in.Func))
	p := equiv.Catch(func() { g = got() })
	if c.cfg.SamePanic(equiv.PanicValue(p), nil) && g == want {
		return nil
	}
	return mismatch(s, in, g.String(), want.String(), p)
}

// callPut calls Put on the copy of in.Data at s and judges what it reports
// and writes against the reference's Put on another copy: it must report
// the same, leave b exactly as the reference leaves it (nothing written if
// b is short), and write nothing outside b[0:2] (placed with the rest of b
// and its spare capacity on read-only pages where the alignment allows).
func (c *checker) callPut(s site, in Input) *equiv.Counterexample {
	want := bytes.Clone(in.Data)
	wantOK := ref.Put(want, in.Value)
	k := c.h.Call(cPut)
	defer k.End()
	var b []byte
	if s.g == nil {
		b = k.Prefix(0, in.Data, s.align, 2)
	} else {
		b = c.flush(k, s, in.Data)
	}
	var ok bool
	p := k.Do(func() { ok = c.impl.Put(b, in.Value) })
	bad := ""
	switch {
	case !c.cfg.SamePanic(equiv.PanicValue(p), nil), ok != wantOK, !bytes.Equal(b, want):
		// The result is wrong: no more to say.
	default:
		if bad = flaw(k, s); bad == "" {
			return nil
		}
	}
	return mismatch(s, in, fmt.Sprintf("%v, b = %x%s", ok, b, bad), fmt.Sprintf("%v, b = %x", wantOK, want), p)
}

// callVerify calls VerifyUDP on the copy of in.Data at s: it must return
// the reference's verdict and leave its input and the memory around it
// alone.
func (c *checker) callVerify(s site, in Input) *equiv.Counterexample {
	want := ref.VerifyUDP(in.Src, in.Dst, in.Data)
	k := c.h.Call(cVerify)
	defer k.End()
	b := c.input(k, s, in.Data)
	var got bool
	p := k.Do(func() { got = c.impl.VerifyUDP(in.Src, in.Dst, b) })
	bad := ""
	switch {
	case !c.cfg.SamePanic(equiv.PanicValue(p), nil), got != want:
	case s.g != nil && !bytes.Equal(b, in.Data):
		bad = " but modified segment"
	default:
		if bad = flaw(k, s); bad == "" {
			return nil
		}
	}
	return mismatch(s, in, fmt.Sprintf("%v%s", got, bad), fmt.Sprint(want), p)
}

// helperArgs renders the coordinates of a helper's input at s, other than
// Data.
func (in Input) helperArgs(s site) string {
	switch in.Func {
	case "Combine":
		return fmt.Sprintf("sum=%#04x next=%#04x offset=%d", in.Initial, in.Value, in.Offset)
	case "FinishUDP":
		return fmt.Sprintf("sum=%#04x", in.Initial)
	case "Put":
		return fmt.Sprintf("c=%#04x %s", in.Value, in.layout(s))
	case "PseudoHeaderSum":
		return fmt.Sprintf("src=%s dst=%s proto=%d length=%#x", addrString(in.Src), addrString(in.Dst), in.Proto, in.Length)
	case "VerifyUDP":
		return fmt.Sprintf("src=%s dst=%s %s", addrString(in.Src), addrString(in.Dst), in.layout(s))
	}
	return ""
}

// addrString is a's text form, with a word for the zero Addr.
func addrString(a netip.Addr) string {
	if !a.IsValid() {
		return "(zero Addr)"
	}
	return a.String()
}

// helperPlan is the plan that replays a helper's input: its values in the
// plan's helper section, after a zero update triple where in has none.
func (in Input) helperPlan() plan {
	p := plan{align: in.Align, update: &[3]uint16{}, words: &wordArgs{}}
	switch in.Func {
	case "Combine":
		p.words = &wordArgs{next: in.Value, offset: in.Offset}
	case "Put":
		p.words.next = in.Value
	case "UpdateUDP", "UpdateUDP6":
		p.update = &in.Update
	case "PseudoHeaderSum", "VerifyUDP":
		p.addrs = &addrArgs{src: in.Src, dst: in.Dst, proto: in.Proto, length: in.Length}
	}
	return p
}

// shrinkValues simplifies the values of a Combine, FinishUDP or
// PseudoHeaderSum input that the failure does not need: each value in turn
// is set to zero (an address to the unspecified one of its family, which
// keeps the family, the offset to its parity), as long as in still fails.
func shrinkValues(in Input, fails func(Input) bool) Input {
	try := func(change func(*Input)) {
		t := in
		change(&t)
		if fails(t) {
			in = t
		}
	}
	try(func(t *Input) { t.Initial = 0 })
	try(func(t *Input) { t.Value = 0 })
	try(func(t *Input) { t.Offset &= 1 })
	try(func(t *Input) { t.Src = unspecified(t.Src) })
	try(func(t *Input) { t.Dst = unspecified(t.Dst) })
	try(func(t *Input) { t.Proto = 0 })
	try(func(t *Input) { t.Length &= 0xffff })
	try(func(t *Input) { t.Length = 0 })
	return in
}
