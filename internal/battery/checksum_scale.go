package battery

import (
	"encoding/binary"
	"sync"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// The checksum pair's bugs of issue 29's families, each caught by one
// mechanism the harness or the scale method added (internal/contractknob
// turns it off in TestMechanisms): octets next to a writable range
// written back (neighbours), an append's exact room, the same address
// with new contents (reuse), a long history, sizes in the megabytes
// (scale), calls that overlap, and an over-read on a path only large
// inputs take (the edges of every method).
func scaleBugs() []checksumBug {
	return []checksumBug{
		{"put/word-store-rmw", "Boehm, \"Threads Cannot Be Implemented as a Library\" (PLDI 2005), §4.1, and the WiredTiger comment on 32-bit stores beside a field (wiredtiger/wiredtiger#10392): a narrow store widened to a word that writes back its neighbours' old values; here Put loads b[0:4] as one word, sets the checksum's half and stores the word",
			"neighbours: Put into 4 octets or more with b[2:] on read-only pages", helperImpl(func(i *checksumtest.Impl, bug bool) { i.Put = putRMW(bug) })},
		{"digest/sum-word-store", "the same widened store (Boehm, PLDI 2005, §4.1) in an append: Sum(b) stores the checksum and the 6 octets after it as one 8-byte word when the capacity shows room, writing back what was there",
			"neighbours: Sum(b) with 8 octets of room or more, the room past the appended two on read-only pages", pairDigestImpl("sum-word-store")},
		{"digest/sum-room-off-by-two", "hash.Hash's Sum appends to b (golang/go#21070 took it for a destination); here the in-place path tests for 4 octets of room where 2 suffice, so that with exactly 2 or 3 it copies b to a new array",
			"exact append: Sum(b) with spare capacity of exactly 2 or 3", pairDigestImpl("sum-room-off-by-two")},
		{"sum/memo-by-address", "githedgehog/dataplane#517 and TechnikEmpire/HttpFilteringEngine#120 (a checksum not recomputed for a packet taken to be unmodified): here Sum remembers its last result for a buffer of 64 KiB or more, whose sum costs, by its address, length and initial value",
			"reuse: the same call of 64 KiB or more at the same address with other contents", sumImpl(memoByAddress)},
		{"digest/lazy-after-512-writes", "RFC 1071 §4.1's 32-bit accumulator (its overflow after about 128 KiB of 0xFF is noted in reference/checksum) and facebookincubator/katran#16 (a fold that overflowed once in 100,000): after 512 writes the Digest adds words into 32 bits and folds only on Sum16",
			"history: a Digest after more than 512 writes of a few KiB", pairDigestImpl("lazy-after-512-writes")},
		{"sum/wide-path-tail", "ghedo/go.pkt#2 (the last odd byte never added) on a path of its own: a Sum that splits 2 MiB and more into four lanes of 8-octet words drops a tail of 5 to 7 octets, as large-buffer paths are separate code (Linux's do_csum beside csum_partial)",
			"scale: Sum of 2 MiB or more with length 5, 6 or 7 mod 8", sumImpl(widePathTail)},
		{"sum/trylock-fallback", "golang/go#45435 (the proposal that added sync.Mutex.TryLock warns that its uses are rare and easy to get wrong): a Sum of 1 MiB or more sums through a shared aligned buffer, and when another call holds it falls back to a copy of the loop that drops an odd last byte",
			"overlap: two Sums of 1 MiB or more at once, one of odd length", sumImpl(trylockFallback)},
		{"sum/tail-word-over-read", "seladb/PcapPlusPlus#1866 and nasa/cFE#2699 (checksum loops reading past the buffer): the 64 KiB and longer path reads its last word whole, up to 7 octets past the end, and masks them off, so the sum is right",
			"edges: Sum of 64 KiB or more ending flush against an unmapped page, length not a multiple of 8", sumImpl(tailWordOverRead)},
	}
}

// putRMW writes c into b[0:2]; the bug, given 4 octets or more, loads
// b[0:4] as a word and stores it back with c in its high half.
func putRMW(bug bool) func([]byte, uint16) bool {
	return func(b []byte, c uint16) bool {
		if len(b) < 2 {
			return false
		}
		if bug && len(b) >= 4 {
			w := binary.BigEndian.Uint32(b)
			binary.BigEndian.PutUint32(b, w&0xffff|uint32(c)<<16)
			return true
		}
		binary.BigEndian.PutUint16(b, c)
		return true
	}
}

// memo is memoByAddress's last call: where its buffer lay, how long it
// was, the initial value and the result.
var memo struct {
	sync.Mutex
	addr     uintptr
	n        int
	initial  uint16
	sum      uint16
	occupied bool
}

// memoByAddress returns, for a call of 64 KiB or more whose buffer lies
// where the last one's did, with the same length and initial value, the
// last result; the twin sums every time.
func memoByAddress(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		if !bug || len(b) < 64<<10 {
			return fold(beWords(b, initial))
		}
		addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		memo.Lock()
		defer memo.Unlock()
		if memo.occupied && memo.addr == addr && memo.n == len(b) && memo.initial == initial {
			return memo.sum
		}
		s := fold(beWords(b, initial))
		memo.addr, memo.n, memo.initial, memo.sum, memo.occupied = addr, len(b), initial, s, true
		return s
	}
}

// widePathTail sums inputs of 2 MiB and more in four lanes of 8-octet
// words, then the tail; the bug drops a tail of 5 to 7 octets.
func widePathTail(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		if len(b) < 2<<20 {
			return fold(beWords(b, initial))
		}
		words := len(b) / 8 * 8
		var lanes [4]uint64
		for i := 0; i < words; i += 8 {
			lanes[i/8%4] += beWords(b[i:i+8], 0)
		}
		s := uint64(initial) + lanes[0] + lanes[1] + lanes[2] + lanes[3]
		if tail := b[words:]; !bug || len(tail) < 5 {
			s += beWords(tail, 0)
		}
		return fold(s)
	}
}

// trylockBuf is trylockFallback's shared buffer and its lock.
var trylockBuf struct {
	sync.Mutex
	b []byte
}

// trylockFallback sums an input of 1 MiB or more through a shared buffer
// when it can take it, and else through a second copy of the loop, which
// in the bug drops an odd last byte.
func trylockFallback(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		if len(b) < 1<<20-1 {
			return fold(beWords(b, initial))
		}
		if trylockBuf.TryLock() {
			defer trylockBuf.Unlock()
			trylockBuf.b = append(trylockBuf.b[:0], b...)
			return fold(beWords(trylockBuf.b, initial))
		}
		if bug && len(b)%2 == 1 {
			b = b[:len(b)-1]
		}
		return fold(beWords(b, initial))
	}
}

// tailWordOverRead sums inputs of 64 KiB and more 8 octets at a time,
// the last word loaded whole past the end and masked; the twin loads only
// the octets there are.
func tailWordOverRead(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		if len(b) < 64<<10 || len(b)%8 == 0 || !bug {
			return ref.Sum(b, initial)
		}
		words := len(b) / 8 * 8
		s := beWords(b[:words], initial)
		last := *(*[8]byte)(unsafe.Add(unsafe.Pointer(&b[0]), words)) // up to 7 octets past len
		clear(last[len(b)-words:])
		return fold(s + beWords(last[:], 0))
	}
}
