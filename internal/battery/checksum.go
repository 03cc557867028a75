package battery

import (
	"encoding/binary"
	"math/bits"
	"net/netip"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// checksumBug is one known-bad checksum implementation: impl(true)
// carries the bug, impl(false) is the same code with the bug fixed.
type checksumBug struct {
	name, record, axis string
	impl               func(bug bool) checksumtest.Impl
}

// checksumBugs lists the checksum pair's known-bad implementations.
func checksumBugs() []Bug {
	var out []Bug
	for _, b := range checksumCatalogue() {
		out = append(out, Bug{
			Name: "checksum/" + b.name, Record: b.record, Axis: b.axis,
			Bad: checksumtest.NewSuite(b.impl(true)), Twin: checksumtest.NewSuite(b.impl(false)),
		})
	}
	return out
}

// ChecksumImpls returns the known-bad checksum implementation named name
// (without the "checksum/" prefix) and its twin, for checksumtest's own
// tests of which method catches what; ok is false for an unknown name.
func ChecksumImpls(name string) (bad, twin checksumtest.Impl, ok bool) {
	for _, b := range checksumCatalogue() {
		if b.name == name {
			return b.impl(true), b.impl(false), true
		}
	}
	return checksumtest.Impl{}, checksumtest.Impl{}, false
}

// sumImpl wires a Sum variant; the rest of the Impl is left nil.
func sumImpl(sum func(bug bool) func([]byte, uint16) uint16) func(bool) checksumtest.Impl {
	return func(bug bool) checksumtest.Impl { return checksumtest.Impl{Sum: sum(bug)} }
}

// checksumCatalogue is every bug of the pair, Sum's first, then the
// Digest's and Update's, then the helpers', then the contract's
// (checksum_contract.go, checksum_digest.go).
func checksumCatalogue() []checksumBug {
	return append(append(append(sumBugs(), helperBugs()...), contractBugs()...), scaleBugs()...)
}

func sumBugs() []checksumBug {
	return []checksumBug{
		{"fold-once", "tinyos-main#111 (BLIP counted only the first carry) and katran#16 (one fold of a 32-bit sum, 1 in 100,000 IPv4 headers wrong)",
			"carry: the folded sum carries a second time", sumImpl(foldOnce)},
		{"32-bit-accumulator", "KallistiOS#1331 (carries deferred to the end of the loop) and RFC 1071 §4.1's 32-bit long, which overflows after about 128 KiB of 0xFF",
			"length ≥ 2^17 of 0xFF: the 32-bit accumulator wraps", sumImpl(acc32)},
		{"drop-odd-byte", "ghedo/go.pkt#2 (the last byte of odd lengths was never added)",
			"length odd", sumImpl(dropOdd)},
		{"odd-byte-low", "genodelabs/genode#360 (UDP checksum padded the odd byte on the wrong side) and PcapPlusPlus#838 (wrong on big-endian)",
			"length odd, last byte nonzero", sumImpl(oddLow)},
		{"negative-zero", "pcap4j#94 and soypat/lneto#24 (0xFFFF and 0x0000 confused: a sum reduced mod 0xFFFF gives +0 for -0)",
			"sum ≡ 0 (mod 0xFFFF), data not all zero", sumImpl(negativeZero)},
		{"sign-extend", "oferchen/rsync#3560 and openexr#717 (bytes read through signed char sign-extend when ≥ 0x80)",
			"length odd, last byte ≥ 0x80", sumImpl(signExtend)},
		{"over-read", "PcapPlusPlus#838, floodlight/bigcode#15, antirez/hping#5 (the last odd byte read as a 16-bit word, one byte past the buffer)",
			"guard: the byte after the input", sumImpl(overRead)},
		{"under-read", "vectorscan#378 (the tail loaded as one vector ending at the buffer's end, from buf_end-S): below S bytes the load starts before the buffer",
			"guard: the bytes before the input, length < 32", sumImpl(underRead)},
		{"initial-ffff-wide-path", "firezone#14110 (0xFFFF and 0x0000 as the running sum of all-zero data: -0 turned into +0) and aws-checksums#88 (the wide AVX-512 path handled the initial value differently from the narrow one)",
			"initial=0xffff × content=zeros × length ≥ 64", sumImpl(initialWide)},
		{"lane-overflow", "snabbco/snabb#1457 (x86 checksum missed carries; \"really hard to find with random testing\"): 32-bit SIMD lanes flushed one block too late",
			"≥ 1 MiB of 0xFF: a 32-bit lane receives 65538 words of 0xFFFF", sumImpl(laneOverflow)},
		{"tail-mod-4", "Ettercap#539 (wrong checksum on 64-bit systems when length % 4 is 2 or 3)",
			"length ≡ 3 (mod 4) after a 4-byte-word loop", sumImpl(tailMod4)},
		{"odd-address-swap", "FreeRTOS#122 and netxduo#146 (odd-aligned buffers: the sum must be byte-swapped back, initial value included)",
			"start address odd × initial not byte-symmetric", sumImpl(oddAddress)},
		{"16-bit-length", "libpcap#1685 and dperf#575 (a length cast to uint16_t wraps past 65535)",
			"length ≥ 2^16", sumImpl(len16)},
		{"64-bit-carry-dropped", "RIOT#3293 (the carry of the last end-around addition lost) in a 64-bit add-with-carry loop",
			"carry: the last 8-byte add carries out of 64 bits", sumImpl(eac64)},
		{"uint8-block-counter", "zeek#5911 and SSMP#36 (a narrow length counter truncates): 64-byte blocks counted in a uint8",
			"length ≥ 2^14 (256 blocks of 64 bytes)", sumImpl(blocks8)},
	}
}

// beWords returns initial plus b's big-endian words (an odd last byte
// high), unfolded.
func beWords(b []byte, initial uint16) uint64 {
	s := uint64(initial)
	for ; len(b) > 1; b = b[2:] {
		s += uint64(binary.BigEndian.Uint16(b))
	}
	if len(b) == 1 {
		s += uint64(b[0]) << 8
	}
	return s
}

// fold folds s to 16 bits with end-around carry.
func fold(s uint64) uint16 {
	for s>>16 != 0 {
		s = s&0xffff + s>>16
	}
	return uint16(s)
}

func foldOnce(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		s := beWords(b, initial)
		if bug {
			s = s&0xffff + s>>16
			return uint16(s)
		}
		return fold(s)
	}
}

// acc32 sums into a 32-bit accumulator, which the twin folds every 2^15
// words (RFC 1071 §2(C), deferred carries) and the bug never does.
func acc32(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		s := uint32(initial)
		for i := 1; len(b) > 1; i++ {
			s += uint32(binary.BigEndian.Uint16(b))
			b = b[2:]
			if !bug && i%(1<<15) == 0 {
				s = s&0xffff + s>>16
			}
		}
		if len(b) == 1 {
			s += uint32(b[0]) << 8
		}
		return fold(uint64(s))
	}
}

func dropOdd(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		if bug {
			b = b[:len(b)&^1]
		}
		return fold(beWords(b, initial))
	}
}

func oddLow(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		s := beWords(b[:len(b)&^1], initial)
		if len(b)%2 == 1 {
			last := uint64(b[len(b)-1])
			if !bug {
				last <<= 8
			}
			s += last
		}
		return fold(s)
	}
}

func negativeZero(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		s := beWords(b, initial)
		if bug {
			return uint16(s % 0xffff)
		}
		return fold(s)
	}
}

func signExtend(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		s := beWords(b[:len(b)&^1], initial)
		if len(b)%2 == 1 {
			last := uint64(b[len(b)-1])
			if bug {
				last = uint64(int64(int8(b[len(b)-1]))) // 0xFF…FF80 for 0x80
			}
			s += last << 8
		}
		return fold(s)
	}
}

// sink keeps the over- and under-reads from being optimized away.
var sink byte

// overRead loads an odd last byte as a 16-bit word, one byte past b.
func overRead(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		if bug && len(b)%2 == 1 {
			sink = *(*byte)(unsafe.Add(unsafe.Pointer(&b[0]), len(b)))
		}
		return fold(beWords(b, initial))
	}
}

// underRead loads the last 32 bytes as one block ending at b's end, and
// masks off the ones before b; the twin loads only b's bytes.
func underRead(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		if bug && len(b) > 0 && len(b) < 32 {
			sink = *(*byte)(unsafe.Add(unsafe.Pointer(&b[0]), len(b)-32))
		}
		return fold(beWords(b, initial))
	}
}

// initialWide reduces initial mod 0xFFFF on its wide path (64 bytes and
// more), mapping 0xFFFF to 0: the same value mod 0xFFFF, but -0 becomes +0
// when the data is all zero.
func initialWide(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		if bug && len(b) >= 64 {
			initial %= 0xffff
		}
		return fold(beWords(b, initial))
	}
}

// laneOverflow sums 16-byte blocks into eight 32-bit lanes, one big-endian
// word each, flushing the lanes into a 64-bit total every 65537 blocks
// (65537 × 0xFFFF = 2^32-1, the most a lane holds); the bug flushes after
// 65538.
func laneOverflow(bug bool) func([]byte, uint16) uint16 {
	flushAt := 1<<16 + 1
	if bug {
		flushAt++
	}
	return func(b []byte, initial uint16) uint16 {
		total := uint64(initial)
		var lanes [8]uint32
		for n := 1; len(b) >= 16; n++ {
			for i := range lanes {
				lanes[i] += uint32(binary.BigEndian.Uint16(b[2*i:]))
			}
			b = b[16:]
			if n%flushAt == 0 || len(b) < 16 {
				for i, l := range lanes {
					total += uint64(l)
					lanes[i] = 0
				}
			}
		}
		return fold(total + beWords(b, 0))
	}
}

// tailMod4 sums 4-byte words, then a 2-byte word and an odd byte; the bug
// takes a 3-byte tail's word from its last two bytes.
func tailMod4(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		s := uint64(initial)
		for ; len(b) >= 4; b = b[4:] {
			w := binary.BigEndian.Uint32(b)
			s += uint64(w>>16) + uint64(w&0xffff)
		}
		if bug && len(b) == 3 {
			return fold(s + uint64(binary.BigEndian.Uint16(b[1:])) + uint64(b[0])<<8)
		}
		return fold(s + beWords(b, 0))
	}
}

// oddAddress sums a buffer at an odd address as a BSD in_cksum does: the
// first byte as the low byte of a word, the rest as aligned words, and the
// total byte-swapped back. The bug adds initial before the swap, so it is
// swapped too.
func oddAddress(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		if len(b) == 0 || uintptr(unsafe.Pointer(&b[0]))%2 == 0 {
			return fold(beWords(b, initial))
		}
		// Byte i weighs 1 if i is even, 256 if odd: swapped, 256 and
		// 65536 ≡ 1 (mod 0xFFFF), the weights of big-endian words.
		s := uint64(b[0]) + beWords(b[1:], 0)
		if bug {
			return bits.ReverseBytes16(fold(s + uint64(initial)))
		}
		return fold(uint64(bits.ReverseBytes16(fold(s))) + uint64(initial))
	}
}

func len16(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		if bug {
			b = b[:uint16(len(b))]
		}
		return fold(beWords(b, initial))
	}
}

// eac64 adds 8-byte big-endian words with end-around carry; the bug drops
// the carry of the last one.
func eac64(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		acc := uint64(initial)
		for len(b) >= 8 {
			var c uint64
			acc, c = bits.Add64(acc, binary.BigEndian.Uint64(b), 0)
			b = b[8:]
			if !bug || len(b) >= 8 {
				acc += c // cannot overflow: acc <= 2^64-2 after a carry
			}
		}
		// acc ≡ the sum so far (mod 2^64-1, a multiple of 0xFFFF).
		return fold(uint64(fold(acc)) + beWords(b, 0))
	}
}

// blocks8 counts 64-byte blocks in a uint8; the twin in an int.
func blocks8(bug bool) func([]byte, uint16) uint16 {
	return func(b []byte, initial uint16) uint16 {
		n := len(b) / 64
		if bug {
			n = int(uint8(n))
		}
		s := beWords(b[64*(len(b)/64):], initial)
		return fold(s + beWords(b[:64*n], 0))
	}
}

// helperImpl wires the reference's Sum with one helper set by set.
func helperImpl(set func(i *checksumtest.Impl, bug bool)) func(bool) checksumtest.Impl {
	return func(bug bool) checksumtest.Impl {
		i := checksumtest.Impl{Sum: ref.Sum}
		set(&i, bug)
		return i
	}
}

func helperBugs() []checksumBug {
	return []checksumBug{
		{"rfc1141-update", "RFC 1624 §4: RFC 1141's HC' = HC + m + ~m' (shipped in BSD and Linux incremental updates) gives 0xFFFF where the checksum is 0x0000",
			"Update whose result is ±0", helperImpl(func(i *checksumtest.Impl, bug bool) { i.Update = update(bug) })},
		{"digest-no-swap", "libpnet#769 (extra_data after odd-length data not shifted) and openthread#5414 (odd-length chunks summed as if each started a word)",
			"Digest write after an odd number of bytes", digestImpl("no-swap")},
		{"digest-odd-after-8-writes", "openthread#5414 and PcapPlusPlus#838's vector of chunks: the parity tracked for a fixed number of chunks (8 here)",
			"Digest: more than 8 writes, an odd split after the 8th", digestImpl("after-8")},
		{"digest-empty-write", "raspberrypi/linux#2723 (skb_checksum over fragments at odd offsets): an empty fragment resets the odd-byte state",
			"Digest: a zero-length write after an odd number of bytes", digestImpl("empty")},
		{"udp-update-invents-checksum", "gVisor's UDP setters and Linux NAT check a zero field first; code that skips the check turns RFC 768's \"no checksum\" into a checksum of data it never covered",
			"UpdateUDP with field 0x0000", helperImpl(func(i *checksumtest.Impl, bug bool) { i.UpdateUDP = updateUDP(bug, false) })},
		{"udp-update-sends-zero", "firezone#14110 (incremental updates emitted 0x0000, which receivers read as no checksum)",
			"UpdateUDP whose result is 0x0000", helperImpl(func(i *checksumtest.Impl, bug bool) { i.UpdateUDP = updateUDP(false, bug) })},
		{"udp6-update-zero-as-ipv4", "RIOT#4842 (IPv6 UDP zero-checksum rule of RFC 2460 §8.1 missed): IPv4's rule applied over IPv6",
			"UpdateUDP6 with field 0x0000", helperImpl(func(i *checksumtest.Impl, bug bool) { i.UpdateUDP6 = updateUDP6(bug) })},
		{"finish-sends-zero", "PcapPlusPlus#588, mirage-tcpip#348, ostinato#160, libpnet#585 (a computed UDP checksum of 0 sent as 0x0000, RFC 768)",
			"FinishUDP(0xffff)", helperImpl(func(i *checksumtest.Impl, bug bool) { i.FinishUDP = finishUDP(bug) })},
		{"combine-no-swap", "libpnet#769 and openthread#5414: partial sums added without RFC 1071 §2(B)'s swap at an odd offset",
			"Combine at an odd offset", helperImpl(func(i *checksumtest.Impl, bug bool) { i.Combine = combine(combineBug{noSwap: bug}) })},
		{"combine-no-carry", "RIOT#3293 (carry not wrapped around) in a Combine of partial sums",
			"Combine whose addition carries", helperImpl(func(i *checksumtest.Impl, bug bool) { i.Combine = combine(combineBug{noCarry: bug}) })},
		{"combine-negative-odd-offset", "Go's remainder keeps the sign: offset%2 == 1 is false for negative odd offsets (a class of bug go vet does not flag)",
			"Combine at a negative odd offset", helperImpl(func(i *checksumtest.Impl, bug bool) { i.Combine = combine(combineBug{signedOdd: bug}) })},
		{"pseudo-16-bit-length", "gVisor's header.PseudoHeaderChecksum(…, totalLen uint16): an RFC 2675 jumbogram's length loses its high bits, and an IPv4 length past 0xFFFF wraps",
			"PseudoHeaderSum length > 0xFFFF", helperImpl(func(i *checksumtest.Impl, bug bool) { i.PseudoHeaderSum = pseudo(pseudoBug{len16: bug}) })},
		{"pseudo-mapped-as-ipv6", "nanovms/nanos#1322 (LwIP sent a dual-stack socket's UDP to ::ffff:a.b.c.d as IPv6; fixed by unmapping) and this module before issue 25: ::ffff:a.b.c.d taken for IPv6, against RFC 4291 §2.5.5.2",
			"PseudoHeaderSum over IPv4-mapped addresses: all zero, past 0xFFFF, or with a plain IPv4 one", helperImpl(func(i *checksumtest.Impl, bug bool) { i.PseudoHeaderSum = pseudo(pseudoBug{mappedAs6: bug}) })},
		{"pseudo-any-families", "gVisor's AsSlice-based pseudo-header sums whatever address bytes it is given: mixed families get a checksum",
			"PseudoHeaderSum with mixed or invalid families", helperImpl(func(i *checksumtest.Impl, bug bool) { i.PseudoHeaderSum = pseudo(pseudoBug{anyFamily: bug}) })},
		{"verify-naive-sum", "demikernel/inetstack#197 and smoltcp#632 (a zero UDP checksum verified instead of skipped)",
			"VerifyUDP of an IPv4 datagram with field 0x0000", helperImpl(func(i *checksumtest.Impl, bug bool) { i.VerifyUDP = verify(verifyBug{naive: bug}) })},
		{"verify-ipv6-zero-as-none", "RIOT#4842 (IPv6 zero UDP checksum accepted as \"none\", against RFC 8200 §8.1)",
			"VerifyUDP of an IPv6 datagram with field 0x0000", helperImpl(func(i *checksumtest.Impl, bug bool) { i.VerifyUDP = verify(verifyBug{zeroNone: bug}) })},
		{"verify-mapped-as-ipv6", "issue 25 and nanovms/nanos#1322: a dual-stack socket's IPv4 datagram (addresses ::ffff:a.b.c.d, RFC 3493 §3.7) checked as IPv6, so RFC 768's zero field is rejected, against RFC 1122 §4.1.3.4",
			"VerifyUDP between IPv4-mapped addresses with field 0x0000, or one mapped and one plain", helperImpl(func(i *checksumtest.Impl, bug bool) { i.VerifyUDP = verify(verifyBug{mappedAs6: bug}) })},
		{"verify-over-read", "PcapPlusPlus#1866 (heap-buffer-overflow in computeChecksum): the checksum field read before the length is checked",
			"guard: VerifyUDP of a segment shorter than 8 bytes", helperImpl(func(i *checksumtest.Impl, bug bool) { i.VerifyUDP = verify(verifyBug{overRead: bug}) })},
		{"verify-16-bit-length", "libpcap#1685 and zeek#5911 (lengths truncated to uint16_t): the pseudo-header of an IPv6 jumbogram (RFC 2675) built from uint16(len)",
			"VerifyUDP over IPv6 with a segment ≥ 2^16 bytes", helperImpl(func(i *checksumtest.Impl, bug bool) { i.VerifyUDP = verify(verifyBug{len16: bug}) })},
		{"put-panics-short", "binary.BigEndian.PutUint16 and gVisor's checksum.Put: a short buffer panics instead of reporting false",
			"Put into fewer than 2 bytes", helperImpl(func(i *checksumtest.Impl, bug bool) { i.Put = put(bug, false) })},
		{"put-partial-write", "tcpreplay#556 (a checksum written out of bounds): half of the field written into a 1-byte buffer before failing",
			"Put into 1 byte", helperImpl(func(i *checksumtest.Impl, bug bool) { i.Put = put(false, bug) })},
	}
}

// update is RFC 1624 Eqn. 3, ~(~HC + ~m + m'), the field unchanged where
// m = m' (as the reference); the bug is RFC 1141's HC + m + ~m'.
func update(bug bool) func(hc, old, new uint16) uint16 {
	return func(hc, old, new uint16) uint16 {
		if bug {
			return onesAdd(onesAdd(hc, old), ^new)
		}
		if old == new {
			return hc // as the reference, after RFC 1624 errata 4782
		}
		return ^onesAdd(onesAdd(^hc, ^old), new)
	}
}

func onesAdd(a, b uint16) uint16 {
	s := uint32(a) + uint32(b)
	return uint16(s&0xffff + s>>16)
}

// digestImpl wires a chunkDigest with the named bug (or none, for the
// twin).
func digestImpl(kind string) func(bool) checksumtest.Impl {
	return func(bug bool) checksumtest.Impl {
		k := kind
		if !bug {
			k = ""
		}
		return checksumtest.Impl{Sum: ref.Sum, New: func() checksumtest.Digest { return &chunkDigest{bug: k} }}
	}
}

// chunkDigest sums each write with Sum and, after an odd number of bytes,
// swaps the write's sum (RFC 1071 §3). Its bugs are in tracking that
// parity: "no-swap" never swaps, "after-8" forgets after 8 writes, and
// "empty" clears it on an empty write; and in how it swaps: "wide" skips
// the swap for writes over 256 bytes, and "swaps-p" swaps p's byte pairs
// in place instead (swappedSum).
type chunkDigest struct {
	sum    uint16
	odd    bool
	writes int
	bug    string
}

func (d *chunkDigest) Write(p []byte) (int, error) {
	d.writes++
	if d.bug == "empty" && len(p) == 0 {
		d.odd = false
		return 0, nil
	}
	s := ref.Sum(p, 0)
	swap := d.odd && d.bug != "no-swap" && (d.bug != "after-8" || d.writes <= 8)
	switch {
	case swap && d.bug == "swaps-p":
		s = swappedSum(p)
	case swap && d.bug == "wide" && len(p) > 256:
		// The wide path adds the kernel's sum as it is: the swap is
		// in the narrow path's code.
	case swap:
		s = bits.ReverseBytes16(s)
	}
	d.sum = onesAdd(d.sum, s)
	d.odd = d.odd != (len(p)%2 == 1)
	return len(p), nil
}

// swappedSum is the byte-swapped Sum of p, computed by swapping p's byte
// pairs in place so that the even-offset kernel sums them, then swapping
// them back: p is as it was once it returns, but not during the call. An
// odd last byte, unpaired, is the low byte of its word.
func swappedSum(p []byte) uint16 {
	even := p[:len(p)&^1]
	swapPairs(even)
	s := ref.Sum(even, 0)
	swapPairs(even)
	if len(p)%2 == 1 {
		s = onesAdd(s, uint16(p[len(p)-1]))
	}
	return s
}

func (d *chunkDigest) Sum(in []byte) []byte { return binary.BigEndian.AppendUint16(in, ^d.sum) }
func (d *chunkDigest) Sum16() uint16        { return d.sum }
func (d *chunkDigest) Reset()               { *d = chunkDigest{bug: d.bug} }
func (d *chunkDigest) Size() int            { return 2 }
func (d *chunkDigest) BlockSize() int       { return 2 }

// updateUDP is UpdateUDP: a 0 field stays 0 (unless keepsZero is the
// bug), and a computed 0 is sent as 0xFFFF (unless sendsZero is).
func updateUDP(invents, sendsZero bool) func(hc, old, new uint16) uint16 {
	return func(hc, old, new uint16) uint16 {
		if hc == 0 && !invents {
			return 0
		}
		c := ref.Update(hc, old, new)
		if c == 0 && !sendsZero {
			return 0xffff
		}
		return c
	}
}

// updateUDP6 is UpdateUDP6; the bug carries a 0 field as IPv4 does.
func updateUDP6(bug bool) func(hc, old, new uint16) (uint16, bool) {
	return func(hc, old, new uint16) (uint16, bool) {
		if hc == 0 && !bug {
			return 0, false
		}
		return updateUDP(false, false)(hc, old, new), true
	}
}

func finishUDP(bug bool) func(uint16) uint16 {
	return func(sum uint16) uint16 {
		if c := ^sum; c != 0 || bug {
			return c
		}
		return 0xffff
	}
}

// combineBug selects Combine's bug: no swap at odd offsets, no end-around
// carry, or an oddness test that fails for negative offsets.
type combineBug struct{ noSwap, noCarry, signedOdd bool }

func combine(bug combineBug) func(sum, next uint16, offset int) uint16 {
	return func(sum, next uint16, offset int) uint16 {
		odd := offset&1 == 1
		if bug.signedOdd {
			odd = offset%2 == 1
		}
		if odd && !bug.noSwap {
			next = bits.ReverseBytes16(next)
		}
		if bug.noCarry {
			return sum + next
		}
		return onesAdd(sum, next)
	}
}

// pseudoBug selects PseudoHeaderSum's bug.
type pseudoBug struct{ len16, mappedAs6, anyFamily bool }

func pseudo(bug pseudoBug) func(src, dst netip.Addr, proto uint8, length uint32) (uint16, bool) {
	return func(src, dst netip.Addr, proto uint8, length uint32) (uint16, bool) {
		u, v := src.Unmap(), dst.Unmap()
		switch {
		case bug.len16:
			length = uint32(uint16(length))
		case bug.mappedAs6:
			return pseudoAsGiven(src, dst, proto, length)
		case bug.anyFamily && (!u.IsValid() || !v.IsValid() || u.Is4() != v.Is4()):
			s := ref.Sum(v.AsSlice(), ref.Sum(u.AsSlice(), 0))
			return ref.Sum(binary.BigEndian.AppendUint32([]byte{0, proto}, length), s), true
		}
		return ref.PseudoHeaderSum(src, dst, proto, length)
	}
}

// pseudoAsGiven is the pseudo-header of the addresses' families as
// netip.Addr.Is4 and Is6 give them, without unmapping: an IPv4-mapped
// address is laid out as IPv6 (16 bytes, a 32-bit length), and with a
// plain IPv4 address it makes mixed families.
func pseudoAsGiven(src, dst netip.Addr, proto uint8, length uint32) (uint16, bool) {
	if !src.Is6() || !dst.Is6() {
		if src.Is6() || dst.Is6() {
			return 0, false // one of them mapped, the other IPv4 or zero
		}
		return ref.PseudoHeaderSum(src, dst, proto, length) // no mapped address
	}
	s, d := src.As16(), dst.As16()
	ph := append(append(s[:], d[:]...), 0, 0, 0, 0, 0, 0, 0, proto)
	binary.BigEndian.PutUint32(ph[32:], length)
	return ref.Sum(ph, 0), true
}

// verifyBug selects VerifyUDP's bug.
type verifyBug struct{ naive, zeroNone, overRead, len16, mappedAs6 bool }

// verify is VerifyUDP written out: header length, pseudo-header, the zero
// field's rule by family, then the sum.
func verify(bug verifyBug) func(src, dst netip.Addr, seg []byte) bool {
	return func(src, dst netip.Addr, seg []byte) bool {
		if bug.overRead {
			sink = *(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(seg)), 7))
		}
		n := uint32(len(seg))
		if bug.len16 {
			n = uint32(uint16(n))
		}
		ph, ok := ref.PseudoHeaderSum(src, dst, 17, n)
		v4 := src.Unmap().Is4()
		if bug.mappedAs6 {
			ph, ok = pseudoAsGiven(src, dst, 17, n)
			v4 = src.Is4()
		}
		if !ok || len(seg) < 8 || uint64(len(seg)) > 1<<32-1 {
			return false
		}
		if seg[6]|seg[7] == 0 && !bug.naive {
			return v4 || bug.zeroNone
		}
		return ref.Sum(seg, ph) == 0xffff
	}
}

// put writes c big-endian into b[0:2]; the bugs panic on a short b, or
// write half of c into a 1-byte b before reporting false.
func put(panics, partial bool) func(b []byte, c uint16) bool {
	return func(b []byte, c uint16) bool {
		if partial && len(b) == 1 {
			b[0] = byte(c >> 8)
		}
		if len(b) < 2 && !panics {
			return false
		}
		binary.BigEndian.PutUint16(b, c)
		return true
	}
}
