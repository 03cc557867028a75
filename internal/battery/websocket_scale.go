package battery

import (
	"encoding/binary"
	"errors"
	"sync"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv/websockettest"
)

// The websocket pair's bugs of issue 29's families, each caught by one
// mechanism the harness or the scale method added (internal/contractknob
// turns it off in TestMechanisms), one per mechanism and family of
// functions (Mask and MaskCopy; the streamers): octets next to a
// writable range written back, or read past a Write's p within its
// capacity (edges); the same address with new contents (reuse); sizes
// in the megabytes (scale); calls that overlap; a long history; and the
// (n, err) family of the underlying reader and writer (io-edges). They
// are switches in the model masker and streamers of websocket.go, and,
// like the contract bugs, each Impl has Mask and only the function its
// bug is in.
func websocketScaleBugs() []Bug {
	var bugs []Bug
	for _, b := range wsScaleBugs {
		bugs = append(bugs, Bug{Name: "websocket/" + b.name, Record: b.record, Axis: b.axis,
			Bad: websockettest.NewSuite(wsContractImpl(b.name, b.fn)), Twin: websockettest.NewSuite(wsContractImpl("", b.fn)), TwinKey: "websocket/contract/" + b.fn})
	}
	return bugs
}

// wsScaleBugs are the bugs, by the switch's name, and the function each
// is in ("MaskCopy", "MaskReader", "MaskWriter", or "" for Mask alone).
var wsScaleBugs = []struct{ name, fn, record, axis string }{
	{"mask/word-rmw-past-len", "",
		"microsoft/terminal#15501 (a vector store past the end of a row, argued safe because every buffer is padded to 16 octets) and rust-lang/unsafe-code-guidelines#2 (an access to the octets past a buffer races with whoever owns them): the in-place tail loaded and stored as one 8-octet word when b's capacity has room, the octets past len(b) written back as they were",
		"edges: Mask of a length not a multiple of 8, its capacity past len(b) flush against read-only octets"},
	{"maskwriter/word-load-past-p", "MaskWriter",
		"halide/Halide#3036 (vectorized loads over-read their input buffer) and uNetworking/uWebSockets#1867 (wide loads past the data, safe with padding): each piece of p loaded in 8-octet words, the last one whole when p's capacity has room, the octets past len(p) read and dropped",
		"edges: a Write whose p has spare capacity lying on an unmapped page"},
	{"maskcopy/memo-by-address", "MaskCopy",
		"zrlio/crail#23 (a cache looked up by a buffer's address, wrong once another buffer takes that address): MaskCopy of 64 KiB or more remembers its last result by the addresses of src and dst, the length, key and pos, and copies it out again",
		"reuse: the same MaskCopy of 64 KiB or more at the same addresses with other contents"},
	{"maskwriter/memo-by-address", "MaskWriter",
		"zrlio/crail#23 (a lookup by a buffer's address) and openssl/openssl#5299 (OpenSSL takes a Write at the same address as a retry and sends what it kept): a Write of 32 KiB or more remembers the octets it masked by p's address, length, key and position, package-wide, and sends them again",
		"reuse: a stream with a Write of 32 KiB or more run again at the same addresses with other contents"},
	{"mask/wide-path-tail", "",
		"romp-on/romp#332 (a separate whole-frame path for multi-megabyte frames, beside the per-octet unmask) and the tail cascade of vectorized maskers (dotnet/corefx#17049's block/tail split): Mask of 128 KiB or more takes 64-octet blocks from the start, then a 32-octet step or, else, a 16-octet one, so that a tail of 48 to 63 octets leaves its last 16 unmasked",
		"scale: Mask of 128 KiB or more with a length of 48 to 63 mod 64"},
	{"maskreader/wide-read-phase", "MaskReader",
		"rawpython/remi#483 (continuation frames unmasked from an offset that left out what came before) and pocoproject/poco#4838: a Read of 1 MiB or more unmasks p[:n] in two halves, the second from the key phase of its offset in p, the stream position forgotten",
		"scale: a Read of 1 MiB or more at a stream position not a multiple of 4"},
	{"maskcopy/trylock-fallback", "MaskCopy",
		"golang/go#45435 (TryLock: its uses are rare and easy to get wrong) and Atmosphere/atmosphere#1961 (one buffer shared by concurrent writes): MaskCopy of 1 MiB or more masks through a shared aligned buffer and, when another call holds it, falls back to a loop that starts at key octet 0",
		"overlap: two MaskCopy calls of 1 MiB or more at once, pos not a multiple of 4"},
	{"maskwriter/trylock-fallback", "MaskWriter",
		"golang/go#45435 (TryLock) and CrowCpp/Crow#1160 (a shared write buffer): a Write of 256 KiB or more masks p whole into a shared buffer and, when another Write holds it, into one of its own from key octet 0",
		"overlap: two Writes of 256 KiB or more at once, at a stream position not a multiple of 4"},
	{"maskwriter/lazy-after-512-writes", "MaskWriter",
		"Alluxio/alluxio#210 (a writer's data corrupted once it had written past its 1 MB limit, a path taken only after a volume) and COVESA/dlt-daemon#305 (lengths truncated on a path taken once the buffers had filled): after 512 Writes the writer moves the position by the Write's length rounded down to 4",
		"history: a Write of a length not a multiple of 4, after more than 512, then another"},
	{"maskwriter/drops-error-with-full-count", "MaskWriter",
		"golang/go#29994 (bytes.Buffer.WriteTo: check Write's error before its count) and GoogleCloudPlatform/gcsfuse#4891 (a Write's (n > 0, err) ignored): an underlying Write that takes every octet and returns an error is taken for a success, the error dropped",
		"io-edges: an underlying writer returning len(b) with an error"},
	{"maskreader/timeout-data-masked", "MaskReader",
		"cilium/ebpf#1111 (data available when the deadline expired dropped, only the error returned) and networkupstools/nut#3559 (partial serial data discarded on a timeout): octets that come with a timeout error are returned as the reader gave them, masked, and the position stays",
		"io-edges: an underlying reader returning data with os.ErrDeadlineExceeded"},
}

// wordRMW masks b[i:n] in place as one 8-octet word loaded and stored
// whole, from phase p: the octets past n, in b's capacity, are XORed with
// zero and written back as they were.
func wordRMW(b []byte, key [4]byte, p, i, n int) {
	var kb [8]byte
	for j := range n - i {
		kb[j] = key[(p+i+j)&3]
	}
	w := b[i : i+8]
	binary.LittleEndian.PutUint64(w, binary.LittleEndian.Uint64(w)^binary.LittleEndian.Uint64(kb[:]))
}

// widePath is Mask of 128 KiB and more with "mask/wide-path-tail": 64-octet
// blocks from the start, then a 32-octet step or, else, a 16-octet one,
// then the octets of the tail mod 16.
func (m maskModel) widePath(b []byte, key [4]byte, p int) {
	kw := m.keyWord(key, p)
	n, i := len(b), 0
	for ; n-i >= 64; i += 64 {
		for w := 0; w < 64; w += 8 {
			xorWord(b[i+w:], b[i+w:], kw)
		}
	}
	t := n - i
	switch {
	case t >= 32:
		for w := 0; w < 32; w += 8 {
			xorWord(b[i+w:], b[i+w:], kw)
		}
		i += 32
	case t >= 16:
		for w := 0; w < 16; w += 8 {
			xorWord(b[i+w:], b[i+w:], kw)
		}
		i += 16
	}
	for j := i; j < i+t&15; j++ {
		b[j] ^= key[(p+j)&3]
	}
}

// overReadSink keeps what an over-read loaded, so that the load is made.
var overReadSink byte

// loadPastPiece reads piece's capacity up to its length rounded up to 8
// octets, as a last 8-octet load would, and drops it.
func loadPastPiece(piece []byte) {
	ext := piece[:min(cap(piece), (len(piece)+7)&^7)]
	var s byte
	for _, o := range ext[len(piece):] {
		s ^= o
	}
	overReadSink = s
}

// copyMemo is MaskCopy's last result of 64 KiB or more with
// "maskcopy/memo-by-address", by the addresses of src and dst, the
// length, key and pos.
var copyMemo struct {
	sync.Mutex
	src, dst uintptr
	n, pos   int
	key      [4]byte
	out      []byte
}

// memoCopy masks src into dst, or copies out the last result if the call
// looks like the last one by its addresses and arguments.
func (m maskModel) memoCopy(dst, src []byte, key [4]byte, pos int) int {
	s, d := uintptr(unsafe.Pointer(&src[0])), uintptr(unsafe.Pointer(&dst[0]))
	copyMemo.Lock()
	defer copyMemo.Unlock()
	if copyMemo.out != nil && copyMemo.src == s && copyMemo.dst == d && copyMemo.n == len(src) && copyMemo.key == key && copyMemo.pos == pos {
		copy(dst, copyMemo.out)
		return (pos + len(src)) & 3
	}
	next := m.xor(dst, src, key, pos)
	copyMemo.src, copyMemo.dst, copyMemo.n, copyMemo.key, copyMemo.pos = s, d, len(src), key, pos
	copyMemo.out = append(copyMemo.out[:0], dst[:len(src)]...)
	return next
}

// sharedCopy is the aligned buffer MaskCopy masks through with
// "maskcopy/trylock-fallback", and sharedWrite the one a MaskWriter
// masks into with "maskwriter/trylock-fallback".
var sharedCopy, sharedWrite struct {
	sync.Mutex
	b []byte
}

// trylockCopy masks src through sharedCopy when it can take it, and else
// with a loop that starts at key octet 0.
func (m maskModel) trylockCopy(dst, src []byte, key [4]byte, pos int) int {
	if sharedCopy.TryLock() {
		defer sharedCopy.Unlock()
		sharedCopy.b = append(sharedCopy.b[:0], src...)
		m.xor(sharedCopy.b, sharedCopy.b, key, pos)
		copy(dst, sharedCopy.b)
		return (pos + len(src)) & 3
	}
	m.xor(dst, src, key, 0)
	return (pos + len(src)) & 3
}

// writeMemo is the octets a MaskWriter with "maskwriter/memo-by-address"
// last masked, by p's address and length, the key and the position.
var writeMemo struct {
	sync.Mutex
	addr     uintptr
	n, pos   int
	key      [4]byte
	out      []byte
	occupied bool
}

// memoWrite writes b masked, or the remembered octets if b looks like the
// last Write of its size by its address, length, key and position.
func (m *writerModel) memoWrite(b []byte) (int, error) {
	addr := uintptr(unsafe.Pointer(&b[0]))
	writeMemo.Lock()
	hit := writeMemo.occupied && writeMemo.addr == addr && writeMemo.n == len(b) && writeMemo.key == m.key && writeMemo.pos == m.pos
	out := make([]byte, len(b))
	if hit {
		copy(out, writeMemo.out)
	} else {
		m.MaskCopy(out, b, m.key, m.pos)
		writeMemo.addr, writeMemo.n, writeMemo.key, writeMemo.pos, writeMemo.occupied = addr, len(b), m.key, m.pos, true
		writeMemo.out = append(writeMemo.out[:0], out...)
	}
	writeMemo.Unlock()
	return m.put(out)
}

// trylockWrite masks b whole into sharedWrite when it can take it, and
// else into a buffer of its own from key octet 0, and writes it.
func (m *writerModel) trylockWrite(b []byte) (int, error) {
	if sharedWrite.TryLock() {
		defer sharedWrite.Unlock()
		sharedWrite.b = append(sharedWrite.b[:0], b...)
		m.MaskCopy(sharedWrite.b, b, m.key, m.pos)
		return m.put(sharedWrite.b)
	}
	out := make([]byte, len(b))
	m.MaskCopy(out, b, m.key, 0)
	return m.put(out)
}

// wideRead unmasks p[:n] of a Read of 1 MiB or more in two halves, the
// second from the phase of its offset in p ("maskreader/wide-read-phase").
func (m *readerModel) wideRead(p []byte, n int) {
	pos := m.position()
	h := n / 2
	m.Mask(p[:h], m.key, *pos)
	m.Mask(p[h:n], m.key, h)
	*pos += n
}

// timedOut reports whether err says a deadline expired.
func timedOut(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}
