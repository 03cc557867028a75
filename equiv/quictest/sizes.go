package quictest

import (
	"bytes"
	"fmt"

	"github.com/equivcheck/equivcheck/equiv"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// The exhaustive method's sizes: every length-like quantity of a datagram
// at the integer-width boundaries where hand-optimized code keeps narrow
// counters (2^8, 2^16, 2^32 ± a few), and the varint encoding boundaries
// (2^6, 2^14, 2^30): the Token Length and Length fields' values (in short
// datagrams, so a value truncated to 8, 16 or 32 bits is accepted where
// the real one is not) and real tokens, payloads and datagrams of those
// lengths where they can be allocated; Version Negotiation lists of 2^8
// and 2^16 versions ± a few; datagrams of 2^8 coalesced packets ± a few;
// and Connection IDs that differ only late. A datagram of 2^32 bytes
// cannot be allocated: docs/equivalence.md argues why none is needed.

// widthEdges are the powers of two whose neighbours a length-like value
// is tried at: the varint length classes and the integer widths.
var widthEdges = []uint{6, 8, 14, 16, 30, 31, 32}

// fieldValues are the Token Length and Length values tried: each side of
// every widthEdges power of two, the power plus each small remaining
// length (so its low bits alone fit the packet), and 2^62-1.
func fieldValues() []uint64 {
	var vs []uint64
	for _, k := range widthEdges {
		p := uint64(1) << k
		for _, d := range []uint64{0, 1, 2, 5, 20, 24, 30} {
			vs = append(vs, p+d)
		}
		vs = append(vs, p-1, p-2)
	}
	return append(vs, quic.MaxVarint)
}

// fieldWidths checks the Token Length and Length fields of Initial, 0-RTT
// and Handshake packets of versions 1 and 2 at every value of fieldValues
// and every width it fits, in packets with a 5-byte token and 24 bytes of
// payload.
func (c *checker) fieldWidths(r *equiv.Run) error {
	if !c.impl.readsDatagrams() {
		return nil
	}
	reached := map[string]int64{}
	for _, version := range []uint32{quic.Version1, quic.Version2} {
		for _, typ := range []quic.PacketType{quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake} {
			base := PacketSpec{First: firstByte(version, typ, 1), Version: version, DCID: bytesOf(8, 0x11), SCID: bytesOf(4, 0x81),
				Payload: bytesOf(24, 0x40)}
			if typ == quic.TypeInitial {
				base.Token = bytesOf(5, 0x70)
			}
			for _, v := range fieldValues() {
				for _, w := range varintWidths {
					if !fits(v, w) {
						continue
					}
					for _, field := range []string{"Length", "Token Length"} {
						p := base
						if field == "Length" {
							p.LengthDelta, p.LengthWidth = int64(v)-int64(len(p.Payload)), w
						} else if typ == quic.TypeInitial {
							p.TokenLenDelta, p.TokenLenWidth = int64(v)-int64(len(p.Token)), w
						} else {
							continue
						}
						d := p.Append(nil)
						if err := c.checkReaders(r, packetReaders, d, 8, fmt.Sprintf("%s=%#x/%dB %s", field, v, w, p.packetType())); err != nil {
							return err
						}
						reached[field+"="+log2Class(v)]++
					}
				}
			}
		}
	}
	for name, n := range reached {
		r.ReachN(name, n)
	}
	for _, field := range []string{"Length", "Token Length"} {
		r.Expect(field+"=2^8", field+"=2^16", field+"=2^16+", field+"=2^32", field+"=2^32+", field+"=2^30-", field+"=2^30")
	}
	return nil
}

// sizeEdges are the lengths around 2^8 and 2^16 that real tokens,
// payloads and datagrams are built at: the power, a few either side, and
// the power plus each length the packet's other checks compare it to.
func sizeEdges() []int {
	var ns []int
	for _, k := range []uint{8, 16} {
		p := 1 << k
		for _, d := range []int{-2, -1, 0, 1, 2, 8, 20, 28, 29, 40} {
			ns = append(ns, p+d)
		}
	}
	return ns
}

// realSizes checks tokens and payloads of sizeEdges lengths (with honest
// Token Length and Length fields), and 1-RTT and Initial datagrams of
// those lengths, alone and followed by a 1-RTT packet.
func (c *checker) realSizes(r *equiv.Run) error {
	if !c.impl.readsDatagrams() {
		return nil
	}
	oneRTT := PacketSpec{First: 0x41, DCID: bytesOf(8, 0x11), Payload: bytesOf(24, 0x40)}
	reached := map[string]int64{}
	for _, n := range sizeEdges() {
		initial := PacketSpec{First: 0xc1, Version: quic.Version1, DCID: bytesOf(8, 0x11), SCID: bytesOf(4, 0x81), Payload: bytesOf(24, 0x40)}
		token, payload := initial, initial
		token.Token = bytesOf(n, 0x70)
		payload.Payload = bytesOf(n, 0x40)
		short := oneRTT
		short.Payload = bytesOf(n-1-len(short.DCID), 0x40)
		for _, tc := range []struct {
			class string
			d     []byte
		}{
			{"token length", token.Append(nil)},
			{"payload length", payload.Append(nil)},
			{"1-RTT datagram", short.Append(nil)},
			{"Initial datagram", fill(initial, n)},
		} {
			for _, d := range [][]byte{tc.d, oneRTT.Append(bytes.Clone(tc.d))} {
				if err := c.checkReaders(r, packetReaders, d, 8, fmt.Sprintf("%s=%d datagram=%d", tc.class, n, len(d))); err != nil {
					return err
				}
			}
			reached[tc.class+"="+log2Class(uint64(n))]++
		}
	}
	for name, k := range reached {
		r.ReachN(name, k)
	}
	for _, class := range []string{"token length", "payload length", "1-RTT datagram", "Initial datagram"} {
		r.Expect(class+"=2^16-", class+"=2^16", class+"=2^16+", class+"=2^8")
	}
	return nil
}

// fill returns p with its payload grown so that the packet is n bytes
// (or as short as it gets).
func fill(p PacketSpec, n int) []byte {
	p.Payload = nil
	head := len(p.Append(nil)) + 4 // room for a 4-byte Length field
	p.Payload = bytesOf(max(n-head, 0), 0x40)
	p.LengthWidth = 4
	return p.Append(nil)
}

// versionCounts are the numbers of versions Version Negotiation lists are
// built with: each side of 2^6, 2^8 and 2^16.
var versionCounts = []int{1, 2, 63, 64, 65, 255, 256, 257, 511, 512, 513, 1<<16 - 1, 1 << 16, 1<<16 + 1}

// versionLists checks Version Negotiation packets with versionCounts
// versions, and with 1 to 3 bytes more (not a multiple of 4).
func (c *checker) versionLists(r *equiv.Run) error {
	if !c.impl.readsDatagrams() {
		return nil
	}
	for _, n := range versionCounts {
		list := make([]byte, 4*n)
		for i := range n {
			list[4*i], list[4*i+3] = byte(i>>8), byte(i)|1
		}
		for extra := range 4 {
			p := PacketSpec{First: 0x80, DCID: bytesOf(8, 0x11), SCID: bytesOf(4, 0x81), Payload: append(list, bytesOf(extra, 0x0a)...)}
			if err := c.checkReaders(r, packetReaders, p.Append(nil), 8, fmt.Sprintf("version negotiation versions=%d extra=%d", n, extra)); err != nil {
				return err
			}
		}
		r.Reach("versions=" + log2Class(uint64(n)))
	}
	r.Expect("versions=2^8", "versions=2^8+", "versions=2^8-", "versions=2^16", "versions=2^16+", "versions=2^16-")
	return nil
}

// packetCounts are the numbers of coalesced packets datagrams are built
// with: each side of 2^8 (and of 2^9 from Standard).
func packetCounts(r *equiv.Run) []int {
	return equiv.Pick(r, []int{255, 256, 257}, []int{1, 2, 254, 255, 256, 257, 258, 511, 512, 513}, []int{1, 2, 254, 255, 256, 257, 258, 511, 512, 513})
}

// manyPackets checks datagrams of packetCounts Handshake packets (too
// short for a sample, the smallest that are delimited), ending with zero
// padding, with a packet of another DCID, or with a 1-RTT packet; and
// with the last packet's DCID different.
func (c *checker) manyPackets(r *equiv.Run) error {
	if c.impl.Packets == nil && c.impl.PacketsWith == nil {
		return nil
	}
	small := func(dcid []byte) []byte {
		return PacketSpec{First: 0xe0, Version: quic.Version1, DCID: dcid, Payload: []byte{0}}.Append(nil)
	}
	same, other := small(bytesOf(8, 0x11)), small(bytesOf(8, 0x12))
	tails := []struct{ name string }{{"zero padding"}, {"other DCID"}, {"1-RTT"}, {"last DCID differs"}}
	for _, n := range packetCounts(r) {
		d := bytes.Repeat(same, n)
		for _, tail := range tails {
			var t []byte
			switch tail.name {
			case "zero padding":
				t = d
				t = append(bytes.Clone(t), 0, 0, 0)
			case "other DCID":
				t = append(bytes.Clone(d), other...)
			case "1-RTT":
				t = PacketSpec{First: 0x41, DCID: bytesOf(8, 0x11), Payload: bytesOf(24, 0x40)}.Append(bytes.Clone(d))
			default:
				t = append(bytes.Clone(d[:len(d)-len(same)]), other...)
			}
			if err := c.checkReaders(r, []reader{{fn: funcPackets}, {fn: funcPacketsWith}}, t, 8, fmt.Sprintf("%d packets + %s", n, tail.name)); err != nil {
				return err
			}
		}
		r.Reach("packets=" + log2Class(uint64(n)))
	}
	r.Expect("packets=2^8", "packets=2^8+", "packets=2^8-")
	return nil
}

// lateDCIDs checks two coalesced packets (a Handshake packet, then a
// Handshake or a 1-RTT packet) whose DCIDs differ in one byte only, at
// each position, or in length only (one a prefix of the other), with
// shortDCIDLen the DCID's length: for the lengths around the strides a
// comparison may take (1, 4, 8 bytes) and the 20-byte maximum (every
// length from Standard).
func (c *checker) lateDCIDs(r *equiv.Run) error {
	if c.impl.Packets == nil && c.impl.PacketsWith == nil {
		return nil
	}
	hs := func(dcid []byte) PacketSpec {
		return PacketSpec{First: 0xe1, Version: quic.Version1, DCID: dcid, SCID: bytesOf(4, 0x81), Payload: bytesOf(24, 0x40)}
	}
	rs := []reader{{fn: funcPackets}, {fn: funcPacketsWith}, {fn: funcPacketsWith, opts: quic.GreaseQUICBit}}
	for _, n := range equiv.Pick(r, []int{1, 3, 4, 5, 7, 8, 9, 16, 17, 19, 20}, intRange(1, quic.MaxCIDLen), intRange(1, quic.MaxCIDLen)) {
		first := bytesOf(n, 0x11)
		var seconds [][]byte
		for at := range n {
			s := bytes.Clone(first)
			s[at] ^= 0x80
			seconds = append(seconds, s)
		}
		seconds = append(seconds, first[:n-1], append(bytes.Clone(first), first[0]))
		for i, s := range seconds {
			for _, second := range []PacketSpec{hs(s), {First: 0x41, DCID: s, Payload: bytesOf(24, 0x40)}} {
				d := second.Append(hs(first).Append(nil))
				if err := c.checkReaders(r, rs, d, n, fmt.Sprintf("dcid len=%d second differs at %d", n, i)); err != nil {
					return err
				}
			}
			if i < n && i >= 8 {
				r.Reach("DCIDs differ after byte 8")
			}
			if i == quic.MaxCIDLen-1 {
				r.Reach("20-byte DCIDs differ at byte 19")
			}
		}
	}
	r.Expect("DCIDs differ after byte 8", "20-byte DCIDs differ at byte 19")
	return nil
}
