// Package websockettest checks an implementation of WebSocket payload
// masking (RFC 6455 §5.3) against reference/websocket: RFC 6455 §5.7's
// vector, every length up to GridLen at every alignment and key phase,
// chunked masking, MaskCopy's aliasing rules, the streaming MaskReader and
// MaskWriter over short, failing and misbehaving readers and writers,
// buffers against guard pages, rapid and gopter properties, and the seed
// corpus. It is to a masker what testing/fstest is to a file system:
//
//	func TestMyMask(t *testing.T) {
//		websockettest.Test(t, websockettest.Impl{Mask: mypkg.Mask, MaskCopy: mypkg.MaskCopy})
//	}
//
//	func FuzzMyMask(f *testing.F) { websockettest.Fuzz(f, websockettest.Impl{Mask: mypkg.Mask}) }
//
// Check returns the same verdict as an error, for use outside "go test";
// options from package equiv (WithLevel, WithSeed, AnyPanic) and from here
// (Exclude, NonNegativePos, StreamOffsetPos, ValidUnderlyingCounts) tune a
// run. docs/peers.md checks gobwas/ws's Cipher, CipherReader and
// CipherWriter with them.
package websockettest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/equivcheck/equivcheck/corpus"
	"github.com/equivcheck/equivcheck/equiv"
)

// pair names the pair in every Result and Counterexample.
const pair = "websocket"

// Impl is an implementation of WebSocket masking to check against
// reference/websocket. Mask is required; a nil MaskCopy, NewMaskReader or
// NewMaskWriter is not checked, and each method's Result lists it in
// Unchecked.
//
// Beyond its results, every function keeps this contract, which every
// method checks on every input it compares (docs/equivalence.md, "The
// contract"); contracts below is the same contract as data, which the
// engine's harness applies to every call:
//
//   - Reads: only the slices' [0:len]: not their spare capacity (which
//     holds canaries), not before or past them (guard pages, and
//     unmapped pages flush against them). nil and empty slices are
//     alike.
//   - Writes: Mask writes b[:len(b)], MaskCopy dst[:len(src)] and a
//     MaskReader's Read p[:len(p)]; nothing else, not even for a moment
//     and not even with the value that was there (read-only octets lie
//     flush against the range each may write): src and a MaskWriter's p
//     lie on read-only pages.
//   - Keeps: nothing it is given once it returns: each call's slices are
//     overwritten once it has returned, and the next Read's or Write's p
//     is placed over the last one's.
//   - Shares: every function may be called from several goroutines at
//     once (each method runs beside a concurrent caller, and the scale
//     method calls every function from two goroutines released
//     together), and a streamer from inside another streamer's call (the
//     suite's nested readers and writers); one streamer value is used by
//     one goroutine at a time, and is reused across many Resets.
//   - Results: a MaskReader is an io.Reader (testing/iotest.TestReader
//     holds), over a reader that returns any (n, err) io.Reader allows
//     and some it forbids; a MaskWriter an io.Writer (a short count comes
//     with an error), over a writer likewise; Reset starts over whether
//     handed a new reader or writer or the one it has. When two
//     preconditions of MaskCopy fail at once, the reference's panic (the
//     short dst) is the one raised. The same call at the same address
//     with other contents gives the other contents' result.
type Impl struct {
	// Name optionally labels the implementation in messages ("avx2").
	Name string
	// Mask XORs b in place with key, starting at key octet pos&3 (for
	// every int pos), and returns (pos+len(b))&3.
	Mask func(b []byte, key [4]byte, pos int) int
	// MaskCopy writes src masked as Mask would into dst[:len(src)],
	// leaving src untouched, and returns (pos+len(src))&3. Like the
	// reference it panics, with the reference's message, on a short dst
	// or an inexact overlap (AnyPanic accepts another message).
	MaskCopy func(dst, src []byte, key [4]byte, pos int) int
	// NewMaskReader returns a MaskReader over r unmasking with key from
	// key octet 0. Its Read calls r.Read(p) once, unmasks p[:n] from
	// where the last Read stopped, and returns n and the error as r
	// returned them, or 0 and reference/websocket.ErrInvalidRead for a
	// count outside 0..len(p) (MapErrors maps another error onto it).
	// Reset(r, key) starts over, as NewMaskReader(r, key) would.
	NewMaskReader func(r io.Reader, key [4]byte) MaskReader
	// NewMaskWriter returns a MaskWriter masking with key from key octet
	// 0 onto w. Its Write(b) hands w the masked octets (in calls of any
	// size) until all are taken or a call fails, and returns how many
	// octets of b w took, moving the position by as many: with w's
	// error, io.ErrShortWrite for a short count without one, or
	// reference/websocket.ErrInvalidWrite (counting nothing) for a count
	// outside 0..len; it neither modifies b, even during the call, nor
	// calls w for an empty b. Reset(w, key) starts over.
	NewMaskWriter func(w io.Writer, key [4]byte) MaskWriter
}

// contracts are Impl's contract above, as data: one per function and per
// method of a MaskReader and a MaskWriter, which the engine's harness
// applies to every call (equiv.Harness) and TestContracts compares with
// Impl and with what a quick run applied (equiv.CheckContracts). Nothing
// is Serial (a streamer value is one goroutine's, but distinct ones may
// run at once), nothing Keeps a slice. A streamer's reader or writer is
// a parameter of the function that reads from it or writes to it (Read,
// Write); New and Reset only hand it over.
var contracts = []equiv.Contract{
	{Func: "Mask", Params: []equiv.Param{{Name: "b", Access: equiv.Writes}}},
	// MaskCopy writes dst[:len(src)] of a dst that may be longer: the
	// prefix a call names (equiv.Call.Prefix).
	{Func: "MaskCopy", Params: []equiv.Param{{Name: "dst", Access: equiv.WritesPrefix}, {Name: "src"}}},
	{Func: "NewMaskReader", Params: []equiv.Param{{Name: "r", Access: equiv.ReadsFrom, Keeps: true}},
		NotApplicable: map[equiv.Mechanism]string{
			equiv.MechIOEdges: "keeps r for its Reads and reads nothing from it itself",
			equiv.MechScale:   "reads nothing: its MaskReader's Read has the length axis",
		}},
	{Func: "MaskReader.Read", Params: []equiv.Param{{Name: "p", Access: equiv.Writes}, {Name: "r", Access: equiv.ReadsFrom}},
		Object: true, Length: true},
	{Func: "MaskReader.Reset", Params: []equiv.Param{{Name: "r", Access: equiv.ReadsFrom, Keeps: true}}, Object: true,
		NotApplicable: map[equiv.Mechanism]string{equiv.MechIOEdges: "keeps r for the Reads after it and reads nothing from it itself"}},
	{Func: "NewMaskWriter", Params: []equiv.Param{{Name: "w", Access: equiv.WritesTo, Keeps: true}},
		NotApplicable: map[equiv.Mechanism]string{
			equiv.MechIOEdges: "keeps w for its Writes and writes nothing to it itself",
			equiv.MechScale:   "writes nothing: its MaskWriter's Write has the length axis",
		}},
	{Func: "MaskWriter.Reset", Params: []equiv.Param{{Name: "w", Access: equiv.WritesTo, Keeps: true}}, Object: true,
		NotApplicable: map[equiv.Mechanism]string{equiv.MechIOEdges: "keeps w for the Writes after it and writes nothing to it itself"}},
	{Func: "MaskWriter.Write", Params: []equiv.Param{{Name: "p"}, {Name: "w", Access: equiv.WritesTo}}, Object: true, Length: true},
}

// contract returns the Contract of fn, one of contracts' Funcs.
func contract(fn string) *equiv.Contract {
	for i := range contracts {
		if contracts[i].Func == fn {
			return &contracts[i]
		}
	}
	panic("websockettest: no contract for " + fn)
}

// The contracts, looked up once.
var (
	cMask, cMaskCopy            = contract("Mask"), contract("MaskCopy")
	cNewReader, cRead, cRReset  = contract("NewMaskReader"), contract("MaskReader.Read"), contract("MaskReader.Reset")
	cNewWriter, cWrite, cWReset = contract("NewMaskWriter"), contract("MaskWriter.Write"), contract("MaskWriter.Reset")
)

// GridLen is the longest payload of the suite's grid of lengths ×
// alignments × key phases. It is at least twice the widest stride of the
// optimized code (a 256-byte unrolled AVX-512 loop) plus 64, and at least
// the 705 bytes from which that loop runs twice at every alignment (its
// head and tail blocks are peeled before the loop); docs/equivalence.md
// has the argument.
const GridLen = 3 * 256

// NewSuite returns the suite that checks impl: the methods vectors,
// exhaustive, guard, properties and scale (each checks every function
// impl has, the streamers included), and the fuzz target FuzzMask whose
// seed corpus (corpus/websocket) the engine's corpus method replays. If
// impl.Mask is nil, the suite's Err says so and nothing runs. A Suite may
// be checked from several goroutines at once.
func NewSuite(impl Impl) equiv.Suite {
	if err := implError(impl); err != nil {
		return equiv.Suite{Pair: pair, Err: err}
	}
	unchecked := uncheckedFuncs(impl)
	method := func(name string, m func(*checker, *equiv.Run) error) equiv.Method {
		return equiv.Method{Name: name, Func: func(r *equiv.Run) error {
			c := newChecker(impl, r.Config())
			c.run = r
			if name != equiv.MethodProperties {
				// Run.Property and Run.Law count every case themselves.
				c.recount = r.Count
			}
			defer c.release()
			defer c.flush()
			return m(c, r)
		}}
	}
	guard := method(equiv.MethodGuard, (*checker).guard)
	guard.Skip = equiv.GuardSkip()
	exhaustive := method(equiv.MethodExhaustive, (*checker).exhaustive)
	exhaustive.Split, exhaustive.Lanes, exhaustive.Long = true, true, true
	scale := method(equiv.MethodScale, (*checker).scale)
	scale.Split, scale.Long = true, true
	return equiv.Suite{
		Pair:      pair,
		Unchecked: unchecked,
		Contracts: contracts,
		// The order seeds each method's random source: keep it.
		Methods: []equiv.Method{
			method(equiv.MethodVectors, (*checker).vectors),
			exhaustive,
			guard,
			method(equiv.MethodProperties, (*checker).properties),
			scale,
		},
		Targets:  []equiv.FuzzTarget{fuzzTarget(impl)},
		Corpus:   corpus.FS,
		Describe: describe,
	}
}

// describe renders an Input for the report of a call that did not return.
func describe(in any) *equiv.Counterexample {
	i, ok := in.(Input)
	if !ok {
		return nil
	}
	args := fmt.Sprintf("key=%x pos=%d", i.Key, i.Pos)
	if i.Underlying != "" {
		args = fmt.Sprintf("key=%x over %q calls ending at %v", i.Key, i.Underlying, i.Splits)
	}
	return &equiv.Counterexample{Func: i.Func, Input: bytes.Clone(i.Payload), Args: args, FuzzTarget: "FuzzMask"}
}

// uncheckedFuncs lists the optional functions impl lacks, for
// Suite.Unchecked.
func uncheckedFuncs(impl Impl) []string {
	var out []string
	for _, f := range []struct {
		name    string
		missing bool
	}{
		{"MaskCopy", impl.MaskCopy == nil},
		{"NewMaskReader", impl.NewMaskReader == nil},
		{"NewMaskWriter", impl.NewMaskWriter == nil},
	} {
		if f.missing {
			out = append(out, fmt.Sprintf("%s: Impl.%s is nil", f.name, f.name))
		}
	}
	return out
}

// implError says why impl cannot be checked at all, or returns nil.
func implError(impl Impl) error {
	switch {
	case impl.Mask != nil:
		return nil
	case impl.Name != "":
		return fmt.Errorf("websockettest: Impl.Mask is nil (%s)", impl.Name)
	}
	return errors.New("websockettest: Impl.Mask is nil")
}

// Check checks impl against reference/websocket with every method at the
// configured level and returns the joined counterexamples (each matching
// equiv.ErrMismatch) and other failures, or nil if impl agreed on every
// input compared.
func Check(impl Impl, opts ...equiv.Option) error {
	return equiv.Check(NewSuite(impl), opts...)
}

// Test runs Check as subtests of t, one per method, as equiv.Test does: a
// nil Mask is one fatal error, each counterexample an error, a method that
// cannot run here a skip.
func Test(t *testing.T, impl Impl, opts ...equiv.Option) {
	t.Helper()
	equiv.Test(t, NewSuite(impl), opts...)
}

// Input is one call of the implementation, as an Exclude function sees it
// just before the call is made. (The later calls of a chunked masking are
// seen with the position the reference returns to them, all before the
// first call; a masking of several calls is compared only if every call is
// in scope.)
//
// For the streamers, an Input is a whole stream, seen before it starts:
// Func is "MaskReader" (Payload is the octets on the wire) or
// "MaskWriter" (Payload is the octets written), Splits where the Reads or
// Writes end but the last, and Underlying the behaviour of the reader or
// writer under it (such as "iotest.HalfReader", "fails at 3" or
// "count -1 at 0"). In the properties' state machines, where calls are
// drawn as the stream goes, Splits is nil, and so is a MaskWriter's
// Payload.
//
// Payload and Dst belong to the suite: an Exclude function must neither
// modify nor retain them. They are the very slices passed, so that a
// function can tell how they overlap.
type Input struct {
	Func       string  // "Mask", "MaskCopy", "MaskReader" or "MaskWriter"
	Payload    []byte  // Mask's b, or MaskCopy's src, before the call; a streamer's payload
	Dst        []byte  // MaskCopy's dst (Payload itself in place); nil for the others
	Key        [4]byte // the masking key
	Pos        int     // the key position passed (0 for a streamer)
	Splits     []int   // a streamer's call boundaries
	Underlying string  // a streamer's underlying reader or writer
}

// Exclude declares the calls for which out returns true out of the
// implementation's scope: they are not compared, and every Result lists
// label with their number. It is equiv.Exclude for this pair's Input.
func Exclude(label string, out func(Input) bool) equiv.Option {
	return equiv.Exclude(label, func(in any) bool {
		i, ok := in.(Input)
		return ok && out(i)
	})
}

// NonNegativePos excludes every call with a negative pos, for
// implementations documented to take a position in 0..3 or at least
// non-negative. Results list it as excluded "negative pos" with the number
// of calls left out. gobwas/ws's Cipher needs StreamOffsetPos instead.
func NonNegativePos() equiv.Option {
	return Exclude("negative pos", func(in Input) bool { return in.Pos < 0 })
}

// StreamOffsetPos excludes every call whose pos is not a stream offset:
// the position, counted in octets from the start of the payload, of b's
// first octet, such that every octet of b has one (pos >= 0 and
// pos+len(b)-1 <= math.MaxInt). It is for maskers that, like gobwas/ws's
// Cipher(payload, mask, offset), take pos as the number of octets masked
// before b and compute each octet's offset in an int: Cipher indexes the
// key with (offset+i)%4 for payloads under 16 octets, which overflows to a
// negative index past math.MaxInt (len 3 at pos math.MaxInt panics with
// index out of range [-3]), as it panics for a negative pos. Results list
// two exclusions, each with the number of calls left out: "negative pos"
// (NonNegativePos) and "octet offset pos+len(b)-1 past math.MaxInt", the
// latter a few calls near math.MaxInt; every offset a stream of up to
// math.MaxInt octets reaches stays checked.
func StreamOffsetPos() equiv.Option {
	negative := NonNegativePos()
	past := Exclude("octet offset pos+len(b)-1 past math.MaxInt", func(in Input) bool {
		return len(in.Payload) > 0 && in.Pos > math.MaxInt-(len(in.Payload)-1)
	})
	return func(c *equiv.Config) { negative(c); past(c) }
}

// ValidUnderlyingCounts excludes every stream over an underlying reader or
// writer that breaks the count clause of io.Reader or io.Writer: a reader
// returning a count outside 0..len(p), a writer returning one outside
// 0..len(b) or a short count with a nil error ("Write must return a
// non-nil error if it returns n < len(p)"). The suite expects a MaskReader
// and a MaskWriter to refuse those counts (reference/websocket's
// ErrInvalidRead, ErrInvalidWrite, io.ErrShortWrite); one that passes them
// on, as gobwas/ws's wsutil.CipherReader (p[:n] panics for n = -1 and
// len(p)+1) and CipherWriter (it returns the count it is given, -1, len+1
// or a short one with a nil error) do, is checked over every reader and
// writer that keeps its contract. Results list it as excluded
// "underlying reader or writer breaks io's count contract" with the number
// of streams left out.
func ValidUnderlyingCounts() equiv.Option {
	return Exclude("underlying reader or writer breaks io's count contract", func(in Input) bool {
		return breaksCountContract(in.Underlying)
	})
}
