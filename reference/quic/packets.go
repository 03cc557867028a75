package quic

import (
	"bytes"
	"iter"
)

// Packets returns an iterator over the packets coalesced in one UDP
// datagram (RFC 9000 §12.2), yielding each packet's Header as ParseHeader
// returns it for the rest of the datagram. The Header's Packet method says
// where the packet ends; offsets in it count from that packet's start.
//
// The iterator goes on after an error only when the packet it reported
// can still be delimited, and yields its complete Header:
//   - ErrPacketTooShort: an Initial, 0-RTT or Handshake packet with a
//     Length under 4+SampleLen is skipped by its Length (a 1-RTT packet
//     ends the datagram anyway);
//   - ErrDCIDMismatch: a packet after the first whose Destination
//     Connection ID differs from the first packet's, which the receiver
//     "SHOULD ignore" (RFC 9000 §12.2). It takes precedence over
//     ErrPacketTooShort for that packet, the DCID coming first in wire
//     order.
//
// Bytes after at least one packet that cannot start a packet (ParseHeader
// fails on them with any error but ErrPacketTooShort) are padding or junk:
// RFC 9000 §14.1 lets a sender expand a datagram with them ("Initial
// packets can even be coalesced with invalid packets, which a receiver
// will discard"), and clients do, with zero bytes (neqo, quiche, aioquic)
// or random ones (picoquic). They are yielded once, last, as
// ErrTrailingBytes with a Header of Type TypeNone whose Packet is the rest
// of the datagram; the packets before them stand. No rule on the bytes can
// tell random padding from a corrupt packet after the first (random bytes
// can be anything), and the receiver does the same with both: it keeps the
// packets it could delimit and discards the rest. A caller who wants the
// reason can call ParseHeader on that Header's Packet.
//
// Random padding can also read as a packet: most often a 1-RTT or an
// unsupported-version packet, taking the rest of the datagram, whose
// Destination Connection ID differs from the first packet's, yielded with
// ErrDCIDMismatch; a receiver ignores it just the same.
//
// An error in the first packet leaves the whole datagram undelimitable: it
// is yielded with the zero Header and the iteration stops. A Retry,
// Version Negotiation, unsupported-version or 1-RTT packet has no Length
// and takes the rest of the datagram, so it is always the last one.
//
// An empty datagram yields (Header{}, ErrTruncated) once. An invalid
// shortDCIDLen, or a datagram longer than MaxInputLen, yields
// (Header{}, ErrInvalidArgument) once.
//
// Packets is PacketsWith with no options.
func Packets(datagram []byte, shortDCIDLen int) iter.Seq2[Header, error] {
	return PacketsWith(datagram, shortDCIDLen, 0)
}

// PacketsWith is Packets with the options opts, which it parses each
// packet with as ParseHeaderWith does. With GreaseQUICBit, a first byte
// 0x00 can start a 1-RTT packet, so zero padding no longer fails to parse;
// bytes after at least one packet that are all zero are then still
// trailing bytes (ErrTrailingBytes), as no packet is: its AEAD tag alone
// is 16 bytes that a zero string would have to match (RFC 9001 §5.3).
func PacketsWith(datagram []byte, shortDCIDLen int, opts Options) iter.Seq2[Header, error] {
	return func(yield func(Header, error) bool) {
		rest := datagram
		var firstDCID []byte
		for first := true; first || len(rest) > 0; first = false {
			h, err := ParseHeaderWith(rest, shortDCIDLen, opts)
			undelimited := err != nil && err != ErrPacketTooShort
			if !first && (undelimited || allZero(rest)) {
				// https://www.rfc-editor.org/rfc/rfc9000#section-14.1
				//
				// "Initial packets can even be coalesced with invalid
				// packets, which a receiver will discard."
				yield(NewHeader(rest[:len(rest):len(rest)], TypeNone, false, 0, 0, 0), ErrTrailingBytes)
				return
			}
			if undelimited {
				yield(Header{}, err)
				return
			}
			// "Senders MUST NOT coalesce QUIC packets with different
			// connection IDs into a single UDP datagram. Receivers SHOULD
			// ignore any subsequent packets with a different Destination
			// Connection ID than the first packet in the datagram."
			if first {
				firstDCID = h.DCID()
			} else if !bytes.Equal(h.DCID(), firstDCID) {
				err = ErrDCIDMismatch
			}
			rest = rest[len(h.Packet()):]
			if !yield(h, err) {
				return
			}
		}
	}
}

// allZero reports whether every byte of b is 0.
func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
