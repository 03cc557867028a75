package equiv

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/equivcheck/equivcheck/corpus"
)

// fuzzHeader is the first line of a file in the format that "go test" reads
// from testdata/fuzz/FuzzX/ and writes when fuzzing finds a failure.
const fuzzHeader = "go test fuzz v1"

// ErrCorpus is matched (with errors.Is) by every error about an unreadable or
// malformed corpus file.
var ErrCorpus = errors.New("bad corpus file")

// CorpusError reports a corpus file that cannot be used.
type CorpusError struct {
	File string // the file's path within the corpus file system
	Err  error
}

func (e *CorpusError) Error() string        { return fmt.Sprintf("corpus file %s: %v", e.File, e.Err) }
func (e *CorpusError) Unwrap() error        { return e.Err }
func (e *CorpusError) Is(target error) bool { return target == ErrCorpus }

// CorpusEntry is one input of a fuzz target, read from a corpus file.
type CorpusEntry struct {
	File   string // path within the corpus file system
	Values []any  // the fuzz target's arguments, in order
}

// fuzzTargets maps a pair to the name and argument types of its fuzz target
// in package fuzz; corpus files in the pair's directory hold these arguments.
var fuzzTargets = map[string]struct {
	name string
	sig  []string
}{
	"checksum":  {"FuzzChecksum", []string{"[]byte", "uint16", "[]byte"}},
	"websocket": {"FuzzMask", []string{"[]byte", "uint32", "int", "[]byte"}},
	"quic":      {"FuzzQUICHeader", []string{"[]byte", "int"}},
}

// DefaultCorpus returns the corpus embedded from the repository's corpus/
// directory.
func DefaultCorpus() fs.FS { return corpus.FS }

// LoadCorpus reads every file in directory pair of fsys and checks it against
// the signature of the pair's fuzz target. A file that cannot be read or
// parsed, or whose values do not match the signature, is an error naming it
// and matching ErrCorpus. A missing directory is an error too.
func LoadCorpus(fsys fs.FS, pair string) ([]CorpusEntry, error) {
	target, ok := fuzzTargets[pair]
	if !ok {
		return nil, fmt.Errorf("equiv: no fuzz target for pair %q", pair)
	}
	dirents, err := fs.ReadDir(fsys, pair)
	if err != nil {
		return nil, &CorpusError{File: pair, Err: err}
	}
	var entries []CorpusEntry
	for _, d := range dirents {
		if d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			continue
		}
		name := path.Join(pair, d.Name())
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, &CorpusError{File: name, Err: err}
		}
		vals, err := UnmarshalFuzzInput(data)
		if err != nil {
			return nil, &CorpusError{File: name, Err: err}
		}
		if err := checkSignature(vals, target.sig); err != nil {
			return nil, &CorpusError{File: name, Err: fmt.Errorf("%w (want %s(%s))", err, target.name, strings.Join(target.sig, ", "))}
		}
		entries = append(entries, CorpusEntry{File: name, Values: vals})
	}
	return entries, nil
}

// ValidateCorpus loads the corpus of every pair, returning the first problem.
func ValidateCorpus(fsys fs.FS) error {
	for _, pair := range slices.Sorted(mapKeys(fuzzTargets)) {
		if _, err := LoadCorpus(fsys, pair); err != nil {
			return err
		}
	}
	return nil
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func checkSignature(vals []any, sig []string) error {
	if len(vals) != len(sig) {
		return fmt.Errorf("%d values, want %d", len(vals), len(sig))
	}
	for i, v := range vals {
		if got := typeName(v); got != sig[i] {
			return fmt.Errorf("value %d is %s, want %s", i+1, got, sig[i])
		}
	}
	return nil
}

func typeName(v any) string {
	switch v.(type) {
	case []byte:
		return "[]byte"
	}
	return fmt.Sprintf("%T", v)
}

// MarshalFuzzInput encodes values in the "go test fuzz v1" format, so that a
// file holding it, placed in fuzz/testdata/fuzz/FuzzX/, is replayed by every
// plain "go test" of package fuzz. Supported types are []byte, string, bool
// and the integer types.
func MarshalFuzzInput(values ...any) []byte {
	var b bytes.Buffer
	b.WriteString(fuzzHeader + "\n")
	for _, v := range values {
		switch v := v.(type) {
		case []byte:
			fmt.Fprintf(&b, "[]byte(%s)\n", strconv.Quote(string(v)))
		case string:
			fmt.Fprintf(&b, "string(%s)\n", strconv.Quote(v))
		case bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
			fmt.Fprintf(&b, "%T(%v)\n", v, v)
		default:
			panic(fmt.Sprintf("equiv: MarshalFuzzInput: unsupported type %T", v))
		}
	}
	return b.Bytes()
}

// UnmarshalFuzzInput decodes a file in the "go test fuzz v1" format. It
// accepts the forms "go test" writes for []byte, string, bool, byte, rune and
// the integer types; anything else is an error.
func UnmarshalFuzzInput(data []byte) ([]any, error) {
	lines := strings.Split(string(data), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != fuzzHeader {
		return nil, fmt.Errorf("missing %q header", fuzzHeader)
	}
	var vals []any
	for i, line := range lines[1:] {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		v, err := parseFuzzValue(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", i+2, err)
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		return nil, errors.New("no values")
	}
	return vals, nil
}

func parseFuzzValue(line string) (any, error) {
	expr, err := parser.ParseExpr(line)
	if err != nil {
		return nil, fmt.Errorf("not a Go expression: %q", line)
	}
	call, ok := expr.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Ellipsis != token.NoPos {
		return nil, fmt.Errorf("want type(value), got %q", line)
	}
	typ := ""
	switch f := call.Fun.(type) {
	case *ast.Ident:
		typ = f.Name
	case *ast.ArrayType:
		if id, ok := f.Elt.(*ast.Ident); ok && f.Len == nil && (id.Name == "byte" || id.Name == "uint8") {
			typ = "[]byte"
		}
	}
	arg := call.Args[0]
	neg := false
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		neg, arg = true, u.X
	}
	if typ == "bool" {
		id, ok := arg.(*ast.Ident)
		if !ok || neg || (id.Name != "true" && id.Name != "false") {
			return nil, fmt.Errorf("bad bool in %q", line)
		}
		return id.Name == "true", nil
	}
	lit, ok := arg.(*ast.BasicLit)
	if !ok {
		return nil, fmt.Errorf("want a literal in %q", line)
	}
	switch typ {
	case "[]byte", "string":
		if lit.Kind != token.STRING || neg {
			return nil, fmt.Errorf("want a string literal in %q", line)
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return nil, fmt.Errorf("bad string literal in %q", line)
		}
		if typ == "string" {
			return s, nil
		}
		return []byte(s), nil
	}
	// Integers, written as decimal, hex, octal or character literals.
	text := lit.Value
	var u uint64
	switch lit.Kind {
	case token.INT:
		u, err = strconv.ParseUint(text, 0, 64)
		if err != nil {
			return nil, fmt.Errorf("bad integer in %q", line)
		}
	case token.CHAR:
		r, _, tail, err := strconv.UnquoteChar(text[1:len(text)-1], '\'')
		if err != nil || tail != "" {
			return nil, fmt.Errorf("bad character literal in %q", line)
		}
		u = uint64(r)
	default:
		return nil, fmt.Errorf("want an integer in %q", line)
	}
	bits, signed := 0, false
	switch typ {
	case "int", "int64":
		bits, signed = 64, true
	case "int8":
		bits, signed = 8, true
	case "int16":
		bits, signed = 16, true
	case "int32", "rune":
		bits, signed = 32, true
	case "uint", "uint64":
		bits = 64
	case "uint8", "byte":
		bits = 8
	case "uint16":
		bits = 16
	case "uint32":
		bits = 32
	default:
		return nil, fmt.Errorf("unsupported type in %q", line)
	}
	if neg && !signed {
		return nil, fmt.Errorf("negative unsigned value in %q", line)
	}
	var limit uint64 = 1<<(bits-1) - 1 // signed maximum
	if !signed {
		limit = 1<<bits - 1
		if bits == 64 {
			limit = ^uint64(0)
		}
	}
	if neg {
		limit++ // the signed minimum's magnitude
	}
	if u > limit {
		return nil, fmt.Errorf("value out of range in %q", line)
	}
	s := int64(u)
	if neg {
		s = -s
	}
	switch typ {
	case "int":
		return int(s), nil
	case "int64":
		return s, nil
	case "int8":
		return int8(s), nil
	case "int16":
		return int16(s), nil
	case "int32", "rune":
		return int32(s), nil
	case "uint":
		return uint(u), nil
	case "uint64":
		return u, nil
	case "uint8", "byte":
		return uint8(u), nil
	case "uint16":
		return uint16(u), nil
	}
	return uint32(u), nil
}
