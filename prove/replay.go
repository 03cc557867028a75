package prove

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/prove/internal/symex"
	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// counterexample turns the solver's model (the inputs' values, in the
// order of vars) into a counterexample: checked against the formula with
// the prover's own evaluator, replayed on the compiled code, minimized
// there, and described.
func (p *proof) counterexample(vals []uint64, differ *term.Term, refOuts, implOuts []symex.Outcome) (*equiv.Counterexample, error) {
	vars := p.vars()
	assign := make(map[*term.Term]uint64, len(vars))
	for i, v := range vars {
		assign[v] = vals[i]
	}
	if !term.NewEval(assign).Bool(differ) {
		return nil, p.r.Errorf("%s, size %d: the solver's model does not satisfy the formula it was given: %w", p.m.cfg.fn, p.n, ErrProver)
	}
	rts, err := p.goTypes()
	if err != nil {
		return nil, p.r.Errorf("%s, size %d: a counterexample, which cannot be built as Go values: %v", p.m.cfg.fn, p.n, err)
	}
	in, err := p.goValues(vals, rts)
	if err != nil {
		return nil, p.r.Errorf("%s, size %d: a counterexample, which cannot be built as Go values: %v", p.m.cfg.fn, p.n, err)
	}
	ce, replayed := p.replay(in)
	if !replayed {
		// Nothing to replay on: the executor's view is all there is.
		ce = p.executorView(assign, refOuts, implOuts)
		ce.Got += " (from the prover; not replayed on compiled code)"
	} else if ce == nil {
		ev := p.executorView(assign, refOuts, implOuts)
		return nil, p.r.Errorf("%s, size %d: the solver's counterexample does not replay on the compiled code: input %v: the executor has %s, want %s: %w",
			p.m.cfg.fn, p.n, in, ev.Got, ev.Want, ErrProver)
	} else {
		vals, ce = p.minimize(vals, rts, ce)
		in, _ = p.goValues(vals, rts)
	}
	p.describe(ce, in)
	return ce, nil
}

// goTypes returns the Go types of the free parameters: the function
// value's, or made from the parameters' types.
func (p *proof) goTypes() ([]reflect.Type, error) {
	out := make([]reflect.Type, len(p.inputs))
	for i, in := range p.inputs {
		switch {
		case p.impl.f.Value != nil && !p.impl.f.Factory:
			out[i] = reflect.TypeOf(p.impl.f.Value).In(p.impl.at[i])
		case p.ref.f.Value != nil && !p.ref.f.Factory:
			out[i] = reflect.TypeOf(p.ref.f.Value).In(p.ref.at[i])
		default:
			rt, err := goType(in.typ)
			if err != nil {
				return nil, err
			}
			out[i] = rt
		}
	}
	return out, nil
}

// replay runs the input on the compiled code (Confirm, or both function
// values) and returns the disagreement, nil if they agree; replayed is
// false where there is nothing to run.
func (p *proof) replay(in []any) (ce *equiv.Counterexample, replayed bool) {
	if p.m.cfg.confirm != nil {
		return p.m.cfg.confirm(cloneAll(in)), true
	}
	if p.ref.f.Value == nil || p.impl.f.Value == nil || p.ref.f.Factory || p.impl.f.Factory {
		return nil, false
	}
	want := p.call(p.ref, in)
	got := p.call(p.impl, in)
	if p.agree(got, want) {
		return nil, true
	}
	g, w := p.differences(got, want)
	return &equiv.Counterexample{Got: g, Want: w, Stack: got.stack}, true
}

// differences renders what two calls did where they differ: their
// results, or a panic, then each input left different.
func (p *proof) differences(got, want call) (string, string) {
	if got.panicked || want.panicked {
		return got.String(), want.String()
	}
	var g, w []string
	results := func(c call) string {
		if len(c.results) == 1 {
			return c.results[0]
		}
		return "(" + strings.Join(c.results, ", ") + ")"
	}
	if rg, rw := results(got), results(want); rg != rw || len(got.results) > 0 {
		g, w = append(g, rg), append(w, rw)
	}
	for i, in := range p.inputs {
		if got.inputs[i] != want.inputs[i] {
			g = append(g, in.name+" after: "+got.inputs[i])
			w = append(w, in.name+" after: "+want.inputs[i])
		}
	}
	return strings.Join(g, "; "), strings.Join(w, "; ")
}

// run is what a compiled call did: its results and its inputs after, or
// its panic.
type call struct {
	results, inputs []string
	panicked        bool
	value           any
	stack           string
}

func (c call) String() string {
	if c.panicked {
		return fmt.Sprintf("panic(%v)", c.value)
	}
	s := strings.Join(c.results, ", ")
	if len(c.results) != 1 {
		s = "(" + s + ")"
	}
	return s
}

func (p *proof) call(s side, in []any) (c call) {
	fv := reflect.ValueOf(s.f.Value)
	var bound []any
	if s.f.Args != nil {
		bound = s.f.Args()
	}
	mine := cloneAll(in)
	args := make([]reflect.Value, fv.Type().NumIn())
	for i := range args {
		if i < len(bound) && bound[i] != Free {
			args[i] = reflect.ValueOf(bound[i])
		}
	}
	for i, at := range s.at {
		args[at] = reflect.ValueOf(mine[i])
	}
	func() {
		defer func() {
			if v := recover(); v != nil {
				c.panicked, c.value, c.stack = true, v, string(debug.Stack())
			}
		}()
		for _, r := range fv.Call(args) {
			c.results = append(c.results, symex.RenderGo(r))
		}
	}()
	for _, a := range mine {
		c.inputs = append(c.inputs, symex.RenderGo(whole(reflect.ValueOf(a))))
	}
	return c
}

// whole is v, or for a slice all of its capacity: an input's spare
// capacity is compared after the call too.
func whole(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Slice && !v.IsNil() {
		return v.Slice3(0, v.Cap(), v.Cap())
	}
	return v
}

// agree compares two compiled calls as the proof compares outcomes.
func (p *proof) agree(got, want call) bool {
	switch {
	case got.panicked && want.panicked:
		return !p.m.cfg.panics || panicText(got.value) == panicText(want.value)
	case got.panicked || want.panicked:
		return false
	}
	return fmt.Sprint(got.results, got.inputs) == fmt.Sprint(want.results, want.inputs)
}

// panicText is a panic's value, a runtime error by its kind alone.
func panicText(v any) string {
	if e, ok := v.(runtime.Error); ok {
		msg := e.Error()
		for _, kind := range []string{"index out of range", "slice bounds out of range", "nil pointer dereference",
			"integer divide by zero", "negative shift amount"} {
			if strings.Contains(msg, kind) {
				return kind
			}
		}
		return msg
	}
	return fmt.Sprint(v)
}

// minimize sets each input variable to zero where the counterexample
// survives it, replaying on the compiled code, within a second.
func (p *proof) minimize(vals []uint64, rts []reflect.Type, ce *equiv.Counterexample) ([]uint64, *equiv.Counterexample) {
	deadline := time.Now().Add(time.Second)
	vals = append([]uint64(nil), vals...)
	for i := range vals {
		if vals[i] == 0 || time.Now().After(deadline) {
			continue
		}
		old := vals[i]
		vals[i] = 0
		in, err := p.goValues(vals, rts)
		if err != nil {
			vals[i] = old
			continue
		}
		if c, _ := p.replay(in); c != nil {
			ce = c
		} else {
			vals[i] = old
		}
	}
	return vals, ce
}

// executorView renders what the executor computed on the input: the
// outcomes both functions' guards choose.
func (p *proof) executorView(assign map[*term.Term]uint64, refOuts, implOuts []symex.Outcome) *equiv.Counterexample {
	ev := term.NewEval(assign)
	render := func(outs []symex.Outcome) string {
		for _, o := range outs {
			if !ev.Bool(o.Guard) {
				continue
			}
			switch {
			case o.Panic != nil:
				return fmt.Sprintf("panic(%s at %s)", o.Panic.Kind, o.Panic.Pos)
			case o.Unsupported != nil:
				return o.Unsupported.Error()
			}
			var parts []string
			for i, r := range o.Results {
				parts = append(parts, p.w.Render(r, p.ref.results.At(i).Type(), o.Heap, ev))
			}
			var ins []string
			for _, in := range p.inputs {
				v := in.val
				if sl, ok := v.(symex.Slice); ok {
					sl.Len = sl.Cap // with the spare capacity, which is compared
					v = sl
				}
				ins = append(ins, p.w.Render(v, in.typ, o.Heap, ev))
			}
			return "(" + strings.Join(parts, ", ") + ") with inputs after " + strings.Join(ins, ", ")
		}
		return "no outcome"
	}
	return &equiv.Counterexample{Got: render(implOuts), Want: render(refOuts)}
}

// describe fills in the counterexample's coordinates: its function, input
// and arguments, and its fuzz-target form.
func (p *proof) describe(ce *equiv.Counterexample, in []any) {
	ce.Func = p.m.cfg.fn
	if p.m.cfg.describe != nil {
		ce.Input, ce.Args = p.m.cfg.describe(in)
	} else {
		ce.Input, ce.Args = defaultDescribe(p.inputs, in)
	}
	if ce.Input == nil {
		ce.Input = []byte{}
	}
	if p.m.cfg.fuzz != nil {
		ce.FuzzTarget, ce.FuzzArgs = p.m.cfg.fuzz(cloneAll(in))
	}
}

// defaultDescribe shows the first []byte parameter as the input and the
// others as name=value.
func defaultDescribe(inputs []*input, in []any) ([]byte, string) {
	var data []byte
	var args []string
	for i, v := range in {
		if b, ok := v.([]byte); ok && data == nil {
			data = b
			continue
		}
		switch x := v.(type) {
		case []byte:
			args = append(args, fmt.Sprintf("%s=%x", inputs[i].name, x))
		default:
			if rv := reflect.ValueOf(v); rv.Kind() == reflect.Array && rv.Type().Elem().Kind() == reflect.Uint8 {
				args = append(args, fmt.Sprintf("%s=%x", inputs[i].name, v))
			} else {
				args = append(args, fmt.Sprintf("%s=%v", inputs[i].name, v))
			}
		}
	}
	return data, strings.Join(args, " ")
}

// cloneAll copies the inputs' slices and pointed-at values, so that a
// call cannot change them for the next.
func cloneAll(in []any) []any {
	out := make([]any, len(in))
	for i, v := range in {
		out[i] = cloneValue(reflect.ValueOf(v)).Interface()
	}
	return out
}

func cloneValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Cap())
		reflect.Copy(c.Slice(0, v.Cap()), v.Slice3(0, v.Cap(), v.Cap()))
		return c
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(v.Elem())
		return c
	}
	return v
}
