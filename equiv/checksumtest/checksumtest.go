// Package checksumtest checks an implementation of the Internet checksum
// (RFC 1071, with RFC 1624's incremental update, and the helpers around it:
// Combine, Put, TCP/UDP pseudo-headers and the UDP checksum rules of RFC 768
// and RFC 8200 §8.1) against reference/checksum: published vectors, a
// bounded-exhaustive grid of lengths, alignments and carry-heavy contents,
// guard pages, rapid and gopter properties, and the seed corpus. It is to a
// checksum what testing/fstest is to a file system:
//
//	func TestMySum(t *testing.T) {
//		checksumtest.Test(t, checksumtest.Impl{Sum: mypkg.Sum, Update: mypkg.Update})
//	}
//
//	func FuzzMySum(f *testing.F) { checksumtest.Fuzz(f, checksumtest.Impl{Sum: mypkg.Sum}) }
//
// Check returns the same verdict as an error, for use outside "go test";
// options from package equiv (WithLevel, WithSeed, AnyPanic, MapErrors,
// and Exclude here) tune a run.
package checksumtest

import (
	"errors"
	"fmt"
	"hash"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/corpus"
	"github.com/equivcheck/equivcheck/equiv"
)

// pair names the pair in every Result and Counterexample.
const pair = "checksum"

// Digest is the streaming interface a checksum implementation offers: a
// hash.Hash whose Sum appends the 2-byte big-endian checksum, plus Sum16,
// the running one's-complement sum.
type Digest interface {
	hash.Hash
	Sum16() uint16
}

// Impl is an implementation of the Internet checksum to check against
// reference/checksum. Every function is optional (one at least must be
// given): a nil one is not checked, and each method's Result lists it in
// Unchecked.
//
// Beyond its results, every function keeps this contract, which every
// method checks on every input it compares (docs/equivalence.md, "The
// contract"):
//
//   - Reads: a buffer only in b[:len(b)]: not its spare capacity (which
//     holds canaries), not before it or past it (guard pages). nil and
//     empty buffers are alike.
//   - Writes: Put writes b[0:2] and nothing else; no other function
//     writes its buffer, not even for a moment (it lies on read-only
//     pages), nor anything around it.
//   - Keeps: nothing it is given once it returns: a Digest's Write must
//     not keep a view of p (each piece is overwritten once Write
//     returns).
//   - Shares: every function may be called from several goroutines at
//     once (each method runs beside a concurrent caller); a Digest value
//     is used by one goroutine at a time.
//   - Results: a Digest is a hash.Hash: Write returns len(p) and nil;
//     Sum(b) appends the checksum to b (in place when b has room) and
//     leaves the state alone, so that Sum16 is unchanged and writing goes
//     on; what Sum(nil) returns is the caller's and does not change as
//     the Digest goes on; Size is 2 and BlockSize at least 1; Reset
//     returns to the state of New.
type Impl struct {
	// Name optionally labels the implementation in messages ("avx2").
	Name string
	// Sum returns the one's-complement sum of b's big-endian 16-bit words
	// (an odd last byte padded on the right) accumulated onto initial.
	Sum func(b []byte, initial uint16) uint16
	// Checksum returns ^Sum(b, 0).
	Checksum func(b []byte) uint16
	// Update returns the checksum field after a covered word changes from
	// old to new (RFC 1624 §3, Eqn. 3). Where old == new it returns the
	// field as it is (RFC 1624 errata 4782), or, for a field of 0xFFFF,
	// Eqn. 3's 0x0000: both are accepted there.
	Update func(checksum, old, new uint16) uint16
	// New returns a Digest whose Sum16 after writing b is Sum(b, 0).
	New func() Digest

	// Combine returns the Sum of two adjacent pieces from their sums: sum
	// of the first, next of the second, and offset, where the second
	// starts (only its parity matters; RFC 1071 §2(A)-(B)).
	Combine func(sum, next uint16, offset int) uint16
	// Put writes c big-endian into b[0:2] and reports true, or writes
	// nothing and reports false if len(b) < 2.
	Put func(b []byte, c uint16) bool
	// PseudoHeaderSum returns the Sum of the TCP/UDP pseudo-header of
	// RFC 768 and RFC 9293 §3.1 (IPv4) or RFC 8200 §8.1 (IPv6), or 0,
	// false for mixed or invalid address families and IPv4 lengths above
	// 0xFFFF. An IPv4-mapped IPv6 address (::ffff:a.b.c.d, as a dual-stack
	// socket reports an IPv4 peer) is the IPv4 address it maps, as
	// netip.Addr.Unmap gives it (RFC 4291 §2.5.5.2): with a plain IPv4
	// address it is one family, with a true IPv6 one it is mixed.
	PseudoHeaderSum func(src, dst netip.Addr, proto uint8, length uint32) (uint16, bool)
	// FinishUDP returns ^sum, with 0x0000 written 0xFFFF (RFC 768).
	FinishUDP func(sum uint16) uint16
	// UpdateUDP is Update for UDP over IPv4: a field of 0x0000 (no
	// checksum, RFC 768) stays 0x0000, and a result of 0x0000 is 0xFFFF.
	UpdateUDP func(checksum, old, new uint16) uint16
	// UpdateUDP6 is UpdateUDP over IPv6, where a field of 0x0000 is
	// invalid (RFC 8200 §8.1): 0, false for it.
	UpdateUDP6 func(checksum, old, new uint16) (uint16, bool)
	// VerifyUDP reports whether a UDP datagram (header and data) from src
	// to dst passes its checksum, with the zero-field rule of the
	// addresses' family (RFC 768 for IPv4, RFC 8200 §8.1 for IPv6), taken
	// as PseudoHeaderSum takes it: IPv4-mapped addresses are IPv4, so a
	// zero field from ::ffff:a.b.c.d passes.
	VerifyUDP func(src, dst netip.Addr, segment []byte) bool
}

// contracts are Impl's contract above, as data: one per function and per
// method of a Digest, which the engine's harness applies to every call
// (equiv.Harness) and TestContracts compares with Impl and with what a
// quick run applied (equiv.CheckContracts). A parameter's Access is
// equiv.Reads unless it says otherwise; nothing is Serial, nothing Keeps.
var contracts = []equiv.Contract{
	{Func: "Sum", Params: []equiv.Param{{Name: "b"}}},
	{Func: "Checksum", Params: []equiv.Param{{Name: "b"}}},
	{Func: "Update"},
	{Func: "New"},
	{Func: "Digest.Write", Params: []equiv.Param{{Name: "p"}}, Object: true},
	{Func: "Digest.Sum", Params: []equiv.Param{{Name: "b", Access: equiv.Appends}}, Object: true, Fresh: true},
	{Func: "Digest.Sum16", Object: true, Length: true},
	{Func: "Digest.Reset", Object: true},
	{Func: "Digest.Size", Object: true},
	{Func: "Digest.BlockSize", Object: true},
	{Func: "Combine"},
	{Func: "Put", Params: []equiv.Param{{Name: "b", Access: equiv.WritesPrefix}}},
	{Func: "PseudoHeaderSum"},
	{Func: "FinishUDP"},
	{Func: "UpdateUDP"},
	{Func: "UpdateUDP6"},
	{Func: "VerifyUDP", Params: []equiv.Param{{Name: "segment"}}},
}

// contract returns the Contract of fn, one of contracts' Funcs.
func contract(fn string) *equiv.Contract {
	c := contractsByFunc[fn]
	if c == nil {
		panic("checksumtest: no contract for " + fn)
	}
	return c
}

// contractsByFunc indexes contracts by Func.
var contractsByFunc = func() map[string]*equiv.Contract {
	m := map[string]*equiv.Contract{}
	for i := range contracts {
		m[contracts[i].Func] = &contracts[i]
	}
	return m
}()

// The contracts of the functions a check calls most, looked up once.
var (
	cSum, cChecksum, cUpdate, cNew = contract("Sum"), contract("Checksum"), contract("Update"), contract("New")
	cWrite, cDigestSum, cSum16     = contract("Digest.Write"), contract("Digest.Sum"), contract("Digest.Sum16")
	cReset, cSize, cBlockSize      = contract("Digest.Reset"), contract("Digest.Size"), contract("Digest.BlockSize")
	cPut, cVerify                  = contract("Put"), contract("VerifyUDP")
)

// helpers are the names of Impl's optional functions beyond Checksum,
// Update and New, in the order of its fields.
var helpers = []string{"Combine", "Put", "PseudoHeaderSum", "FinishUDP", "UpdateUDP", "UpdateUDP6", "VerifyUDP"}

// GridLen is the longest input of the suite's grid of lengths ×
// alignments × content classes. It is at least twice the widest stride of
// the optimized code (a 256-byte unrolled AVX-512 loop) plus 64, and above
// the 63 + 2×256 + 64 = 639 bytes past which that loop, which starts at the
// 64-byte block holding the first byte, runs twice at every alignment; so
// every path is entered with 0, 1 and 2 iterations of every loop and every
// tail length. docs/equivalence.md has the argument.
const GridLen = 3 * 256

// Input is one input of the suite, as an Exclude function sees it before it
// is compared. Which fields are set depends on Func:
//
//   - "Sum": Data, Initial and Align.
//   - "Checksum": Data and Align.
//   - "Digest": Data, Align and Splits (a new Digest is fed Data in
//     pieces ending at each split, then the rest). In the Digest state
//     machine of the properties method, Data and Splits are what was
//     written since the last Reset, and Align is 0.
//   - "Update", "UpdateUDP" and "UpdateUDP6": Update only.
//   - "Combine": Initial (its sum), Value (next) and Offset.
//   - "FinishUDP": Initial (its sum).
//   - "Put": Data (b's contents before the call), Value (c) and Align.
//   - "PseudoHeaderSum": Src, Dst, Proto and Length.
//   - "VerifyUDP": Src, Dst, Data (the segment) and Align.
//
// Data belongs to the suite: an Exclude function must neither modify nor
// retain it.
type Input struct {
	Func    string    // "Sum", "Checksum", "Digest", "Update", or one of the helpers above
	Data    []byte    // the bytes summed, verified or written over
	Initial uint16    // Sum's initial value, Combine's and FinishUDP's sum
	Align   int       // offset of Data's first byte from a 64-byte boundary
	Splits  []int     // sorted positions in Data where the Digest's writes end
	Update  [3]uint16 // Update's (and UpdateUDP's, UpdateUDP6's) arguments: checksum, old, new

	Value    uint16     // Combine's next, Put's checksum
	Offset   int        // Combine's offset
	Src, Dst netip.Addr // PseudoHeaderSum's and VerifyUDP's addresses
	Proto    uint8      // PseudoHeaderSum's protocol number
	Length   uint32     // PseudoHeaderSum's length
}

// buffered reports whether in's function is given a buffer (Data, at
// Align), rather than values only.
func (in Input) buffered() bool {
	switch in.Func {
	case "Sum", "Checksum", "Digest", "Put", "VerifyUDP":
		return true
	}
	return false
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

// NewSuite returns the suite that checks impl: the methods vectors,
// exhaustive, guard, properties and scale, and the fuzz target
// FuzzChecksum whose seed corpus (corpus/checksum) the engine's corpus
// method replays. Only the functions impl has are checked; a method that
// checks none of them is skipped, saying so. If impl has no function at
// all, the suite's Err says so and nothing runs. A Suite may be checked
// from several goroutines at once.
func NewSuite(impl Impl) equiv.Suite {
	if len(unchecked(impl, allFuncs...)) == len(allFuncs) {
		return equiv.Suite{Pair: pair, Err: noFuncError(impl)}
	}
	every := unchecked(impl, allFuncs...)
	guarded := []string{"Sum", "New", "Put", "VerifyUDP"}
	return equiv.Suite{
		Pair: pair,
		Methods: []equiv.Method{
			{Name: equiv.MethodVectors, Func: withChecker(impl, runVectors), Unchecked: every},
			{Name: equiv.MethodExhaustive, Func: withChecker(impl, runExhaustive), Unchecked: every, Split: true, Lanes: true, Long: true},
			// The guard method checks the functions that are given a
			// buffer.
			{Name: equiv.MethodGuard, Func: withChecker(impl, runGuard), Skip: skipUnless(impl, equiv.GuardSkip(), guarded...),
				Unchecked: unchecked(impl, guarded...)},
			{Name: equiv.MethodProperties, Func: func(r *equiv.Run) error {
				// Run.Property and Run.Law count every case themselves,
				// so this checker counts nothing.
				c := newChecker(impl, r.Config(), nil)
				defer c.release()
				c.size = r.Size
				return runProperties(c, r)
			}, Unchecked: unchecked(impl, append([]string{"Sum", "Update", "New"}, helpers...)...),
				Skip: skipUnless(impl, "", slices.DeleteFunc(slices.Clone(allFuncs), func(f string) bool { return f == "Checksum" })...)},
			{Name: equiv.MethodScale, Func: withChecker(impl, runScale), Unchecked: every, Split: true, Long: true},
		},
		Targets:   []equiv.FuzzTarget{fuzzTarget(impl)},
		Corpus:    corpus.FS,
		Describe:  describe,
		Contracts: contracts,
	}
}

// describe renders an Input for the report of a call that did not return.
func describe(in any) *equiv.Counterexample {
	i, ok := in.(Input)
	if !ok {
		return nil
	}
	return mismatch(aligned(i.Align), i, "", "", nil)
}

// withChecker adapts a method written against a checker to an
// equiv.Method's Func: every run gets a fresh checker counting into it.
func withChecker(impl Impl, m func(*checker, *equiv.Run) error) func(*equiv.Run) error {
	return func(r *equiv.Run) error {
		c := newChecker(impl, r.Config(), r.Count)
		defer c.release()
		c.size = r.Size
		return m(c, r)
	}
}

// allFuncs are Impl's functions, in the order of its fields.
var allFuncs = append([]string{"Sum", "Checksum", "Update", "New"}, helpers...)

func noFuncError(impl Impl) error {
	if impl.Name != "" {
		return fmt.Errorf("checksumtest: every function of the Impl is nil (%s)", impl.Name)
	}
	return errors.New("checksumtest: every function of the Impl is nil")
}

// skipUnless returns why, if not "", or else, if impl has none of funcs,
// why a method that checks only them is skipped; else "".
func skipUnless(impl Impl, why string, funcs ...string) string {
	if why == "" && len(unchecked(impl, funcs...)) == len(funcs) {
		why = fmt.Sprintf("checks %s, none of which the Impl has", strings.Join(funcs, ", "))
	}
	return why
}

// unchecked lists, for Method.Unchecked, which of the optional functions
// named in funcs impl leaves nil.
func unchecked(impl Impl, funcs ...string) []string {
	missing := map[string]bool{
		"Sum": impl.Sum == nil, "Checksum": impl.Checksum == nil, "Update": impl.Update == nil, "New": impl.New == nil,
		"Combine": impl.Combine == nil, "Put": impl.Put == nil, "PseudoHeaderSum": impl.PseudoHeaderSum == nil,
		"FinishUDP": impl.FinishUDP == nil, "UpdateUDP": impl.UpdateUDP == nil,
		"UpdateUDP6": impl.UpdateUDP6 == nil, "VerifyUDP": impl.VerifyUDP == nil,
	}
	var out []string
	for _, f := range funcs {
		if missing[f] {
			out = append(out, fmt.Sprintf("%s: Impl.%s is nil", f, f))
		}
	}
	return out
}

// Check checks impl against reference/checksum with every method at the
// configured level and returns the joined counterexamples (each matching
// equiv.ErrMismatch), or nil if impl agreed on every input. An Impl with
// no function is the one error returned.
func Check(impl Impl, opts ...equiv.Option) error {
	return equiv.Check(NewSuite(impl), opts...)
}

// Test runs Check as subtests of t, one per method (see equiv.Test).
func Test(t *testing.T, impl Impl, opts ...equiv.Option) {
	t.Helper()
	equiv.Test(t, NewSuite(impl), opts...)
}
