package battery

import (
	"encoding/binary"
	"net/netip"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// The checksum pair's contract bugs (docs/equivalence.md, "The contract",
// whose table names each one in its last column): implementations whose
// results are right on every input as the reference takes it, and which
// break a clause of checksumtest.Impl's contract instead: what a function
// may read (spare capacity, nil), write (its input, even for a moment),
// keep (a view of p) and share (package-level scratch), what hash.Hash
// promises (Write's count, Sum, Reset, BlockSize), and the size gates at
// every alignment class. Each Impl sets only the functions its bug is in
// (Sum always, as the suite requires), so that each twin's quick run
// skips the rest.

func contractBugs() []checksumBug {
	return append(sumContractBugs(), digestContractBugs()...)
}

func sumContractBugs() []checksumBug {
	return []checksumBug{
		{"pad-from-capacity", "seladb/PcapPlusPlus#838 (the odd last byte read as a 16-bit word, one byte past the buffer, right only while that byte is zero); in Go the word load is legal up to the capacity (b[:len(b)+1]), the spare room safing/jess#8 warns some libraries use",
			"spare capacity: an odd length with cap > len (the byte after the input a canary)", sumImpl(padFromCap)},
		{"swap-in-place", "the class of an in-place ntohs over the packet so that a host-order loop can sum it, then swapped back (FreeRTOS#122 and NetSys/bess#1044 are the byte-order bugs of such loops); io.Writer's \"not even temporarily\" (dominikh/go-tools#24) is the same rule",
			"read-only pages: any input of 2 bytes or more (restored before the return, so only a fault shows it)", sumImpl(swapInPlace)},
		{"nil-data-pointer", "DataDog/czlib#2 (a wrapper passing the data pointer to C: &b[0] panics on an empty slice, and a nil pointer went instead) and flyingmutant/rapid#15 (code that works on []int{} and fails on nil): here a nil b is \"no data\" and returns 0, not initial",
			"spare capacity (nil layouts): an empty input passed as nil, initial ≠ 0", sumImpl(nilData)},
		{"shared-scratch", "uber/ringpop-go#218 (a checksummer's buffer reused across calls, flagged in review as unsafe under concurrency) and c-bata/go-prompt#15 (a scratch buffer shared between goroutines): the input copied to a package-level aligned bounce buffer and summed from there",
			"concurrent caller: any input, while another goroutine sums", sumImpl(sharedScratch)},
		{"long-align-31", "eclipse-threadx/netxduo#146 and FreeRTOS#122 (checksums wrong only when the buffer's alignment is not the machine's): a 1 KiB+ path aligned to 32 bytes keeps a one-byte head for its tail code, which does not run when the body is whole blocks",
			"size gates: length ≥ 1 KiB starting at 31 mod 32, with (length-1) a multiple of 32", sumImpl(longAlign)},
		{"checksum-long-path", "ghedo/go.pkt#2 (the odd last byte never added) on a path of its own: Checksum with a fast path for 1 KiB and more beside Sum's, as Linux has ip_compute_csum beside csum_partial, and the grid checks Checksum to 768 bytes only",
			"size gates: Checksum of an odd length ≥ 1 KiB", func(bug bool) checksumtest.Impl {
				return checksumtest.Impl{Sum: ref.Sum, Checksum: longChecksum(bug)}
			}},
		{"put/wide-store", "cisco/go-hpke#25 and btcsuite/btcwallet#217 (writes into a caller's spare capacity, owned by someone else); here the checksum and the 16-bit field after it stored as one 32-bit word when b's capacity shows room",
			"spare capacity: Put into 2 or 3 bytes with cap ≥ 4", helperImpl(func(i *checksumtest.Impl, bug bool) { i.Put = putWide(bug) })},
		{"verify/zeroes-field-in-place", "the textbook verification (save the field, zero it, sum, restore: renatoaloi/EtherEncLib#1; microsoft/msquic#5122 zeroes the field before its software checksum) run on the caller's datagram",
			"read-only pages: VerifyUDP of a datagram with a nonzero checksum field", helperImpl(func(i *checksumtest.Impl, bug bool) { i.VerifyUDP = verifyInPlace(bug) })},
	}
}

// padFromCap pads an odd last byte with the byte after b, read as part of
// a 16-bit word when b has room for it; the twin pads with zero.
func padFromCap(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		n := len(b)
		if bug && n%2 == 1 && cap(b) > n {
			w := b[:n+1] // in bounds of the array: no guard, no panic
			return fold(beWords(w[:n-1], initial) + uint64(binary.BigEndian.Uint16(w[n-1:])))
		}
		return fold(beWords(b, initial))
	}
}

// swapInPlace sums b's words in host (little-endian) order: the bug swaps
// each byte pair of b in place first, sums, and swaps them back, so that b
// is as it was when Sum returns; the twin reads each word big-endian.
func swapInPlace(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		even := b[:len(b)&^1]
		s := uint64(initial)
		if bug {
			swapPairs(even)
			for i := 0; i < len(even); i += 2 {
				s += uint64(binary.LittleEndian.Uint16(even[i:]))
			}
			swapPairs(even)
		} else {
			s += beWords(even, 0)
		}
		if len(b)%2 == 1 {
			s += uint64(b[len(b)-1]) << 8
		}
		return fold(s)
	}
}

func swapPairs(b []byte) {
	for i := 0; i+1 < len(b); i += 2 {
		b[i], b[i+1] = b[i+1], b[i]
	}
}

// nilData returns 0 for a nil b, as a wrapper that hands the data pointer
// to a kernel and takes a null pointer for "no data"; an empty non-nil b
// is summed as usual (giving initial), and so is nil in the twin.
func nilData(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		if bug && b == nil {
			return 0
		}
		return fold(beWords(b, initial))
	}
}

// bounceLen is the size of the bounce buffers sharedScratch sums from.
const bounceLen = 64 << 10

// bounce is sharedScratch's package-level bounce buffer: one for every
// caller, as ringpop-go's reused checksummer buffer was. A fixed array, so
// that the race is on its bytes only (a wrong sum), never on a slice.
var bounce [bounceLen]byte

// sharedScratch copies b, 64 KiB at a time, to a buffer and sums the
// buffer (a bounce buffer gives the word loop aligned memory): the whole
// computation reads the buffer, so that a concurrent caller's copy lands
// in it. The bug's buffer is the package's; the twin's is its own.
func sharedScratch(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		buf := bounce[:]
		if !bug {
			buf = make([]byte, min(len(b), bounceLen))
		}
		s := uint64(initial)
		for len(b) > 0 {
			k := copy(buf, b)
			s += beWords(buf[:k], 0) // k is even but for the last piece
			b = b[k:]
		}
		return fold(s)
	}
}

// longAlign sums inputs of 1 KiB and more on a path aligned to 32 bytes:
// a head up to the boundary, 32-byte blocks, a tail. An odd head puts the
// body at an odd offset (its sum is swapped back, RFC 1071 §2(B)); a head
// of one byte is not a word of the head loop, and is kept for the tail
// code to pair, which the bug runs only when there is a tail.
func longAlign(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		if len(b) < 1024 {
			return fold(beWords(b, initial))
		}
		head := int(-equiv.AddrOf(b) & 31)
		s := uint64(initial)
		kept := -1
		if head == 1 {
			kept = int(b[0])
		} else {
			s += beWords(b[:head], 0)
		}
		body := b[head:]
		blocks := len(body) &^ 31
		t := beWords(body[:blocks], 0) + beWords(body[blocks:], 0)
		if head%2 == 1 {
			t = uint64(swap16(fold(t)))
		}
		if kept >= 0 && (blocks < len(body) || !bug) {
			s += uint64(kept) << 8
		}
		return fold(s + t)
	}
}

func swap16(v uint16) uint16 { return v<<8 | v>>8 }

// longChecksum is Checksum with a path of its own for 1 KiB and more:
// 8-byte words, then 2-byte words; the bug's tail loop stops there and
// drops an odd last byte.
func longChecksum(bug bool) func([]byte) uint16 {
	return func(b []byte) uint16 {
		if len(b) < 1024 {
			return ^ref.Sum(b, 0)
		}
		var s uint64
		for ; len(b) >= 8; b = b[8:] {
			w := binary.BigEndian.Uint64(b)
			s += w>>48 + w>>32&0xffff + w>>16&0xffff + w&0xffff
		}
		for ; len(b) >= 2; b = b[2:] {
			s += uint64(binary.BigEndian.Uint16(b))
		}
		if len(b) == 1 && !bug {
			s += uint64(b[0]) << 8
		}
		return ^fold(s)
	}
}

// putWide is Put; for a b of 2 or 3 bytes with room after it, the bug
// stores the checksum and a zero 16-bit field as one 32-bit word (a header
// writer that clears the TCP Urgent Pointer with the checksum in one
// store), writing two bytes past b.
func putWide(bug bool) func(b []byte, c uint16) bool {
	return func(b []byte, c uint16) bool {
		if len(b) < 2 {
			return false
		}
		if bug && len(b) < 4 && cap(b) >= 4 {
			binary.BigEndian.PutUint32(b[:4], uint32(c)<<16)
			return true
		}
		binary.BigEndian.PutUint16(b, c)
		return true
	}
}

// verifyInPlace is VerifyUDP: the pseudo-header, the zero field's rule by
// family, then the sum of the datagram with its checksum field taken out
// and the field added back. The bug takes the field out by zeroing it in
// the caller's segment and restores it after summing; the twin sums
// around it.
func verifyInPlace(bug bool) func(src, dst netip.Addr, seg []byte) bool {
	return func(src, dst netip.Addr, seg []byte) bool {
		ph, ok := ref.PseudoHeaderSum(src, dst, 17, uint32(len(seg)))
		if !ok || len(seg) < 8 || uint64(len(seg)) > 1<<32-1 {
			return false
		}
		field := binary.BigEndian.Uint16(seg[6:8])
		if field == 0 {
			return src.Unmap().Is4() // RFC 768: no checksum; RFC 8200 §8.1: invalid
		}
		var s uint16
		if bug {
			seg[6], seg[7] = 0, 0
			s = ref.Sum(seg, ph)
			binary.BigEndian.PutUint16(seg[6:8], field)
		} else {
			s = ref.Sum(seg[8:], ref.Sum(seg[:6], ph))
		}
		return onesAdd(s, field) == 0xffff
	}
}
