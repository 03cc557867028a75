// Package quictest checks an implementation of QUIC header parsing (RFC
// 9000 §17, RFC 8999, RFC 9369), variable-length integers (RFC 9000 §16)
// and packet number decoding (RFC 9000 Appendix A.3) against
// reference/quic, as testing/fstest checks a file system: a test calls
// Test(t, Impl{...}), a fuzz target calls Fuzz(f, Impl{...}), and anything
// else calls Check, which returns the minimized counterexamples as an
// error.
//
// Every function of Impl is optional, so a lone varint parser can be
// checked: each method compares what the Impl provides and lists the rest
// in Result.Unchecked.
package quictest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"testing"

	"github.com/equivcheck/equivcheck/corpus"
	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// Impl is an implementation of reference/quic's API to check. It returns
// reference/quic's Header and sentinel errors, so that results are
// compared method by method and errors by identity (after MapErrors).
//
// Every function is optional: a nil one is not checked, and every method
// says so in Result.Unchecked. At least one must be set.
//
// Beyond its results, every function keeps this contract, which every
// method checks on every input it compares (docs/equivalence.md, "The
// contract"):
//
//   - Reads: a datagram or buffer only in [0:len]: not its spare capacity
//     (which holds canaries), not before or past it (unmapped pages, also
//     flush against the slice at the alignments where a page boundary
//     falls there); nil and empty alike. A stream function consumes the
//     integer's bytes and no more, from wherever the reader is (a
//     *bytes.Reader already read into, a *bufio.Reader, one read from a
//     thousand times before), and takes every (n, err) its reader
//     returns as io says: a Peek that returns the bytes asked for with an
//     error has returned them.
//   - Writes: no function writes a datagram, not even for a moment (it
//     lies on read-only pages); an append writes only the bytes it
//     appends, in place when the buffer has room (AppendVarintWithLen
//     must, exactly the room it needs included), and nothing past them
//     or before them, not even what was there (read-only octets lie
//     flush against the room).
//   - Keeps: the slices of a Header alias the datagram, as the
//     reference's do (same offsets, lengths and capacities), and nothing
//     else is kept: a datagram is overwritten once its call (or, for
//     Packets, the ranging of its sequence) is done, and a call at the
//     same address with other contents must see them.
//   - Shares: every function may be called from several goroutines at
//     once (each method runs beside a concurrent caller, and the scale
//     method from two goroutines released together) and from inside a
//     call of its own (a stream whose ReadByte calls ReadVarint).
//   - Results: what an append to a nil or full buffer returns is the
//     caller's, and does not change as later appends run. A Packets
//     sequence walks the datagram as it is when ranged: ranged more than
//     once it yields the same each time, and ranged again after the
//     datagram changed in place it yields the new contents' packets; once
//     the loop body returns false it yields no more.
//   - Sizes: datagrams, prefixes and streams of megabytes (4 MiB at
//     quick, 64 MiB at standard) are taken as the short ones are.
//
// The contracts table beside Impl states the same, per function, as data
// (equiv.Contract).
type Impl struct {
	// Name labels the implementation in messages ("avx2"); it may be empty.
	Name string

	// ParseVarint decodes the variable-length integer at the start of b
	// (RFC 9000 §16) and returns its value and its encoded length n (1,
	// 2, 4 or 8, from the first byte's two top bits), ignoring the bytes
	// after it; non-minimal encodings are accepted. On an empty or short
	// b it returns 0, 0 and quic.ErrTruncated: n is 0 on every error
	// (MapErrors maps another error onto ErrTruncated; the 0, 0 is
	// compared as it is).
	ParseVarint func(b []byte) (uint64, int, error)
	// AppendVarint appends the shortest encoding of v to b and returns
	// the extended slice, writing in place when b has room and nothing
	// past the appended bytes; it panics if v > quic.MaxVarint (2^62-1)
	// (AnyPanic accepts another panic value).
	AppendVarint func(b []byte, v uint64) []byte
	// DecodePacketNumber recovers a full packet number from the pnLen-byte
	// truncated one, given largest, the largest packet number processed
	// so far in the space (RFC 9000 §17.1, Appendix A.3); largest =
	// math.MaxUint64 means none yet. It uses only the low 8*pnLen bits of
	// truncated: the suite passes values with higher bits set
	// (docs/strictness.md, quic-pn-masks-truncated). It panics if pnLen is
	// not in 1..4 or largest is in [2^62, 2^64-2].
	DecodePacketNumber func(largest, truncated uint64, pnLen int) uint64
	// ParseHeader parses the header of the first packet in the datagram b
	// as reference/quic.ParseHeader does (RFC 8999 §5, RFC 9000 §17, RFC
	// 9369 §3), shortDCIDLen being the length of a short header's
	// Destination Connection ID (0..quic.MaxCIDLen, else
	// ErrInvalidArgument). It returns a quic.Header built with
	// quic.NewHeader whose slices alias b (same offsets, lengths and
	// capacities as the reference's), or the zero Header and the
	// reference's error for the first field bad in wire order (a short
	// 1-RTT packet comes back complete with ErrPacketTooShort). It never
	// writes b.
	ParseHeader func(b []byte, shortDCIDLen int) (quic.Header, error)
	// Packets yields the header of each packet coalesced in the datagram
	// (RFC 9000 §12.2), as reference/quic.Packets does: an error in the
	// first packet is yielded once and ends the walk; bytes after a
	// packet that cannot start one are yielded once, last, as
	// ErrTrailingBytes with a Header of Type TypeNone; a packet whose
	// DCID differs from the first packet's comes with ErrDCIDMismatch.
	// The sequence may be ranged more than once and stops when the loop
	// body returns false.
	Packets func(datagram []byte, shortDCIDLen int) iter.Seq2[quic.Header, error]

	// ParseHeaderWith and PacketsWith are ParseHeader and Packets with
	// reference/quic's Options: each datagram is parsed with none and
	// with GreaseQUICBit (a cleared Fixed Bit accepted, RFC 9287), and
	// option bits no option defines are ErrInvalidArgument, before b is
	// looked at.
	ParseHeaderWith func(b []byte, shortDCIDLen int, opts quic.Options) (quic.Header, error)
	PacketsWith     func(datagram []byte, shortDCIDLen int, opts quic.Options) iter.Seq2[quic.Header, error]
	// ReadVarint reads one variable-length integer from r, one ReadByte
	// per byte and never past it, and returns its value and the number
	// of bytes consumed. On error the value is 0 and the count the bytes
	// read: 0 with r's error if r fails before the first byte (io.EOF at
	// its end), io.ErrUnexpectedEOF if r ends inside the integer, r's
	// error as it is if r fails otherwise (reference/quic.ReadVarint).
	// The suite's streams are readers over the input that end or fail
	// where the domain says (a *bytes.Reader already read into, a
	// *bufio.Reader, one whose ReadByte calls ReadVarint) and record
	// what they were asked for.
	ReadVarint func(r io.ByteReader) (uint64, int, error)
	// PeekVarint decodes the integer at p's position without consuming
	// it: it calls p.Peek(1) and then, for an integer longer than one
	// byte, p.Peek(n), and nothing else, taking the length from the
	// first Peek's byte and the value from the second's bytes. It
	// returns the value and the length; on error the value is 0, and
	// the length 0 if the first Peek returned no byte (with Peek's
	// error), else the announced length with Peek's error, io.EOF turned
	// into io.ErrUnexpectedEOF; a short Peek with a nil error is
	// io.ErrNoProgress (reference/quic.PeekVarint). The suite's Peekers
	// include one that returns other top bits on the second Peek.
	PeekVarint func(p quic.Peeker) (uint64, int, error)
	// AppendVarintWithLen appends v encoded on exactly n bytes (RFC 9000
	// §16 allows any of the four widths) and returns the extended slice,
	// in place when b has room, writing nothing past the n bytes: the
	// suite appends onto empty, full and roomy buffers and checks the
	// bytes after the appended ones. It panics if n is not 1, 2, 4 or 8,
	// and then if v does not fit in n bytes.
	AppendVarintWithLen func(b []byte, v uint64, n int) []byte
}

// contracts are Impl's contract above, as data: one per function, which
// the engine's harness applies to every call (equiv.Harness) and
// TestContracts compares with Impl and with what a quick run applied
// (equiv.CheckContracts). A parameter's Access is equiv.Reads unless it
// says otherwise; nothing is Serial, nothing Keeps: a Packets sequence
// reads its datagram while it is ranged, and once the suite is done
// ranging it the datagram is overwritten (poisoned) like any other.
var contracts = []equiv.Contract{
	{Func: funcParseVarint, Params: []equiv.Param{{Name: "b"}}},
	{Func: funcAppendVarint, Params: []equiv.Param{{Name: "b", Access: equiv.Appends}}, Fresh: true},
	{Func: funcDecodePacketNumber},
	{Func: funcParseHeader, Params: []equiv.Param{{Name: "b"}}},
	{Func: funcPackets, Params: []equiv.Param{{Name: "datagram"}}, Iter: true},
	{Func: funcParseHeaderWith, Params: []equiv.Param{{Name: "b"}}},
	{Func: funcPacketsWith, Params: []equiv.Param{{Name: "datagram"}}, Iter: true},
	{Func: funcReadVarint, Params: []equiv.Param{{Name: "r", Access: equiv.ReadsFrom}}},
	{Func: funcPeekVarint, Params: []equiv.Param{{Name: "p", Access: equiv.ReadsFrom}}},
	{Func: funcAppendVarintWithLen, Params: []equiv.Param{{Name: "b", Access: equiv.Appends}}, Fresh: true},
}

// contract returns the Contract of fn, one of contracts' Funcs.
func contract(fn string) *equiv.Contract {
	for i := range contracts {
		if contracts[i].Func == fn {
			return &contracts[i]
		}
	}
	panic("quictest: no contract for " + fn)
}

// The contracts, looked up once.
var (
	cParseVarint, cAppendVarint, cPN = contract(funcParseVarint), contract(funcAppendVarint), contract(funcDecodePacketNumber)
	cParseHeader, cPackets           = contract(funcParseHeader), contract(funcPackets)
	cParseHeaderWith, cPacketsWith   = contract(funcParseHeaderWith), contract(funcPacketsWith)
	cReadVarint, cPeekVarint         = contract(funcReadVarint), contract(funcPeekVarint)
	cWithLen                         = contract(funcAppendVarintWithLen)
)

// The functions of Impl, by name: the values of Input.Func and
// Counterexample.Func.
const (
	funcParseVarint        = "ParseVarint"
	funcAppendVarint       = "AppendVarint"
	funcDecodePacketNumber = "DecodePacketNumber"
	funcParseHeader        = "ParseHeader"
	funcPackets            = "Packets"

	funcParseHeaderWith     = "ParseHeaderWith"
	funcPacketsWith         = "PacketsWith"
	funcReadVarint          = "ReadVarint"
	funcPeekVarint          = "PeekVarint"
	funcAppendVarintWithLen = "AppendVarintWithLen"
)

// The fuzz targets of the pair, named as in package fuzz.
const (
	targetHeader       = "FuzzQUICHeader"
	targetStructured   = "FuzzQUICStructured"
	targetPacketNumber = "FuzzQUICPacketNumber"
)

// has reports whether the function named fn is set.
func (impl Impl) has(fn string) bool {
	switch fn {
	case funcParseVarint:
		return impl.ParseVarint != nil
	case funcAppendVarint:
		return impl.AppendVarint != nil
	case funcDecodePacketNumber:
		return impl.DecodePacketNumber != nil
	case funcParseHeader:
		return impl.ParseHeader != nil
	case funcPackets:
		return impl.Packets != nil
	case funcParseHeaderWith:
		return impl.ParseHeaderWith != nil
	case funcPacketsWith:
		return impl.PacketsWith != nil
	case funcReadVarint:
		return impl.ReadVarint != nil
	case funcPeekVarint:
		return impl.PeekVarint != nil
	case funcAppendVarintWithLen:
		return impl.AppendVarintWithLen != nil
	}
	return false
}

var allFuncs = []string{funcParseVarint, funcAppendVarint, funcDecodePacketNumber, funcParseHeader, funcPackets,
	funcParseHeaderWith, funcPacketsWith, funcReadVarint, funcPeekVarint, funcAppendVarintWithLen}

// unchecked lists the nil functions, for Suite.Unchecked.
func (impl Impl) unchecked() []string {
	var out []string
	for _, fn := range allFuncs {
		if !impl.has(fn) {
			out = append(out, fmt.Sprintf("%s: Impl.%s is nil", fn, fn))
		}
	}
	return out
}

// readsDatagrams reports whether a function that reads a buffer is set:
// the guard method has something to place against a guard page.
func (impl Impl) readsDatagrams() bool {
	return impl.ParseHeader != nil || impl.Packets != nil || impl.ParseVarint != nil ||
		impl.ParseHeaderWith != nil || impl.PacketsWith != nil || impl.ReadVarint != nil || impl.PeekVarint != nil
}

// appends reports whether a function that appends is set.
func (impl Impl) appends() bool {
	return impl.AppendVarint != nil || impl.AppendVarintWithLen != nil
}

// validate returns the error of an Impl with nothing to check.
func (impl Impl) validate() error {
	for _, fn := range allFuncs {
		if impl.has(fn) {
			return nil
		}
	}
	return errors.New("quictest: Impl has no function to check (ParseVarint, AppendVarint, DecodePacketNumber, ParseHeader, Packets, " +
		"ParseHeaderWith, PacketsWith, ReadVarint, PeekVarint and AppendVarintWithLen are all nil)")
}

// NewSuite returns the suite that checks impl against reference/quic: the
// methods vectors (RFC 9000 Appendix A, RFC 9001 Appendix A, RFC 9369
// Appendix A and hand-built packets, greased ones and RFC Initials padded
// with zero and random bytes, each at every truncation and with trailing
// junk), exhaustive (the header grammar's classes with and without
// GreaseQUICBit, every varint of up to 2 bytes, every stream end around an
// integer, fixed-width appends, options, every padding length and junk
// first byte, packet number windows), guard (inputs flush against
// unmapped pages, fields filled in place up to one), properties (gopter
// laws and rapid differential checks) and corpus (the fuzz targets' seed
// and regression inputs).
//
// A Header agrees when every one of its methods reports the same thing:
// slices by nil-ness, length, capacity and offset into the parsed input
// (they must alias it), scalars by value; errors agree through
// Config.SameError and panics through Config.SamePanic. A stream function
// agrees when its result and what it consumed from, or asked of, its
// stream do; an append, when its bytes do and, with room in the buffer, it
// wrote in place and nothing after them.
//
// Suite.Err is set only when every function of impl is nil. An Impl with
// only DecodePacketNumber has nothing the seed corpus (datagrams) or guard
// pages apply to, and one with only AppendVarint nothing for guard pages:
// those methods are reported skipped.
func NewSuite(impl Impl) equiv.Suite {
	s := equiv.Suite{Pair: "quic", Corpus: corpus.FS, Contracts: contracts}
	if s.Err = impl.validate(); s.Err != nil {
		return s
	}
	s.Unchecked = impl.unchecked()
	method := func(name string, run func(*checker, *equiv.Run) error) equiv.Method {
		return equiv.Method{Name: name, Func: func(r *equiv.Run) error {
			c := newChecker(impl, r.Config())
			defer c.release()
			c.run = r
			return run(c, r)
		}}
	}
	exhaustive := method(equiv.MethodExhaustive, (*checker).exhaustive)
	exhaustive.Split, exhaustive.Lanes, exhaustive.Long = true, true, true
	scale := method(equiv.MethodScale, (*checker).scale)
	scale.Split, scale.Long = true, true
	guard := method(equiv.MethodGuard, (*checker).guard)
	guard.Skip = equiv.GuardSkip()
	if guard.Skip == "" && !impl.readsDatagrams() && impl.AppendVarintWithLen == nil {
		guard.Skip = "no function of the Impl reads or fills a buffer in place (ParseVarint, ParseHeader, Packets, " +
			"ParseHeaderWith, PacketsWith, ReadVarint, PeekVarint and AppendVarintWithLen are nil)"
	}
	s.Methods = []equiv.Method{
		method(equiv.MethodVectors, (*checker).vectors),
		exhaustive,
		guard,
		method(equiv.MethodProperties, (*checker).properties),
		scale,
	}
	s.Describe = describe
	if impl.readsDatagrams() || impl.appends() {
		s.Targets = targets(impl)
	} else {
		// Only DecodePacketNumber: the engine's corpus method would
		// compare nothing and fail for it.
		s.Methods = append(s.Methods, equiv.Method{Name: equiv.MethodCorpus,
			Skip: "the seed corpus holds datagrams, and the Impl has only DecodePacketNumber"})
	}
	return s
}

// withChecker runs check on a checker of its own, and releases it.
func withChecker(impl Impl, cfg *equiv.Config, check func(*checker) (*equiv.Counterexample, int)) (*equiv.Counterexample, int) {
	c := newChecker(impl, cfg)
	defer c.release()
	return check(c)
}

// targets are the pair's fuzz targets: FuzzQUICHeader(datagram,
// shortDCIDLen) with the seed corpus "quic", FuzzQUICStructured(data) and
// FuzzQUICPacketNumber(largest, truncated, pnLen), whose seeds are in code
// (FuzzStructured, FuzzPacketNumber).
func targets(impl Impl) []equiv.FuzzTarget {
	return []equiv.FuzzTarget{{
		Name: targetHeader, Args: []string{"[]byte", "int"}, Corpus: "quic",
		Check: func(cfg *equiv.Config, v []any) (*equiv.Counterexample, int) {
			return withChecker(impl, cfg, func(c *checker) (*equiv.Counterexample, int) { return c.input(v[0].([]byte), v[1].(int)) })
		},
	}, {
		Name: targetStructured, Args: []string{"[]byte"},
		Check: func(cfg *equiv.Config, v []any) (*equiv.Counterexample, int) {
			return withChecker(impl, cfg, func(c *checker) (*equiv.Counterexample, int) { return c.structured(v[0].([]byte)) })
		},
	}, {
		Name: targetPacketNumber, Args: []string{"uint64", "uint64", "int"},
		Check: func(cfg *equiv.Config, v []any) (*equiv.Counterexample, int) {
			return withChecker(impl, cfg, func(c *checker) (*equiv.Counterexample, int) {
				return c.packetNumber(v[0].(uint64), v[1].(uint64), v[2].(int))
			})
		},
	}}
}

// describe renders an Input for the report of a call that did not return.
func describe(in any) *equiv.Counterexample {
	i, ok := in.(Input)
	if !ok {
		return nil
	}
	return &equiv.Counterexample{Func: i.Func, Input: bytes.Clone(i.Data),
		Args: fmt.Sprintf("shortDCIDLen=%d options=%#x value=%#x len=%d largest=%#x truncated=%#x pnLen=%d",
			i.ShortDCIDLen, i.Options, i.Value, i.Len, i.Largest, i.Truncated, i.PNLen)}
}

// Check checks impl against reference/quic with every method of NewSuite
// at the configured level, and returns the joined counterexamples (each
// matching equiv.ErrMismatch), or nil if impl agreed on every input.
func Check(impl Impl, opts ...equiv.Option) error {
	return equiv.Check(NewSuite(impl), opts...)
}

// Test runs Check as subtests of t, one per method (see equiv.Test).
func Test(t *testing.T, impl Impl, opts ...equiv.Option) {
	t.Helper()
	equiv.Test(t, NewSuite(impl), opts...)
}

// CheckInput checks impl on one input of the fuzz target
// FuzzQUICHeader(datagram, shortDCIDLen): ParseHeader(datagram,
// shortDCIDLen); Packets(datagram, shortDCIDLen), the whole sequence and
// the sequence stopped after each of its packets; ParseHeaderWith and
// PacketsWith likewise, with no options and with GreaseQUICBit;
// ParseVarint(datagram); ReadVarint from a byte reader and a
// *bytes.Reader over the datagram, and PeekVarint from a peeker over it,
// each stream ending with io.EOF after the datagram; and AppendVarint of the value the reference's ParseVarint
// decodes, if any, and AppendVarintWithLen of it at every width it fits. The corpus method calls the same checks, so a corpus file
// means the same thing to both. A disagreement is a minimized
// *equiv.Counterexample with Method "fuzz".
func CheckInput(impl Impl, datagram []byte, shortDCIDLen int, opts ...equiv.Option) error {
	return checkOne(impl, opts, func(c *checker) (*equiv.Counterexample, int) {
		return c.input(datagram, shortDCIDLen)
	})
}

// CheckStructured checks impl on one input of the fuzz target
// FuzzQUICStructured: the datagram that data describes (see
// FuzzStructured), with CheckInput's checks. The counterexample's fuzz
// form is the datagram's, as an input of FuzzQUICHeader.
func CheckStructured(impl Impl, data []byte, opts ...equiv.Option) error {
	return checkOne(impl, opts, func(c *checker) (*equiv.Counterexample, int) {
		return c.structured(data)
	})
}

// CheckPacketNumber checks impl's DecodePacketNumber on one input of the
// fuzz target FuzzQUICPacketNumber: the decoded packet number, or the
// panic (the reference panics for pnLen outside 1..4 and largest in
// [2^62, 2^64-2]), must be the reference's. A nil DecodePacketNumber is
// not checked.
func CheckPacketNumber(impl Impl, largest, truncated uint64, pnLen int, opts ...equiv.Option) error {
	return checkOne(impl, opts, func(c *checker) (*equiv.Counterexample, int) {
		return c.packetNumber(largest, truncated, pnLen)
	})
}

// checkOne runs one fuzz input's check with a configuration of its own.
func checkOne(impl Impl, opts []equiv.Option, check func(*checker) (*equiv.Counterexample, int)) error {
	if err := impl.validate(); err != nil {
		return err
	}
	ce, _ := withChecker(impl, equiv.NewConfig(opts...), check)
	if ce == nil {
		return nil
	}
	ce.Pair, ce.Method = "quic", "fuzz"
	return ce
}

// Input is one input of one function of the Impl, as Exclude sees it.
type Input struct {
	// Func is the function called: "ParseVarint", "AppendVarint",
	// "DecodePacketNumber", "ParseHeader", "Packets", "ParseHeaderWith",
	// "PacketsWith", "ReadVarint", "PeekVarint" or "AppendVarintWithLen".
	Func string
	// Data is the datagram (ParseHeader, Packets, ParseHeaderWith,
	// PacketsWith), the bytes to decode (ParseVarint), the bytes the
	// stream holds before it ends (ReadVarint, PeekVarint) or the prefix
	// appended to (AppendVarint, AppendVarintWithLen).
	Data []byte
	// ShortDCIDLen is the header parsers' shortDCIDLen.
	ShortDCIDLen int
	// Options is ParseHeaderWith's and PacketsWith's opts.
	Options quic.Options
	// Largest, Truncated and PNLen are DecodePacketNumber's arguments.
	Largest, Truncated uint64
	PNLen              int
	// Value is the value AppendVarint and AppendVarintWithLen encode, and
	// Len AppendVarintWithLen's n.
	Value uint64
	Len   int
}

// Exclude declares inputs out of the implementation's documented scope
// (equiv.Exclude): nothing is compared on an input for which out returns
// true, and every Result reports label with the number of inputs left out.
// For example, a parser that handles version 1 only:
//
//	quictest.Exclude("version 2", func(in quictest.Input) bool {
//		return len(in.Data) >= 5 && binary.BigEndian.Uint32(in.Data[1:]) == quic.Version2
//	})
func Exclude(label string, out func(Input) bool) equiv.Option {
	return equiv.Exclude(label, func(in any) bool {
		i, ok := in.(Input)
		return ok && out(i)
	})
}
