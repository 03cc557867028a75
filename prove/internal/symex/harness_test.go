package symex

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// The tests here treat the executor as a compiler is treated: every
// function of a corpus runs both compiled and in the executor, on the
// same inputs, and the results, the final contents of every input and
// whether (and how) it panicked must agree. The executor runs each input
// twice: on constants (every term folds as it is built) and on variables
// (the outcomes' terms are then evaluated under the input's values), so
// that both the folding and the formulas are checked.

var (
	loadOnce sync.Once
	loaded   *Program
	loadErr  error
)

// moduleRoot is the repository root (the product module's directory).
func moduleRoot(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !strings.Contains(dir, string(filepath.Separator)+"prove") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no module root above " + dir)
		}
		dir = parent
	}
}

// program loads the packages the tests execute, once.
func program(t testing.TB) *Program {
	t.Helper()
	loadOnce.Do(func() {
		dir, _ := os.Getwd()
		loaded, loadErr = Load(dir, nil,
			"github.com/equivcheck/equivcheck/prove/internal/constructs",
			"github.com/equivcheck/equivcheck/optimized/websocket",
			"github.com/equivcheck/equivcheck/reference/websocket",
			"github.com/equivcheck/equivcheck/optimized/quic",
			"github.com/equivcheck/equivcheck/reference/quic",
			"github.com/equivcheck/equivcheck/optimized/checksum",
			"github.com/equivcheck/equivcheck/reference/checksum",
			"github.com/equivcheck/equivcheck/optimized/utf8valid",
			"github.com/equivcheck/equivcheck/reference/utf8valid",
		)
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded
}

// runtimeName is the name the runtime gives function value f.
func runtimeName(f any) string {
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}

// mode is how the executor is given an input: as constants, or as
// variables whose values the outcomes' terms are evaluated under.
type mode int

const (
	concrete mode = iota
	symbolic
)

// result is one run of a function on one input, rendered.
type result struct {
	panicked bool
	kind     string   // the executor's panic kind, or the runtime's error text
	results  []string // rendered results
	inputs   []string // the inputs' final contents, rendered
}

func (r result) String() string {
	if r.panicked {
		return fmt.Sprintf("panic(%s) inputs %v", r.kind, r.inputs)
	}
	return fmt.Sprintf("%v inputs %v", r.results, r.inputs)
}

// compiled calls f on copies of args and renders what happened.
func compiled(f any, args []any) result {
	fv := reflect.ValueOf(f)
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = cloneGo(reflect.ValueOf(a))
	}
	var out []reflect.Value
	var res result
	func() {
		defer func() {
			if p := recover(); p != nil {
				res.panicked, res.kind = true, fmt.Sprint(p)
			}
		}()
		out = fv.Call(in)
	}()
	for _, v := range out {
		res.results = append(res.results, RenderGo(v))
	}
	for _, v := range in {
		res.inputs = append(res.inputs, RenderGo(v))
	}
	return res
}

// cloneGo copies slices (their contents) and what pointers point at, so
// that a call cannot change the caller's input.
func cloneGo(v reflect.Value) reflect.Value {
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

// executed runs f in the executor on args, in mode m, and renders what
// happened; ok is false (with the reason) where the executor did not
// finish (an unsupported construct met with a satisfiable condition).
func executed(t testing.TB, p *Program, f any, args []any, m mode) (result, string) {
	t.Helper()
	fn, err := p.LookupRuntime(runtimeName(f))
	if err != nil {
		t.Fatal(err)
	}
	w := NewWorld(p)
	params := fn.Signature.Params()
	vals := make([]Value, len(args))
	assign := map[*term.Term]uint64{}
	for i, a := range args {
		pt := params.At(i).Type()
		v, err := w.FromGo(reflect.ValueOf(a), pt, params.At(i).Name())
		if err != nil {
			t.Fatal(err)
		}
		if m == symbolic {
			v = w.symbolize(v, fmt.Sprintf("a%d", i), assign)
		}
		vals[i] = v
	}
	outs, err := w.Execute(fn, vals)
	if err != nil {
		return result{}, err.Error()
	}
	ev := term.NewEval(assign)
	var hit []Outcome
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
		return result{}, o.Unsupported.Error()
	}
	var res result
	if o.Panic != nil {
		res.panicked, res.kind = true, o.Panic.Kind
	}
	for i, r := range o.Results {
		res.results = append(res.results, w.Render(r, fn.Signature.Results().At(i).Type(), o.Heap, ev))
	}
	for i, v := range vals {
		h := o.Heap
		if h == nil {
			h = w.newHeap()
		}
		res.inputs = append(res.inputs, w.Render(v, params.At(i).Type(), h, ev))
	}
	return res, ""
}

// symbolize replaces every integer and bool constant in v (and in the
// objects it points at, in the base heap) by a fresh variable, recording
// the constant as its value in assign.
func (w *World) symbolize(v Value, name string, assign map[*term.Term]uint64) Value {
	n := 0
	seen := map[int]bool{}
	var walk func(v Value) Value
	walk = func(v Value) Value {
		switch x := v.(type) {
		case *term.Term:
			if !x.IsConst() {
				return x
			}
			n++
			nv := w.B.NewVar(fmt.Sprintf("%s_%d", name, n), x.W)
			assign[nv] = x.Val
			return nv
		case *Struct:
			out := &Struct{Fields: make([]Value, len(x.Fields))}
			for i, f := range x.Fields {
				out.Fields[i] = walk(f)
			}
			return out
		case *Array:
			out := &Array{Elems: make([]Value, len(x.Elems))}
			for i, e := range x.Elems {
				out.Elems[i] = walk(e)
			}
			return out
		case Ptr:
			if x.Obj != 0 && !seen[x.Obj] {
				seen[x.Obj] = true
				w.base[x.Obj] = walk(w.base[x.Obj])
			}
		case Slice:
			if x.Obj != 0 && !seen[x.Obj] {
				seen[x.Obj] = true
				w.base[x.Obj] = walk(w.base[x.Obj])
			}
		}
		return v
	}
	return walk(v)
}

// agree compares f compiled and executed on args, in both modes.
func agree(t *testing.T, p *Program, f any, args ...any) {
	t.Helper()
	want := compiled(f, args)
	for _, m := range []mode{concrete, symbolic} {
		got, why := executed(t, p, f, args, m)
		if why != "" {
			t.Errorf("%s%v (mode %d): the executor stopped: %s", runtimeName(f), args, m, why)
			continue
		}
		if !sameResult(got, want) {
			t.Errorf("%s%v (mode %d):\nexecuted %v\ncompiled %v", runtimeName(f), args, m, got, want)
		}
	}
}

// sameResult compares an executed run with a compiled one: a panic of the
// same kind (the runtime's text names its kind), or the same results and
// final inputs.
func sameResult(got, want result) bool {
	if got.panicked || want.panicked {
		return got.panicked && want.panicked && panicKindMatches(got.kind, want.kind)
	}
	return fmt.Sprint(got.results, got.inputs) == fmt.Sprint(want.results, want.inputs)
}

func panicKindMatches(kind, text string) bool {
	if kind == "panic" {
		return !strings.HasPrefix(text, "runtime error:")
	}
	return strings.Contains(text, kind)
}

var _ = types.Typ
