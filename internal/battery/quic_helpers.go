package battery

import (
	"bytes"
	"encoding/binary"
	"io"

	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// Known-bad implementations of the functions beyond the header parser:
// padding and greasing in the mini parser's walk, and the stream and
// fixed-width varint functions, each with bugs seen in real code. With
// bug "" they are correct and pass every method.

// miniTrailing decides, for the rest of a datagram that parsed with err,
// whether it is trailing bytes (RFC 9000 §14.1), and with what error.
func miniTrailing(rest []byte, first bool, err error, bug string) (bool, error) {
	undelimited := err != nil && err != quic.ErrPacketTooShort
	zero := allZeroWords(rest, bug == "packets/padding-word-over-read")
	switch bug {
	case "single-zero-padding":
		// A zero test that looks for a run of zeros (two bytes or more):
		// one byte of zero padding is parsed, with GreaseQUICBit and
		// shortDCIDLen 0, as a 1-RTT packet.
		return !first && (undelimited || (zero && len(rest) > 1)), quic.ErrTrailingBytes
	case "padding-as-error":
		// This package before ErrTrailingBytes, and quic-go's receive
		// loop: whatever follows the packets is a packet that failed.
		return false, nil
	case "zeros-only-padding":
		// A receiver that knows zero padding only: picoquic's random
		// padding then reads as a bad packet.
		return !first && zero, quic.ErrTrailingBytes
	case "trailing-at-first":
		// Junk is padding even with no packet before it: a datagram that
		// is not QUIC at all passes for a padded one.
		return undelimited || (!first && zero), quic.ErrTrailingBytes
	case "greased-zero-padding":
		// Greasing turned on without the zero rule: with GreaseQUICBit
		// zero padding reads as a 1-RTT packet.
		return !first && undelimited, quic.ErrTrailingBytes
	}
	return !first && (undelimited || zero), quic.ErrTrailingBytes
}

// miniTrailer is the Header of trailing bytes: TypeNone, Packet the rest.
func miniTrailer(rest []byte, bug string) quic.Header {
	if bug == "trailing-zero-header" {
		return quic.Header{} // the caller cannot see what it skips
	}
	return quic.NewHeader(rest[:len(rest):len(rest)], quic.TypeNone, false, 0, 0, 0)
}

// miniReadVarint reads a varint one ReadByte at a time.
func miniReadVarint(r io.ByteReader, bug string) (uint64, int, error) {
	if br, ok := r.(*bytes.Reader); ok && bug == "bytes-reader-overread" {
		// A word at a time from a *bytes.Reader: it consumes up to 8
		// bytes whatever the integer's length.
		var w [8]byte
		k, _ := br.Read(w[:])
		if k == 0 {
			return 0, 0, io.EOF
		}
		n := 1 << (w[0] >> 6)
		if k < n {
			return 0, k, io.ErrUnexpectedEOF
		}
		return binary.BigEndian.Uint64(w[:]) & (1<<62 - 1) >> (64 - 8*n), n, nil
	}
	first, err := r.ReadByte()
	if err != nil {
		return 0, 0, err
	}
	n := 1 << (first >> 6)
	v := uint64(first & 0x3f)
	for i := 1; i < n; i++ {
		c, err := r.ReadByte()
		if err != nil {
			if bug == "quicvarint-read" {
				// quic-go's quicvarint.Read: (0, err) as the reader
				// returned it, io.EOF inside the integer included.
				return 0, 0, err
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, i, err
		}
		v = v<<8 | uint64(c)
	}
	return v, n, nil
}

// miniPeekVarint peeks a varint with Peek(1), then Peek(n).
func miniPeekVarint(p quic.Peeker, bug string) (uint64, int, error) {
	want := 1
	if bug == "peek-8" {
		want = 8 // a word at once: waits for bytes after the integer
	}
	b, err := p.Peek(want)
	if len(b) == 0 {
		if bug == "quicvarint-peek" && err == nil {
			b = []byte{0} // quic-go's Peek reads its zeroed buffer
		} else {
			return 0, 0, orNoProgress(err)
		}
	}
	n := 1 << (b[0] >> 6)
	if n == 1 {
		return uint64(b[0] & 0x3f), 1, nil
	}
	if len(b) < n || bug != "peek-8" {
		b, err = p.Peek(n)
	}
	if len(b) < n {
		if bug == "quicvarint-peek" {
			// quic-go's quicvarint.Peek: an error as Peek returned it and
			// no length, or, with no error, the short bytes padded with
			// zeros.
			if err != nil {
				return 0, 0, err
			}
			b = append(bytes.Clone(b), make([]byte, n)...)
		} else {
			err = orNoProgress(err)
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, n, err
		}
	}
	v := uint64(b[0] & 0x3f)
	for _, c := range b[1:n] {
		v = v<<8 | uint64(c)
	}
	return v, n, nil
}

func orNoProgress(err error) error {
	if err == nil {
		return io.ErrNoProgress
	}
	return err
}

// miniAppendWithLen appends v on exactly n bytes.
func miniAppendWithLen(b []byte, v uint64, n int, bug string) []byte {
	var prefix uint64
	switch n {
	case 1:
	case 2:
		prefix = 1
	case 4:
		prefix = 2
	case 8:
		prefix = 3
	default:
		panic("quic: AppendVarintWithLen: length is not 1, 2, 4 or 8")
	}
	if v >= 1<<(8*n-2) && bug != "no-fit-check" {
		panic("quic: AppendVarintWithLen: value does not fit in the length")
	}
	// The prefix ORed over the value's top bits: without the check, a
	// value too large loses them silently.
	word := (v | prefix<<(8*n-2)) << (64 - 8*n)
	if l := len(b); bug == "clobbers-spare" && cap(b)-l >= 8 {
		// One 8-byte store into the spare capacity, then a reslice: the
		// bytes after the n written ones, a payload written after the
		// reserved field, are overwritten.
		binary.BigEndian.PutUint64(b[l:l+8], word)
		return b[:l+n]
	}
	var w [8]byte
	binary.BigEndian.PutUint64(w[:], word)
	return append(b, w[:n]...)
}
