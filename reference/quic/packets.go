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
// Every other error leaves the rest of the datagram undelimitable: it is
// yielded with the zero Header and the iteration stops. A Retry, Version
// Negotiation, unsupported-version or 1-RTT packet has no Length and takes
// the rest of the datagram, so it is always the last one.
//
// An empty datagram yields (Header{}, ErrTruncated) once. An invalid
// shortDCIDLen, or a datagram longer than MaxInputLen, yields
// (Header{}, ErrInvalidArgument) once.
func Packets(datagram []byte, shortDCIDLen int) iter.Seq2[Header, error] {
	return func(yield func(Header, error) bool) {
		rest := datagram
		var firstDCID []byte
		for first := true; first || len(rest) > 0; first = false {
			h, err := ParseHeader(rest, shortDCIDLen)
			if err != nil && err != ErrPacketTooShort {
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
