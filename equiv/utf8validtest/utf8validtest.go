// Package utf8validtest checks an implementation of streaming UTF-8
// validation for WebSocket text (RFC 3629 §4, RFC 6455 §8.1), fused with
// unmasking (RFC 6455 §5.3), against reference/utf8valid: RFC 3629's
// examples, Markus Kuhn's decoder stress-test classes and the Autobahn
// testsuite's cases 6.x (fail fast, whatever the fragmentation), every
// text of 1 to 3 octets in ASCII context, every split of every multi-octet
// character across Writes, buffers against guard pages, rapid and gopter
// properties, and the seed corpus. It is to a validator what testing/fstest
// is to a file system:
//
//	func TestMyUTF8(t *testing.T) {
//		utf8validtest.Test(t, utf8validtest.Impl{Valid: mypkg.Valid})
//	}
//
//	func FuzzMyUTF8(f *testing.F) { utf8validtest.Fuzz(f, utf8validtest.Impl{Valid: mypkg.Valid}) }
//
// Check returns the same verdict as an error, for use outside "go test";
// options from package equiv (WithLevel, WithSeed, MapErrors) and Exclude
// here tune a run.
package utf8validtest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/equivcheck/equivcheck/corpus"
	"github.com/equivcheck/equivcheck/equiv"
)

// pair names the pair in every Result and Counterexample.
const pair = "utf8"

// Validator is a streaming validator as an implementation offers it: the
// methods of reference/utf8valid's *Validator that every streaming
// validator has. Two more are checked when the value has them: Unmask(b
// []byte, key [4]byte, pos int) (next, n int, err error), which unmasks and
// validates in one call, and Offset() int64.
type Validator interface {
	// Write validates p as the next octets of the text: len(p), nil
	// while the text can still be valid, else n, ErrInvalid with p[n]
	// the first octet at which it no longer can (fail fast), and 0,
	// ErrInvalid for every Write after that.
	Write(p []byte) (n int, err error)
	// Close reports the verdict at the end of the text (nil,
	// ErrIncomplete or ErrInvalid) without changing the state.
	Close() error
	// Reset starts a new text.
	Reset()
}

// Unmasker is a Validator that unmasks and validates in one call
// (reference/utf8valid's Validator.Unmask).
type Unmasker interface {
	Unmask(b []byte, key [4]byte, pos int) (next, n int, err error)
}

// Offsetter is a Validator that reports the octets it accepted
// (reference/utf8valid's Validator.Offset).
type Offsetter interface {
	Offset() int64
}

// Reader is a reader that unmasks and validates a frame's payload as it is
// read, with a Validator of the message's (reference/utf8valid's *Reader).
type Reader interface {
	io.Reader
	// Reset starts a new frame's payload from r, unmasked with key from
	// key octet 0, validated by the same Validator.
	Reset(r io.Reader, key [4]byte)
}

// Impl is an implementation of UTF-8 validation to check against
// reference/utf8valid. Valid and NewValidator are each optional, but one
// is required; NewReader is optional, and needs NewValidator. A nil
// function is not checked, and each Result lists it in Unchecked; so are
// Unmask and Offset when the Validators lack them.
//
// Beyond its results, every function keeps this contract, which every
// method checks on every input it compares (docs/equivalence.md, "The
// contract"; contracts below is the same as data, which the engine's
// harness applies to every call):
//
//   - Reads: a text only in [0:len]: not its spare capacity (which holds
//     canaries), not before or past it (guard pages). nil and empty texts
//     are alike.
//   - Writes: Valid and Write never write their input, not even for a
//     moment (it lies on read-only pages); Unmask writes b[:len(b)] and
//     nothing else, nor reads and writes back the octets around it (they
//     lie on read-only pages); a Reader's Read writes p[:n] and nothing
//     outside p.
//   - Keeps: nothing it is given once it returns: each piece written is
//     overwritten once Write returns, so a Validator must carry a partial
//     character in its own state; a Reader keeps the reader NewReader or
//     Reset gives it, and reads it, once per Read, in every form io.Reader
//     allows (short reads, data with an error, 0 and nil, a count out of
//     range).
//   - Shares: every function may be called from several goroutines at
//     once (each method runs beside a concurrent caller, and the scale
//     method calls each from two goroutines released together), a Reader
//     from inside another Reader's Read (its underlying reader is one); a
//     Validator or Reader value is used by one goroutine at a time.
//   - Results: Close and Offset do not change the state (writing may go
//     on after them); Reset starts over, however long the text before it
//     and however many Resets came before; a Reader's Reset starts a new
//     frame whether handed a new reader or the one it has, and keeps the
//     Validator's state. The same slice passed again with other contents
//     is a new text.
//   - Scale: texts of any length (the scale method reaches 4 MiB, 64 MiB
//     at Standard), single Writes, Unmasks and Reads of 32 KiB and more,
//     and a Validator or Reader after a thousand calls and more.
type Impl struct {
	// Name optionally labels the implementation in messages ("avx2").
	Name string
	// Valid reports whether b is entirely valid UTF-8.
	Valid func(b []byte) bool
	// NewValidator returns a Validator ready for a new text.
	NewValidator func() Validator
	// NewReader returns a Reader that reads a frame's payload from r,
	// unmasks it with key from key octet 0 and validates it with v, one
	// of NewValidator's. Its Read calls r.Read(p) once and returns n and
	// r's error, or ErrInvalid (the octets still unmasked) once the text
	// can no longer be valid, or 0 and reference/websocket's
	// ErrInvalidRead for a count outside 0..len(p).
	NewReader func(r io.Reader, key [4]byte, v Validator) Reader
}

// contracts are Impl's contract above, as data: one per function and per
// method of a Validator and a Reader, which the engine's harness applies
// to every call (equiv.Harness) and TestContracts compares with Impl and
// with what a quick run applied (equiv.CheckContracts). A parameter's
// Access is equiv.Reads unless it says otherwise; nothing is Serial.
var contracts = []equiv.Contract{
	{Func: "Valid", Params: []equiv.Param{{Name: "b"}}},
	{Func: "NewValidator"},
	{Func: "Validator.Write", Params: []equiv.Param{{Name: "p"}}, Object: true},
	// Close's verdict, like Offset's count, is of every octet written
	// so far: its length axis is the text's.
	{Func: "Validator.Close", Object: true, Length: true},
	{Func: "Validator.Reset", Object: true},
	{Func: "NewReader", Params: []equiv.Param{{Name: "r", Access: equiv.ReadsFrom, Keeps: true}}, NotApplicable: keepsReader},
	{Func: "Reader.Read", Params: []equiv.Param{{Name: "p", Access: equiv.Writes}, {Name: "r", Access: equiv.ReadsFrom, Keeps: true}},
		Object: true},
	{Func: "Reader.Reset", Params: []equiv.Param{{Name: "r", Access: equiv.ReadsFrom, Keeps: true}}, Object: true,
		NotApplicable: keepsReader},
}

// optional are the contracts of the methods a Validator is checked for
// when it has them (Unmasker, Offsetter), which no Impl function returns
// as such: TestContracts checks them as CheckContracts checks the rest.
var optional = []equiv.Contract{
	{Func: "Unmasker.Unmask", Params: []equiv.Param{{Name: "b", Access: equiv.Writes}}, Object: true},
	{Func: "Offsetter.Offset", Object: true, Length: true},
}

// keepsReader says why NewReader and Reader.Reset, which take the reader
// a Reader reads, meet neither io's (n, err) forms nor the scale of a
// stream themselves.
var keepsReader = map[equiv.Mechanism]string{
	equiv.MechIOEdges: "keeps r for the Reads that follow and reads nothing from it: Reader.Read meets every (n, err) r returns",
	equiv.MechScale:   "keeps r and returns: the length of the stream is Reader.Read's axis",
}

// contract returns the Contract of fn, one of contracts' or optional's
// Funcs.
func contract(fn string) *equiv.Contract {
	for _, table := range [][]equiv.Contract{contracts, optional} {
		for i := range table {
			if table[i].Func == fn {
				return &table[i]
			}
		}
	}
	panic("utf8validtest: no contract for " + fn)
}

// The contracts, looked up once.
var (
	cValid, cNew, cWrite          = contract("Valid"), contract("NewValidator"), contract("Validator.Write")
	cClose, cReset                = contract("Validator.Close"), contract("Validator.Reset")
	cNewReader, cRead, cReadReset = contract("NewReader"), contract("Reader.Read"), contract("Reader.Reset")
	cUnmask, cOffset              = contract("Unmasker.Unmask"), contract("Offsetter.Offset")
)

// GridLen is the longest text of the suite's grid of lengths × alignments
// × text classes: twice the widest stride of the optimized code (the
// AVX-512 Unmask's turn of four 64-octet blocks) plus a block, so that
// every path is entered with 0, 1 and 2 iterations of every loop (two
// turns, then up to three single blocks, then the masked last block) and
// every tail length. docs/equivalence.md has the argument.
const GridLen = 9 * 64

// NewSuite returns the suite that checks impl: the methods vectors,
// guard, properties, exhaustive and scale, and the fuzz target FuzzUTF8 whose
// seed corpus (corpus/utf8) the engine's corpus method replays. If
// impl.Valid and impl.NewValidator are both nil, or NewReader is set
// without NewValidator, the suite's Err says so and nothing runs. A Suite
// may be checked from several goroutines at once.
func NewSuite(impl Impl) equiv.Suite {
	if err := implError(impl); err != nil {
		return equiv.Suite{Pair: pair, Err: err}
	}
	method := func(name string, m func(*checker, *equiv.Run) error) equiv.Method {
		return equiv.Method{Name: name, Func: func(r *equiv.Run) error {
			c := newChecker(impl, r.Config())
			defer c.release()
			c.run = r
			return m(c, r)
		}}
	}
	exhaustive := method(equiv.MethodExhaustive, (*checker).exhaustive)
	exhaustive.Split, exhaustive.Lanes, exhaustive.Long = true, true, true
	guard := method(equiv.MethodGuard, (*checker).guard)
	guard.Skip = equiv.GuardSkip()
	scale := method(equiv.MethodScale, (*checker).scale)
	scale.Split, scale.Long = true, true
	return equiv.Suite{
		Pair:      pair,
		Unchecked: uncheckedFuncs(impl),
		Contracts: append(slices.Clip(contracts), optional...),
		// The order seeds each method's random source: keep it (the
		// exhaustive method draws from its own sources, so that the scale
		// method, added before it, changed none of its inputs). The
		// exhaustive method, with its 33.5 million 3-octet texts, comes
		// after the others, so that a bug they show is caught in
		// milliseconds or a second rather than after it.
		Methods: []equiv.Method{
			method(equiv.MethodVectors, (*checker).vectors),
			guard,
			method(equiv.MethodProperties, (*checker).properties),
			scale,
			exhaustive,
		},
		Targets:  []equiv.FuzzTarget{fuzzTarget(impl)},
		Corpus:   corpus.FS,
		Describe: describe,
	}
}

// implError says why impl cannot be checked at all, or returns nil.
func implError(impl Impl) error {
	name := ""
	if impl.Name != "" {
		name = " (" + impl.Name + ")"
	}
	switch {
	case impl.Valid == nil && impl.NewValidator == nil:
		return errors.New("utf8validtest: Impl.Valid and Impl.NewValidator are both nil" + name)
	case impl.NewReader != nil && impl.NewValidator == nil:
		return errors.New("utf8validtest: Impl.NewReader needs Impl.NewValidator" + name)
	}
	return nil
}

// uncheckedFuncs lists what impl lacks, for Suite.Unchecked.
func uncheckedFuncs(impl Impl) []string {
	var out []string
	if impl.Valid == nil {
		out = append(out, "Valid: Impl.Valid is nil")
	}
	if impl.NewValidator == nil {
		out = append(out, "Validator: Impl.NewValidator is nil")
	} else if v, ok := sampleValidator(impl); ok {
		if _, ok := v.(Unmasker); !ok {
			out = append(out, fmt.Sprintf("Unmask: %T has no Unmask method", v))
		}
		if _, ok := v.(Offsetter); !ok {
			out = append(out, fmt.Sprintf("Offset: %T has no Offset method", v))
		}
	}
	if impl.NewReader == nil {
		out = append(out, "Reader: Impl.NewReader is nil")
	}
	return out
}

// sampleValidator returns a Validator of impl's, to learn which optional
// methods its type has, and false if NewValidator panicked: NewSuite must
// not, for a variant this build or CPU cannot run (the gate lists it as
// skipped) nor for a constructor with a bug, which the methods report
// when they call it.
func sampleValidator(impl Impl) (v Validator, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = nil, false
		}
	}()
	return impl.NewValidator(), true
}

// Check checks impl against reference/utf8valid with every method at the
// configured level and returns the joined counterexamples (each matching
// equiv.ErrMismatch) and other failures, or nil if impl agreed on every
// input compared.
func Check(impl Impl, opts ...equiv.Option) error {
	return equiv.Check(NewSuite(impl), opts...)
}

// Test runs Check as subtests of t, one per method, as equiv.Test does.
func Test(t *testing.T, impl Impl, opts ...equiv.Option) {
	t.Helper()
	equiv.Test(t, NewSuite(impl), opts...)
}

// Input is one input of the implementation, as an Exclude function sees it
// before it is compared: Func is "Valid", "Validator" (Text written in the
// pieces Splits delimits), "Unmask" (Text masked with Key from Pos,
// unmasked and validated in those pieces) or "Reader" (Text masked on the
// wire, read through a Reader over Underlying in Reads ending at Splits).
// Text belongs to the suite: an Exclude function must neither modify nor
// retain it.
type Input struct {
	Func       string
	Text       []byte
	Align      int     // the text's offset from a 64-byte boundary
	Splits     []int   // where the Writes, Unmasks or Reads end, but the last
	Key        [4]byte // Unmask's and a Reader's key
	Pos        int     // Unmask's first position (a Reader's is 0)
	Underlying string  // a Reader's underlying reader

	rc readerCase // a Reader's underlying reader and warm-up, as the plan gives them
	// oracle, for a scale text of filler and windows, judges it in the
	// reference's place at the cost of its windows (scaleOracle).
	oracle *scaleOracle
}

// Exclude declares the inputs for which out returns true out of the
// implementation's scope: they are not compared, and every Result lists
// label with their number. It is equiv.Exclude for this pair's Input.
func Exclude(label string, out func(Input) bool) equiv.Option {
	return equiv.Exclude(label, func(in any) bool {
		i, ok := in.(Input)
		return ok && out(i)
	})
}

// describe renders an Input for the report of a call that did not return.
func describe(in any) *equiv.Counterexample {
	i, ok := in.(Input)
	if !ok {
		return nil
	}
	return &equiv.Counterexample{Func: i.Func, Input: bytes.Clone(i.Text), Args: i.args(), FuzzTarget: fuzzName}
}
