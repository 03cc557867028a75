package equiv_test

import (
	"errors"
	"math"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/equivcheck/equivcheck/equiv"
)

func TestFuzzInputRoundTrip(t *testing.T) {
	for _, vals := range [][]any{
		{[]byte{}, uint16(0), []byte("\x00\xff\"\\\n")},
		{[]byte("hello"), uint16(math.MaxUint16), []byte{1, 2, 3}},
		{int(-1), int64(math.MinInt64), uint64(math.MaxUint64), uint8(255), int8(-128), uint32(7), int32(-7), true, false, "str\x00ing"},
	} {
		data := equiv.MarshalFuzzInput(vals...)
		got, err := equiv.UnmarshalFuzzInput(data)
		if err != nil {
			t.Fatalf("UnmarshalFuzzInput(%q): %v", data, err)
		}
		if !reflect.DeepEqual(got, vals) {
			t.Errorf("round trip of %#v = %#v", vals, got)
		}
	}
}

// TestUnmarshalFuzzInputGoForms reads the forms "go test" itself writes.
func TestUnmarshalFuzzInputGoForms(t *testing.T) {
	got, err := equiv.UnmarshalFuzzInput([]byte("go test fuzz v1\nbyte('a')\nrune('\\u00e9')\nuint16(0x10)\nint(-5)\n[]byte(\"\\xff\")\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []any{byte('a'), int32('é'), uint16(16), int(-5), []byte{0xff}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}

func TestUnmarshalFuzzInputRejects(t *testing.T) {
	for _, in := range []string{
		"",
		"not a fuzz file",
		"go test fuzz v1\n",
		"go test fuzz v1\nuint16(65536)\n",
		"go test fuzz v1\nuint8(-1)\n",
		"go test fuzz v1\nint8(-129)\n",
		"go test fuzz v1\n[]byte(\"unterminated)\n",
		"go test fuzz v1\nfloat64(1.5)\n",
		"go test fuzz v1\nos.Exit(1)\n",
		"go test fuzz v1\n[]int(\"x\")\n",
		"go test fuzz v1\nbool(1)\n",
		"go test fuzz v1\nuint16(1, 2)\n",
		"go test fuzz v1\nuint16(x)\n",
	} {
		if vals, err := equiv.UnmarshalFuzzInput([]byte(in)); err == nil {
			t.Errorf("UnmarshalFuzzInput(%q) = %#v, want an error", in, vals)
		}
	}
}

// target is a fuzz target of the toy pair in engine_test.go.
var target = equiv.FuzzTarget{Name: "FuzzToy", Args: []string{"[]byte", "uint16"}, Corpus: "toy"}

func TestLoadCorpusNamesTheBadFile(t *testing.T) {
	fsys := fstest.MapFS{
		"toy/good": {Data: equiv.MarshalFuzzInput([]byte("x"), uint16(1))},
		"toy/bad":  {Data: equiv.MarshalFuzzInput([]byte("x"), uint32(1))},
	}
	_, err := equiv.LoadCorpus(target, fsys, nil)
	var ce *equiv.CorpusError
	if !errors.As(err, &ce) || ce.File != "toy/bad" || ce.Regression || !errors.Is(err, equiv.ErrCorpus) {
		t.Fatalf("LoadCorpus = %v, want a CorpusError naming toy/bad", err)
	}
	delete(fsys, "toy/bad")
	entries, err := equiv.LoadCorpus(target, fsys, nil)
	if err != nil || len(entries) != 1 {
		t.Fatalf("LoadCorpus = %v, %v", entries, err)
	}
}

// TestLoadCorpusRegressions: regression inputs are read from the target's
// directory, a missing one holds none, and a bad one is named as such.
func TestLoadCorpusRegressions(t *testing.T) {
	seeds := fstest.MapFS{"toy/a": {Data: equiv.MarshalFuzzInput([]byte("a"), uint16(1))}}
	regs := fstest.MapFS{"FuzzToy/r": {Data: equiv.MarshalFuzzInput([]byte("r"), uint16(2))}}
	entries, err := equiv.LoadCorpus(target, seeds, regs)
	if err != nil || len(entries) != 2 || entries[1].File != "FuzzToy/r" {
		t.Fatalf("LoadCorpus = %v, %v", entries, err)
	}
	if entries, err := equiv.LoadCorpus(target, seeds, fstest.MapFS{}); err != nil || len(entries) != 1 {
		t.Fatalf("no regression directory: %v, %v", entries, err)
	}
	regs["FuzzToy/empty"] = &fstest.MapFile{}
	_, err = equiv.LoadCorpus(target, seeds, regs)
	var ce *equiv.CorpusError
	if !errors.As(err, &ce) || ce.File != "FuzzToy/empty" || !ce.Regression {
		t.Fatalf("LoadCorpus with an empty regression file = %v", err)
	}
}

// TestCorpusMethodReportsBadFile: the corpus method fails on a corrupt
// corpus instead of passing on what it could read.
func TestCorpusMethodReportsBadFile(t *testing.T) {
	fsys := fstest.MapFS{"toy/bad": {Data: []byte("go test fuzz v1\nnope\n")}}
	err := equiv.Check(toySuite(reverse), equiv.WithCorpus(fsys), only(equiv.MethodCorpus))
	if !errors.Is(err, equiv.ErrCorpus) {
		t.Fatalf("corpus method on a corrupt corpus = %v, want ErrCorpus", err)
	}
	if err := equiv.ValidateCorpus(toySuite(reverse), equiv.WithCorpus(fsys)); !errors.Is(err, equiv.ErrCorpus) {
		t.Fatalf("ValidateCorpus = %v, want ErrCorpus", err)
	}
}

// TestEmptyCorpusIsNotAPass: a method that compares nothing fails.
func TestEmptyCorpusIsNotAPass(t *testing.T) {
	fsys := fstest.MapFS{"toy/.keep": {Data: nil}}
	err := equiv.Check(toySuite(reverse), equiv.WithCorpus(fsys), only(equiv.MethodCorpus))
	if !errors.Is(err, equiv.ErrNothingChecked) {
		t.Fatalf("corpus method on an empty corpus = %v, want ErrNothingChecked", err)
	}
}
