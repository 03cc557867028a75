package battery

import (
	"io"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv/utf8validtest"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
	"github.com/equivcheck/equivcheck/reference/websocket"
)

// utf8Bugs lists the UTF-8 pair's known-bad implementations: one model
// validator (utf8Model), each bug a switch in it, each twin the same code
// with the switch off.
func utf8Bugs() []Bug {
	var bugs []Bug
	for _, b := range append(u8Bugs[:len(u8Bugs):len(u8Bugs)], u8ScaleBugs...) {
		bugs = append(bugs, Bug{Name: "utf8/" + b.name, Record: b.record, Axis: b.axis,
			Bad: utf8validtest.NewSuite(utf8Impl(b.name)), Twin: utf8validtest.NewSuite(utf8Impl("")), TwinKey: "utf8/model"})
	}
	return bugs
}

// u8Bugs are the bugs, by the switch's name.
var u8Bugs = []struct{ name, record, axis string }{
	{"accepts-surrogates",
		"SerenityOS/serenity#24529 (Utf8View::validate accepted surrogate code points) and freeunitorg/freeunit#304 (nxt_utf8_decode2 had no surrogate exclusion: ED A0 80 passed)",
		"content: ED followed by A0..BF"},
	{"accepts-overlong-2",
		"CVE-2000-0884 (IIS decoded the overlong C0 AF as '/': the Unicode directory traversal) and ada-url/ada#1170 (overlong forms accepted by a tokenizer's decoder)",
		"content: C0 or C1 followed by a continuation"},
	{"accepts-overlong-4",
		"simdjson/simdjson#1187: the fallback validate_utf8 accepted F0 8F BF BF, an overlong 4-octet form",
		"content: F0 followed by 80..8F"},
	{"accepts-above-10ffff",
		"sheredom/utf8.h#141 (values above U+10FFFF written back as valid) and Kuhn's stress test 2.3 (F4 90 80 80)",
		"content: F4 followed by 90..BF"},
	{"loses-state-at-split",
		"ballerina-platform/ballerina-lang#12695 (valid UTF-8 fragmented on positions that are not code point ends failed) and status-im/nim-websock#85 (a sequence crossing a frame boundary): here a 4-octet character cut after its third octet",
		"splits: a Write boundary after the third octet of a 4-octet character"},
	{"block-boundary-continuation",
		"simd-lite/simd-json#166: a multi-byte character at the end of a SIMD block was not checked when the next block was processed (Utf8Check::is_incomplete)",
		"blocks: a 2-octet lead as the last octet of a 32-octet block, followed by a non-continuation"},
	{"incomplete-at-block-end",
		"haskell/bytestring#620: the roll-back for an incomplete code point in the last SIMD block was wrong; here a text of 16+ octets cut inside its last character is accepted",
		"length ≥ 16 × a character cut at the end"},
	{"ascii-skip-misses-last",
		"simdjson/simdjson#1169 (63 spaces then FF accepted by the haswell and westmere kernels) and simdutf/simdutf#381 (an ASCII fast path that must also check the next bytes)",
		"blocks: an invalid octet at offset 63 of a 64-octet block after an ASCII run"},
	{"fails-late",
		"crossbario/autobahn-testsuite#58 and crossbario/autobahn-python#103: implementations that validate a message only when it is complete, which Autobahn's 6.4.x grade NON-STRICT",
		"fail fast: a text that is invalid before its end"},
	{"incomplete-accepted-at-close",
		"status-im/nim-websock#90: validation must be done at message boundaries, where a character left incomplete makes the message invalid; here Close forgets it",
		"the end: a text cut inside its last character"},
	{"close-resets",
		"class: a finish call that resets the decoder (Python's incremental decoders reset on final=True), called mid-message",
		"Close between Writes of a character"},
	{"keeps-tail-view",
		"class: a streaming validator that keeps a slice of the caller's buffer for the partial character instead of copying its octets (io.Writer: implementations must not retain p)",
		"splits × poison: a Write ending inside a character"},
	{"shared-carry",
		"class: a package-level buffer for the partial character (the shared-scratch bugs of the other pairs' batteries), right when one validator runs at a time",
		"concurrency: two validators at once (the concurrent caller, a nested Reader)"},
	{"valid-scratch-in-place",
		"class: sentinel-terminated scanners that write a terminator over the caller's last octet and restore it (re2c's and yaml's sentinel technique)",
		"read-only pages: any nonempty text"},
	{"tail-load-to-cap",
		"class: word-at-a-time ASCII tests that round the length up to 8 when the capacity allows (the cap-for-len bounds bugs of the other pairs' batteries)",
		"spare capacity: texts whose length is not a multiple of 8"},
	{"tail-over-read",
		"class: a SIMD tail that loads 16 octets once 15 remain, one past the end: the heap-buffer-overflow reads fuzzers found in simdjson's and simdutf's tails",
		"guard pages: lengths ≡ 15 (mod 16)"},
	{"unmask-stops-at-failure",
		"class: a fused unmask-and-validate loop that returns at the first invalid octet, leaving the rest of the payload masked",
		"Unmask: a text invalid before its end"},
	{"unmask-phase-restarts",
		"ninjasource/embedded-websocket#8 and boostorg/beast#1061's class (the key restarted at octet 0), in the fused Unmask: the position is ignored",
		"Unmask: pos ≢ 0 (mod 4)"},
	{"unmask-ascii-test-phase",
		"class: a word-at-a-time ASCII test of masked octets (four 8-octet words over 16-31 octets, the last overlapping) whose last word is XORed with the key at the first word's phase, while the unmasking rotates it right; written into this project's own fused Unmask in a tried fast path (2026-12-05), where the suite missed it until its phase texts",
		"Unmask: 16-31 octets whose masked octets look ASCII under the key at another phase"},
	{"unmask-last-lead-narrowed",
		"class: the test after a SIMD kernel of a text's last octet, which the kernel's pair checks cannot judge without the octet after it, narrowed so that C0 and C1 there are taken for the start of a character (threshold bugs of the kind of simdjson's is_incomplete); written into this project's own fused Unmask as a mutant (the test E0 and up, 2026-12-05), which the suite caught only at the seeds whose random texts happened to end so until its vectors were cut just after their failing octet",
		"Unmask: 16+ octets ending in C0 or C1"},
	{"unmask-ascii-test-skips-word",
		"class: a word-at-a-time ASCII test over overlapping words (four 8-octet words over 16-31 octets) that leaves one out, so the octets only it covers go unchecked; written into this project's own fused Unmask as a mutant (the third word left out, 2026-12-05), which passed every method at seed 1 until the lone texts",
		"Unmask: 25-31 octets, one octet that is not ASCII at 16..n-9"},
	{"unmask-ascii-block-forgets-lead",
		"simdjson/simdjson#1169's class (an ASCII fast path that must still check what the block before left open), written into this project's own AVX-512 fused Unmask as two mutants of its ASCII test of single and last blocks (2026-12-06: the test of the block before against incompleteT left out), which its package's tests caught (TestGuardPages, TestKernelsDirect)",
		"Unmask: 16+ octets, a 64-octet block of ASCII (or the last, shorter one) after a character left open at its start"},
	{"unmask-split-count",
		"class: a long text split at its first 64-octet boundary so that a SIMD kernel's stores are aligned, each piece validated by a call of its own, and a failure in the second piece reported at its offset in that piece, not in the text; written into this project's own Unmask as a mutant of its split (2026-12-06, eighth session), which the scale method and the exhaustive method's boundary texts caught",
		"Unmask: 4096+ octets not on a 64-octet boundary, a flaw after the first boundary"},
	{"valid4-mask-skips-first",
		"class: a short-input path that tests a few octets as one word for ASCII with a mask that leaves one octet out (word-at-a-time ASCII tests with a wrong constant); written into this project's own Valid of 4 octets as a mutant (0x80808000 for 0x80808080, 2026-12-06), which its package's tests caught (TestDifferential)",
		"Valid: 4 octets, the first not ASCII and the other three ASCII"},
	{"reader-reset-clears-validator",
		"aspnet/WebSockets#97 (fragmented UTF-8 messages failed) and ballerina-platform/ballerina-lang#12695: the validator started over with each frame",
		"Reader: a character split across two frames (a warm-up frame and Reset)"},
}

// UTF8Impls returns the known-bad validator named name (without the
// "utf8/" prefix) and its twin, for the prove module's tests, which
// replay their counterexamples on them; ok is false for an unknown name.
func UTF8Impls(name string) (bad, twin utf8validtest.Impl, ok bool) {
	for _, b := range u8Bugs {
		if b.name == name {
			return utf8Impl(name), utf8Impl(""), true
		}
	}
	return utf8validtest.Impl{}, utf8validtest.Impl{}, false
}

// utf8Impl is the model validator with bug switched on ("" for none).
func utf8Impl(bug string) utf8validtest.Impl {
	return utf8validtest.Impl{
		Name:         "model",
		Valid:        func(b []byte) bool { return modelValid(b, bug) },
		NewValidator: func() utf8validtest.Validator { return &utf8Model{bug: bug} },
		NewReader: func(r io.Reader, key [4]byte, v utf8validtest.Validator) utf8validtest.Reader {
			return &utf8Reader{r: r, key: key, v: v.(*utf8Model)}
		},
	}
}

// modelValid is Valid: a Validator over b, with the one-shot path's bugs.
func modelValid(b []byte, bug string) bool {
	if v, ok := scaleValid(b, bug); ok {
		return v
	}
	switch {
	case bug == "valid-scratch-in-place" && len(b) > 0:
		last := b[len(b)-1]
		b[len(b)-1] = 0 // a sentinel, restored below
		b[len(b)-1] = last
	case bug == "tail-load-to-cap" && len(b)%8 != 0 && cap(b) >= (len(b)+7)&^7:
		b = b[:(len(b)+7)&^7]
	case bug == "valid4-mask-skips-first" && len(b) == 4 && (b[1]|b[2]|b[3]) < 0x80:
		return true // the word test's mask has no bit for b[0]
	case bug == "tail-over-read" && len(b)%16 == 15:
		u8OverRead = *(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), len(b)))
	}
	v := utf8Model{bug: bug, oneShot: true}
	_, err := v.Write(b)
	if err == nil && v.n > 0 && bug == "incomplete-at-block-end" && len(b) >= 16 {
		return true // the roll-back forgot the last block's partial character
	}
	return err == nil && v.Close() == nil
}

// utf8Carry is shared-carry's package-level buffer.
var utf8Carry [4]byte

// u8OverRead keeps tail-over-read's load alive (an unused load is dropped by
// the compiler).
var u8OverRead byte

// utf8Model is a validator in the shape most shipped ones take: a state
// machine over the ABNF (accept), carrying the partial character's
// octets (not a view of them) between Writes.
type utf8Model struct {
	bug     string
	oneShot bool    // Valid's, whose block bugs apply
	part    [4]byte // the partial character's octets
	n       int     // how many
	view    []byte  // keeps-tail-view: the caller's octets instead
	failed  bool    //
	offset  int64   //
	writes  int     // Writes since the last Reset (validator/lazy-after-1024-writes)
	lax     bool    // valid/trylock-fallback's second table
}

// lead returns the length of the character that starts with o and the
// range of its second octet, or 0 if o starts none (RFC 3629 §4).
func (m *utf8Model) lead(o byte) (n int, lo, hi byte) {
	lo, hi = 0x80, 0xbf
	switch {
	case m.lax && (o == 0xe0 || o == 0xed):
		return 3, lo, hi
	case m.lax && (o == 0xf0 || o == 0xf4):
		return 4, lo, hi
	case o < 0x80:
		return 1, 0, 0
	case o >= 0xc2 && o <= 0xdf, m.bug == "accepts-overlong-2" && (o == 0xc0 || o == 0xc1):
		return 2, lo, hi
	case o == 0xe0:
		return 3, 0xa0, hi
	case o == 0xed && m.bug != "accepts-surrogates":
		return 3, lo, 0x9f
	case o >= 0xe1 && o <= 0xef:
		return 3, lo, hi
	case o == 0xf0 && m.bug != "accepts-overlong-4":
		return 4, 0x90, hi
	case o >= 0xf0 && o <= 0xf3:
		return 4, lo, hi
	case o == 0xf4 && m.bug != "accepts-above-10ffff":
		return 4, lo, 0x8f
	case o == 0xf4:
		return 4, lo, hi
	}
	return 0, 0, 0
}

// accept takes octet o at index i of the Write under way.
func (m *utf8Model) accept(p []byte, i int) bool {
	o := p[i]
	if m.oneShot && m.skipped(p, i) {
		m.n = 0 // taken as the character's last octet, or as ASCII
		return true
	}
	if m.n == 0 {
		n, _, _ := m.lead(o)
		if n == 0 {
			return false
		}
		if n > 1 {
			m.part[0], m.n = o, 1
		}
		return true
	}
	want, lo, hi := m.lead(m.part[0])
	if m.n > 1 {
		lo, hi = 0x80, 0xbf
	}
	if o < lo || o > hi {
		return false
	}
	m.part[m.n] = o
	if m.n++; m.n == want {
		m.n = 0
	}
	return true
}

// skipped reports whether a one-shot block bug lets octet i through
// unchecked, as the SIMD code it models would.
func (m *utf8Model) skipped(p []byte, i int) bool {
	switch m.bug {
	case "block-boundary-continuation":
		return i%32 == 0 && i > 0 && len(p) >= 32 && p[i-1] >= 0xc2 && p[i-1] <= 0xdf && m.n == 1
	case "ascii-skip-misses-last":
		if i%64 != 63 || m.n != 0 {
			return false
		}
		for _, o := range p[i-63 : i] {
			if o >= 0x80 {
				return false
			}
		}
		return true
	}
	return false
}

// Write validates p as the next octets of the text.
func (m *utf8Model) Write(p []byte) (int, error) {
	if m.failed {
		return 0, ref.ErrInvalid
	}
	m.restore()
	if m.bug == "loses-state-at-split" && m.n == 3 {
		m.n = 0 // the fourth octet of a 4-octet character seen as a lone continuation
	}
	if m.writes++; m.bug == "validator/lazy-after-1024-writes" && m.writes > 1024 {
		m.n = 0 // the block path starts every Write between characters
	}
	fragments := m.bug == "validator/fragmented-large-write" && !m.oneShot && len(p) >= 512<<10
	for i := range p {
		if fragments && i > 0 && i%(64<<10) == 0 {
			m.n = 0 // each fragment from between characters, nothing carried
		}
		if !m.accept(p, i) {
			if m.bug == "fails-late" {
				m.failed = true // and say nothing until Close
				continue
			}
			m.failed = true
			m.offset += int64(i)
			return i, ref.ErrInvalid
		}
	}
	m.offset += int64(len(p))
	m.stash(p)
	return len(p), nil
}

// stash keeps the partial character at the end of p as the bug has it:
// its octets (correct), a view of p, or a package-level copy.
func (m *utf8Model) stash(p []byte) {
	switch {
	case m.n == 0:
	case m.bug == "keeps-tail-view" && m.n == 1 && len(p) > 0:
		m.view = p[len(p)-1:] // where the lead octet is, rather than the octet
	case m.bug == "shared-carry":
		copy(utf8Carry[:], m.part[:m.n])
	}
}

// restore takes the partial character back from where stash put it.
func (m *utf8Model) restore() {
	switch {
	case m.n == 0:
	case m.bug == "keeps-tail-view" && m.n == 1 && len(m.view) == 1:
		m.part[0] = m.view[0]
	case m.bug == "shared-carry":
		copy(m.part[:m.n], utf8Carry[:])
	}
}

// Close reports the verdict at the end of the text.
func (m *utf8Model) Close() error {
	switch {
	case m.failed:
		return ref.ErrInvalid
	case m.n > 0 && m.bug != "incomplete-accepted-at-close":
		if m.bug == "close-resets" {
			m.n = 0
		}
		return ref.ErrIncomplete
	}
	return nil
}

// Reset starts a new text.
func (m *utf8Model) Reset() { *m = utf8Model{bug: m.bug} }

// Offset is the number of octets accepted.
func (m *utf8Model) Offset() int64 { return m.offset }

// Unmask unmasks b and validates it, as reference/utf8valid's does.
func (m *utf8Model) Unmask(b []byte, key [4]byte, pos int) (next, n int, err error) {
	if m.bug == "unmask-phase-restarts" {
		pos = 0
	}
	if m.bug == "unmask-split-count" && len(b) >= 4096 {
		if h := -int(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) & 63; h != 0 {
			return m.splitCount(b, key, pos, h)
		}
	}
	if m.bug == "unmask-ascii-test-phase" && !m.failed && m.n == 0 && len(b) >= 16 && len(b) < 32 && wrongPhaseASCII(b, key, pos) {
		next = websocket.Mask(b, key, pos)
		m.offset += int64(len(b))
		return next, len(b), nil
	}
	if m.bug == "unmask-ascii-test-skips-word" && !m.failed && m.n == 0 && len(b) >= 16 && len(b) < 32 && skipsWordASCII(b, key, pos) {
		next = websocket.Mask(b, key, pos)
		m.offset += int64(len(b))
		return next, len(b), nil
	}
	next = websocket.Mask(b, key, pos)
	if last := len(b) - 1; m.bug == "unmask-last-lead-narrowed" && last >= 15 && (b[last] == 0xC0 || b[last] == 0xC1) {
		c := b[last]
		b[last] = 0xC2 // checked as the start of a 2-octet character
		n, err = m.Write(b)
		b[last] = c
		return next, n, err
	}
	if m.bug == "unmask/tail-word-rmw" {
		tailWordRMW(b)
	}
	if m.bug == "unmask-ascii-block-forgets-lead" && len(b) >= 16 {
		n, err = m.asciiBlocksForget(b)
		return next, n, err
	}
	n, err = m.Write(b)
	if err != nil && m.bug == "unmask-stops-at-failure" && n+1 < len(b) {
		websocket.Mask(b[n+1:], key, pos+n+1) // masked again: left as it came
	}
	return next, n, err
}

// splitCount is Unmask of b as b[:h] then b[h:], which reports a failure
// in b[h:] at its offset there: h octets short.
func (m *utf8Model) splitCount(b []byte, key [4]byte, pos, h int) (next, n int, err error) {
	p, k, err := m.Unmask(b[:h], key, pos)
	q, r, err2 := m.Unmask(b[h:], key, p)
	switch {
	case err != nil:
		return q, k, err
	case err2 != nil:
		return q, r, err2
	}
	return q, h + r, nil
}

// asciiBlocksForget is Write over the unmasked b as
// unmask-ascii-block-forgets-lead's kernel checks it: in blocks of 64
// octets from b[0], the last one shorter, where a block whose octets are
// all ASCII is taken to start between characters, whatever the octets
// before it left open.
func (m *utf8Model) asciiBlocksForget(b []byte) (int, error) {
	start := 0
	for i := 0; i < len(b); i += 64 {
		ascii := true
		for _, o := range b[i:min(i+64, len(b))] {
			ascii = ascii && o < 0x80
		}
		if !ascii {
			continue
		}
		if n, err := m.Write(b[start:i]); err != nil {
			return start + n, err
		}
		m.n = 0 // the character left open is forgotten
		start = i
	}
	n, err := m.Write(b[start:])
	return start + n, err
}

// wrongPhaseASCII is unmask-ascii-test-phase's test: b unmasked from
// key octet pos is all ASCII, but for its last 8 octets, unmasked from key
// octet pos as if they began at b[0].
func wrongPhaseASCII(b []byte, key [4]byte, pos int) bool {
	var x byte
	for i, c := range b {
		ph := pos + i
		if i >= len(b)-8 {
			ph = pos + i - (len(b) - 8)
		}
		x |= c ^ key[ph&3]
	}
	return x < 0x80
}

// skipsWordASCII is unmask-ascii-test-skips-word's test: b unmasked from
// key octet pos is all ASCII outside the octets 16..n-9, which only the
// third of four 8-octet words covers.
func skipsWordASCII(b []byte, key [4]byte, pos int) bool {
	var x byte
	for i, c := range b {
		if i < 16 || i >= len(b)-8 {
			x |= c ^ key[(pos+i)&3]
		}
	}
	return x < 0x80
}

// utf8Reader is the model Reader: the underlying Read, then Unmask.
type utf8Reader struct {
	r   io.Reader
	key [4]byte
	pos int
	v   *utf8Model
}

func (r *utf8Reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n < 0 || n > len(p) {
		return 0, websocket.ErrInvalidRead
	}
	if err != nil && err != ref.ErrInvalid && n > 0 && r.v.bug == "reader/drops-data-with-error" {
		return n, err // the octets returned with an io error neither unmasked nor validated
	}
	var verr error
	r.pos, _, verr = r.v.Unmask(p[:n], r.key, r.pos)
	if verr != nil {
		return n, verr
	}
	return n, err
}

func (r *utf8Reader) Reset(src io.Reader, key [4]byte) {
	r.r, r.key, r.pos = src, key, 0
	if r.v.bug == "reader-reset-clears-validator" {
		r.v.Reset()
	}
}
