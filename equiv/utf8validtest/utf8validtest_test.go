package utf8validtest_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/utf8validtest"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// reference is reference/utf8valid as an Impl: it must pass every method.
var reference = utf8validtest.Impl{
	Name:         "reference",
	Valid:        ref.Valid,
	NewValidator: func() utf8validtest.Validator { return new(ref.Validator) },
	NewReader: func(r io.Reader, key [4]byte, v utf8validtest.Validator) utf8validtest.Reader {
		return ref.NewReader(r, key, v.(*ref.Validator))
	},
}

func only(m string) equiv.Option {
	return equiv.WithMethods(func(name string) bool { return name == m })
}

func results(impl utf8validtest.Impl, opts ...equiv.Option) (map[string]equiv.Result, error) {
	res := map[string]equiv.Result{}
	err := utf8validtest.Check(impl, append(opts, equiv.WithReport(func(r equiv.Result) { res[r.Method] = r }))...)
	return res, err
}

// TestCountsUnchanged: the reference, checked with seed 1 at quick,
// compares exactly these many inputs per method (docs/equivalence.md
// derives them), and nothing is unchecked or narrowed.
func TestCountsUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole quick suite")
	}
	res, err := results(reference, equiv.WithSeed(1))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for m, r := range res {
		got[m] = r.Checked
		if len(r.Unchecked) > 0 || len(r.Narrowed) > 0 {
			t.Errorf("%s: unchecked %q, narrowed %q", m, r.Unchecked, r.Narrowed)
		}
	}
	want := map[string]int64{
		equiv.MethodVectors:    14911 + issue29ReuseVectors + afterASCIIVectors + phaseVectors + loneVectors, // 14911 -> 17575 -> 60667 -> 61126 -> 82186
		equiv.MethodExhaustive: exhaustiveCount + issue29ReuseExhaustive + boundaryCount,                     // 40723731 -> 40794005 -> 40810205
		equiv.MethodGuard:      2 * 2 * 577 * 6,
		equiv.MethodProperties: 300 + 3*300,
		equiv.MethodScale:      scaleCount,
		equiv.MethodCorpus:     6,
	}
	if equiv.GuardSkip() != "" {
		delete(want, equiv.MethodGuard)
		delete(got, equiv.MethodGuard)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("counts = %v, want %v", got, want)
	}
}

// Issue 29's reuse (equiv.Again): every eighth input that passed
// (counted from a point each unit of a split method fixes) is checked
// again, its octets complemented, at the same addresses; which inputs that is follows from the enumeration (the
// lean path, which compares with the reference's verdict directly, makes
// none), so the numbers are fixed.
const issue29ReuseVectors, issue29ReuseExhaustive = 1935, 70274

// afterASCIIVectors are the comparisons of the vectors after runs of 15
// spaces, 31 NULs and 63 spaces (afterASCII, after simdjson/simdjson#1169): 43 vectors
// and the 23 with octets after the one at which they fail, cut just after
// it (asciiTexts) × 3 runs × Valid, one Write and Unmask at 4 phases
// (their re-checks are among issue29ReuseVectors).
const afterASCIIVectors = (43 + 23) * 3 * 6

// phaseVectors are phaseTexts' Unmask inputs, whose masked octets look
// ASCII under the key at a wrong phase: 14 keys × 4 positions × 3
// rotations × 228 texts (Σ over n = 1..64 of 1 + the number of 4, 8 and
// 16 under n), and the re-check of every eighth (equiv.Again; all pass).
const phaseVectors = 14*4*3*228 + 14*4*3*228/8

// loneVectors are loneTexts' inputs: one octet of 3 that are not ASCII at
// each of the 2080 positions of the texts of 1..64 octets × Valid, one
// Write and Unmask, and the re-check of every eighth (all pass).
const loneVectors = 2080*3*3 + 2080*3*3/8

// scaleCount is the scale method's count at quick, seed 1: the two
// histories (a Validator's and a Reader's: 1200 calls, the content that
// matters, and the reuse after Reset on each of the 43 vectors), the
// overlap (16 rounds × 2 lanes × 4 functions, and 15 re-checks), and the
// 85 sizes equiv.ScaleSizes draws (632 windowed texts, 8 per size and 4
// from 1 MiB, 77 Reader texts up to 1 MiB, and 98 re-checks).
const scaleCount = 2*(1200+1+43) + 2*16*4 + 15 + 632 + 77 + 98

// boundaryCount is boundaryTexts' count: texts of 4095, 4096 and 4097
// octets × 64 alignments × (21 texts across the first 64-octet boundary
// (2 valid, 6 characters across it, 6 of them cut, 2 surrogates, 5 flaws)
// × Valid, one Write and Unmask, and 6 texts after a first piece of 1-3
// octets (a 4-octet character from its last octet, whole and cut) × a
// Validator and Unmask in the two pieces), and the re-check of every
// eighth (all pass).
const boundaryCount = 3*64*(21*3+6*2) + 3*64*(21*3+6*2)/8

// exhaustiveCount is the exhaustive method's count at quick, part by part.
const exhaustiveCount = 65793*3 + // every text of 0..2 octets: Valid, Validator, Unmask
	characters + // every character of 2..4 octets, split at every point
	577*64*3*3 + // the grid: 3 classes of 9 at each length and alignment, 3 functions
	4*600*(3*3+1) + // a flaw at every offset, and every cut
	(201+200+199+198+1)*2 + // every split of 200 octets, pieces of 1..3 starting at every point, octet by octet
	readerCount + // the Reader over every kind
	1<<24*2 // every 3-octet text: Valid and Validator

// characters: each of the 1,111,936 characters of 2..4 octets is split at
// every point inside it and just after it (2, 3 or 4), unmasked split at
// one, and written with its last octet replaced: 1920 2-octet ones
// (2+1+1), 61,440 3-octet ones (3+1+1) and 1,048,576 4-octet ones (4+1+1).
const characters = 1920*4 + 61440*5 + 1048576*6

// readerCount: every prefix of texts of 11, 21 and 4 octets over 9 kinds
// of reader (3 of them at every offset 0..n), each after a warm-up through
// another reader and through the same, in 3 ways of cutting the Reads:
// 6·Σ_{n=0}^{L} (6 + 3(n+1)) for L = 11, 21, 4 (1836 + 5346 + 450); and a
// 77,000-octet text in one Read over 2 readers.
const readerCount = 1836 + 5346 + 450 + 2

func TestReferencePasses(t *testing.T) {
	if err := utf8validtest.Check(reference, equiv.WithSeed(7), equiv.WithMethods(func(m string) bool { return m != equiv.MethodExhaustive })); err != nil {
		t.Fatal(err)
	}
}

// knownBad are validators with one bug each, modelled on shipped ones;
// each must be caught by the method named.
var knownBad = []struct {
	name, method string
	valid        func([]byte) bool
}{
	{"accepts surrogates", equiv.MethodVectors, func(b []byte) bool {
		return ref.Valid(bytes.ReplaceAll(b, []byte{0xed, 0xa0}, []byte{0xed, 0x9f}))
	}},
	{"accepts overlong 2-octet forms", equiv.MethodVectors, func(b []byte) bool {
		return ref.Valid(bytes.ReplaceAll(bytes.ReplaceAll(b, []byte{0xc0}, []byte{0xc2}), []byte{0xc1}, []byte{0xc2}))
	}},
	{"accepts above U+10FFFF", equiv.MethodVectors, func(b []byte) bool {
		return ref.Valid(bytes.ReplaceAll(b, []byte{0xf4, 0x90}, []byte{0xf4, 0x8f}))
	}},
}

func TestKnownBadValid(t *testing.T) {
	for _, kb := range knownBad {
		t.Run(kb.name, func(t *testing.T) {
			err := utf8validtest.Check(utf8validtest.Impl{Valid: kb.valid}, equiv.WithSeed(1), only(kb.method))
			ces := equiv.Counterexamples(err)
			if !errors.Is(err, equiv.ErrMismatch) || len(ces) == 0 {
				t.Fatalf("not caught by %s: %v", kb.method, err)
			}
			if len(ces[0].Input) > 8 {
				t.Errorf("counterexample not minimized: %v", ces[0])
			}
		})
	}
}

// TestCheckInputReplays: a counterexample's fuzz form replays through
// CheckInput and fails there too; the reference passes it.
func TestCheckInputReplays(t *testing.T) {
	bad := utf8validtest.Impl{Valid: knownBad[0].valid}
	err := utf8validtest.Check(bad, equiv.WithSeed(1), only(equiv.MethodVectors))
	ces := equiv.Counterexamples(err)
	if len(ces) == 0 || ces[0].FuzzTarget != "FuzzUTF8" || len(ces[0].FuzzArgs) != 4 {
		t.Fatalf("no fuzz form: %v", err)
	}
	a := ces[0].FuzzArgs
	if err := utf8validtest.CheckInput(bad, a[0].([]byte), a[1].(uint32), a[2].(int), a[3].([]byte)); err == nil {
		t.Errorf("the fuzz form %v does not reproduce %v", a, ces[0])
	}
	if err := utf8validtest.CheckInput(reference, a[0].([]byte), a[1].(uint32), a[2].(int), a[3].([]byte)); err != nil {
		t.Errorf("the reference fails the fuzz form: %v", err)
	}
}

// TestImplErrors: an Impl with nothing to check, or a Reader without a
// Validator, is refused with a message saying so.
func TestImplErrors(t *testing.T) {
	for _, tc := range []struct {
		impl utf8validtest.Impl
		want string
	}{
		{utf8validtest.Impl{}, "both nil"},
		{utf8validtest.Impl{Valid: ref.Valid, NewReader: reference.NewReader}, "needs Impl.NewValidator"},
	} {
		if err := utf8validtest.Check(tc.impl); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check(%+v) = %v, want %q", tc.impl, err, tc.want)
		}
	}
}

// TestPanickingConstructor: NewSuite does not call into a NewValidator
// that panics (a variant this build cannot run, which the gate lists as
// skipped, or a constructor with a bug); Check reports the panic.
func TestPanickingConstructor(t *testing.T) {
	impl := reference
	impl.NewValidator = func() utf8validtest.Validator { panic("not in this build") }
	s := utf8validtest.NewSuite(impl)
	if s.Err != nil {
		t.Fatalf("NewSuite: Err = %v", s.Err)
	}
	err := utf8validtest.Check(impl, only(equiv.MethodVectors))
	if err == nil || !strings.Contains(err.Error(), "not in this build") {
		t.Errorf("Check = %v, want the constructor's panic reported", err)
	}
}
