// Command seedcorpus converts the seed corpus of the fuzz targets in ./fuzz
// into libFuzzer inputs, for the OSS-Fuzz and ClusterFuzzLite builds
// (oss-fuzz/build.sh) and the local libFuzzer run (.ci/libfuzzer.sh).
//
// Usage, from the repository root:
//
//	go run ./oss-fuzz/seedcorpus -out DIR        # DIR/<Target>/<file>, one directory per target
//	go run ./oss-fuzz/seedcorpus -zip -out $OUT  # $OUT/<Target>_seed_corpus.zip, as OSS-Fuzz wants
//	go run ./oss-fuzz/seedcorpus -target FuzzX -testcase FILE
//
// The last goes the other way: it decodes FILE, a libFuzzer input of FuzzX
// (a crash that OSS-Fuzz, ClusterFuzzLite or .ci/libfuzzer.sh reports),
// and prints it as a "go test fuzz v1" file, which "go test" replays from
// testdata/fuzz/FuzzX/ with the pair's own report of the disagreement.
//
// The seeds are every input of every fuzz target of every pair's suite (the
// pairs of the release gate, internal/registry): the suite's seed corpus,
// corpus/<pair>/, and the regression inputs under -regressions
// (fuzz/testdata/fuzz/<Target>/), all files in the "go test fuzz v1"
// format, which holds the target's arguments as Go literals.
//
// libFuzzer hands a target raw bytes. go-118-fuzz-build, which
// compile_native_go_fuzzer uses, decodes the arguments from them in order
// with go-fuzz-headers (github.com/AdamKorcz/go-118-fuzz-build/testing,
// F.Fuzz): a []byte or string is a 4-byte big-endian length and that many
// bytes; a uint16 or int16 two bytes, a 64-bit integer (int, uint, int64,
// uint64) eight, each followed by a byte whose parity picks the byte order
// (odd: big-endian); a 32-bit integer four bytes, big-endian; an 8-bit one
// a byte; a bool a byte (even: true). A []byte length is taken modulo the
// bytes left after it unless equal to them, and 0 means 30, so an empty
// []byte is written as twice the bytes left (and, if it is the last
// argument, with one padding byte after it). Every input written is
// decoded back with go-fuzz-headers, call for call as the harness does,
// and compared with the values it came from: a mismatch is an error, not
// a seed that silently decodes to something else.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	fuzzheaders "github.com/AdaLogics/go-fuzz-headers"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/registry"
)

func main() {
	out := flag.String("out", "", "write the seeds under `dir` (required)")
	zipped := flag.Bool("zip", false, "write <Target>_seed_corpus.zip files instead of <Target>/ directories")
	regressions := flag.String("regressions", "fuzz/testdata/fuzz", "also convert the regression inputs under `dir` (\"\" for none)")
	target := flag.String("target", "", "with -testcase: the fuzz target `name` the input is for")
	testcase := flag.String("testcase", "", "print the libFuzzer input `file` as a \"go test fuzz v1\" file")
	flag.Parse()
	if *testcase != "" {
		if err := printTestcase(os.Stdout, *target, *testcase); err != nil {
			fmt.Fprintln(os.Stderr, "seedcorpus:", err)
			os.Exit(1)
		}
		return
	}
	if *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	var regFS fs.FS
	if *regressions != "" {
		regFS = os.DirFS(*regressions)
	}
	if err := run(*out, *zipped, regFS); err != nil {
		fmt.Fprintln(os.Stderr, "seedcorpus:", err)
		os.Exit(1)
	}
}

// run converts the inputs of every fuzz target of the gate's suites and
// writes them under out.
func run(out string, zipped bool, regressions fs.FS) error {
	for _, t := range targets() {
		entries, err := equiv.LoadCorpus(t.target, t.seeds, regressions)
		if err != nil {
			return err
		}
		files := map[string][]byte{}
		for _, e := range entries {
			name := path.Base(e.File)
			if _, dup := files[name]; dup {
				return fmt.Errorf("%s: two inputs named %s", t.target.Name, name)
			}
			if files[name], err = encode(e.Values); err != nil {
				return fmt.Errorf("%s: %w", e.File, err)
			}
		}
		if err := write(out, t.target.Name, files, zipped); err != nil {
			return err
		}
		fmt.Printf("%s: %d seeds\n", t.target.Name, len(files))
	}
	return nil
}

// printTestcase decodes the libFuzzer input in file as arguments of the
// fuzz target named target and writes them to w in the "go test fuzz v1"
// format.
func printTestcase(w io.Writer, target, file string) error {
	var args []string
	for _, t := range targets() {
		if t.target.Name == target {
			args = t.target.Args
		}
	}
	if args == nil {
		return fmt.Errorf("-target %q: not a fuzz target of the gate's suites", target)
	}
	like := make([]any, len(args))
	for i, a := range args {
		z, ok := zeros[a]
		if !ok {
			return fmt.Errorf("%s: go-118-fuzz-build cannot decode a %s argument", target, a)
		}
		like[i] = z
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	values, err := decode(data, like)
	if err != nil {
		return fmt.Errorf("%s: %v (the harness does not call the target on this input)", file, err)
	}
	_, err = w.Write(equiv.MarshalFuzzInput(values...))
	return err
}

// zeros holds a value of each argument type the harness decodes, by its
// name in equiv.FuzzTarget.Args.
var zeros = map[string]any{
	"[]byte": []byte(nil), "string": "", "bool": false,
	"int": int(0), "int8": int8(0), "int16": int16(0), "int32": int32(0), "rune": int32(0), "int64": int64(0),
	"uint": uint(0), "uint8": uint8(0), "byte": uint8(0), "uint16": uint16(0), "uint32": uint32(0), "uint64": uint64(0),
}

// suiteTarget is a fuzz target and the seed corpus of its suite.
type suiteTarget struct {
	target equiv.FuzzTarget
	seeds  fs.FS
}

// targets returns each fuzz target of the gate's suites once, in order.
func targets() []suiteTarget {
	var ts []suiteTarget
	seen := map[string]bool{}
	for _, v := range registry.Gate() {
		for _, t := range v.Suite.Targets {
			if !seen[t.Name] {
				seen[t.Name] = true
				ts = append(ts, suiteTarget{t, v.Suite.Corpus})
			}
		}
	}
	return ts
}

// write writes files as out/target/<name>, or as the zip
// out/target_seed_corpus.zip; a target without seeds gets neither.
func write(out, target string, files map[string][]byte, zipped bool) error {
	if len(files) == 0 {
		return nil
	}
	if !zipped {
		dir := filepath.Join(out, target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range files {
		w, err := zw.Create(name)
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, target+"_seed_corpus.zip"), buf.Bytes(), 0o644)
}

// encode returns the libFuzzer input from which go-118-fuzz-build's
// harness decodes values as a fuzz function's arguments (see the package
// documentation), after checking that it decodes back to them.
func encode(values []any) ([]byte, error) {
	var data []byte // the encoding of the values after the i-th
	for i := len(values) - 1; i >= 0; i-- {
		var err error
		if data, err = prepend(values[i], data); err != nil {
			return nil, err
		}
	}
	got, err := decode(data, values)
	if err != nil {
		return nil, fmt.Errorf("the encoding does not decode: %v", err)
	}
	for i := range values {
		if !equal(got[i], values[i]) {
			return nil, fmt.Errorf("argument %d decodes as %#v, not %#v", i, got[i], values[i])
		}
	}
	return data, nil
}

// prepend returns the encoding of v followed by rest, the encoding of the
// arguments after v.
func prepend(v any, rest []byte) ([]byte, error) {
	var head []byte
	switch v := v.(type) {
	case []byte:
		if len(v) == 0 && len(rest) == 0 {
			rest = []byte{0} // GetBytes gives an empty slice only with a byte left
		}
		head = binary.BigEndian.AppendUint32(nil, bytesLength(len(v), len(v)+len(rest)))
		head = append(head, v...)
	case string:
		head = binary.BigEndian.AppendUint32(nil, uint32(len(v)))
		head = append(head, v...)
	case bool:
		head = []byte{1} // odd: false
		if v {
			head[0] = 0
		}
	case int8:
		head = []byte{byte(v)}
	case uint8:
		head = []byte{v}
	case int16:
		head = append(binary.BigEndian.AppendUint16(nil, uint16(v)), bigEndian)
	case uint16:
		head = append(binary.BigEndian.AppendUint16(nil, v), bigEndian)
	case int32:
		head = binary.BigEndian.AppendUint32(nil, uint32(v))
	case uint32:
		head = binary.BigEndian.AppendUint32(nil, v)
	case int:
		head = append(binary.BigEndian.AppendUint64(nil, uint64(v)), bigEndian)
	case int64:
		head = append(binary.BigEndian.AppendUint64(nil, uint64(v)), bigEndian)
	case uint:
		head = append(binary.BigEndian.AppendUint64(nil, uint64(v)), bigEndian)
	case uint64:
		head = append(binary.BigEndian.AppendUint64(nil, v), bigEndian)
	default:
		return nil, fmt.Errorf("go-118-fuzz-build cannot decode a %T argument", v)
	}
	return append(head, rest...), nil
}

// bigEndian is the byte after a 16- or 64-bit integer that go-fuzz-headers
// reads as "not little-endian" (it is odd).
const bigEndian = 1

// bytesLength is the length field that makes GetBytes return n bytes when
// left bytes (n of them included) follow the field: n itself, since a
// length below left is taken modulo left and one equal to it as is; for
// n = 0 a nonzero multiple of left (0 would mean 30).
func bytesLength(n, left int) uint32 {
	if n == 0 {
		return uint32(2 * left)
	}
	return uint32(n)
}

// decode decodes data as go-118-fuzz-build's F.Fuzz does for a fuzz
// function whose arguments have the types of like's elements: one
// go-fuzz-headers call per argument, by type.
func decode(data []byte, like []any) ([]any, error) {
	c := fuzzheaders.NewConsumer(data)
	out := make([]any, len(like))
	for i, v := range like {
		var err error
		switch v.(type) {
		case []byte:
			out[i], err = c.GetBytes()
		case string:
			out[i], err = c.GetString()
		case bool:
			out[i], err = c.GetBool()
		case int8:
			out[i], err = convert(c.GetByte, func(b byte) int8 { return int8(b) })
		case uint8:
			out[i], err = c.GetByte()
		case int16:
			out[i], err = convert(c.GetUint16, func(u uint16) int16 { return int16(u) })
		case uint16:
			out[i], err = c.GetUint16()
		case int32:
			out[i], err = convert(c.GetUint32, func(u uint32) int32 { return int32(u) })
		case uint32:
			out[i], err = c.GetUint32()
		case int:
			out[i], err = convert(c.GetUint64, func(u uint64) int { return int(u) })
		case int64:
			out[i], err = convert(c.GetUint64, func(u uint64) int64 { return int64(u) })
		case uint:
			out[i], err = convert(c.GetUint64, func(u uint64) uint { return uint(u) })
		case uint64:
			out[i], err = c.GetUint64()
		default:
			err = fmt.Errorf("go-118-fuzz-build cannot decode a %T argument", v)
		}
		if err != nil {
			return nil, fmt.Errorf("argument %d (%T): %w", i, v, err)
		}
	}
	return out, nil
}

// convert reads a value with get and converts it as the harness does
// (reflect's SetInt truncates to the argument's width).
func convert[U, V any](get func() (U, error), conv func(U) V) (V, error) {
	u, err := get()
	if err != nil {
		var zero V
		return zero, err
	}
	return conv(u), nil
}

// equal reports whether two argument values are the same, an empty and a
// nil []byte alike.
func equal(a, b any) bool {
	if x, ok := a.([]byte); ok {
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	}
	return a == b
}
