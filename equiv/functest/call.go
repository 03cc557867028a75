package functest

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv"
)

// checker compares the implementation with the reference, one input at a
// time. Every method run and every fuzz input builds its own.
type checker struct {
	s     *spec
	cfg   *equiv.Config
	h     *equiv.Harness // places the implementation's buffers as the contract says
	fresh *equiv.Harness // another, whose buffers lie elsewhere (reused)
	count func(int)
}

func newChecker(s *spec, cfg *equiv.Config, count func(int)) *checker {
	return &checker{s: s, cfg: cfg, h: equiv.NewHarness(cfg), count: count}
}

func (c *checker) release() {
	c.h.Release()
	if c.fresh != nil {
		c.fresh.Release()
	}
}

// input is args as an Exclude function sees them.
func (s *spec) input(args []reflect.Value) Input {
	in := Input{Func: s.name, Args: make([]any, len(args))}
	for i, a := range args {
		if s.params[i].kind == kReader {
			in.Args[i] = ReaderArg(a.Interface().(readerArg))
			continue
		}
		if s.params[i].kind == kWriter {
			in.Args[i] = WriterArg(a.Interface().(writerArg))
			continue
		}
		in.Args[i] = a.Interface()
	}
	return in
}

// compare checks args with the implementation's buffers at align: unless
// they are out of scope, it counts them, calls both functions and, on a
// disagreement, minimizes them; now and then it checks them again with
// other contents at the same addresses (equiv.Again).
func (c *checker) compare(args []reflect.Value, align int) *equiv.Counterexample {
	if equiv.Excluded(c.cfg, c.s.input(args)) {
		return nil
	}
	if c.count != nil {
		c.count(1)
	}
	if ce := c.call(args, align); ce != nil {
		return c.minimize(args, align, ce)
	}
	ce, again := equiv.Again(c.h, args, c.s.vary, func(v []reflect.Value) *equiv.Counterexample { return c.call(v, align) })
	if again && c.count != nil {
		c.count(1)
	}
	if ce == nil {
		return nil
	}
	v, _ := c.s.vary(args)
	if c.fresh == nil {
		c.fresh = equiv.NewHarness(c.cfg)
	}
	c.h, c.fresh = c.fresh, c.h
	alone := c.call(v, align)
	c.h, c.fresh = c.fresh, c.h
	if alone != nil {
		return c.minimize(v, align, alone)
	}
	ce.Args += " (at the addresses where the input before it had just passed: the same call with other contents)"
	ce.FuzzTarget, ce.FuzzArgs = "", nil
	return ce
}

// vary returns args with every []byte, string and reader content
// complemented octet by octet, the rest unchanged, or false if there is no
// such argument to change.
func (s *spec) vary(args []reflect.Value) ([]reflect.Value, bool) {
	out := make([]reflect.Value, len(args))
	changed := false
	for i, a := range args {
		out[i] = a
		switch p := s.params[i]; p.kind {
		case kBytes, kString:
			if a.Len() > 0 {
				out[i], changed = p.fromBytes(complement(octets(a))), true
			}
		case kReader:
			r := a.Interface().(readerArg)
			if len(r.Data) > 0 {
				r.Data = complement(r.Data)
				out[i], changed = reflect.ValueOf(r), true
			}
		}
	}
	return out, changed
}

func complement(b []byte) []byte {
	out := make([]byte, len(b))
	for i, v := range b {
		out[i] = ^v
	}
	return out
}

// octets returns the octets of v, a []byte or string value.
func octets(v reflect.Value) []byte {
	if v.Kind() == reflect.String {
		return []byte(v.String())
	}
	return v.Bytes()
}

// outcome is what one call returned: its results (nil if it panicked),
// its panic, the final contents of its Writes parameters, and what its
// writers accepted.
type outcome struct {
	results []reflect.Value
	panic   *equiv.Panic
	written [][]byte
	wrote   [][]byte
}

// call runs the reference and the implementation on args and returns
// their disagreement, not minimized, or nil.
func (c *checker) call(args []reflect.Value, align int) *equiv.Counterexample {
	want := c.callRef(args)
	k := c.h.Call(&c.s.contract)
	defer k.End()
	implArgs, writers := c.place(k, args, align, want)
	var got outcome
	got.panic = k.Do(func() { got.results = c.s.impl.Call(implArgs) })
	for i, p := range c.s.params {
		switch {
		case p.kind == kBytes && p.access == equiv.Writes:
			got.written = append(got.written, bytes.Clone(implArgs[i].Bytes()))
		case p.kind == kWriter:
			got.wrote = append(got.wrote, bytes.Clone(writers[i].Bytes()))
		}
	}
	problem := c.differ(got, want)
	if problem == "" {
		problem = c.keep(k, implArgs, got)
	}
	if problem == "" {
		if f := k.Flaw(); f != "" {
			problem = " but " + f
		}
	}
	if problem == "" {
		return nil
	}
	ce := c.s.counterexample(args, c.s.formatOutcome(got)+strings.TrimRight(problem, " "), c.s.formatOutcome(want), got.panic)
	ce.FuzzArgs = []any{c.s.encodeArgs(args, align)}
	if ps := c.s.contract.Params; len(ps) > 0 && ps[0].Access != equiv.ReadsFrom && ps[0].Access != equiv.WritesTo {
		lay := k.Layout(0)   // the first slice's, as placed
		lay.ReadOnly = false // as the contract says
		ce.Args = strings.TrimSpace(ce.Args + " " + lay.String())
	}
	return ce
}

// callRef calls the reference on fresh copies of args.
func (c *checker) callRef(args []reflect.Value) outcome {
	refArgs := make([]reflect.Value, len(args))
	var writers []*recorder
	for i, p := range c.s.params {
		switch p.kind {
		case kBytes:
			refArgs[i] = args[i]
			if !args[i].IsNil() {
				refArgs[i] = reflect.ValueOf(bytes.Clone(args[i].Bytes())).Convert(p.t)
			}
		case kReader:
			refArgs[i] = reflect.ValueOf(args[i].Interface().(readerArg).reader())
		case kWriter:
			w := args[i].Interface().(writerArg).writer()
			writers = append(writers, w)
			refArgs[i] = reflect.ValueOf(w)
		default:
			refArgs[i] = args[i]
		}
	}
	var out outcome
	out.panic = equiv.Catch(func() { out.results = c.s.ref.Call(refArgs) })
	for i, p := range c.s.params {
		if p.kind == kBytes && p.access == equiv.Writes {
			out.written = append(out.written, bytes.Clone(refArgs[i].Bytes()))
		}
	}
	for _, w := range writers {
		out.wrote = append(out.wrote, bytes.Clone(w.Bytes()))
	}
	return out
}

// place builds the implementation's arguments: each []byte and string
// placed by the harness at align as the contract says (an append with the
// room for what the reference appended), readers and writers fresh.
func (c *checker) place(k *equiv.Call, args []reflect.Value, align int, want outcome) ([]reflect.Value, []*recorder) {
	out := make([]reflect.Value, len(args))
	writers := make([]*recorder, len(args))
	for i, p := range c.s.params {
		switch p.kind {
		case kBytes:
			out[i] = reflect.ValueOf(c.placeBytes(k, i, args[i], align, want)).Convert(p.t)
		case kString:
			b := k.Bytes(c.s.slot(i), []byte(args[i].String()), align)
			out[i] = reflect.ValueOf(unsafe.String(unsafe.SliceData(b), len(b))).Convert(p.t)
		case kReader:
			r := args[i].Interface().(readerArg)
			if r.Kind != 0 {
				k.Mark(equiv.MechIOEdges)
			}
			if len(r.Data) >= equiv.ScaleMin {
				k.Mark(equiv.MechScale)
			}
			out[i] = reflect.ValueOf(r.reader())
		case kWriter:
			a := args[i].Interface().(writerArg)
			if a.Kind%numWriterKinds != writerBuffer {
				k.Mark(equiv.MechIOEdges)
			}
			writers[i] = a.writer()
			out[i] = reflect.ValueOf(writers[i])
		default:
			out[i] = args[i]
		}
	}
	return out, writers
}

// placeBytes places parameter i's octets by its access.
func (c *checker) placeBytes(k *equiv.Call, i int, arg reflect.Value, align int, want outcome) []byte {
	data, slot := arg.Bytes(), c.s.slot(i)
	if c.s.params[i].access == equiv.Appends {
		w := 0
		if want.panic == nil && len(want.results) > 0 {
			w = max(want.results[0].Len()-len(data), 0)
		}
		return k.Append(slot, data, align, w)
	}
	// An empty slice is placed nil, empty or empty with room, by turns
	// (equiv.LayoutOf): a function must take them alike, as Go's do.
	return k.Bytes(slot, data, align)
}

// differ describes how got differs from want, or returns "".
func (c *checker) differ(got, want outcome) string {
	if got.panic != nil || want.panic != nil {
		if c.cfg.SamePanic(equiv.PanicValue(got.panic), equiv.PanicValue(want.panic)) {
			return ""
		}
		return " "
	}
	for i := range want.results {
		if !c.same(got.results[i], want.results[i]) {
			if len(want.results) == 1 {
				return " " // the results say how they differ
			}
			return fmt.Sprintf(" (result %d differs)", i)
		}
	}
	for i := range want.written {
		if !bytes.Equal(got.written[i], want.written[i]) {
			return " (the buffer it writes differs)"
		}
	}
	for i := range want.wrote {
		if !bytes.Equal(got.wrote[i], want.wrote[i]) {
			return " (what it wrote differs)"
		}
	}
	return ""
}

// same reports whether result got equals want: octets by content, errors
// as equiv.Config maps them (then by identity, errors.Is or their text),
// anything else deeply.
func (c *checker) same(got, want reflect.Value) bool {
	if got.Type() == errorType {
		g, w := asError(got), asError(want)
		g = c.cfg.MapError(g)
		return g == w || errors.Is(g, w) || g != nil && w != nil && g.Error() == w.Error()
	}
	if got.Kind() == reflect.Slice && got.Type().Elem().Kind() == reflect.Uint8 {
		return bytes.Equal(got.Bytes(), want.Bytes())
	}
	return reflect.DeepEqual(got.Interface(), want.Interface())
}

func asError(v reflect.Value) error {
	if v.IsNil() {
		return nil
	}
	return v.Interface().(error)
}

// keep keeps alive, for an append to a nil or full buffer (as it was
// placed), the result the caller owns (equiv.Call.Keep), and describes a
// kept result that changed since, or returns "".
func (c *checker) keep(k *equiv.Call, placed []reflect.Value, got outcome) string {
	i := c.s.appended
	if i < 0 || got.panic != nil || len(got.results) == 0 {
		return ""
	}
	in, res := placed[i], got.results[0].Bytes()
	if len(res) <= in.Len() || !in.IsNil() && in.Len() < in.Cap() {
		return "" // nothing appended (the result is the input), or room to append in place
	}
	was := bytes.Clone(res)
	ce := k.Keep(res, func(now []byte) *equiv.Counterexample {
		return &equiv.Counterexample{Got: fmt.Sprintf("an append's result %s, which became %s as later calls ran: it is not the caller's",
			equiv.HexAt(was, -1), equiv.HexAt(now, -1))}
	})
	if ce != nil {
		return " but " + ce.Got
	}
	return ""
}

// formatOutcome renders an outcome: its results, or its panic.
func (s *spec) formatOutcome(o outcome) string {
	if o.panic != nil {
		return fmt.Sprintf("panic(%v)", o.panic.Value)
	}
	var parts []string
	for _, r := range o.results {
		parts = append(parts, formatResult(r))
	}
	for _, w := range o.written {
		parts = append(parts, "buffer "+equiv.HexAt(w, -1))
	}
	for _, w := range o.wrote {
		parts = append(parts, "wrote "+equiv.HexAt(w, -1))
	}
	if len(parts) == 0 {
		return "(no result)"
	}
	return strings.Join(parts, ", ")
}

// formatResult renders one result.
func formatResult(v reflect.Value) string {
	switch {
	case v.Type() == errorType:
		return fmt.Sprint(asError(v))
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8:
		return equiv.HexAt(v.Bytes(), -1)
	case v.Kind() == reflect.String:
		return fmt.Sprintf("%q", v.String())
	case v.Kind() >= reflect.Uint && v.Kind() <= reflect.Uintptr:
		return fmt.Sprintf("%#x", v.Uint())
	}
	return fmt.Sprintf("%v", v.Interface())
}

// counterexample is the counterexample of args: its Input the first
// []byte or string argument's octets, Args the others, FuzzArgs the fuzz
// input that decodes to args.
func (s *spec) counterexample(args []reflect.Value, got, want string, p *equiv.Panic) *equiv.Counterexample {
	ce := &equiv.Counterexample{Func: s.name, Got: got, Want: want, Stack: equiv.StackOf(p),
		FuzzTarget: s.fuzzName(), FuzzArgs: []any{s.encodeArgs(args, 0)}}
	var rest []string
	for i, p := range s.params {
		if ce.Input == nil && (p.kind == kBytes || p.kind == kString) {
			ce.Input = append([]byte{}, octets(args[i])...)
			if p.kind == kBytes && args[i].IsNil() {
				rest = append(rest, p.name+"=nil")
			}
			continue
		}
		rest = append(rest, p.name+"="+p.format(args[i]))
	}
	ce.Args = strings.Join(rest, " ")
	return ce
}
