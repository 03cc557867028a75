package functest

import (
	"errors"
	"fmt"
	"io"
	"net/netip"
	"reflect"

	"github.com/equivcheck/equivcheck/equiv"
)

// kind is the class of a parameter's type, which decides its default
// domain, how it is placed, encoded and shrunk.
type kind int

const (
	kBytes kind = iota
	kString
	kBool
	kInt
	kUint
	kArray
	kStruct
	kAddr
	kReader
	kWriter
)

// param is one parameter of the function: its type and kind, what the
// function may do to it, and its domain where an option replaced it.
type param struct {
	name   string
	t      reflect.Type
	kind   kind
	bits   int      // of an integer
	elem   *param   // of an array
	fields []*param // of a struct, in order
	access equiv.Access
	keeps  bool
	maxLen int             // of a []byte or string: the longest it takes (MaxLen), or 0
	values []reflect.Value // the domain Values gave, or nil
	bounds []reflect.Value // its boundary values, made once (computeBoundaries)
	gen    generator       // the generator Rapid or Gopter gave, or nil
}

var (
	addrType   = reflect.TypeFor[netip.Addr]()
	readerType = reflect.TypeFor[io.Reader]()
	writerType = reflect.TypeFor[io.Writer]()
	errorType  = reflect.TypeFor[error]()
)

// newParam classifies t, or says why it has no default domain.
func newParam(t reflect.Type, name string) (*param, error) {
	p := &param{name: name, t: t}
	switch {
	case t == addrType:
		p.kind = kAddr
	case t == readerType:
		p.kind, p.access = kReader, equiv.ReadsFrom
	case t == writerType:
		p.kind, p.access = kWriter, equiv.WritesTo
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		p.kind = kBytes
	case t.Kind() == reflect.String:
		p.kind = kString
	case t.Kind() == reflect.Bool:
		p.kind = kBool
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		p.kind, p.bits = kInt, t.Bits()
	case t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uintptr:
		p.kind, p.bits = kUint, t.Bits()
	case t.Kind() == reflect.Array:
		e, err := newParam(t.Elem(), name+"[]")
		if err != nil {
			return nil, err
		}
		if e.kind == kReader || e.kind == kWriter {
			return nil, fmt.Errorf("%s: an array of %s has no domain", name, t.Elem())
		}
		p.kind, p.elem = kArray, e
	case t.Kind() == reflect.Struct:
		p.kind = kStruct
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				return nil, fmt.Errorf("%s: %s has the unexported field %s, which the suite cannot set", name, t, f.Name)
			}
			fp, err := newParam(f.Type, name+"."+f.Name)
			if err != nil {
				return nil, err
			}
			if fp.kind == kReader || fp.kind == kWriter {
				return nil, fmt.Errorf("%s: a field of type %s has no domain", fp.name, f.Type)
			}
			p.fields = append(p.fields, fp)
		}
	default:
		return nil, fmt.Errorf("%s: type %s has no default domain (give one with Values or Rapid)", name, t)
	}
	return p, nil
}

// value converts a, an argument a user gave (Vector, Values), to p's type.
func (p *param) value(a any) (reflect.Value, error) {
	switch p.kind {
	case kReader:
		if b, ok := a.([]byte); ok {
			return reflect.ValueOf(readerArg{Data: b}), nil
		}
		if r, ok := a.(ReaderArg); ok {
			return reflect.ValueOf(readerArg(r)), nil
		}
		return reflect.Value{}, fmt.Errorf("%s: want the []byte the reader holds, or a ReaderArg", p.name)
	case kWriter:
		if w, ok := a.(WriterArg); ok {
			return reflect.ValueOf(writerArg(w)), nil
		}
		return reflect.ValueOf(writerArg{}), nil
	}
	v := reflect.ValueOf(a)
	switch {
	case !v.IsValid():
		return reflect.Zero(p.t), nil
	case v.Type() == p.t:
		return v, nil
	case v.Type().ConvertibleTo(p.t) && v.Kind() == p.t.Kind():
		return v.Convert(p.t), nil
	}
	return reflect.Value{}, fmt.Errorf("%s: a %T is not a %s", p.name, a, p.t)
}

// ReaderArg is the argument a derived suite passes for an io.Reader
// parameter: the octets it holds and how it hands them out (one of the
// reader kinds, and the offset a kind that acts once acts at). It is what
// Input.Args holds for such a parameter, and what Vector and Values take
// (or the []byte alone, for a plain reader).
type ReaderArg struct {
	Data []byte
	Kind int // 0 a bytes.Reader; see readerKinds
	At   int
}

// WriterArg is the argument for an io.Writer parameter: how the writer
// behaves (0: a bytes.Buffer; see writerKinds) and the octet count at which
// a kind that acts once acts.
type WriterArg struct {
	Kind int
	At   int
}

type (
	readerArg ReaderArg
	writerArg WriterArg
)

// errBroken is what a reader or writer of the failing kinds returns.
var errBroken = errors.New("functest: the stream failed")
