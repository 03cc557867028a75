package quic

import (
	"bytes"
	"encoding/binary"
	"iter"

	ref "github.com/equivcheck/equivcheck/reference/quic"
)

// parseHeaderWithGeneric works like the reference ParseHeaderWith. Without
// options it is parseHeaderGeneric, fast path included; with GreaseQUICBit
// it is parseGreased.
func parseHeaderWithGeneric(b []byte, shortDCIDLen int, opts Options) (Header, error) {
	switch opts {
	case 0:
		return parseHeaderGeneric(b, shortDCIDLen)
	case GreaseQUICBit:
		return parseGreased(b, shortDCIDLen)
	}
	return Header{}, ErrInvalidArgument
}

// parseGreased parses as parseHeaderGeneric does, except that a Fixed Bit
// of 0 is accepted (RFC 9287): a short header is a 1-RTT packet whatever
// its second bit, and parseLong skips the check.
func parseGreased(b []byte, shortDCIDLen int) (Header, error) {
	n := uint(shortDCIDLen)
	if n > MaxCIDLen || uint64(len(b)) > MaxInputLen {
		return Header{}, ErrInvalidArgument
	}
	if len(b) == 0 {
		return Header{}, ErrTruncated
	}
	first := b[0]
	if first&0x80 != 0 {
		return parseLong(b, true)
	}
	if uint(len(b)) < n+1 {
		return Header{}, ErrTruncated
	}
	h := ref.NewHeader(b[:len(b):len(b)], Type1RTT, first&0x20 != 0, int(n), 0, int(n+1))
	if uint(len(b)) < n+1+shortMin {
		return h, ErrPacketTooShort
	}
	return h, nil
}

// packetsGeneric works like the reference Packets.
func packetsGeneric(datagram []byte, shortDCIDLen int) iter.Seq2[Header, error] {
	return packetsWithGeneric(datagram, shortDCIDLen, 0)
}

// packetsWithGeneric works like the reference PacketsWith, over
// parseHeaderWithGeneric. The reference tests every rest after the first
// packet for zeros; here only a rest that parsed and starts with a zero
// byte is tested, since without GreaseQUICBit a first byte 0x00 never
// parses (Fixed Bit 0) and a packet starting with a non-zero byte is not
// all zero.
func packetsWithGeneric(datagram []byte, shortDCIDLen int, opts Options) iter.Seq2[Header, error] {
	return func(yield func(Header, error) bool) {
		rest := datagram
		var firstDCID []byte
		for first := true; first || len(rest) > 0; first = false {
			h, err := parseHeaderWithGeneric(rest, shortDCIDLen, opts)
			if err != nil && err != ErrPacketTooShort {
				if first {
					yield(Header{}, err)
				} else {
					yield(trailing(rest), ErrTrailingBytes)
				}
				return
			}
			if first {
				firstDCID = h.DCID()
			} else if rest[0] == 0 && allZero(rest) {
				yield(trailing(rest), ErrTrailingBytes)
				return
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

// trailing is the Header of the trailing bytes rest: Type TypeNone, and
// Packet the whole of rest.
func trailing(rest []byte) Header {
	return ref.NewHeader(rest[:len(rest):len(rest)], TypeNone, false, 0, 0, 0)
}

// allZero reports whether every byte of b is 0, 8 bytes at a time.
func allZero(b []byte) bool {
	for len(b) > 7 {
		if binary.LittleEndian.Uint64(b) != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
