package functest

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"

	"github.com/equivcheck/equivcheck/equiv"
)

// fuzzName is the fuzz target's name: "Fuzz" and the suite's name, its
// first letter upper-cased and anything but letters and digits dropped.
func (s *spec) fuzzName() string {
	var b strings.Builder
	b.WriteString("Fuzz")
	for i, r := range s.name {
		switch {
		case i == 0:
			b.WriteRune(unicode.ToUpper(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// target is the suite's fuzz target: one []byte, from which the alignment
// and every argument are decoded (codec.go), checked as every method
// checks an input.
func (s *spec) target() equiv.FuzzTarget {
	return equiv.FuzzTarget{
		Name:   s.fuzzName(),
		Args:   []string{"[]byte"},
		Corpus: s.name,
		Check: func(cfg *equiv.Config, vals []any) (*equiv.Counterexample, int) {
			data, _ := vals[0].([]byte)
			compared := 0
			c := newChecker(s, cfg, func(int) { compared = 1 })
			defer c.release()
			args, align := s.decodeArgs(data)
			return c.compare(args, align), compared
		},
	}
}

// seeds is the suite's seed corpus: the vectors and each parameter's
// boundary values (the others at their first), encoded, in a directory
// named as the suite, in the "go test fuzz v1" format.
func (s *spec) seeds() fs.FS {
	fsys := fstest.MapFS{}
	add := func(args []reflect.Value) {
		data := equiv.MarshalFuzzInput(s.encodeArgs(args, len(fsys)&63))
		sum := sha256.Sum256(data)
		fsys[fmt.Sprintf("%s/%x", s.name, sum[:8])] = &fstest.MapFile{Data: data}
	}
	for _, v := range s.vectors {
		add(v)
	}
	base := s.baseArgs()
	for i, p := range s.params {
		for _, b := range p.boundaries() {
			args := append([]reflect.Value(nil), base...)
			args[i] = b
			add(args)
		}
	}
	return fsys
}

// Fuzz fuzzes the implementation of suite, a suite New returned, against
// its reference: its seeds are added to f, and each input the fuzzer
// makes is decoded into the function's arguments and checked as every
// method checks an input, a disagreement reported with its minimized
// counterexample:
//
//	func FuzzCRC(f *testing.F) {
//		functest.Fuzz(f, functest.New("Checksum", crcBitwise, crcSlicing8))
//	}
//
// A suite whose Err is set fails f at once.
func Fuzz(f equiv.F, suite equiv.Suite, opts ...equiv.Option) {
	f.Helper()
	if suite.Err != nil {
		f.Fatal(suite.Err)
	}
	if len(suite.Targets) != 1 || len(suite.Targets[0].Args) != 1 || suite.Targets[0].Args[0] != "[]byte" {
		f.Fatalf("functest.Fuzz: %s is not a suite functest.New returned", suite.Pair)
	}
	target := suite.Targets[0]
	equiv.AddSeeds(f, suite, target)
	fr := equiv.NewFuzzReporter([]string{""}, func(string) string { return "" })
	check := func(t equiv.Reporter, data []byte) {
		t.Helper()
		cfg := equiv.NewConfig(opts...)
		if ce, _ := target.Check(cfg, []any{data}); ce != nil {
			ce.Pair, ce.Method, ce.Seed = suite.Pair, "fuzz", 0
			fr.Report(t, 0, ce)
		}
	}
	if tf, ok := f.(*testing.F); ok {
		tf.Fuzz(func(t *testing.T, data []byte) { check(t, data) })
		return
	}
	f.Fuzz(check)
}
