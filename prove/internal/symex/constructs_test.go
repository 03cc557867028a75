package symex_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/prove/internal/constructs"
	"github.com/equivcheck/equivcheck/prove/internal/differential"
)

const constructsPkg = "github.com/equivcheck/equivcheck/prove/internal/constructs"

// supported is every function of package constructs that the executor
// runs, each exercising constructs listed in docs/equivalence.md.
var supported = []any{
	constructs.ArithI8, constructs.ArithU8, constructs.ArithI16, constructs.ArithU16, constructs.ArithI32,
	constructs.ArithU32, constructs.ArithI64, constructs.ArithU64, constructs.ArithInt, constructs.Unary,
	constructs.DivI8, constructs.DivU8, constructs.DivI64, constructs.DivU32, constructs.DivSmall, constructs.DivConst,
	constructs.Shifts, constructs.ShiftSigned, constructs.ShiftSmall,
	constructs.ConvI8, constructs.ConvU64, constructs.ConvI32, constructs.Bools, constructs.Consts,
	constructs.IfElse, constructs.Switch, constructs.Loops, constructs.LoopInput, constructs.RangeInt,
	constructs.Goto, constructs.Recurse,
	constructs.Index, constructs.IndexUint16, constructs.Slicing, constructs.SliceOfSlice, constructs.Append,
	constructs.AppendNil, constructs.Copy, constructs.Arrays, constructs.Structs, constructs.Methods,
	constructs.Pointers, constructs.Closures, constructs.Errors, constructs.ErrorText, constructs.Globals,
	constructs.Builtins, constructs.Panics, constructs.Make, constructs.Binary, constructs.Bits,
	constructs.MaskOff, constructs.NeverMap,
	constructs.Sum, constructs.SumWide, constructs.SumWideBad, constructs.First, constructs.FirstOrZero,
	constructs.Check, constructs.CheckBad, constructs.Clear, constructs.ClearBad, constructs.AppendTwo,
	constructs.AppendTwoWide, constructs.Guard, constructs.GuardOther,
}

// TestConstructs runs every supported construct compiled and executed on
// random inputs (edge values often), on constants and on variables.
func TestConstructs(t *testing.T) {
	p := differential.Load(t, constructsPkg)
	rng := rand.New(rand.NewPCG(1, 2))
	n := 40
	if testing.Short() {
		n = 10
	}
	for _, f := range supported {
		name := differential.RuntimeName(f)
		t.Run(name[strings.LastIndex(name, ".")+1:], func(t *testing.T) {
			ft := reflect.TypeOf(f)
			for range n {
				args := make([]any, ft.NumIn())
				for i := range args {
					args[i] = Random(rng, ft.In(i)).Interface()
				}
				differential.Agree(t, p, f, args...)
				if t.Failed() {
					return
				}
			}
		})
	}
}

// Random returns a random value of type t: integers are small, an edge
// value or uniform, a third of the time each; slices have 0..20 elements
// and 0..4 of spare capacity.
func Random(rng *rand.Rand, t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		edges := []int64{0, 1, -1, 2, -2, 7, 8, 63, 64, math.MinInt64 >> (64 - bits), math.MaxInt64 >> (64 - bits)}
		switch rng.IntN(3) {
		case 0:
			v.SetInt(int64(rng.IntN(25)) - 4)
		case 1:
			v.SetInt(edges[rng.IntN(len(edges))])
		default:
			v.SetInt(int64(rng.Uint64()) >> (64 - bits))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		bits := t.Bits()
		edges := []uint64{0, 1, 2, 7, 8, 63, 64, 255, 256, math.MaxUint64 >> (64 - bits), 1 << (bits - 1)}
		switch rng.IntN(3) {
		case 0:
			v.SetUint(uint64(rng.IntN(21)))
		case 1:
			v.SetUint(edges[rng.IntN(len(edges))] & (math.MaxUint64 >> (64 - bits)))
		default:
			v.SetUint(rng.Uint64() >> (64 - bits))
		}
	case reflect.Slice:
		n := rng.IntN(21)
		c := n + rng.IntN(5)
		s := reflect.MakeSlice(t, c, c)
		for i := range c {
			s.Index(i).Set(Random(rng, t.Elem()))
		}
		v.Set(s.Slice(0, n))
	case reflect.Array:
		for i := range t.Len() {
			v.Index(i).Set(Random(rng, t.Elem()))
		}
	case reflect.Struct:
		for i := range t.NumField() {
			v.Field(i).Set(Random(rng, t.Field(i).Type))
		}
	default:
		panic("no random " + t.String())
	}
	return v
}

// TestUnsupported checks that what the executor does not run stops it
// with the construct and its line.
func TestUnsupported(t *testing.T) {
	p := differential.Load(t, constructsPkg)
	for _, c := range []struct {
		f    any
		args []any
		want string
	}{
		{constructs.UsesMap, []any{uint8(1)}, "map"},
		{constructs.UsesDefer, []any{1}, "defer"},
		{constructs.UsesGoroutine, []any{1}, "channel"},
		{constructs.UsesFloat, []any{1}, "floating"},
		{constructs.UsesUnsafe, []any{[]byte{1}}, "unsafe"},
		{constructs.UsesReflect, []any{[]byte{1}}, "reflect"},
		{constructs.UsesFmt, []any{1}, "unsupported.go:41"},
		{constructs.UsesStringConversion, []any{[]byte{1}}, "conversion"},
	} {
		for _, m := range []differential.Mode{differential.Concrete, differential.Symbolic} {
			_, stopped := differential.Executed(t, p, c.f, c.args, m)
			if !strings.Contains(stopped, c.want) || !strings.Contains(stopped, "constructs/unsupported.go:") {
				t.Errorf("%s (%s): stopped with %q, want the construct (%q) and its line", differential.RuntimeName(c.f), m, stopped, c.want)
			} else {
				t.Logf("%s: %s", differential.RuntimeName(c.f), stopped)
			}
		}
	}
}
