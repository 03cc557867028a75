package battery

import (
	"bytes"
	"encoding/binary"
	"io"
	"iter"
	"sync"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv/quictest"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// The quic pair's bugs of issue 29's families, each caught by one
// mechanism the harness or the scale method added (internal/contractknob
// turns it off in TestMechanisms): a sequence parsed when it was made, a
// by-address memo of large headers (reuse), a padding test's last word
// read past the end (edges), an append's exact room and a reserved
// field's word written back (exact fits, read-only neighbours), a result
// in a package-level array (keep), an append's offset in 16 bits (scale),
// a stream offset in 16 bits (history), a Peek's error taken before its
// data (the (n, err) forms) and a pool's fallback walk (overlap). Each
// Impl sets only the functions its bug is in, so that each twin's quick
// run skips the rest.
func quicScaleBugs() []Bug {
	var bugs []Bug
	for _, b := range quicScaleRecords {
		bugs = append(bugs, Bug{Name: "quic/" + b.bug, Record: b.record, Axis: b.axis,
			Bad: quictest.NewSuite(quicScaleImpl(b.bug, true)), Twin: quictest.NewSuite(quicScaleImpl(b.bug, false))})
	}
	return bugs
}

// quicScaleRecords are the bugs, the record each is modelled on and the
// axis where it shows.
var quicScaleRecords = []struct{ bug, record, axis string }{
	{"packets/parsed-at-call",
		"skgmn/fromjs#4 (an iterable whose range was computed when the query ran: after the collection changed, enumerating it again gave the old items): here Packets parses the datagram when it is called and its sequence yields what it parsed then",
		"reuse: a sequence ranged again after its datagram changed in place, from its second packet on"},
	{"header/memo-by-address",
		"tokuhirom/mutsu#6132 (parse memos keyed by an input's pointer and length returned a dead buffer's result for new input at a reused address): here ParseHeader remembers its last result for a datagram of 64 KiB or more by address, length and shortDCIDLen",
		"reuse: the same call of 64 KiB or more at the same address with other contents"},
	{"packets/padding-word-over-read",
		"endgameinc/xori#20 (a padding check that read past the end of the image) and trailofbits/pe-parse#76 (8-octet reads checked at their offset only, up to 7 octets past the end): here the walk tests 4 KiB or more of trailing octets for zeros 8 at a time, its last word loaded whole past the end and masked, so that the verdict is right",
		"edges: 4 KiB or more of padding, of a length not a multiple of 8, ending flush against an unmapped page"},
	{"withlen/word-rmw",
		"Boehm, \"Threads Cannot Be Implemented as a Library\" (PLDI 2005), §4.1, and wiredtiger/wiredtiger#10392 (a narrow store widened to a word writes back its neighbours): here AppendVarintWithLen, given 8 octets of room, loads them as a word, sets the field's n octets and stores the word",
		"neighbours: a field of 1, 2 or 4 octets appended with 8 or more of room, the room past the field read-only"},
	{"withlen/room-off-by-two",
		"llvm/llvm-project#183264 (vector::append_range grew even when appending exactly its spare capacity) and romange/helio#626 (an exact-fit append reallocated): here the 2-octet field, the Length a sender reserves, is written in place only with 4 octets of room, else into a new array",
		"exact append: AppendVarintWithLen(b, v, 2) with spare capacity of exactly 2 or 3"},
	{"withlen/static-buffer",
		"raysan5/raylib#5756 (results in rotating static buffers) as quic/append/static-buffer, in the fixed-width append: AppendVarintWithLen(nil, v, n) made in one of 4 package-level arrays in turn",
		"kept results: AppendVarintWithLen(nil, v, n) kept while 4 more run"},
	{"append/offset-uint16",
		"VisageDvachevsky/veil-windows-client#244 (fragment offsets in a uint16_t wrap past 65,535 and overwrite earlier data) and baidu/dperf#575 (a uint16 running length wraps): here AppendVarint keeps the write offset of its in-place path in 16 bits",
		"scale: AppendVarint onto a prefix of 64 KiB or more with room"},
	{"readvarint/bytes-reader-offset-uint16",
		"espruino/Espruino#2439 (a byteOffset kept in 2 bytes wrapped past 65536) and VisageDvachevsky/veil-windows-client#244: here ReadVarint's *bytes.Reader path reads at the reader's offset kept in 16 bits",
		"history: ReadVarint from a *bytes.Reader more than 64 KiB in"},
	{"peekvarint/error-before-data",
		"quic-go/quic-go#5876 (quicvarint: handle data returned with errors when reading and peeking: Peek's error was checked before the bytes it returned): PeekVarint returns a Peek's error even when the Peek returned the bytes asked for",
		"(n, err) forms: a Peeker that returns the bytes asked for with io.EOF or an error"},
	{"packets/pool-fallback",
		"golang/go#45435 (sync.Mutex.TryLock, whose proposal warns that its uses are rare and easy to get wrong) with h2o/h2o#2349's fixed-size per-datagram packet batch: Packets walks datagrams of 1 MiB or more in a shared buffer it takes with TryLock, and when another walk holds it, in place through a batch of at most 256 packets",
		"overlap: two walks of a train of 300 packets in 1 MiB at once"},
}

// quicScaleImpl is the Impl of bug's function with the bug switched on,
// or off (the twin).
func quicScaleImpl(bug string, on bool) quictest.Impl {
	which := ""
	if on {
		which = bug
	}
	impl := quictest.Impl{Name: "mini " + which}
	clean := miniPackets(func(b []byte, sdl int) (quic.Header, error) { return miniParse(b, sdl, "") }, "")
	switch bug {
	case "packets/parsed-at-call":
		impl.Packets = eagerPackets(clean, on)
	case "header/memo-by-address":
		impl.ParseHeader = memoParse(on)
	case "packets/padding-word-over-read":
		walk := miniPackets(func(b []byte, sdl int) (quic.Header, error) { return miniParse(b, sdl, "") }, which)
		impl.Packets = walk
		impl.PacketsWith = func(d []byte, sdl int, opts quic.Options) iter.Seq2[quic.Header, error] {
			parse := func(b []byte, sdl int) (quic.Header, error) { return miniParseWith(b, sdl, opts, "") }
			return miniPackets(parse, which)(d, sdl)
		}
	case "withlen/word-rmw", "withlen/room-off-by-two", "withlen/static-buffer":
		impl.AppendVarintWithLen = func(b []byte, v uint64, n int) []byte { return fieldAppend(b, v, n, which) }
	case "append/offset-uint16":
		impl.AppendVarint = func(b []byte, v uint64) []byte { return offsetAppend(b, v, on) }
	case "readvarint/bytes-reader-offset-uint16":
		impl.ReadVarint = func(r io.ByteReader) (uint64, int, error) { return offsetReadVarint(r, on) }
	case "peekvarint/error-before-data":
		impl.PeekVarint = func(p quic.Peeker) (uint64, int, error) { return errorFirstPeek(p, on) }
	case "packets/pool-fallback":
		impl.Packets = pooledPackets(clean, on)
	}
	return impl
}

// eagerPackets is packets, with bug parsing the datagram when called: its
// sequence yields the pairs collected then.
func eagerPackets(packets func([]byte, int) iter.Seq2[quic.Header, error], bug bool) func([]byte, int) iter.Seq2[quic.Header, error] {
	return func(d []byte, sdl int) iter.Seq2[quic.Header, error] {
		if !bug {
			return packets(d, sdl)
		}
		type pair struct {
			h   quic.Header
			err error
		}
		var parsed []pair
		for h, err := range packets(d, sdl) {
			parsed = append(parsed, pair{h, err})
		}
		return func(yield func(quic.Header, error) bool) {
			for _, p := range parsed {
				if !yield(p.h, p.err) {
					return
				}
			}
		}
	}
}

// headerMemo is memoParse's last call: where its datagram lay, its
// length and shortDCIDLen, and what it returned (present for a datagram
// of 64 KiB or more).
var headerMemo struct {
	sync.Mutex
	addr    uintptr
	n, sdl  int
	h       quic.Header
	err     error
	present bool
}

// memoParse is ParseHeader; with bug, a datagram of 64 KiB or more at the
// address, of the length and shortDCIDLen of the last call's gets the last
// call's result: the same datagram handed twice in a row, its parse saved.
func memoParse(bug bool) func([]byte, int) (quic.Header, error) {
	return func(b []byte, sdl int) (quic.Header, error) {
		if !bug {
			return miniParse(b, sdl, "")
		}
		addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		headerMemo.Lock()
		defer headerMemo.Unlock()
		m := &headerMemo
		if m.present && m.addr == addr && m.n == len(b) && m.sdl == sdl {
			return m.h, m.err
		}
		h, err := miniParse(b, sdl, "")
		m.addr, m.n, m.sdl, m.h, m.err, m.present = addr, len(b), sdl, h, err, len(b) >= 64<<10
		return h, err
	}
}

// allZeroWords reports whether rest is all zeros, 8 octets at a time from
// 4 KiB on; with bug, the last partial word is loaded whole, up to 7
// octets past the end, and masked.
func allZeroWords(rest []byte, bug bool) bool {
	if len(rest) < 4<<10 {
		return !bytes.ContainsFunc(rest, func(r rune) bool { return r != 0 })
	}
	words := len(rest) / 8 * 8
	for i := 0; i < words; i += 8 {
		if binary.LittleEndian.Uint64(rest[i:]) != 0 {
			return false
		}
	}
	if tail := rest[words:]; !bug || len(tail) == 0 {
		return !bytes.ContainsFunc(tail, func(r rune) bool { return r != 0 })
	}
	last := *(*[8]byte)(unsafe.Add(unsafe.Pointer(&rest[0]), words)) // up to 7 octets past len
	clear(last[len(rest)-words:])
	return binary.LittleEndian.Uint64(last[:]) == 0
}

// fieldAppends holds the results of appends to nil with bug
// "withlen/static-buffer": four arrays used in turn.
var (
	fieldAppends [4][8]byte
	fieldNext    int
)

// fieldAppend is AppendVarintWithLen (miniAppendWithLen's checks and
// encoding), written in place when b has room for the field and into a
// new array otherwise. Bugs: "withlen/word-rmw" stores, with 8 octets of
// room, the word of 8 octets the field starts, its other octets as they
// were; "withlen/room-off-by-two" writes a 2-octet field in place only
// with 4 octets of room; "withlen/static-buffer" makes an append to nil
// in a package-level array.
func fieldAppend(b []byte, v uint64, n int, bug string) []byte {
	enc := miniAppendWithLen(nil, v, n, "")
	l, need := len(b), len(enc)
	if bug == "withlen/room-off-by-two" && n == 2 {
		need = 4
	}
	if b == nil && bug == "withlen/static-buffer" {
		b = fieldAppends[fieldNext&3][:0]
		fieldNext++
	}
	switch room := cap(b) - l; {
	case bug == "withlen/word-rmw" && room >= 8:
		var w [8]byte
		copy(w[:], b[l:l+8])
		copy(w[:], enc)
		copy(b[l:l+8], w[:]) // the word back, the octets past the field as they were
		return b[:l+len(enc)]
	case room >= need:
		return append(b, enc...)
	}
	out := make([]byte, l, l+len(enc))
	copy(out, b)
	return append(out, enc...)
}

// offsetAppend is AppendVarint, written in place when b has room; with
// bug, at its length kept in 16 bits.
func offsetAppend(b []byte, v uint64, bug bool) []byte {
	enc := miniAppendVarint(nil, v, "")
	l := len(b)
	if cap(b)-l < len(enc) {
		return append(b, enc...)
	}
	at := l
	if bug {
		at = int(uint16(l))
	}
	copy(b[at:at+len(enc)], enc)
	return b[:l+len(enc)]
}

// offsetReadVarint is ReadVarint: from a *bytes.Reader, the integer's
// octets read with ReadAt where the reader is, then skipped with Seek;
// from anything else, a byte at a time. With bug, the offset ReadAt reads
// at is kept in 16 bits.
func offsetReadVarint(r io.ByteReader, bug bool) (uint64, int, error) {
	var buf [8]byte
	br, ok := r.(*bytes.Reader)
	if !ok {
		return gatherVarint(r, buf[:])
	}
	at := br.Size() - int64(br.Len())
	if bug {
		at = int64(uint16(at))
	}
	if k, _ := br.ReadAt(buf[:], at); k > 0 {
		if n := 1 << (buf[0] >> 6); k >= n {
			br.Seek(int64(n), io.SeekCurrent)
			return decodeVarint(buf[:n]), n, nil
		}
	}
	return gatherVarint(r, buf[:])
}

// errorFirstPeek is PeekVarint: Peek(1), then Peek(n); with bug, an error
// a Peek returns is returned even with the octets asked for.
func errorFirstPeek(p quic.Peeker, bug bool) (uint64, int, error) {
	b, err := p.Peek(1)
	if len(b) < 1 || bug && err != nil {
		return 0, 0, orNoProgress(err)
	}
	n := 1 << (b[0] >> 6)
	if n == 1 {
		return uint64(b[0] & 0x3f), 1, nil
	}
	if b, err = p.Peek(n); len(b) < n || bug && err != nil {
		if err = orNoProgress(err); err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return 0, n, err
	}
	return decodeVarint(b[:n]), n, nil
}

// walkPool is the shared buffer pooledPackets walks large datagrams in,
// and its lock.
var walkPool struct {
	sync.Mutex
	buf []byte
}

// pooledPackets is packets, walking a datagram of 1 MiB or more in
// walkPool when TryLock takes it (the Headers rebased onto the datagram),
// and in place when another walk holds it; with bug, that walk yields at
// most 256 packets, as a fixed batch holds.
func pooledPackets(packets func([]byte, int) iter.Seq2[quic.Header, error], bug bool) func([]byte, int) iter.Seq2[quic.Header, error] {
	return func(d []byte, sdl int) iter.Seq2[quic.Header, error] {
		if len(d) < 1<<20 {
			return packets(d, sdl)
		}
		return func(yield func(quic.Header, error) bool) {
			if walkPool.TryLock() {
				defer walkPool.Unlock()
				walkPool.buf = append(walkPool.buf[:0], d...)
				c := walkPool.buf[:len(d):len(d)]
				for h, err := range packets(c, sdl) {
					if !yield(rebase(h, c, d), err) {
						return
					}
				}
				return
			}
			batch := 0
			for h, err := range packets(d, sdl) {
				if bug && batch == 256 {
					return
				}
				batch++
				if !yield(h, err) {
					return
				}
			}
		}
	}
}
