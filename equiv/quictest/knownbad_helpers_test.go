package quictest_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"iter"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/quictest"
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
	zero := !bytes.ContainsFunc(rest, func(r rune) bool { return r != 0 })
	switch bug {
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

// miniHelpersImpl is the mini parser with options and its walk, and the
// mini stream and fixed-width functions, with bug switched on.
func miniHelpersImpl(bug string) quictest.Impl {
	impl := miniImpl(bug)
	impl.Name = "mini helpers " + bug
	impl.ParseHeaderWith = func(b []byte, sdl int, opts quic.Options) (quic.Header, error) {
		return miniParseWith(b, sdl, opts, bug)
	}
	impl.PacketsWith = func(d []byte, sdl int, opts quic.Options) iter.Seq2[quic.Header, error] {
		parse := func(b []byte, sdl int) (quic.Header, error) { return miniParseWith(b, sdl, opts, bug) }
		return miniPackets(parse, bug)(d, sdl)
	}
	impl.ReadVarint = func(r io.ByteReader) (uint64, int, error) { return miniReadVarint(r, bug) }
	impl.PeekVarint = func(p quic.Peeker) (uint64, int, error) { return miniPeekVarint(p, bug) }
	impl.AppendVarintWithLen = func(b []byte, v uint64, n int) []byte { return miniAppendWithLen(b, v, n, bug) }
	return impl
}

func TestCatchesKnownBadHelpers(t *testing.T) {
	for _, tc := range []struct {
		bug     string
		methods []string // methods that must each catch it
	}{
		{"padding-as-error", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties, equiv.MethodCorpus}},
		{"zeros-only-padding", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
		{"trailing-at-first", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodGuard, equiv.MethodProperties}},
		{"trailing-zero-header", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodGuard, equiv.MethodProperties}},
		{"greased-zero-padding", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
		{"grease-ignored", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodGuard, equiv.MethodProperties, equiv.MethodCorpus}},
		{"grease-long-only", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
		{"options-unknown-ignored", []string{equiv.MethodExhaustive}},
		{"quicvarint-read", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties, equiv.MethodCorpus}},
		{"bytes-reader-overread", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodGuard, equiv.MethodCorpus}},
		{"peek-8", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodGuard, equiv.MethodProperties, equiv.MethodCorpus}},
		{"quicvarint-peek", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
		// The guard's fields end at the page, so a store that stays within
		// the capacity never reaches it: the spare marker catches it.
		{"clobbers-spare", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
		{"no-fit-check", []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties}},
	} {
		for _, m := range tc.methods {
			t.Run(tc.bug+"/"+m, func(t *testing.T) {
				if m == equiv.MethodGuard && equiv.GuardSkip() != "" {
					t.Skip(equiv.GuardSkip())
				}
				if testing.Short() && m != equiv.MethodVectors {
					t.Skip("-short")
				}
				checkCaught(t, miniHelpersImpl(tc.bug), m)
			})
		}
	}
	// The bug-free twins pass, so the bugs above are what was caught.
	if err := quictest.Check(miniHelpersImpl("")); err != nil {
		t.Fatalf("the bug-free mini helpers failed: %v", err)
	}
}
