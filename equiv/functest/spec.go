package functest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
)

// spec is what New learned of the two functions: their type, parameters,
// options and the contract derived from them.
type spec struct {
	name      string
	fn        reflect.Type
	ref, impl reflect.Value
	params    []*param
	vectors   [][]reflect.Value
	serial    bool
	appended  int // the parameter the first result appends to (Appends), or -1
	contract  equiv.Contract
}

func newSpec(name string, ref, impl reflect.Value, t reflect.Type, opts []Option) (*spec, error) {
	switch {
	case name == "":
		return nil, errors.New("functest: New needs a name")
	case t.Kind() != reflect.Func:
		return nil, fmt.Errorf("functest: %s: %s is not a function type", name, t)
	case t.IsVariadic():
		return nil, fmt.Errorf("functest: %s: variadic functions are not supported", name)
	case !ref.IsValid() || ref.IsNil():
		return nil, fmt.Errorf("functest: %s: the reference is nil", name)
	case !impl.IsValid() || impl.IsNil():
		return nil, fmt.Errorf("functest: %s: the implementation is nil", name)
	}
	s := &spec{name: name, fn: t, ref: ref, impl: impl, appended: -1}
	for i := range t.NumIn() {
		p, err := newParam(t.In(i), fmt.Sprintf("arg%d", i))
		if err != nil {
			return nil, fmt.Errorf("functest: %s: %w", name, err)
		}
		s.params = append(s.params, p)
	}
	for _, o := range opts {
		if err := o(s); err != nil {
			return nil, fmt.Errorf("functest: %s: %w", name, err)
		}
	}
	for _, p := range s.params {
		p.computeBoundaries()
	}
	s.contract = s.deriveContract()
	return s, nil
}

// param returns parameter i, or an error naming the bad index.
func (s *spec) param(i int) (*param, error) {
	if i < 0 || i >= len(s.params) {
		return nil, fmt.Errorf("the function has no parameter %d (it has %d)", i, len(s.params))
	}
	return s.params[i], nil
}

// setAccess declares parameter i's access, a []byte's.
func (s *spec) setAccess(i int, a equiv.Access) error {
	p, err := s.param(i)
	if err != nil {
		return err
	}
	if p.kind != kBytes {
		return fmt.Errorf("parameter %d is a %s: only a []byte may be written or appended to", i, p.t)
	}
	if a == equiv.Appends {
		if s.fn.NumOut() == 0 || s.fn.Out(0) != p.t {
			return fmt.Errorf("Appends(%d): the first result must be a %s, the slice appended to", i, p.t)
		}
		if s.appended >= 0 && s.appended != i {
			return fmt.Errorf("Appends(%d): the first result already appends to parameter %d", i, s.appended)
		}
		s.appended = i
	}
	p.access = a
	return nil
}

// deriveContract is the function's equiv.Contract: a []byte or string
// parameter is read only unless an option says otherwise, a reader read
// from and a writer written to; the function is safe for concurrent use
// unless Serial was given; an append's result for nil is the caller's.
func (s *spec) deriveContract() equiv.Contract {
	c := equiv.Contract{Func: s.name, Serial: s.serial, Fresh: s.appended >= 0}
	for _, p := range s.params {
		switch p.kind {
		case kBytes, kString, kReader, kWriter:
			c.Params = append(c.Params, equiv.Param{Name: p.name, Access: p.access, Keeps: p.keeps})
		}
	}
	return c
}

// slot returns the index in the contract's Params of parameter i, which
// must be one the contract lists.
func (s *spec) slot(i int) int {
	n := 0
	for _, p := range s.params[:i] {
		switch p.kind {
		case kBytes, kString, kReader, kWriter:
			n++
		}
	}
	return n
}

// suite builds the Suite of the methods derived from s.
func (s *spec) suite() equiv.Suite {
	method := func(name string, run func(*checker, *equiv.Run) error, split bool) equiv.Method {
		return equiv.Method{Name: name, Split: split, Lanes: split, Long: split, Func: func(r *equiv.Run) error {
			c := newChecker(s, r.Config(), r.Count)
			defer c.release()
			return run(c, r)
		}}
	}
	suite := equiv.Suite{
		Pair: s.name,
		Methods: []equiv.Method{
			method(equiv.MethodVectors, runVectors, false),
			method(equiv.MethodExhaustive, runExhaustive, true),
			method(equiv.MethodGuard, runGuard, false),
			method(equiv.MethodProperties, runProperties, false),
			method(equiv.MethodScale, runScale, true),
		},
		Targets:   []equiv.FuzzTarget{s.target()},
		Corpus:    s.seeds(),
		Describe:  s.describe,
		Contracts: []equiv.Contract{s.contract},
	}
	suite.Methods[2].Skip = equiv.EdgeSkip()
	if !s.has(kBytes, kString) {
		suite.Methods[2].Skip = "the function takes no []byte or string: no buffer to place at a guard page"
	}
	if !s.scales() {
		suite.Methods[4].Skip = "the function takes no []byte, string or reader of 32 KiB or more: it has no length axis"
	}
	suite.Serial = s.serial
	return suite
}

// has reports whether some parameter is of one of kinds.
func (s *spec) has(kinds ...kind) bool {
	for _, p := range s.params {
		if slices.Contains(kinds, p.kind) {
			return true
		}
	}
	return false
}

// scales reports whether the scale method has a parameter to grow: a
// []byte, string or reader that may hold ScaleMin octets.
func (s *spec) scales() bool {
	for _, p := range s.params {
		if (p.kind == kBytes || p.kind == kString || p.kind == kReader) && (p.maxLen == 0 || p.maxLen >= equiv.ScaleMin) {
			return true
		}
	}
	return false
}
