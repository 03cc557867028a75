// Package pairs wires the prove method to this module's pairs: the
// functions proved, the sizes each is proved at, and the fuzz-target
// forms of their counterexamples. cmd/equivprove runs them as a release
// gate.
package pairs

import (
	"encoding/binary"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/gate"
	optchk "github.com/equivcheck/equivcheck/optimized/checksum"
	optquic "github.com/equivcheck/equivcheck/optimized/quic"
	optutf8 "github.com/equivcheck/equivcheck/optimized/utf8valid"
	optws "github.com/equivcheck/equivcheck/optimized/websocket"
	"github.com/equivcheck/equivcheck/prove"
	"github.com/equivcheck/equivcheck/prove/internal/harness"
	refchk "github.com/equivcheck/equivcheck/reference/checksum"
	refquic "github.com/equivcheck/equivcheck/reference/quic"
	refutf8 "github.com/equivcheck/equivcheck/reference/utf8valid"
	refws "github.com/equivcheck/equivcheck/reference/websocket"
)

// Variants returns a gate variant per pair, "generic": the pure-Go kernel
// of each optimized package, whose functions the prove method proves
// against the reference's, one method per function. The assembly kernels
// have no Go body to execute: their testing methods are cmd/equivcheck's.
func Variants(opts ...prove.Option) []gate.Variant {
	return []gate.Variant{
		{Name: "generic", Suite: equiv.Suite{Pair: "websocket", Methods: Websocket(opts...)}},
		{Name: "generic", Suite: equiv.Suite{Pair: "quic", Methods: QUIC(opts...)}},
		{Name: "generic", Suite: equiv.Suite{Pair: "utf8", Methods: UTF8(opts...)}},
		{Name: "generic", Suite: equiv.Suite{Pair: "checksum", Methods: Checksum(opts...)}},
	}
}

// sizes returns the sizes from..quick at quick, from..standard at
// standard and from..deep, then extra, at deep.
func sizes(from, quick, standard, deep int, extra ...int) func(equiv.Level) []int {
	r := prove.Range(from, quick, standard, deep)
	return func(l equiv.Level) []int {
		s := r(l)
		if l == equiv.Deep {
			s = append(s, extra...)
		}
		return s
	}
}

// name is a proof method's name: "prove-" and the function.
func name(fn string) prove.Option { return prove.Name(equiv.MethodProve + "-" + fn) }

// with returns a method's own options, then opts, which override them
// (the gate's and the tests' sizes, timeouts).
func with(opts []prove.Option, own ...prove.Option) []prove.Option {
	// Panics are compared as the suites' SamePanic does: the value of a
	// call of panic (the sentinel messages the pairs share), the kind of
	// a runtime error.
	return append(append(own, prove.PanicValues()), opts...)
}

// generic returns the variant named "generic" of an optimized package's
// Impls.
func generic[I any](impls []I, nameOf func(I) string) I {
	for _, i := range impls {
		if nameOf(i) == "generic" {
			return i
		}
	}
	panic("no generic variant")
}

// Websocket proves maskGeneric, every key and every int position, for
// payloads of 0..16 octets at quick, 0..64 at standard, and 128 and 256
// more at deep: past the 32-octet loop's second turn, every branch of the
// kernel (docs/equivalence.md).
func Websocket(opts ...prove.Option) []equiv.Method {
	g := generic(optws.Impls(), func(i optws.Impl) string { return i.Name })
	return []equiv.Method{
		prove.Method(refws.Mask, g.Mask, with(opts, name("Mask"), prove.FuncName("Mask"),
			prove.Sizes(sizes(0, 16, 64, 64, 128, 256)),
			prove.FuzzTarget(func(in []any) (string, []any) {
				key := in[1].([4]byte)
				return "FuzzMask", []any{in[0], binary.BigEndian.Uint32(key[:]), in[2], []byte{}}
			}))...),
		{Name: equiv.MethodProve + "-MaskCopy", Skip: "MaskCopy's overlap check compares addresses (unsafe.SliceData in the kernel, reflect in the reference), which the prover does not model"},
	}
}

// QUIC proves ParseVarint for every input of 0..9 octets (every varint
// is at most 8), AppendVarint after prefixes of 0..8 octets, at capacity
// and with spare capacity, for every uint64 (each length class and the
// panic past 2^62-1), and DecodePacketNumber for every argument.
func QUIC(opts ...prove.Option) []equiv.Method {
	g := optquic.Impls()[0]
	header := func(in []any) (string, []any) { return "FuzzQUICHeader", []any{in[0], 0} }
	appendForm := func(in []any) (string, []any) {
		if v := in[1].(uint64); len(in[0].([]byte)) == 0 && v <= refquic.MaxVarint {
			return "FuzzQUICHeader", []any{refquic.AppendVarint(nil, v), 0}
		}
		return "", nil
	}
	pn := func(in []any) (string, []any) { return "FuzzQUICPacketNumber", in }
	return []equiv.Method{
		prove.Method(refquic.ParseVarint, g.ParseVarint, with(opts, name("ParseVarint"), prove.FuncName("ParseVarint"),
			prove.Sizes(sizes(0, 9, 9, 9)), prove.FuzzTarget(header))...),
		prove.Method(refquic.AppendVarint, g.AppendVarint, with(opts, name("AppendVarint"), prove.FuncName("AppendVarint"),
			prove.Sizes(sizes(0, 8, 8, 16)), prove.FuzzTarget(appendForm))...),
		prove.Method(refquic.AppendVarint, g.AppendVarint, with(opts, name("AppendVarint-spare"), prove.FuncName("AppendVarint"),
			prove.Sizes(sizes(0, 8, 8, 16)), prove.Spare(8))...),
		prove.Method(refquic.DecodePacketNumber, g.DecodePacketNumber, with(opts, name("DecodePacketNumber"),
			prove.FuncName("DecodePacketNumber"), prove.Sizes(sizes(0, 0, 0, 0)), prove.FuzzTarget(pn))...),
	}
}

// UTF8 proves one Write into a new generic Validator, observed through
// its results, Close and Offset, for texts of 1..8 octets at quick, 1..16
// at standard (16 is where Write leaves the automaton for the word-wise
// kernel) and 1..24 at deep.
func UTF8(opts ...prove.Option) []equiv.Method {
	g := generic(optutf8.Impls(), func(i optutf8.Impl) string { return i.Name })
	ref := prove.Func{Value: harness.RefWrite, Args: func() []any { return []any{new(refutf8.Validator)} }}
	opt := prove.Func{Value: harness.OptWrite, Args: func() []any { return []any{g.NewValidator()} }}
	text := func(in []any) (string, []any) { return "FuzzUTF8", []any{in[0], uint32(0), 0, []byte{}} }
	return []equiv.Method{
		prove.Funcs(ref, opt, with(opts, name("Write"), prove.FuncName("Validator.Write"),
			prove.Sizes(sizes(1, 8, 16, 24)), prove.FuzzTarget(text))...),
		prove.Method(refutf8.Valid, g.Valid, with(opts, name("Valid"), prove.FuncName("Valid"),
			prove.Sizes(sizes(0, 8, 16, 24)), prove.FuzzTarget(text))...),
	}
}

// Checksum proves Sum for inputs of 0..4 octets at quick and standard and
// 0..5 at deep, every initial value: as far as the solvers go (the two
// sides agree only through ones'-complement arithmetic on words of
// different widths, docs/equivalence.md); and the helpers that sum no
// buffer, for every argument.
func Checksum(opts ...prove.Option) []equiv.Method {
	g := generic(optchk.Impls(), func(i optchk.Impl) string { return i.Name })
	sum := func(in []any) (string, []any) { return "FuzzChecksum", []any{in[0], in[1], []byte{}} }
	one := prove.Sizes(sizes(0, 0, 0, 0))
	return []equiv.Method{
		prove.Method(refchk.Sum, g.Sum, with(opts, name("Sum"), prove.FuncName("Sum"),
			prove.Sizes(sizes(0, 4, 4, 5)), prove.FuzzTarget(sum),
			prove.Timeout(func(l equiv.Level) time.Duration {
				return map[equiv.Level]time.Duration{equiv.Quick: time.Minute, equiv.Standard: 2 * time.Minute, equiv.Deep: 10 * time.Minute}[l]
			}))...),
		prove.Method(refchk.Update, optchk.Update, with(opts, name("Update"), prove.FuncName("Update"), one)...),
		prove.Method(refchk.Combine, optchk.Combine, with(opts, name("Combine"), prove.FuncName("Combine"), one)...),
		prove.Method(refchk.FinishUDP, optchk.FinishUDP, with(opts, name("FinishUDP"), prove.FuncName("FinishUDP"), one)...),
		prove.Method(refchk.UpdateUDP, optchk.UpdateUDP, with(opts, name("UpdateUDP"), prove.FuncName("UpdateUDP"), one)...),
		prove.Method(refchk.UpdateUDP6, optchk.UpdateUDP6, with(opts, name("UpdateUDP6"), prove.FuncName("UpdateUDP6"), one)...),
		prove.Method(refchk.Put, optchk.Put, with(opts, name("Put"), prove.FuncName("Put"), prove.Sizes(sizes(0, 4, 4, 4)))...),
	}
}
