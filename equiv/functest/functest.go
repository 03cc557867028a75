// Package functest derives a whole conformance suite from two Go functions
// of the same signature, a reference and an implementation, the way
// testing/quick.CheckEqual checks them on random inputs, but with every
// method of equivcheck's own suites: published vectors, bounded-exhaustive
// enumeration of the parameters' small domains and boundary classes,
// guard pages, rapid properties, sizes to megabytes, the seed corpus and a
// native fuzz target, and the contract layer (spare capacity, read-only
// inputs, octets next to a writable range, poisoning, reuse at the same
// address, a concurrent caller, overlapping calls, the call watchdog) on
// every call:
//
//	func TestCRC(t *testing.T) {
//		equiv.Test(t, functest.New("Checksum", crcBitwise, crcSlicing8))
//	}
//
//	func FuzzCRC(f *testing.F) {
//		functest.Fuzz(f, functest.New("Checksum", crcBitwise, crcSlicing8))
//	}
//
// A parameter's domain follows from its type (see New), and each can be
// replaced (Values, Rapid, Gopter) or extended with vectors (Vector). What a
// function may do to its buffers is declared per parameter (Writes,
// Appends, Keeps; by default it reads them only, keeps nothing and may be
// called from several goroutines at once, as a careful Go API does). The
// Suite New returns runs in equiv.Check, equiv.Test and a release gate
// (gate.Variant) unchanged, and takes equiv's options (WithLevel,
// MapErrors, AnyPanic, and Exclude with an Input).
package functest

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/equivcheck/equivcheck/equiv"
)

// Input is one input of a derived suite, as an equiv.Exclude function and
// a report see it: the function's name and its arguments, in their Go
// types (byte slices and strings as the suite holds them, before they are
// placed). An Exclude function must neither modify nor retain Args.
type Input struct {
	Func string
	Args []any
}

// Exclude declares the inputs for which out returns true out of the
// implementation's scope: they are not compared, and every Result lists
// label with their number. It is equiv.Exclude for Input.
func Exclude(label string, out func(Input) bool) equiv.Option {
	return equiv.Exclude(label, func(in any) bool {
		i, ok := in.(Input)
		return ok && out(i)
	})
}

// New returns the suite that checks impl against ref, two functions of type
// F, under name (which prefixes every error and names the fuzz target's
// directory): the methods vectors, exhaustive, guard, properties and scale,
// and a fuzz target (FuzzTarget) whose inputs the engine's corpus method
// replays. If F is not a function, or a parameter's type has no default
// domain and no option gives it one, the Suite's Err says which, and
// nothing runs.
//
// Parameters may be of these types, and of structs and arrays of them:
// []byte and string (every value of up to two octets, three at Standard,
// then lengths to 256 at every alignment in four content classes, lengths
// around every power of two to megabytes, and random ones); integers of
// every width (every value of 8 and 16 bits; the boundaries, powers of two
// and their neighbours, and random values wider); bool; netip.Addr (IPv4,
// IPv6, IPv4-mapped, zoned and the zero Addr, at their boundaries);
// io.Reader (the content of a []byte, through readers that return one
// octet at a time, data with io.EOF, an error partway, and 0, nil) and
// io.Writer (a buffer, and writers that write short, fail, or return
// (len(p), err)). Results are compared deeply: slices by content, errors
// by errors.Is or their text (after equiv.MapErrors), panics by value
// (or any, with equiv.AnyPanic), and a Writes parameter's contents after
// the call.
func New[F any](name string, ref, impl F, opts ...Option) equiv.Suite {
	s, err := newSpec(name, reflect.ValueOf(ref), reflect.ValueOf(impl), reflect.TypeFor[F](), opts)
	if err != nil {
		return equiv.Suite{Pair: name, Err: err}
	}
	return s.suite()
}

// An Option declares what a derived suite cannot tell from the types
// alone: a parameter's access and domain, vectors, and whether the
// implementation may be called concurrently.
type Option func(*spec) error

// Writes declares that the function writes parameter i, a []byte, in place
// (b[:len(b)] only): it is placed writable, with read-only octets and
// canaries around it, and its contents after the call are compared with
// the reference's.
func Writes(i int) Option {
	return func(s *spec) error { return s.setAccess(i, equiv.Writes) }
}

// Appends declares that the function's first result is parameter i, a
// []byte, appended to: it may write the octets appended in place when the
// capacity allows (and nothing of b[:len(b)]), and what it returns for a
// nil or full buffer is the caller's (kept alive and compared again).
func Appends(i int) Option {
	return func(s *spec) error { return s.setAccess(i, equiv.Appends) }
}

// Keeps declares that the function may keep a view of parameter i after it
// returns (it is then not overwritten once the call has returned).
func Keeps(i int) Option {
	return func(s *spec) error {
		p, err := s.param(i)
		if err == nil {
			p.keeps = true
		}
		return err
	}
}

// Serial declares an implementation that is not safe for concurrent use:
// no second goroutine calls it while a method runs (equiv.Serial).
func Serial() Option { return func(s *spec) error { s.serial = true; return nil } }

// Vector adds one input, the function's arguments in order, to the
// vectors method (and to the seeds of the fuzz target).
func Vector(args ...any) Option {
	return func(s *spec) error {
		if len(args) != len(s.params) {
			return fmt.Errorf("Vector has %d arguments, the function %d", len(args), len(s.params))
		}
		vals := make([]reflect.Value, len(args))
		for i, a := range args {
			v, err := s.params[i].value(a)
			if err != nil {
				return fmt.Errorf("Vector argument %d: %w", i, err)
			}
			vals[i] = v
		}
		s.vectors = append(s.vectors, vals)
		return nil
	}
}

// Values replaces parameter i's domain with vs: the exhaustive method
// enumerates them (crossed with the other parameters' domains), and the
// properties draw from them.
func Values(i int, vs ...any) Option {
	return func(s *spec) error {
		p, err := s.param(i)
		if err != nil {
			return err
		}
		if len(vs) == 0 {
			return fmt.Errorf("Values(%d) with no value", i)
		}
		p.values = p.values[:0]
		for _, v := range vs {
			rv, err := p.value(v)
			if err != nil {
				return fmt.Errorf("Values(%d): %w", i, err)
			}
			p.values = append(p.values, rv)
		}
		return nil
	}
}

// MaxLen bounds the length of parameter i, a []byte or a string, in every
// method: for a function documented for inputs of at most n octets.
func MaxLen(i, n int) Option {
	return func(s *spec) error {
		p, err := s.param(i)
		if err != nil {
			return err
		}
		if p.kind != kBytes && p.kind != kString {
			return fmt.Errorf("MaxLen(%d): parameter %d is a %s, not a []byte or string", i, i, p.t)
		}
		p.maxLen = n
		return nil
	}
}

// Name names parameter i in messages (the default is "arg" and its
// number).
func Name(i int, name string) Option {
	return func(s *spec) error {
		p, err := s.param(i)
		if err == nil {
			p.name = name
		}
		return err
	}
}

// describe renders in for the report of a call that did not return.
func (s *spec) describe(in any) *equiv.Counterexample {
	i, ok := in.(Input)
	if !ok || len(i.Args) != len(s.params) {
		return nil
	}
	args := make([]reflect.Value, len(i.Args))
	for k, a := range i.Args {
		switch a := a.(type) {
		case ReaderArg:
			args[k] = reflect.ValueOf(readerArg(a))
		case WriterArg:
			args[k] = reflect.ValueOf(writerArg(a))
		default:
			args[k] = reflect.ValueOf(a)
		}
	}
	return s.counterexample(args, "", "", nil)
}

// argsString renders args as the messages show them: each parameter by
// name, a slice by its length and the rest by value.
func (s *spec) argsString(args []reflect.Value) string {
	var parts []string
	for i, p := range s.params {
		parts = append(parts, p.name+"="+p.format(args[i]))
	}
	return strings.Join(parts, " ")
}
