// Package differential tests the executor (prove/internal/symex) the way a
// compiler is tested: a function runs compiled and executed on the same
// input, and what each did must agree: its results, the final contents of
// every input (spare capacity included) and whether it panicked, and of
// which kind. The executor runs each input twice: on constants, where
// every term folds to a constant as it is built, and on variables, where
// the outcomes' terms are evaluated under the input's values afterwards,
// so that both the folding and the formulas a proof would hand the solver
// are checked.
package differential

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/equivcheck/equivcheck/prove/internal/symex"
	"github.com/equivcheck/equivcheck/prove/internal/term"
)

var loads = struct {
	sync.Mutex
	progs map[string]*symex.Program
}{progs: map[string]*symex.Program{}}

// Load loads packages (once per set, for the whole test binary) from the
// working directory.
func Load(t testing.TB, pkgs ...string) *symex.Program {
	t.Helper()
	key := strings.Join(pkgs, " ")
	loads.Lock()
	defer loads.Unlock()
	if p, ok := loads.progs[key]; ok {
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	p, err := symex.Load(dir, nil, pkgs...)
	if err != nil {
		t.Fatal(err)
	}
	loads.progs[key] = p
	return p
}

// Mode is how the executor gets an input.
type Mode int

const (
	Concrete Mode = iota // as constants: every term folds
	Symbolic             // as variables: outcomes evaluated afterwards
)

func (m Mode) String() string { return [...]string{"concrete", "symbolic"}[m] }

// Result is one run of a function on one input, rendered.
type Result struct {
	Panicked bool
	Kind     string   // the executor's panic kind, or the compiled panic's text
	Results  []string // rendered results
	Inputs   []string // the inputs' final contents, slices to their capacity
}

func (r Result) String() string {
	if r.Panicked {
		return fmt.Sprintf("panic(%s) inputs %v", r.Kind, r.Inputs)
	}
	return fmt.Sprintf("%v inputs %v", r.Results, r.Inputs)
}

// Compiled calls f on copies of args and renders what happened.
func Compiled(f any, args []any) Result {
	fv := reflect.ValueOf(f)
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = clone(reflect.ValueOf(a))
	}
	var out []reflect.Value
	var res Result
	func() {
		defer func() {
			if p := recover(); p != nil {
				res.Panicked, res.Kind = true, fmt.Sprint(p)
			}
		}()
		out = fv.Call(in)
	}()
	for _, v := range out {
		res.Results = append(res.Results, symex.RenderGo(v))
	}
	for _, v := range in {
		if v.Kind() == reflect.Slice && !v.IsNil() {
			v = v.Slice3(0, v.Cap(), v.Cap())
		}
		res.Inputs = append(res.Inputs, symex.RenderGo(v))
	}
	return res
}

// clone copies slices (their whole capacity) and what pointers point at.
func clone(v reflect.Value) reflect.Value {
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

// RuntimeName is the name the runtime gives function value f.
func RuntimeName(f any) string { return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name() }

// Executed runs f in the executor on args, in mode m, and renders what
// happened; stopped is why the executor did not finish, or "".
func Executed(t testing.TB, p *symex.Program, f any, args []any, m Mode) (res Result, stopped string) {
	t.Helper()
	fn, err := p.LookupRuntime(RuntimeName(f))
	if err != nil {
		t.Fatal(err)
	}
	w := symex.NewWorld(p)
	vals := make([]symex.Value, len(args))
	assign := map[*term.Term]uint64{}
	// Loops whose exit depends on the input are unrolled as far as this
	// input goes: paths it does not take end where a proof's solver
	// would find them infeasible for it.
	w.Feasible = func(g *term.Term) (bool, error) { return term.NewEval(assign).Bool(g), nil }
	for i, a := range args {
		prm := fn.Params[i]
		v, err := w.FromGo(reflect.ValueOf(a), prm.Type(), prm.Name())
		if err != nil {
			t.Fatal(err)
		}
		if m == Symbolic {
			v = w.Symbolize(v, fmt.Sprintf("a%d", i), assign)
		}
		vals[i] = v
	}
	outs, err := w.Execute(fn, vals)
	if err != nil {
		return Result{}, err.Error()
	}
	ev := term.NewEval(assign)
	var hit []symex.Outcome
	for _, o := range outs {
		if ev.Bool(o.Guard) {
			hit = append(hit, o)
		}
	}
	if len(hit) != 1 {
		t.Fatalf("%s: %d outcomes hold for one input (of %d)", fn, len(hit), len(outs))
	}
	o := hit[0]
	if o.Unsupported != nil {
		return Result{}, o.Unsupported.Error()
	}
	if o.Panic != nil {
		res.Panicked, res.Kind = true, o.Panic.Kind
	}
	for i, r := range o.Results {
		res.Results = append(res.Results, w.Render(r, fn.Signature.Results().At(i).Type(), o.Heap, ev))
	}
	for i, v := range vals {
		if sl, ok := v.(symex.Slice); ok && sl.Obj != 0 {
			sl.Len = sl.Cap
			v = sl
		}
		h := o.Heap
		if h == nil {
			h = w.BaseHeap()
		}
		res.Inputs = append(res.Inputs, w.Render(v, fn.Params[i].Type(), h, ev))
	}
	return res, ""
}

// Agree compares f compiled and executed on args, in both modes, and
// reports a difference as an error of t.
func Agree(t testing.TB, p *symex.Program, f any, args ...any) {
	t.Helper()
	want := Compiled(f, args)
	for _, m := range []Mode{Concrete, Symbolic} {
		got, stopped := Executed(t, p, f, args, m)
		if stopped != "" {
			t.Errorf("%s%v (%s): the executor stopped: %s", RuntimeName(f), args, m, stopped)
			continue
		}
		if !Same(got, want) {
			t.Errorf("%s%v (%s):\nexecuted %v\ncompiled %v", RuntimeName(f), args, m, got, want)
		}
	}
}

// Same compares an executed run with a compiled one: a panic of the same
// kind (the runtime's message names its kind; a call of panic is any
// other message), or the same results and final inputs.
func Same(got, want Result) bool {
	if got.Panicked || want.Panicked {
		return got.Panicked && want.Panicked && KindMatches(got.Kind, want.Kind)
	}
	return slices.Equal(got.Results, want.Results) && slices.Equal(got.Inputs, want.Inputs)
}

// KindMatches reports whether the compiled panic text is of the
// executor's kind.
func KindMatches(kind, text string) bool {
	if kind == "panic" {
		return !strings.HasPrefix(text, "runtime error:")
	}
	return strings.Contains(text, kind)
}
