package symex

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// step executes one instruction of s's top frame f and reports whether s
// goes on at once.
func (r *run) step(s *state, f *frame, ins ssa.Instruction) (bool, error) {
	if r.init {
		if poisoned, err := r.poisonStep(s, f, ins); poisoned || err != nil {
			return err == nil, err
		}
	}
	switch ins := ins.(type) {
	case *ssa.DebugRef:
		f.pc++
		return true, nil
	case *ssa.Jump:
		return r.jump(s, ins.Block().Succs[0])
	case *ssa.If:
		return r.branch(s, ins)
	case *ssa.Return:
		return r.ret(s, ins)
	case *ssa.Panic:
		v, err := r.value(s, ins.X)
		if err != nil {
			return false, err
		}
		r.end(s, Outcome{Panic: &Panic{Kind: "panic", Value: v, Pos: r.w.P.Pos(ins.Pos())}})
		return false, nil
	case *ssa.Call:
		return r.call(s, f, ins)
	case *ssa.Store:
		return r.storeInstr(s, f, ins)
	case *ssa.Phi:
		return false, fmt.Errorf("internal: phi executed in place")
	case ssa.Value:
		v, alive, err := r.eval(s, ins)
		if err != nil || !alive {
			return false, err
		}
		f.env[ins] = v
		f.pc++
		return true, nil
	}
	return false, r.unsupported(describe(ins), ins.Pos())
}

// describe names an instruction the executor does not run.
func describe(ins ssa.Instruction) string {
	switch ins := ins.(type) {
	case *ssa.Go:
		return "go statement (goroutines)"
	case *ssa.Defer, *ssa.RunDefers:
		return "defer"
	case *ssa.Send:
		return "channel send"
	case *ssa.MapUpdate:
		return "map update"
	case *ssa.Select:
		return "select"
	case *ssa.MakeMap:
		return "map"
	case *ssa.MakeChan:
		return "channel"
	case *ssa.Range, *ssa.Next:
		return "range over a map or string"
	case *ssa.MultiConvert:
		return "conversion of a type parameter"
	case *ssa.UnOp:
		if ins.Op == token.ARROW {
			return "channel receive"
		}
	}
	return fmt.Sprintf("instruction %T (%s)", ins, ins)
}

// branch executes an If: on a constant condition, a jump; otherwise s
// splits into the paths where it holds and where it does not.
func (r *run) branch(s *state, ins *ssa.If) (bool, error) {
	c, err := r.boolValue(s, ins.Cond)
	if err != nil {
		return false, err
	}
	return r.branchOn(s, ins, c)
}

// branchOn executes If ins on condition c.
func (r *run) branchOn(s *state, ins *ssa.If, c *term.Term) (bool, error) {
	succs := ins.Block().Succs
	if c.IsConst() {
		f := s.top()
		if ch := f.fn.chain[ins.Block().Index]; len(ch) > 0 && len(ch) <= 64 {
			l := ch[len(ch)-1]
			if l.blocks[succs[0].Index] != l.blocks[succs[1].Index] {
				f.exits |= 1 << (len(ch) - 1) // an exit test of the innermost loop
			}
		}
		return r.jump(s, succs[1-int(c.Val)])
	}
	t := s.clone()
	s.guard, s.dirty = r.w.B.And(s.guard, c), true
	t.guard, t.dirty = r.w.B.And(t.guard, r.w.B.Not(c)), true
	r.refine(s, c)
	r.refine(t, r.w.B.Not(c))
	for _, p := range []struct {
		s    *state
		succ *ssa.BasicBlock
	}{{s, succs[0]}, {t, succs[1]}} {
		on, err := r.jump(p.s, p.succ)
		if err != nil {
			return false, err
		}
		if on {
			r.push(p.s)
		}
	}
	return false, nil
}

// ret executes a Return: an outcome for the outermost function, else the
// caller goes on after its call with the results.
func (r *run) ret(s *state, ins *ssa.Return) (bool, error) {
	vals := make([]Value, len(ins.Results))
	for i, v := range ins.Results {
		x, err := r.value(s, v)
		if err != nil {
			return false, err
		}
		vals[i] = x
	}
	if len(s.frames) == 1 {
		r.end(s, Outcome{Results: vals})
		return false, nil
	}
	s.frames = s.frames[:len(s.frames)-1]
	caller := s.top()
	call := caller.block.Instrs[caller.pc].(*ssa.Call)
	switch len(vals) {
	case 0:
	case 1:
		caller.env[call] = vals[0]
	default:
		caller.env[call] = Tuple{Vals: vals}
	}
	caller.pc++
	r.push(s)
	return false, nil
}

// panics records the paths of s on which ok does not hold as a panic of
// kind, and restricts s to the others. It reports whether any path of s
// goes on.
func (r *run) panics(s *state, ok *term.Term, kind string, pos token.Pos) bool {
	B := r.w.B
	if ok.IsTrue() {
		return true
	}
	p := &Panic{Kind: kind, Pos: r.w.P.Pos(pos)}
	if ok.IsFalse() {
		r.end(s, Outcome{Panic: p})
		return false
	}
	r.outcomes = append(r.outcomes, Outcome{Guard: B.And(s.guard, B.Not(ok)), Panic: p})
	s.guard, s.dirty = B.And(s.guard, ok), true
	return true
}

// value returns the value of v in s's top frame.
func (r *run) value(s *state, v ssa.Value) (Value, error) {
	switch v := v.(type) {
	case *ssa.Const:
		return r.constant(v)
	case *ssa.Global:
		id, err := r.w.global(v)
		if err != nil {
			return nil, err
		}
		return Ptr{Obj: id}, nil
	case *ssa.Function:
		return r.funcValue(v, nil)
	case *ssa.Builtin:
		return nil, r.unsupported("builtin "+v.Name()+" as a value", v.Pos())
	}
	x, ok := s.top().env[v]
	if !ok {
		return nil, fmt.Errorf("internal: %s (%s) has no value in %s", v.Name(), v, s.top().fn.Fn)
	}
	if p, ok := x.(Poison); ok && !r.init {
		return nil, p.Reason
	}
	return x, nil
}

func (r *run) funcValue(fn *ssa.Function, env []Value) (Value, error) {
	info, err := r.w.P.function(fn)
	if err != nil {
		return nil, r.unsupported(fmt.Sprintf("%s: %v", fn, err), fn.Pos())
	}
	return Func{Fn: info, Env: env}, nil
}

// term returns the value of v, an integer or bool.
func (r *run) term(s *state, v ssa.Value) (*term.Term, error) {
	x, err := r.value(s, v)
	if err != nil {
		return nil, err
	}
	t, ok := x.(*term.Term)
	if !ok {
		return nil, r.unsupported(fmt.Sprintf("value of type %s", v.Type()), posOf(v))
	}
	return t, nil
}

func (r *run) boolValue(s *state, v ssa.Value) (*term.Term, error) {
	t, err := r.term(s, v)
	if err == nil && !t.IsBool() {
		err = fmt.Errorf("internal: %s is not a bool", v)
	}
	return t, err
}

// index returns the value of the integer v as an int: widened (with its
// sign if its type is signed) or narrowed to the machine word.
func (r *run) index(s *state, v ssa.Value) (*term.Term, error) {
	t, err := r.term(s, v)
	if err != nil {
		return nil, err
	}
	return r.w.toWord(t, signed(v.Type())), nil
}

func (w *World) toWord(t *term.Term, signed bool) *term.Term {
	switch {
	case t.W == 64:
		return t
	case t.W > 64:
		return w.B.Extract(t, 0, 64)
	case signed:
		return w.B.SignExt(t, 64)
	}
	return w.B.ZeroExt(t, 64)
}

func posOf(v ssa.Value) token.Pos {
	if ins, ok := v.(ssa.Instruction); ok && ins.Pos().IsValid() {
		return ins.Pos()
	}
	if ins, ok := v.(ssa.Instruction); ok && ins.Block() != nil {
		for _, i := range ins.Block().Instrs {
			if i.Pos().IsValid() {
				return i.Pos()
			}
		}
		return ins.Parent().Pos()
	}
	return v.Pos()
}

// constant returns the value of a constant.
func (r *run) constant(c *ssa.Const) (Value, error) {
	if c.Value == nil {
		return r.w.zero(c.Type())
	}
	b, ok := c.Type().Underlying().(*types.Basic)
	if !ok {
		return nil, r.unsupported("constant of type "+c.Type().String(), c.Pos())
	}
	switch {
	case b.Info()&types.IsBoolean != 0:
		return r.w.B.Bool(constant.BoolVal(c.Value)), nil
	case b.Info()&types.IsString != 0:
		return Str{S: constant.StringVal(c.Value)}, nil
	case b.Info()&types.IsInteger != 0:
		w := uint8(64)
		if b.Info()&types.IsUntyped == 0 {
			w = r.w.width(b)
		}
		if v, exact := constant.Uint64Val(c.Value); exact {
			return r.w.B.BV(w, v), nil
		}
		v, _ := constant.Int64Val(c.Value)
		return r.w.B.BV(w, uint64(v)), nil
	}
	return nil, r.unsupported("constant of type "+c.Type().String()+" (floating point)", c.Pos())
}

// eval computes a value instruction. alive is false when every path of s
// panicked in it.
func (r *run) eval(s *state, ins ssa.Value) (Value, bool, error) {
	switch ins := ins.(type) {
	case *ssa.Alloc:
		t := ins.Type().(*types.Pointer).Elem()
		z, err := r.w.zero(t)
		if err != nil {
			return nil, false, r.unsupported(err.Error(), ins.Pos())
		}
		what := fmt.Sprintf("%s at %s", ins.Comment, r.w.P.Pos(ins.Pos()))
		return Ptr{Obj: r.w.alloc(s.heap, t, z, what)}, true, nil
	case *ssa.BinOp:
		return r.binop(s, ins)
	case *ssa.UnOp:
		return r.unop(s, ins)
	case *ssa.Convert:
		v, err := r.convert(s, ins)
		return v, err == nil, err
	case *ssa.ChangeType:
		v, err := r.value(s, ins.X)
		return v, err == nil, err
	case *ssa.ChangeInterface:
		v, err := r.value(s, ins.X)
		return v, err == nil, err
	case *ssa.MakeInterface:
		v, err := r.value(s, ins.X)
		return Iface{T: ins.X.Type(), V: v}, err == nil, err
	case *ssa.Extract:
		v, err := r.value(s, ins.Tuple)
		if err != nil {
			return nil, false, err
		}
		t, ok := v.(Tuple)
		if !ok || ins.Index >= len(t.Vals) {
			return nil, false, fmt.Errorf("internal: extract from %T", v)
		}
		return t.Vals[ins.Index], true, nil
	case *ssa.MakeClosure:
		env := make([]Value, len(ins.Bindings))
		for i, b := range ins.Bindings {
			v, err := r.value(s, b)
			if err != nil {
				return nil, false, err
			}
			env[i] = v
		}
		v, err := r.funcValue(ins.Fn.(*ssa.Function), env)
		return v, err == nil, err
	}
	return r.evalMemory(s, ins)
}

// refine uses a branch's condition c, which holds on s's paths: where c
// says that a term equals a constant (a switch on an integer does), the
// values that are that term become the constant, so that a length or an
// index chosen by the case is concrete in it.
func (r *run) refine(s *state, c *term.Term) {
	if c.Op != term.Eq {
		return
	}
	x, k := c.Args[0], c.Args[1]
	if x.IsConst() {
		x, k = k, x
	}
	if !k.IsConst() || x.IsConst() || x.IsBool() {
		return
	}
	for _, f := range s.frames {
		for v, val := range f.env {
			if val == Value(x) {
				f.env[v] = k
			}
		}
	}
}
