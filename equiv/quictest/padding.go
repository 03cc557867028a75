package quictest

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/internal/quicvectors"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// The exhaustive method's padded datagrams (RFC 9000 §14.1): packets
// followed by zero or random bytes, which Packets yields as
// ErrTrailingBytes unless they read as a packet.

// packetReaders are the readers whose result depends on what follows the
// first packet; the varint readers look at the first 8 bytes only, which
// padding does not change.
var packetReaders = []reader{
	{fn: funcParseHeader}, {fn: funcPackets},
	{fn: funcParseHeaderWith}, {fn: funcParseHeaderWith, opts: quic.GreaseQUICBit},
	{fn: funcPacketsWith}, {fn: funcPacketsWith, opts: quic.GreaseQUICBit},
}

// maxPad is the longest padding of the every-length domain: past the
// 8-byte stride of the optimized zero test, twice over, and past the 41
// bytes (a 20-byte DCID and the 20-byte sample minimum) that junk needs to
// read as a complete 1-RTT packet.
const maxPad = 64

// paddingBases are the datagrams padding is put after: every packet
// vector (greased ones included) and every datagram vector.
func paddingBases() []named {
	var bases []named
	for _, v := range quicvectors.Packets {
		bases = append(bases, named{"vector " + v.Name, v.Bytes(), v.ShortDCIDLen})
	}
	for _, v := range quicvectors.Datagrams {
		bases = append(bases, named{"datagram " + v.Name, v.Bytes(), v.ShortDCIDLen})
	}
	return bases
}

// paddings checks every padding length 0..maxPad, and the length that
// fills the datagram to 1200 bytes, of zero bytes and of random bytes
// after each of paddingBases.
func (c *checker) paddings(r *equiv.Run) error {
	rng := r.Rand()
	for _, base := range paddingBases() {
		lengths := intRange(0, maxPad)
		if fill := 1200 - len(base.data); fill > maxPad {
			lengths = append(lengths, fill)
		}
		for _, n := range lengths {
			for _, kind := range []string{"zeros", "random"} {
				pad := make([]byte, n)
				if kind == "random" {
					fillRandom(rng, pad)
				}
				d := append(bytes.Clone(base.data), pad...)
				if err := c.checkReaders(r, packetReaders, d, base.sdl, fmt.Sprintf("%s+%d %s", base.name, n, kind)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// junkBases are the real Initials of RFC 9001 and RFC 9369 (client and
// server, version 1 and 2, and a greased one) that junkFirstBytes pads.
func junkBases() []named {
	var bases []named
	for _, v := range quicvectors.Packets {
		switch v.Name {
		case "v1-client-initial", "v1-server-initial-protected", "v2-client-initial",
			"v2-server-initial-protected", "v1-server-initial-greased":
			bases = append(bases, named{"vector " + v.Name, v.Bytes(), v.ShortDCIDLen})
		}
	}
	return bases
}

// junkFirstBytes checks, after each of junkBases, junk of every first
// byte (0x00-0xff), alone and followed by 39 random bytes: every class of
// first byte a packet can start with, with and without the Fixed Bit.
func (c *checker) junkFirstBytes(r *equiv.Run) error {
	rng := r.Rand()
	for _, base := range junkBases() {
		for first := range 0x100 {
			for _, n := range []int{1, 40} {
				pad := make([]byte, n)
				fillRandom(rng, pad)
				pad[0] = byte(first)
				d := append(bytes.Clone(base.data), pad...)
				if err := c.checkReaders(r, packetReaders, d, base.sdl, fmt.Sprintf("%s+junk first=%#02x len=%d", base.name, first, n)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkReaders compares each of rs on (d, sdl) and counts the comparisons.
func (c *checker) checkReaders(r *equiv.Run, rs []reader, d []byte, sdl int, from string) error {
	for _, rd := range rs {
		ce, k := c.compare(readerInput(rd, d, sdl), laidOut)
		if ce != nil {
			return r.Fail(note(ce, "from=%q", from))
		}
		r.Count(k)
	}
	return nil
}

// fillRandom fills b with bytes from rng.
func fillRandom(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}
