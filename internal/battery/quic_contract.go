package battery

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"iter"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/quictest"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// The quic pair's contract bugs (docs/equivalence.md, "The contract"):
// the mini parser (quic_mini.go) and its varint functions with one switch
// on, breaking a clause of quictest.Impl's contract rather than parsing a
// field wrong: what a function may read past len (spare capacity, nil),
// write (the datagram, for a moment), share (package-level scratch, with
// concurrent and nested calls), what a Packets sequence and an append's
// result promise across later calls, and what ReadVarint may consume of
// the readers users pass. Each Impl sets only the function its bug is in,
// so that each twin's quick run skips the rest.
func quicContractBugs() []Bug {
	var bugs []Bug
	for _, b := range quicContractRecords {
		bugs = append(bugs, Bug{Name: "quic/" + b.bug, Record: b.record, Axis: b.axis,
			Bad: quictest.NewSuite(quicContractImpl(b.bug, b.fn)), Twin: quictest.NewSuite(quicContractImpl("", b.fn)), TwinKey: "quic/contract/" + b.fn})
	}
	return bugs
}

// quicContractRecords are the bugs, the function each is in, the record
// and the axis.
var quicContractRecords = []struct{ bug, fn, record, axis string }{
	{"varint/load-to-cap", "ParseVarint",
		"gen2brain/go-unarr#6 and bufbuild/protocompile#432 (bounds checked against cap instead of len) with the 8-byte load of stoklund/varint#8: the load taken whenever the capacity allows, and the length checked only when it does not",
		"spare capacity: a varint longer than the input, with 8 bytes of capacity"},
	{"header/bounds-by-cap", "ParseHeader",
		"gen2brain/go-unarr#6, bufbuild/protocompile#432 and bcmills/unsafeslice#1 (cap where len was meant): the Length field checked against the bytes the slice can reach",
		"spare capacity: a Length past the datagram's end but within its capacity"},
	{"header/unprotects-in-place", "ParseHeader",
		"quic-go/quic-go#1277 (packets unpacked in place) and RFC 9001 §5.4.1's header protection, whose low bits of the first byte a receive path removes in place: here cleared before parsing and put back before returning",
		"read-only pages: any datagram of 1 byte or more"},
	{"header/nil-first-byte", "ParseHeader",
		"DataDog/czlib#2 and flyingmutant/rapid#15 (nil and empty slices told apart): a nil datagram refused as an invalid argument, as a C parser refuses a NULL buffer, where an empty one is truncated",
		"spare capacity (nil layouts): the empty datagram passed as nil"},
	{"packets/shared-scratch", "Packets",
		"uber/ringpop-go#218 and c-bata/go-prompt#15 (scratch buffers shared between goroutines) in a walk that copies the datagram to a receive buffer and walks the copy",
		"concurrent caller: any datagram, while another goroutine walks one"},
	{"packets/one-shot", "Packets",
		"fable-compiler/Fable#454, beeware/voc#296 and nim-lang/Nim#21166 (sequences that iterate once, then yield nothing): the walk's position kept in the sequence, not in each range of it",
		"reuse: a Packets sequence ranged a second time"},
	{"packets/ignores-break", "Packets",
		"googleapis/go-genai#310 (an iterator that did not respect yield's false: \"range function continued iteration\"), here on the error path only: a packet yielded with ErrPacketTooShort or ErrDCIDMismatch, whose yield's result is dropped",
		"reuse: a range loop stopped at a packet yielded with an error"},
	{"append/word-store", "AppendVarint",
		"cisco/go-hpke#25 and btcsuite/btcwallet#217 (appends that wrote into spare capacity the caller owned): the encoding stored as one 8-byte word when the buffer has room, then the slice cut to its length",
		"spare capacity (markers): AppendVarint of 1, 2 or 4 bytes into a buffer with room"},
	{"append/static-buffer", "AppendVarint",
		"raysan5/raylib#5756 (results in rotating static buffers, 4 of them), dmitrii-eremin/jfes#12 and trezor/trezor-crypto#136: an append to nil made in one of 4 package-level arrays in turn, to save the allocation",
		"kept results: AppendVarint(nil, v) kept while 4 more run"},
	{"readvarint/bufio-discards-8", "ReadVarint",
		"golang/go#17064's Peek-then-Discard idiom with the longest varint's length, against quic-go/quic-go#5502 (consume no more bytes than needed to parse the varint): what was peeked is discarded",
		"interface contract: ReadVarint from a *bufio.Reader with more bytes after a short integer"},
	{"readvarint/bytes-reader-from-0", "ReadVarint",
		"spf13/afero#182 (ReadAt and the reader's offset mixed up): a *bytes.Reader read with ReadAt from offset 0, as if fresh, then Seek past the integer",
		"interface contract: ReadVarint from a *bytes.Reader already read into"},
	{"readvarint/package-scratch", "ReadVarint",
		"ofiwg/libfabric#9797 (strtok's static state destroyed by a call from inside its caller) and avrdudes/avr-libc#326: the integer's bytes gathered in a package-level array",
		"nested calls: a byte reader whose ReadByte calls ReadVarint, with a varint of 2 bytes or more"},
}

// QUICContractImpls returns the Impl of the contract bug named name
// (without the "quic/" prefix) and its twin, each setting only the
// function the bug is in, for the prove module's tests, which replay
// their counterexamples on them; ok is false for an unknown name.
func QUICContractImpls(name string) (bad, twin quictest.Impl, ok bool) {
	for _, r := range quicContractRecords {
		if r.bug == name {
			return quicContractImpl(name, r.fn), quicContractImpl("", r.fn), true
		}
	}
	return quictest.Impl{}, quictest.Impl{}, false
}

// quicContractImpl is the Impl of the function fn with bug switched on
// ("" for none).
func quicContractImpl(bug, fn string) quictest.Impl {
	parse := func(b []byte, sdl int) (quic.Header, error) { return miniParse(b, sdl, bug) }
	impl := quictest.Impl{Name: "mini " + bug}
	switch fn {
	case "ParseVarint":
		impl.ParseVarint = func(b []byte) (uint64, int, error) { return loadVarint(b, bug) }
	case "ParseHeader":
		impl.ParseHeader = parse
	case "Packets":
		impl.Packets = scratchPackets(miniPackets(func(b []byte, sdl int) (quic.Header, error) { return miniParse(b, sdl, "") }, bug), bug)
	case "AppendVarint":
		impl.AppendVarint = func(b []byte, v uint64) []byte { return wordAppend(b, v, bug) }
	case "ReadVarint":
		impl.ReadVarint = func(r io.ByteReader) (uint64, int, error) { return fastReadVarint(r, bug) }
	}
	return impl
}

// loadVarint decodes a varint with one 8-byte load when 8 bytes are
// there (the integer is in them, whatever its length), else a byte at a
// time. The bug asks the capacity whether 8 bytes are there: b[:8]
// reslices into the spare capacity, and a varint longer than b decodes
// from what lies past it.
func loadVarint(b []byte, bug string) (uint64, int, error) {
	there := len(b)
	if bug == "varint/load-to-cap" {
		there = cap(b)
	}
	if there < 8 {
		return miniVarint(b)
	}
	w := binary.BigEndian.Uint64(b[:8])
	n := 1 << (w >> 62)
	return w & (1<<62 - 1) >> (64 - 8*n), n, nil
}

// unprotect clears the low bits of b's first byte in place, as header
// protection removal does (RFC 9001 §5.4.1: 4 bits of a long header, 5
// of a short one), and returns the function that puts them back. The
// parser reads none of them, so only a write to read-only memory shows.
func unprotect(b []byte) func() {
	first := b[0]
	if first&0x80 != 0 {
		b[0] &^= 0x0f
	} else {
		b[0] &^= 0x1f
	}
	return func() { b[0] = first }
}

// walkScratch is the package-level buffer Packets walks a copy of the
// datagram in with bug "packets/shared-scratch": one for every caller, as
// a UDP receive buffer (64 KiB; a longer datagram is walked in place). A
// fixed array, so that the race is on its bytes only.
var walkScratch [1 << 16]byte

// scratchPackets is packets, walking with bug "packets/shared-scratch" a
// copy of the datagram in walkScratch (cleared first, so that nothing of
// the last datagram is left past this one's end) and yielding each Header
// at the same offsets over the datagram (a Header aliases it). The copy
// is read for the whole range loop, the loop body included.
func scratchPackets(packets func([]byte, int) iter.Seq2[quic.Header, error], bug string) func([]byte, int) iter.Seq2[quic.Header, error] {
	return func(d []byte, sdl int) iter.Seq2[quic.Header, error] {
		if bug != "packets/shared-scratch" || len(d) > len(walkScratch) {
			return packets(d, sdl)
		}
		return func(yield func(quic.Header, error) bool) {
			clear(walkScratch[:])
			c := walkScratch[:copy(walkScratch[:], d):len(d)]
			for h, err := range packets(c, sdl) {
				if !yield(rebase(h, c, d), err) {
					return
				}
			}
		}
	}
}

// rebase returns h, a Header over from, at the same offsets over to.
func rebase(h quic.Header, from, to []byte) quic.Header {
	p := h.Packet()
	if p == nil {
		return h
	}
	off := int(equiv.AddrOf(p) - equiv.AddrOf(from))
	end := off + len(p)
	return quic.NewHeader(to[off:end:end], h.Type(), h.Spin(), len(h.DCID()), len(h.SCID()), h.PNOffset())
}

// appendRing holds the results of appends to nil with bug
// "append/static-buffer": four arrays used in turn, so that a result
// survives three more appends (raylib's TextFormat idiom).
var (
	appendRing [4][8]byte
	appendNext int
)

// wordAppend is AppendVarint: the shortest encoding of v, stored as one
// 8-byte word when b has room for it (and cut to its length), else
// appended. The bugs store the whole word into the room, and make an
// append to nil in a package-level array.
func wordAppend(b []byte, v uint64, bug string) []byte {
	var n int
	switch {
	case v < 1<<6:
		n = 1
	case v < 1<<14:
		n = 2
	case v < 1<<30:
		n = 4
	case v <= quic.MaxVarint:
		n = 8
	default:
		panic("quic: varint value exceeds 2^62-1")
	}
	if b == nil && bug == "append/static-buffer" {
		b = appendRing[appendNext&3][:0]
		appendNext++
	}
	var w [8]byte
	binary.BigEndian.PutUint64(w[:], (v|uint64(bitsLog2(n))<<(8*n-2))<<(64-8*n))
	if l := len(b); cap(b)-l >= 8 {
		if bug == "append/word-store" {
			copy(b[l:l+8], w[:]) // the word, then the slice cut to n
		} else {
			copy(b[l:l+n], w[:n])
		}
		return b[:l+n]
	}
	return append(b, w[:n]...)
}

// bitsLog2 is log2 of n, a varint's length.
func bitsLog2(n int) int {
	switch n {
	case 2:
		return 1
	case 4:
		return 2
	case 8:
		return 3
	}
	return 0
}

// readScratch is the package-level array ReadVarint gathers an integer's
// bytes in with bug "readvarint/package-scratch".
var readScratch [8]byte

// fastReadVarint is ReadVarint with fast paths for the readers users
// pass: from a *bufio.Reader, Peek(8) and Discard; from a *bytes.Reader,
// ReadAt where it is and Seek; else a byte at a time. The bytes are
// gathered in an array and decoded. Bugs: the bufio path discards all 8
// bytes peeked, the bytes.Reader path reads at offset 0, and the array is
// the package's.
func fastReadVarint(r io.ByteReader, bug string) (uint64, int, error) {
	var own [8]byte
	buf := own[:]
	if bug == "readvarint/package-scratch" {
		buf = readScratch[:]
	}
	switch r := r.(type) {
	case *bufio.Reader:
		if w, err := r.Peek(8); err == nil {
			n := 1 << (w[0] >> 6)
			skip := n
			if bug == "readvarint/bufio-discards-8" {
				skip = len(w)
			}
			r.Discard(skip)
			return decodeVarint(w[:n]), n, nil
		}
	case *bytes.Reader:
		at := r.Size() - int64(r.Len())
		if bug == "readvarint/bytes-reader-from-0" {
			at = 0
		}
		if k, _ := r.ReadAt(buf, at); k > 0 {
			if n := 1 << (buf[0] >> 6); k >= n {
				r.Seek(int64(n), io.SeekCurrent)
				return decodeVarint(buf[:n]), n, nil
			}
		}
	}
	return gatherVarint(r, buf)
}

// gatherVarint reads a varint a byte at a time into buf, then decodes it.
func gatherVarint(r io.ByteReader, buf []byte) (uint64, int, error) {
	first, err := r.ReadByte()
	if err != nil {
		return 0, 0, err
	}
	buf[0] = first
	n := 1 << (first >> 6)
	for i := 1; i < n; i++ {
		c, err := r.ReadByte()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, i, err
		}
		buf[i] = c
	}
	return decodeVarint(buf[:n]), n, nil
}

// decodeVarint decodes the n bytes of a varint, its prefix in b[0].
func decodeVarint(b []byte) uint64 {
	v := uint64(b[0] & 0x3f)
	for _, c := range b[1:] {
		v = v<<8 | uint64(c)
	}
	return v
}
