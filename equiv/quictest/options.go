package quictest

import (
	"fmt"
	"iter"

	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// headerFuncs returns the reference's and the Impl's function that
// in.Func names: ParseHeader, or ParseHeaderWith bound to in.Options.
func (c *checker) headerFuncs(in Input) (ref, impl func([]byte, int) (quic.Header, error)) {
	if in.Func == funcParseHeader {
		return quic.ParseHeader, c.impl.ParseHeader
	}
	opts, with := in.Options, c.impl.ParseHeaderWith
	return func(b []byte, sdl int) (quic.Header, error) { return quic.ParseHeaderWith(b, sdl, opts) },
		func(b []byte, sdl int) (quic.Header, error) { return with(b, sdl, opts) }
}

// packetsFuncs is headerFuncs for Packets and PacketsWith.
func (c *checker) packetsFuncs(in Input) (ref, impl func([]byte, int) iter.Seq2[quic.Header, error]) {
	if in.Func == funcPackets {
		return quic.Packets, c.impl.Packets
	}
	opts, with := in.Options, c.impl.PacketsWith
	return func(d []byte, sdl int) iter.Seq2[quic.Header, error] { return quic.PacketsWith(d, sdl, opts) },
		func(d []byte, sdl int) iter.Seq2[quic.Header, error] { return with(d, sdl, opts) }
}

// withOptions adds the options of a ParseHeaderWith or PacketsWith input to
// its counterexample; one with options CheckInput does not use is not
// reproduced by FuzzQUICHeader, and names no fuzz target.
func withOptions(in Input, ce *equiv.Counterexample) *equiv.Counterexample {
	if in.Func != funcParseHeaderWith && in.Func != funcPacketsWith {
		return ce
	}
	note(ce, "opts=%#x", uint32(in.Options))
	if !fuzzOptions(in.Options) {
		ce.FuzzTarget, ce.FuzzArgs = "", nil
	}
	return ce
}

// badOptions are option values with bits no option defines: each bit
// alone (bit 0 is GreaseQUICBit itself, a valid value), every undefined
// bit, and all bits.
var badOptions = func() []quic.Options {
	var out []quic.Options
	for i := 1; i < 32; i++ {
		out = append(out, 1<<i)
	}
	return append(out, ^quic.GreaseQUICBit, ^quic.Options(0), quic.GreaseQUICBit|1<<5)
}()

// optionBits checks ParseHeaderWith and PacketsWith with every value of
// badOptions (ErrInvalidArgument, before anything else) and the two valid
// ones, on one packet of each type (greased or not), an empty datagram and
// a padded one, with a valid and an invalid shortDCIDLen.
func (c *checker) optionBits(r *equiv.Run) error {
	if c.impl.ParseHeaderWith == nil && c.impl.PacketsWith == nil {
		return nil
	}
	var inputs [][]byte
	for _, first := range []byte{0xc0, 0x80, 0xe5, 0xf0, 0x41, 0x01} {
		inputs = append(inputs, canonical(first, quic.Version1, 8, 8).Append(nil))
	}
	inputs = append(inputs, nil, append(canonical(0xc0, quic.Version2, 8, 0).Append(nil), make([]byte, 40)...))
	opts := append([]quic.Options{0, quic.GreaseQUICBit}, badOptions...)
	for _, d := range inputs {
		for _, o := range opts {
			for _, sdl := range []int{8, -1} {
				for _, fn := range []string{funcParseHeaderWith, funcPacketsWith} {
					ce, k := c.compare(Input{Func: fn, Data: d, ShortDCIDLen: sdl, Options: o}, laidOut)
					if ce != nil {
						return r.Fail(note(ce, "from=options %s", optionsName(o)))
					}
					r.Count(k)
				}
			}
		}
	}
	return nil
}

func optionsName(o quic.Options) string { return fmt.Sprintf("%#x", uint32(o)) }
