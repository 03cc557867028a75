package equiv

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// fuzzHeader is the first line of a file in the format that "go test" reads
// from testdata/fuzz/FuzzX/ and writes when fuzzing finds a failure.
const fuzzHeader = "go test fuzz v1"

// FuzzTarget is one fuzz target of a pair, as the corpus method and the
// pair's Fuzz helper see it: its name, its arguments, where its inputs are
// and how one input is checked.
type FuzzTarget struct {
	// Name is the fuzz target's name, such as "FuzzChecksum": the name of
	// its directory of regression inputs (see WithRegressions) and of
	// Counterexample.FuzzTarget.
	Name string
	// Args are the types of its arguments after *testing.T, as the "go
	// test fuzz v1" format writes them: "[]byte", "string", "bool",
	// "int", "uint16", ….
	Args []string
	// Corpus is its directory in the suite's seed corpus (Suite.Corpus or
	// WithCorpus), such as "checksum", or "" if it has no seeds there.
	Corpus string
	// Check checks the implementation on one input (values of the types in
	// Args) and returns the minimized counterexample, if any, and the number
	// of comparisons made.
	Check func(c *Config, values []any) (ce *Counterexample, compared int)
}

// ErrCorpus is matched (with errors.Is) by every error about an unreadable or
// malformed corpus file.
var ErrCorpus = errors.New("bad corpus file")

// CorpusError reports a corpus file that cannot be used.
type CorpusError struct {
	File       string // the file's path within its file system
	Regression bool   // the file is a regression input (WithRegressions), not a seed
	Err        error
}

func (e *CorpusError) Error() string        { return fmt.Sprintf("corpus file %s: %v", e.File, e.Err) }
func (e *CorpusError) Unwrap() error        { return e.Err }
func (e *CorpusError) Is(target error) bool { return target == ErrCorpus }

// CorpusEntry is one input of a fuzz target, read from a corpus file.
type CorpusEntry struct {
	File   string // path within its file system
	Values []any  // the fuzz target's arguments, in order
}

// LoadCorpus reads every input of target: the files of its seed directory
// in seeds (when both are set; a missing directory is an error) and of its
// regression directory in regressions (when set; a missing directory
// holds none). A file that cannot be read or parsed, or whose values do
// not match target.Args, is a *CorpusError naming it.
func LoadCorpus(target FuzzTarget, seeds, regressions fs.FS) ([]CorpusEntry, error) {
	var entries []CorpusEntry
	if seeds != nil && target.Corpus != "" {
		e, err := loadDir(target, seeds, target.Corpus, false)
		if err != nil {
			return nil, err
		}
		entries = e
	}
	if regressions != nil {
		if _, err := fs.Stat(regressions, target.Name); err == nil {
			e, err := loadDir(target, regressions, target.Name, true)
			if err != nil {
				return nil, err
			}
			entries = append(entries, e...)
		}
	}
	return entries, nil
}

// Limits of the corpus loader: a file larger than MaxCorpusFile, or a
// directory whose files add up to more than MaxCorpusDir or number more
// than MaxCorpusFiles, is refused (a *CorpusError naming it), so that a
// corpus cannot make the gate exhaust memory or time.
const (
	MaxCorpusFile  = 1 << 20
	MaxCorpusDir   = 64 << 20
	MaxCorpusFiles = 10000
)

func loadDir(target FuzzTarget, fsys fs.FS, dir string, regression bool) ([]CorpusEntry, error) {
	dirents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, &CorpusError{File: dir, Regression: regression, Err: err}
	}
	var entries []CorpusEntry
	total := 0
	for _, d := range dirents {
		if d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			continue
		}
		name := path.Join(dir, d.Name())
		bad := func(err error) error { return &CorpusError{File: name, Regression: regression, Err: err} }
		if len(entries) == MaxCorpusFiles {
			return nil, &CorpusError{File: dir, Regression: regression, Err: fmt.Errorf("more than %d files", MaxCorpusFiles)}
		}
		data, err := readBounded(fsys, name, d)
		if err != nil {
			return nil, bad(err)
		}
		if total += len(data); total > MaxCorpusDir {
			return nil, &CorpusError{File: dir, Regression: regression, Err: fmt.Errorf("files add up to more than %d bytes", MaxCorpusDir)}
		}
		vals, err := UnmarshalFuzzInput(data)
		if err != nil {
			return nil, bad(err)
		}
		if err := checkSignature(vals, target.Args); err != nil {
			return nil, bad(fmt.Errorf("%w (want %s(%s))", err, target.Name, strings.Join(target.Args, ", ")))
		}
		entries = append(entries, CorpusEntry{File: name, Values: vals})
	}
	return entries, nil
}

// readBounded reads a corpus file: a regular file (no symbolic link, which
// could lead outside the corpus or to a device, and no pipe or device,
// whose reading could block or never end) of at most MaxCorpusFile bytes.
func readBounded(fsys fs.FS, name string, d fs.DirEntry) ([]byte, error) {
	if t := d.Type(); !t.IsRegular() {
		return nil, fmt.Errorf("not a regular file (%v): corpus files must be plain files", t)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%v): corpus files must be plain files", st.Mode().Type())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxCorpusFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxCorpusFile {
		return nil, fmt.Errorf("larger than %d bytes", MaxCorpusFile)
	}
	return data, nil
}

// ValidateCorpus loads every input of every fuzz target of s, from the
// corpus and regressions opts name (else the suite's own corpus), and
// returns the first problem. The release gate calls it before running, so
// that a corrupt file is reported as such rather than as a failed check.
func ValidateCorpus(s Suite, opts ...Option) error {
	c := NewConfig(opts...)
	for _, t := range s.Targets {
		if _, err := LoadCorpus(t, c.seedCorpus(s), c.regressions); err != nil {
			return err
		}
	}
	return nil
}

func (c *Config) seedCorpus(s Suite) fs.FS {
	if c.corpus != nil {
		return c.corpus
	}
	return s.Corpus
}

// corpusMethod replays every input of every fuzz target of s.
func corpusMethod(s Suite) Method {
	return Method{Name: MethodCorpus, Func: func(r *Run) error {
		for _, t := range s.Targets {
			entries, err := LoadCorpus(t, r.cfg.seedCorpus(s), r.cfg.regressions)
			if err != nil {
				return err
			}
			for _, e := range entries {
				ce, n := t.Check(r.cfg, e.Values)
				if ce != nil {
					ce.Args += " corpus=" + e.File
					return r.Fail(ce)
				}
				r.Count(n)
			}
		}
		return nil
	}}
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
	return parseFuzzInt(typ, lit, neg, line)
}

// intKinds are the integer types of the format: width and signedness.
var intKinds = map[string]struct {
	bits   int
	signed bool
}{
	"int": {64, true}, "int64": {64, true}, "int8": {8, true}, "int16": {16, true},
	"int32": {32, true}, "rune": {32, true},
	"uint": {64, false}, "uint64": {64, false}, "uint8": {8, false}, "byte": {8, false},
	"uint16": {16, false}, "uint32": {32, false},
}

// parseFuzzInt reads an integer of type typ, written as a decimal, hex,
// octal or character literal, negated if neg.
func parseFuzzInt(typ string, lit *ast.BasicLit, neg bool, line string) (any, error) {
	text := lit.Value
	var u uint64
	var err error
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
	kind, ok := intKinds[typ]
	if !ok {
		return nil, fmt.Errorf("unsupported type in %q", line)
	}
	bits, signed := kind.bits, kind.signed
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
