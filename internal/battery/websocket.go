package battery

import (
	"encoding/binary"
	"io"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv/websockettest"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// websocketBugs lists the websocket pair's known-bad implementations:
// one model masker (maskModel) and one pair of model streamers, each bug a
// switch in them, and each twin the same code with the switch off.
func websocketBugs() []Bug {
	var bugs []Bug
	for _, b := range wsBugs {
		bugs = append(bugs, Bug{Name: "websocket/" + b.name, Record: b.record, Axis: b.axis,
			Bad: websockettest.NewSuite(wsImpl(b.name)), Twin: websockettest.NewSuite(wsImpl("")), TwinKey: "websocket/model"})
	}
	return bugs
}

// wsBugs are the bugs, by the switch's name.
var wsBugs = []struct{ name, record, axis string }{
	{"head-key-not-rotated",
		"websockets/bufferutil#57: the alignment preamble of Mask masked with the wrong key octets; the same shape (a byte loop up to alignment, then a word key built from the starting position) is in gorilla/websocket's maskBytes",
		"alignment: payloads of 16+ octets whose start is 1..3 or 5..7 octets past an 8-octet boundary"},
	{"tail-key-restarted",
		"ninjasource/embedded-websocket#8 and boostorg/beast#1061: the key restarted at octet 0 where it should have continued; here the byte tail after the word loop restarts it",
		"alignment × length: an unaligned start (head length 1..3 mod 4) and a tail of 1..7 octets"},
	{"phase3-key-table",
		"class: the rotated key word read from a key table one octet short, so that only the phase-3 rotation picks a zero (boostorg/beast#1061 is the same class of rotation error at n%4 == 3)",
		"key phase: words whose key phase is 3 (pos+head ≡ 3 mod 4), payloads of 8+ octets"},
	{"rotation-direction",
		"boostorg/beast#1061: mask_inplace rotated the key with rol where ror was meant, correct for a continuation at phase 0 or 2 only",
		"key phase: pos ≡ 1 or 3 (mod 4)"},
	{"negative-pos",
		"class: C-style pos % 4 on a negative position (Go's % keeps the sign); gobwas/ws's Cipher panics on one, see websockettest.NonNegativePos",
		"pos: negative values ≡ 1 or 3 (mod 4)"},
	{"zero-key-half",
		"class: a zero-key shortcut (skip masking when the key is 0) that tests only the low half of the key word",
		"key: keys whose first two octets are zero and the others not"},
	{"len-int16",
		"Spinoco/protocol#13: a 16-bit payload length read as signed, wrong for 2^15..2^16-1",
		"length: 2^15 and longer"},
	{"len-uint16",
		"class: the payload length kept in the 16-bit extended-length field's width (RFC 6455 §5.2 payload len 126) and used for masking; httpswift/swifter#326 and Molorius/esp32-websocket#3 mishandled lengths at the 126/16-bit boundary",
		"length: 2^16 and longer"},
	{"wide-count-uint16",
		"class: the iteration count of a wide SIMD loop in a 16-bit register (the narrow-counter bugs of hand-written kernels)",
		"length: 2^22 (4 MiB) and longer, only where the 64-octet loop runs"},
	{"exact-multiple-32",
		"class: a block loop that always keeps a tail (blocks = (n-1)/32) while the tail code takes n%32, wrong only for exact multiples; dotnet/corefx#17049's vectorized ApplyMask has the block/tail split this models",
		"length × alignment: payloads whose body after the head is an exact multiple of 32 octets, below 256"},
	{"wide-remainder-32",
		"class: the 32-octet step after an AVX-512 64-octet loop skipped (its pointer advanced, its block not masked)",
		"length: 256+ octets whose body after the head is 32..63 mod 64"},
	{"overlap-last-octet",
		"class: an inexact-overlap check off by one (crypto/cipher's alias.InexactOverlap is the rule MaskCopy follows), missing an overlap of exactly one octet",
		"overlap: dst and src overlapping by exactly one octet, either direction"},
	{"overlap-within-block",
		"class: an overlap check that compares the starts within one 16-octet vector only, missing overlaps at a distance of 16..n-1",
		"overlap: distances of 16 octets or more, either direction"},
	{"reads-before-src",
		"class: the overlapping-load tail trick (load the 8 octets ending at the end) applied to a payload shorter than the load; uNetworking/uWebSockets#1867's unmaskImprecise8 reads outside the payload likewise",
		"guard: src of 4..7 octets starting at an unmapped page"},
	{"writes-before-dst",
		"class: the overlapping-store tail trick (store the 8 octets ending at the end, the extra ones rewritten unchanged) on a payload shorter than the store; uNetworking/uWebSockets#1867",
		"guard: dst of 4..7 octets starting at an unmapped page"},
	{"writes-past-src",
		"signalwire/libks#177: the payload unmasked over the wrong length, writing past it; here a tail store rounded up to 8 octets when dst has room",
		"dst slack: len(dst) > len(src) with len(src) not a multiple of 8"},
	{"reader-pos-by-len-p",
		"pocoproject/poco#4838: a receive of fewer bytes than asked unmasked the next ones with the wrong key octets (the position advanced by the buffer's length)",
		"stream: short reads whose shortfall is not a multiple of 4"},
	{"reader-pos-not-carried",
		"ninjasource/embedded-websocket#8: read_into_buffer always started at key octet 0",
		"stream: a Read after one of length not a multiple of 4"},
	{"writer-masks-large-in-place",
		"class: a writer that masks the caller's buffer in place above a size (to save the copy) and restores it after; gobwas/ws's CipherWriter masks a copy",
		"stream: Writes longer than the 4 KiB piece, b observed during the call"},
	{"writer-pos-by-attempted",
		"class: a writer advancing the key position by what it tried to write, not by what was taken, on a short write (the counterpart of pocoproject/poco#4838)",
		"stream: short writes whose shortfall is not a multiple of 4"},
}

// wsImpl is the model masker and streamers with bug switched on ("" for
// none).
func wsImpl(bug string) websockettest.Impl {
	m := maskModel{bug: bug}
	return websockettest.Impl{
		Name: "model", Mask: m.Mask, MaskCopy: m.MaskCopy,
		NewMaskReader: func(r io.Reader, key [4]byte) websockettest.MaskReader {
			return &readerModel{maskModel: m, r: r, key: key}
		},
		NewMaskWriter: func(w io.Writer, key [4]byte) websockettest.MaskWriter {
			return &writerModel{maskModel: m, w: w, key: key}
		},
	}
}

// maskModel is a masker in the shape most shipped ones take: octets up to
// an 8-octet boundary of dst (16+ octets only), then 64-octet blocks (from
// 256 octets on) or 32-octet blocks, 8-octet words and an octet tail.
type maskModel struct{ bug string }

func (m maskModel) Mask(b []byte, key [4]byte, pos int) int { return m.xor(b, b, key, pos) }

// MaskCopy checks dst's length, then the overlap (the other way round
// with "maskcopy/overlap-checked-first"), and masks src into dst, or, with
// the contract bugs, roundTrip through src or throughScratch.
func (m maskModel) MaskCopy(dst, src []byte, key [4]byte, pos int) int {
	lengthFirst := m.bug != "maskcopy/overlap-checked-first"
	if lengthFirst && len(dst) < len(src) {
		panic("websocket: MaskCopy: dst shorter than src")
	}
	if m.overlaps(dst, src) {
		panic("websocket: MaskCopy: invalid buffer overlap")
	}
	if len(dst) < len(src) {
		panic("websocket: MaskCopy: dst shorter than src")
	}
	switch {
	case m.bug == "maskcopy/src-round-trip" && len(src) > 0 && !sameStart(dst, src):
		return m.roundTrip(dst, src, key, pos)
	case m.bug == "maskcopy/shared-scratch":
		return m.throughScratch(dst, src, key, pos)
	case m.bug == "maskcopy/memo-by-address" && len(src) >= 64<<10 && !sameStart(dst, src):
		return m.memoCopy(dst, src, key, pos)
	case m.bug == "maskcopy/trylock-fallback" && len(src) >= 1<<20 && !sameStart(dst, src):
		return m.trylockCopy(dst, src, key, pos)
	}
	return m.xor(dst, src, key, pos)
}

// overlaps reports whether dst[:len(src)] and src overlap inexactly.
func (m maskModel) overlaps(dst, src []byte) bool {
	n := len(src)
	if n == 0 {
		return false
	}
	d := int(uintptr(unsafe.Pointer(unsafe.SliceData(dst))) - uintptr(unsafe.Pointer(unsafe.SliceData(src))))
	d = max(d, -d)
	switch m.bug {
	case "overlap-last-octet":
		return d != 0 && d < n-1
	case "overlap-within-block":
		return d != 0 && d < min(n, 16)
	}
	return d != 0 && d < n
}

// xor sets dst[i] = src[i] ^ key[(pos+i)&3] and returns (pos+len(src))&3.
func (m maskModel) xor(dst, src []byte, key [4]byte, pos int) int {
	next := (pos + len(src)) & 3
	n := m.length(len(src))
	p := m.phase(pos)
	if m.zeroKey(key) {
		copy(dst[:n], src[:n])
		return next
	}
	if m.bug == "mask/wide-path-tail" && n >= 128<<10 && sameStart(dst, src) {
		m.widePath(dst[:n], key, p)
		return next
	}
	if n >= 4 && n < 8 && m.shortEdge(dst, src, key, p, n) {
		return next
	}
	i := 0
	if n >= 16 {
		for ; uintptr(unsafe.Pointer(&dst[i]))%8 != 0; i++ {
			dst[i] = src[i] ^ key[(p+i)&3]
		}
	}
	ph := p + i
	if m.bug == "head-key-not-rotated" {
		ph = p
	}
	kw := m.keyWord(key, ph)
	if r := n - i; r >= 256 {
		i = m.wide(dst, src, kw, i, r)
	} else {
		i = m.blocks(dst, src, kw, i, r)
	}
	for ; n-i >= 8; i += 8 {
		xorWord(dst[i:], src[i:], kw)
	}
	m.tail(dst, src, key, p, i, n)
	return next
}

// length is the number of octets the model masks.
func (m maskModel) length(n int) int {
	switch m.bug {
	case "len-int16":
		return max(int(int16(n)), 0)
	case "len-uint16":
		return int(uint16(n))
	}
	return n
}

// phase is the key octet of the first octet.
func (m maskModel) phase(pos int) int {
	switch m.bug {
	case "negative-pos":
		p := pos % 4
		return max(p, -p)
	case "rotation-direction":
		return -pos & 3
	}
	return pos & 3
}

func (m maskModel) zeroKey(key [4]byte) bool {
	if m.bug == "zero-key-half" {
		return key[0]|key[1] == 0
	}
	return key == [4]byte{}
}

// keyWord is the 8-octet key word for a word whose first octet has key
// phase ph, read from a table of the key repeated.
func (m maskModel) keyWord(key [4]byte, ph int) uint64 {
	var table [11]byte
	filled := len(table)
	if m.bug == "phase3-key-table" {
		filled-- // table[10], read only at phase 3, stays zero
	}
	for i := range filled {
		table[i] = key[i&3]
	}
	return binary.LittleEndian.Uint64(table[ph&3:])
}

func xorWord(dst, src []byte, kw uint64) {
	binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src)^kw)
}

// blocks masks r&^31 octets from i in 32-octet blocks and returns where
// they end.
func (m maskModel) blocks(dst, src []byte, kw uint64, i, r int) int {
	count := r / 32
	if m.bug == "exact-multiple-32" {
		count = (r - 1) / 32 // "keep a tail", but the tail code takes r%32
	}
	for k := range max(count, 0) {
		for w := 0; w < 32; w += 8 {
			xorWord(dst[i+32*k+w:], src[i+32*k+w:], kw)
		}
	}
	return i + r&^31
}

// wide masks r&^31 octets from i in 64-octet blocks and one 32-octet block
// and returns where they end.
func (m maskModel) wide(dst, src []byte, kw uint64, i, r int) int {
	count := r / 64
	if m.bug == "wide-count-uint16" {
		count = int(uint16(count))
	}
	for k := range count {
		for w := 0; w < 64; w += 8 {
			xorWord(dst[i+64*k+w:], src[i+64*k+w:], kw)
		}
	}
	if at := i + r&^63; r&63 >= 32 && m.bug != "wide-remainder-32" {
		for w := 0; w < 32; w += 8 {
			xorWord(dst[at+w:], src[at+w:], kw)
		}
	}
	return i + r&^31
}

// tail masks the octets from i to n, one at a time; with
// "mask/tail-store-to-cap", in place with room for a word, as one more
// 8-octet word (tailWord).
func (m maskModel) tail(dst, src []byte, key [4]byte, p, i, n int) {
	if m.bug == "mask/tail-store-to-cap" && i < n && cap(dst)-i >= 8 && sameStart(dst, src) {
		m.tailWord(dst, key, p, i)
		return
	}
	if m.bug == "mask/word-rmw-past-len" && i < n && cap(dst)-i >= 8 && sameStart(dst, src) {
		wordRMW(dst, key, p, i, n)
		return
	}
	from := p
	if m.bug == "tail-key-restarted" {
		from = p - i
	}
	for j := i; j < n; j++ {
		dst[j] = src[j] ^ key[(from+j)&3]
	}
	if m.bug == "writes-past-src" && n%8 != 0 && len(dst) >= n&^7+8 {
		for j := n; j < n&^7+8; j++ {
			dst[j] ^= key[(p+j)&3]
		}
	}
}

// shortEdge masks 4..7 octets with an 8-octet load or store ending at the
// end (reaching before the start), for the bugs that do; it reports
// whether it did.
func (m maskModel) shortEdge(dst, src []byte, key [4]byte, p, n int) bool {
	at := func(b []byte) *[8]byte {
		return (*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), n-8))
	}
	switch m.bug {
	case "reads-before-src":
		w := *at(src)
		for j := range n {
			dst[j] = w[8-n+j] ^ key[(p+j)&3]
		}
	case "writes-before-dst":
		var w [8]byte
		copy(w[8-n:], src[:n])
		old := *at(dst)
		copy(w[:8-n], old[:8-n])
		for j := range n {
			w[8-n+j] ^= key[(p+j)&3]
		}
		*at(dst) = w
	default:
		return false
	}
	return true
}

// readerModel is a MaskReader over the model's Mask.
type readerModel struct {
	maskModel
	r   io.Reader
	key [4]byte
	pos int
}

func (m *readerModel) Reset(r io.Reader, key [4]byte) {
	if m.bug == "maskreader/reset-same-ignored" && r == m.r {
		return // "nothing to do": the reader is the one it has
	}
	*m.position() = 0
	m.r, m.key = r, key
}

func (m *readerModel) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	if n < 0 || n > len(p) {
		return 0, ref.ErrInvalidRead
	}
	if err != nil && m.bug == "maskreader/drops-data-with-error" {
		return 0, err
	}
	switch {
	case m.bug == "maskreader/timeout-data-masked" && n > 0 && timedOut(err):
		return n, err
	case m.bug == "maskreader/wide-read-phase" && n >= 1<<20:
		m.wideRead(p, n)
		return n, err
	}
	pos := m.position()
	next := m.Mask(p[:n], m.key, *pos)
	switch m.bug {
	case "reader-pos-by-len-p":
		next = (*pos + len(p)) & 3
	case "reader-pos-not-carried":
		next = 0
	}
	*pos = next
	return n, err
}

// writerModel is a MaskWriter over the model's MaskCopy, in pieces of up
// to 4 KiB.
type writerModel struct {
	maskModel
	w       io.Writer
	key     [4]byte
	pos     int
	buf     [4096]byte
	pending []byte // "maskwriter/defers-tail-view": what a short write left
	writes  int    // Writes since New, for "maskwriter/lazy-after-512-writes"
}

func (m *writerModel) Reset(w io.Writer, key [4]byte) {
	if m.bug == "maskwriter/reset-same-ignored" && w == m.w {
		return // "nothing to do": the writer is the one it has
	}
	m.w, m.key, m.pos, m.pending = w, key, 0, nil
}

func (m *writerModel) Write(b []byte) (int, error) {
	m.writes++
	n, err := m.write(b)
	if m.bug == "maskwriter/lazy-after-512-writes" && m.writes > 512 {
		m.pos -= n & 3 // the position moved by n rounded down to 4
	}
	return n, err
}

// write is Write's work.
func (m *writerModel) write(b []byte) (int, error) {
	switch {
	case m.bug == "maskwriter/memo-by-address" && len(b) >= 32<<10:
		return m.memoWrite(b)
	case m.bug == "maskwriter/trylock-fallback" && len(b) >= 256<<10:
		return m.trylockWrite(b)
	}
	if m.bug == "writer-masks-large-in-place" && len(b) > len(m.buf) {
		m.Mask(b, m.key, m.pos)
		n, err := m.put(b)
		m.Mask(b, m.key, m.pos-n) // restore b
		return n, err
	}
	src := m.retried(b)
	written := 0
	for written < len(b) {
		piece := src[written:min(len(b), written+len(m.buf))]
		masked := m.maskPiece(piece)
		n, err := m.put(masked)
		written += n
		if err != nil {
			if m.bug == "maskwriter/defers-tail-view" {
				m.pending = b[written:] // for the retry
			}
			if m.bug == "maskwriter/full-count-with-error" {
				return len(b), err
			}
			return written, err
		}
	}
	return written, nil
}

// put writes masked octets to the underlying writer and moves the
// position by what it took.
func (m *writerModel) put(masked []byte) (int, error) {
	n, err := m.w.Write(masked)
	if n < 0 || n > len(masked) {
		return 0, ref.ErrInvalidWrite
	}
	if m.bug == "maskwriter/drops-error-with-full-count" && n == len(masked) {
		err = nil // the count checked first: all taken, so no error
	}
	if m.bug == "writer-pos-by-attempted" && n < len(masked) {
		m.pos += len(masked)
	} else {
		m.pos += n
	}
	if err == nil && n < len(masked) {
		err = io.ErrShortWrite
	}
	return n, err
}
