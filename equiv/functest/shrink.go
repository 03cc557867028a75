package functest

import (
	"net/netip"
	"reflect"

	"github.com/equivcheck/equivcheck/equiv"
)

// minimize shrinks args, on which the implementation disagreed at align
// (giving ce), to smaller arguments in scope on which it still disagrees,
// and returns their counterexample: each parameter in turn, the others
// fixed, octets with equiv.ShrinkBytes (a reader's too), integers toward
// zero, booleans to false, addresses to the zero Addr, writers to a
// buffer, arrays and structs part by part.
func (c *checker) minimize(args []reflect.Value, align int, ce *equiv.Counterexample) *equiv.Counterexample {
	args = append([]reflect.Value(nil), args...)
	fails := func(t []reflect.Value) bool {
		return !equiv.OutOfScope(c.cfg, c.s.input(t)) && c.call(t, align) != nil
	}
	for i, p := range c.s.params {
		with := func(v reflect.Value) bool {
			t := append([]reflect.Value(nil), args...)
			t[i] = v
			return fails(t)
		}
		args[i] = p.shrink(args[i], with)
	}
	if small := c.call(args, align); small != nil {
		return small
	}
	return ce // the failure did not survive minimization (it depends on state)
}

// shrink returns a simpler value than v on which fails holds, or v.
func (p *param) shrink(v reflect.Value, fails func(reflect.Value) bool) reflect.Value {
	try := func(w reflect.Value) bool {
		if fails(w) {
			v = w
			return true
		}
		return false
	}
	switch p.kind {
	case kBytes, kString:
		if p.kind == kBytes && v.IsNil() {
			return v
		}
		b := equiv.ShrinkBytes(octets(v), func(b []byte) bool { return fails(p.fromBytes(b)) })
		if w := p.fromBytes(b); fails(w) {
			v = w
		}
	case kInt, kUint:
		p.shrinkInt(v, try)
	case kBool:
		try(reflect.ValueOf(false).Convert(p.t))
	case kAddr:
		if v.Interface().(netip.Addr).IsValid() {
			try(reflect.ValueOf(netip.Addr{}))
		}
	case kReader:
		a := v.Interface().(readerArg)
		data := equiv.ShrinkBytes(a.Data, func(b []byte) bool {
			t := a
			t.Data = b
			return fails(reflect.ValueOf(t))
		})
		t := a
		t.Data = data
		if !try(reflect.ValueOf(readerArg{Data: data})) {
			try(reflect.ValueOf(t))
		}
	case kWriter:
		try(reflect.ValueOf(writerArg{}))
	case kArray, kStruct:
		for i, q := range p.parts() {
			w := reflect.New(p.t).Elem()
			w.Set(v)
			cur := p.part(w, i)
			best := q.shrink(cur, func(x reflect.Value) bool {
				t := reflect.New(p.t).Elem()
				t.Set(v)
				p.part(t, i).Set(x)
				return fails(t)
			})
			p.part(w, i).Set(best)
			v = w
		}
	}
	return v
}

// shrinkInt tries zero, then halves the distance to zero while the
// failure holds (at most 64 steps), then steps of one.
func (p *param) shrinkInt(v reflect.Value, try func(reflect.Value) bool) {
	bits := func(x reflect.Value) uint64 {
		if p.kind == kInt {
			return uint64(x.Int())
		}
		return x.Uint()
	}
	if bits(v) == 0 || try(p.fromBits(0)) {
		return
	}
	for range 64 {
		u := bits(v)
		var half uint64
		if p.kind == kInt {
			half = uint64(int64(u) / 2)
		} else {
			half = u / 2
		}
		if half == u || !try(p.fromBits(half)) {
			break
		}
	}
	for range 8 {
		u := bits(v)
		step := u - 1
		if p.kind == kInt && int64(u) < 0 {
			step = u + 1
		}
		if !try(p.fromBits(step)) {
			break
		}
	}
}
