package battery

import (
	"sync"
	"unsafe"
)

// The UTF-8 pair's bugs of issue 29's families, each caught by one
// mechanism the harness or the scale method added (internal/contractknob
// turns it off in TestMechanisms): octets past an Unmask written back
// (edges), a verdict remembered by address (reuse), a Validator gone
// lazy after a thousand Writes (history), Valid and Write on megabytes
// cut into pieces that cut characters (scale), a try-lock's fallback
// taken only while another call is in flight (overlap), and the octets a
// reader returns with its error (io-edges). Each is a switch of the
// model validator (utf8.go), whose twin is the model with none on.
var u8ScaleBugs = []struct{ name, record, axis string }{
	{"unmask/tail-word-rmw",
		"uNetworking/uWebSockets#1867 (unmaskImprecise8 works in whole words past the payload's end, which uWS requires callers to pad) and Boehm, \"Threads Cannot Be Implemented as a Library\" (PLDI 2005), §4.1 (a store widened to a word writes back its neighbours): here Unmask of 64 KiB or more loads and stores its last partial 8-octet word whole, the octets past the end XORed with zero",
		"edges: Unmask of 64 KiB or more, length not a multiple of 8, ending flush against read-only octets or an unmapped page"},
	{"valid/memo-by-address",
		"apache/artemis#2304 (a buffer's valid flag not reset after its bytes were re-encoded) and electron/electron#25262 (ANGLE's stale validation cache, chromium:1105202): here Valid remembers its verdict on a text of 64 KiB or more by its address and length",
		"reuse: Valid of 64 KiB or more called again at the same address with other contents"},
	{"validator/lazy-after-1024-writes",
		"yodaos-project/ShadowNode#105 (a 37 KB text message sent every second arrives as invalid UTF-8 after a while): here a Validator, after 1024 Writes without a Reset, takes a block path that starts each Write between characters, dropping the partial character the last one left",
		"history: a Validator after more than 1024 Writes, a Write boundary inside a character"},
	{"valid/halves-split-characters",
		"JulienPalard/is_utf8#2 (a multi-octet sequence split at the end of each BUFSIZE buffer taken as invalid) and marklogic/marklogic-contentpump#263 (input split at byte offsets inside multi-octet characters): here Valid of 1 MiB or more validates its two halves in parallel, each from between characters",
		"scale: Valid of 1 MiB or more, a character across the middle"},
	{"validator/fragmented-large-write",
		"scylladb/scylladb#7449 (large cells validated fragment by fragment, code points straddling fragments carried between them): here a Write of 512 KiB or more is validated in 64 KiB fragments with nothing carried, so that a character a fragment boundary cuts is taken for a stray continuation",
		"scale: a Write or an Unmask of 512 KiB or more, a character across a multiple of 64 KiB"},
	{"valid/trylock-fallback",
		"golang/go#45435 (the proposal that added sync.Mutex.TryLock warns that its correct uses are rare) and ClickHouse/silk#137 (try_lock_shared failing under contention, sending callers down the other path): here Valid of 128 KiB or more validates through a shared aligned buffer, and when another call holds it falls back to a second table that takes E0, ED, F0 and F4 like their neighbours",
		"overlap: two Valids of 128 KiB or more at once, one text with an overlong form, a surrogate or a code point above U+10FFFF"},
	{"reader/drops-data-with-error",
		"cloudwego/netpoll#122 (data lost when read with io.EOF), Velocidex/go-ntfs#97 (n not used with io.EOF) and ipfs/kubo#4793 (Read may return data and an error at once): here the Reader returns r's io error (not a nested Reader's ErrInvalid) with the octets r returned, unmasked and validated by nobody",
		"io-edges: a Read whose underlying reader returns octets with io.EOF or another error"},
}

// u8ZeroWord is the key word unmask/tail-word-rmw XORs the octets past
// the end with: a variable, so that the compiler keeps the store.
var u8ZeroWord [8]byte

// tailWordRMW is unmask/tail-word-rmw's store: the 8-octet word holding
// b's last octets, loaded and stored whole, up to 7 octets past its end.
func tailWordRMW(b []byte) {
	if len(b) < 64<<10 || len(b)%8 == 0 {
		return
	}
	p := (*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), len(b)&^7))
	w := *p
	for i := range w {
		w[i] ^= u8ZeroWord[i]
	}
	*p = w
}

// u8Memo is valid/memo-by-address's last verdict: where its text lay,
// how long it was, and what Valid said.
var u8Memo struct {
	sync.Mutex
	addr     uintptr
	n        int
	valid    bool
	occupied bool
}

// memoValid is valid/memo-by-address's Valid of a text of 64 KiB or
// more: the last verdict if the text lies where the last one did.
func memoValid(b []byte) bool {
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	u8Memo.Lock()
	defer u8Memo.Unlock()
	if u8Memo.occupied && u8Memo.addr == addr && u8Memo.n == len(b) {
		return u8Memo.valid
	}
	v := plainValid(b)
	u8Memo.addr, u8Memo.n, u8Memo.valid, u8Memo.occupied = addr, len(b), v, true
	return v
}

// halvesValid is valid/halves-split-characters's Valid of a text of
// 1 MiB or more: each half validated on its own, from between characters.
func halvesValid(b []byte) bool {
	h := len(b) / 2
	return plainValid(b[:h]) && plainValid(b[h:])
}

// u8Scratch is valid/trylock-fallback's shared buffer and its lock.
var u8Scratch struct {
	sync.Mutex
	b []byte
}

// trylockValid is valid/trylock-fallback's Valid of a text of 128 KiB or
// more: through the shared buffer when it can take it, else by a second
// table that is lax on the second octets after E0, ED, F0 and F4.
func trylockValid(b []byte) bool {
	if u8Scratch.TryLock() {
		defer u8Scratch.Unlock()
		u8Scratch.b = append(u8Scratch.b[:0], b...)
		return plainValid(u8Scratch.b)
	}
	v := utf8Model{lax: true}
	_, err := v.Write(b)
	return err == nil && v.Close() == nil
}

// plainValid is the model's Valid, no bug on.
func plainValid(b []byte) bool {
	var v utf8Model
	_, err := v.Write(b)
	return err == nil && v.Close() == nil
}

// scaleValid is Valid with one of the scale bugs, and whether b is where
// the bug acts.
func scaleValid(b []byte, bug string) (valid, ok bool) {
	switch {
	case bug == "valid/memo-by-address" && len(b) >= 64<<10:
		return memoValid(b), true
	case bug == "valid/halves-split-characters" && len(b) >= 1<<20:
		return halvesValid(b), true
	case bug == "valid/trylock-fallback" && len(b) >= 128<<10:
		return trylockValid(b), true
	}
	return false, false
}
