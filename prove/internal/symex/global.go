package symex

import (
	"errors"
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// global returns the object of package variable g, made (with its
// package's initialization) the first time it is asked for.
//
// A package variable holds the value its declaration gives it, computed
// by executing the package's initializer with the executor itself (on
// constants: no input is involved). That is the value a call sees only
// if nothing else assigns the variable; so a variable that some function
// of the loaded packages (an init function included) stores to, or whose
// address escapes, is poisoned instead: reading it stops the proof,
// naming the assignment.
func (w *World) global(g *ssa.Global) (int, error) {
	if id, ok := w.globals[g]; ok {
		return id, nil
	}
	t := g.Type().(*types.Pointer).Elem()
	name := g.Pkg.Pkg.Path() + "." + g.Name()
	z, err := w.zero(t)
	if err != nil {
		z = Poison{Reason: &Unsupported{What: fmt.Sprintf("package variable %s: %v", name, err), Pos: w.P.Pos(g.Pos())}}
	}
	id := w.alloc(nil, t, z, "package variable "+name)
	w.objects[id].global = true
	w.globals[g] = id
	if _, done := w.inits[g.Pkg]; !done {
		w.initPackage(g.Pkg)
	}
	if err := w.inits[g.Pkg]; err != nil {
		if _, ok := w.base[id].(Poison); !ok && !w.stored(g.Pkg, id) {
			w.base[id] = Poison{Reason: err}
		}
	}
	if at := w.P.writesTo(g); len(at) > 0 && g.Name() != "init$guard" {
		w.base[id] = Poison{Reason: &Unsupported{
			What: fmt.Sprintf("read of package variable %s, which is assigned at %s as well as in its declaration, so its value at the call is not known", name, w.P.Pos(at[0])),
			Pos:  w.P.Pos(g.Pos())}}
	}
	return id, nil
}

// initPackage runs the initializer of package sp on the base heap. The
// initializers of the packages it imports are not run here (their
// variables are initialized when first read), nor are its init functions
// (global marks what they assign). If the initializer stops on something
// the executor does not run, the variables it had not yet assigned are
// poisoned with that reason; the values it computed from such a thing are
// poisoned by the executor as it goes.
func (w *World) initPackage(sp *ssa.Package) {
	w.inits[sp] = nil // under way: its variables are made as they are met
	fn := sp.Func("init")
	if fn == nil || len(fn.Blocks) == 0 {
		return
	}
	r := &run{w: w, init: true}
	s := &state{guard: w.B.True(), heap: w.newHeap()}
	steps := w.steps
	err := r.enter(s, fn, nil, nil)
	if err == nil {
		err = r.loop()
	}
	w.steps = steps // initialization is not the proof's work
	var heaps []*Heap
	var guards []*term.Term
	for _, o := range r.outcomes {
		switch {
		case o.Unsupported != nil:
			err = errors.Join(err, o.Unsupported)
		case o.Panic != nil:
			err = errors.Join(err, fmt.Errorf("%s: panic: %s", o.Panic.Pos, o.Panic.Kind))
		}
		if o.Heap != nil {
			heaps, guards = append(heaps, o.Heap), append(guards, o.Guard)
		}
	}
	if len(heaps) == 0 && err == nil {
		err = errors.New("it did not finish")
	}
	w.commit(heaps, guards, sp)
	if err != nil {
		w.inits[sp] = &Unsupported{What: fmt.Sprintf("the initialization of package %s stopped, so its variables' values are not known: %v", sp.Pkg.Path(), err),
			Pos: w.P.Pos(fn.Pos())}
	}
}

// commit makes the objects the initialization's paths assigned part of
// the base heap: where the paths (taken on unknowns, see poisonStep)
// agree, the value; where they differ, the value each chooses by its
// guard; where that cannot be, poison.
func (w *World) commit(heaps []*Heap, guards []*term.Term, sp *ssa.Package) {
	ids := map[int]bool{}
	for _, h := range heaps {
		for id := range h.objs {
			ids[id] = true
		}
	}
	for id := range ids {
		v := heaps[0].Get(id)
		for i := 1; i < len(heaps) && v != nil; i++ {
			o := heaps[i].Get(id)
			if o == nil {
				continue
			}
			m, ok := w.merge(guards[i], o, v)
			if !ok {
				m = Poison{Reason: &Unsupported{What: fmt.Sprintf("%s: its value after the initialization of package %s depends on what the prover does not know (such as the CPU's features)",
					w.objects[id].what, sp.Pkg.Path())}}
			}
			v = m
		}
		w.base[id] = v
		w.initStored[id] = true
	}
}

// stored reports whether package sp's initializer assigned object id.
func (w *World) stored(sp *ssa.Package, id int) bool { return w.initStored[id] }

// poisonStep handles, during a package initialization, an instruction
// with a poisoned operand: a value computed from it is poisoned too, a
// store of it stores it, a call with it is not made (its result, and what
// its arguments point at, are poisoned), and a branch on it takes both
// ways, the condition an unknown (a fresh variable): what the rest of the
// initialization computes from it depends on that unknown, as a value the
// prover must take for any. A panic on it stops the initialization. It
// reports whether it handled ins.
func (r *run) poisonStep(s *state, f *frame, ins ssa.Instruction) (bool, error) {
	if _, isPhi := ins.(*ssa.Phi); isPhi {
		return false, nil
	}
	var reason error
	for _, op := range ins.Operands(nil) {
		if *op == nil {
			continue
		}
		if p, ok := f.env[*op].(Poison); ok {
			reason = p.Reason
			break
		}
	}
	if reason == nil {
		return false, nil
	}
	switch ins := ins.(type) {
	case *ssa.Store:
		x, ok := f.env[ins.Addr]
		if p, isPtr := x.(Ptr); ok && isPtr && p.Obj != 0 {
			if nv, err := r.w.store(s.heap.Get(p.Obj), p.Path, Poison{Reason: reason}); err == nil {
				s.heap.set(p.Obj, nv)
			}
		}
		f.pc++
		return true, nil
	case *ssa.If:
		r.w.unknowns++
		c := r.w.B.NewVar(fmt.Sprintf("init_unknown_%d", r.w.unknowns), 0)
		_, err := r.branchOn(s, ins, c)
		return true, err
	case *ssa.Return, *ssa.DebugRef:
		return false, nil
	case *ssa.Call:
		for _, a := range ins.Common().Args {
			r.poisonReachable(s, f.env[a], reason, 0)
		}
		f.env[ins] = Poison{Reason: reason}
		f.pc++
		return true, nil
	case ssa.Value:
		f.env[ins] = Poison{Reason: reason}
		f.pc++
		return true, nil
	}
	return true, reason
}

// poisonReachable poisons the objects v points at, and what they point
// at: a call that was not made may have written them.
func (r *run) poisonReachable(s *state, v Value, reason error, depth int) {
	if depth > 4 {
		return
	}
	var obj int
	switch x := v.(type) {
	case Ptr:
		obj = x.Obj
	case Slice:
		obj = x.Obj
	case Func:
		for _, e := range x.Env {
			r.poisonReachable(s, e, reason, depth+1)
		}
	case *Struct:
		for _, e := range x.Fields {
			r.poisonReachable(s, e, reason, depth+1)
		}
	}
	if obj == 0 {
		return
	}
	if _, done := s.heap.Get(obj).(Poison); done {
		return
	}
	old := s.heap.Get(obj)
	s.heap.set(obj, Poison{Reason: reason})
	r.poisonReachable(s, old, reason, depth+1)
}
