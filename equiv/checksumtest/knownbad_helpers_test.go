package checksumtest_test

import (
	"encoding/binary"
	"errors"
	"net/netip"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// Known-bad helpers: each carries one bug seen in real code around the
// checksum, and the suite must catch each one.

// updateInventsChecksum updates a UDP checksum with plain RFC 1624 Eqn. 3:
// a field of 0 ("no checksum", RFC 768, as VXLAN senders use) becomes a
// nonzero checksum of data it never covered (gVisor's UDP header setters
// and Linux's NAT check for the 0 first; code that skips the check
// produces datagrams Wireshark flags as bad), and a computed 0 goes out as
// 0x0000.
func updateInventsChecksum(checksum, old, new uint16) uint16 { return ref.Update(checksum, old, new) }

// updateSendsZero leaves a 0 field alone but forgets that a computed 0 is
// sent as 0xFFFF (RFC 768).
func updateSendsZero(checksum, old, new uint16) uint16 {
	if checksum == 0 {
		return 0
	}
	return ref.Update(checksum, old, new)
}

// update6AsIPv4 applies IPv4's rule over IPv6: a zero field is carried as
// "no checksum" instead of marking the datagram invalid (RFC 8200 §8.1).
func update6AsIPv4(checksum, old, new uint16) (uint16, bool) {
	return ref.UpdateUDP(checksum, old, new), true
}

// finishSendsZero complements without RFC 768's zero rule.
func finishSendsZero(sum uint16) uint16 { return ^sum }

// combineNoSwap adds the partial sums without RFC 1071's byte swap at an
// odd offset (gVisor's Combine, used where the first piece has odd length).
func combineNoSwap(sum, next uint16, _ int) uint16 { return onesAdd(sum, next) }

// combineNoCarry swaps right but drops the end-around carry.
func combineNoCarry(sum, next uint16, offset int) uint16 {
	if offset&1 == 1 {
		next = next<<8 | next>>8
	}
	return sum + next
}

// combineOddTest tests oddness with offset%2 == 1, false for negative odd
// offsets in Go.
func combineOddTest(sum, next uint16, offset int) uint16 {
	if offset%2 == 1 {
		next = next<<8 | next>>8
	}
	return onesAdd(sum, next)
}

// pseudo16 takes the length as 16 bits, as gVisor's
// header.PseudoHeaderChecksum(…, totalLen uint16) does: an IPv6
// jumbogram's length loses its high bits, and an IPv4 length past 0xFFFF
// wraps instead of being refused.
func pseudo16(src, dst netip.Addr, proto uint8, length uint32) (uint16, bool) {
	return ref.PseudoHeaderSum(src, dst, proto, uint32(uint16(length)))
}

// pseudoUnmaps unmaps IPv4-mapped addresses first, so that ::ffff:0.0.0.0
// loses the 0xFFFF words of its prefix and a mapped pair gets the IPv4
// length limit.
func pseudoUnmaps(src, dst netip.Addr, proto uint8, length uint32) (uint16, bool) {
	return ref.PseudoHeaderSum(src.Unmap(), dst.Unmap(), proto, length)
}

// pseudoAnyFamilies sums whatever address bytes it is given, as gVisor's
// AsSlice-based pseudo-header does: mixed families get a checksum.
func pseudoAnyFamilies(src, dst netip.Addr, proto uint8, length uint32) (uint16, bool) {
	if !src.IsValid() || !dst.IsValid() || src.Is4() != dst.Is4() {
		s := ref.Sum(src.AsSlice(), 0)
		s = ref.Sum(dst.AsSlice(), s)
		return ref.Sum(binary.BigEndian.AppendUint32([]byte{0, proto}, length), s), true
	}
	return ref.PseudoHeaderSum(src, dst, proto, length)
}

// verifyNaive checks only that the sum is 0xFFFF: it rejects IPv4
// datagrams sent without a checksum and accepts IPv6 ones whose zero field
// happens to sum right.
func verifyNaive(src, dst netip.Addr, seg []byte) bool {
	ph, ok := ref.PseudoHeaderSum(src, dst, 17, uint32(len(seg)))
	return ok && len(seg) >= 8 && ref.Sum(seg, ph) == 0xffff
}

// verifyZeroAlwaysNone treats a zero field as "no checksum" over IPv6 too.
func verifyZeroAlwaysNone(src, dst netip.Addr, seg []byte) bool {
	if len(seg) >= 8 && seg[6]|seg[7] == 0 {
		_, ok := ref.PseudoHeaderSum(src, dst, 17, uint32(len(seg)))
		return ok
	}
	return ref.VerifyUDP(src, dst, seg)
}

// verifyOverRead loads the checksum field before checking that the segment
// holds a header: a short segment at the end of a page faults.
func verifyOverRead(src, dst netip.Addr, seg []byte) bool {
	sink = *(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(seg)), 7))
	return ref.VerifyUDP(src, dst, seg)
}

// putUnchecked writes like binary.BigEndian.PutUint16 (and gVisor's
// checksum.Put): it panics on a short b.
func putUnchecked(b []byte, c uint16) bool {
	binary.BigEndian.PutUint16(b, c)
	return true
}

// putPartial writes the first byte into a 1-byte b before reporting false.
func putPartial(b []byte, c uint16) bool {
	if len(b) == 1 {
		b[0] = byte(c >> 8)
	}
	return ref.Put(b, c)
}

func TestCatchesKnownBadHelpers(t *testing.T) {
	bad := []struct {
		name   string
		impl   checksumtest.Impl
		method string // the method that must catch it
	}{
		{"udp-update-invents-checksum", checksumtest.Impl{Sum: ref.Sum, UpdateUDP: updateInventsChecksum}, equiv.MethodVectors},
		{"udp-update-invents-checksum", checksumtest.Impl{Sum: ref.Sum, UpdateUDP: updateInventsChecksum}, equiv.MethodCorpus},
		{"udp-update-sends-zero", checksumtest.Impl{Sum: ref.Sum, UpdateUDP: updateSendsZero}, equiv.MethodVectors},
		{"udp-update-sends-zero", checksumtest.Impl{Sum: ref.Sum, UpdateUDP: updateSendsZero}, equiv.MethodExhaustive},
		{"udp-update-sends-zero", checksumtest.Impl{Sum: ref.Sum, UpdateUDP: updateSendsZero}, equiv.MethodProperties},
		{"udp6-update-zero-as-ipv4", checksumtest.Impl{Sum: ref.Sum, UpdateUDP6: update6AsIPv4}, equiv.MethodVectors},
		{"udp6-update-zero-as-ipv4", checksumtest.Impl{Sum: ref.Sum, UpdateUDP6: update6AsIPv4}, equiv.MethodExhaustive},
		{"udp6-update-zero-as-ipv4", checksumtest.Impl{Sum: ref.Sum, UpdateUDP6: update6AsIPv4}, equiv.MethodCorpus},
		{"finish-sends-zero", checksumtest.Impl{Sum: ref.Sum, FinishUDP: finishSendsZero}, equiv.MethodVectors},
		{"finish-sends-zero", checksumtest.Impl{Sum: ref.Sum, FinishUDP: finishSendsZero}, equiv.MethodExhaustive},
		{"combine-no-swap", checksumtest.Impl{Sum: ref.Sum, Combine: combineNoSwap}, equiv.MethodVectors},
		{"combine-no-swap", checksumtest.Impl{Sum: ref.Sum, Combine: combineNoSwap}, equiv.MethodProperties},
		{"combine-no-swap", checksumtest.Impl{Sum: ref.Sum, Combine: combineNoSwap}, equiv.MethodCorpus},
		{"combine-no-carry", checksumtest.Impl{Sum: ref.Sum, Combine: combineNoCarry}, equiv.MethodExhaustive},
		{"combine-negative-odd-offset", checksumtest.Impl{Sum: ref.Sum, Combine: combineOddTest}, equiv.MethodVectors},
		{"combine-negative-odd-offset", checksumtest.Impl{Sum: ref.Sum, Combine: combineOddTest}, equiv.MethodExhaustive},
		{"pseudo-16-bit-length", checksumtest.Impl{Sum: ref.Sum, PseudoHeaderSum: pseudo16}, equiv.MethodVectors},
		{"pseudo-16-bit-length", checksumtest.Impl{Sum: ref.Sum, PseudoHeaderSum: pseudo16}, equiv.MethodExhaustive},
		{"pseudo-16-bit-length", checksumtest.Impl{Sum: ref.Sum, PseudoHeaderSum: pseudo16}, equiv.MethodCorpus},
		{"pseudo-unmaps", checksumtest.Impl{Sum: ref.Sum, PseudoHeaderSum: pseudoUnmaps}, equiv.MethodVectors},
		{"pseudo-unmaps", checksumtest.Impl{Sum: ref.Sum, PseudoHeaderSum: pseudoUnmaps}, equiv.MethodExhaustive},
		{"pseudo-any-families", checksumtest.Impl{Sum: ref.Sum, PseudoHeaderSum: pseudoAnyFamilies}, equiv.MethodVectors},
		{"pseudo-any-families", checksumtest.Impl{Sum: ref.Sum, PseudoHeaderSum: pseudoAnyFamilies}, equiv.MethodProperties},
		{"verify-naive-sum", checksumtest.Impl{Sum: ref.Sum, VerifyUDP: verifyNaive}, equiv.MethodVectors},
		{"verify-naive-sum", checksumtest.Impl{Sum: ref.Sum, VerifyUDP: verifyNaive}, equiv.MethodExhaustive},
		{"verify-ipv6-zero-as-none", checksumtest.Impl{Sum: ref.Sum, VerifyUDP: verifyZeroAlwaysNone}, equiv.MethodVectors},
		{"verify-ipv6-zero-as-none", checksumtest.Impl{Sum: ref.Sum, VerifyUDP: verifyZeroAlwaysNone}, equiv.MethodCorpus},
		{"verify-over-read", checksumtest.Impl{Sum: ref.Sum, VerifyUDP: verifyOverRead}, equiv.MethodGuard},
		{"put-panics-short", checksumtest.Impl{Sum: ref.Sum, Put: putUnchecked}, equiv.MethodVectors},
		{"put-panics-short", checksumtest.Impl{Sum: ref.Sum, Put: putUnchecked}, equiv.MethodGuard},
		{"put-partial-write", checksumtest.Impl{Sum: ref.Sum, Put: putPartial}, equiv.MethodVectors},
		{"put-partial-write", checksumtest.Impl{Sum: ref.Sum, Put: putPartial}, equiv.MethodProperties},
	}
	for _, tc := range bad {
		t.Run(tc.name+"/"+tc.method, func(t *testing.T) {
			if tc.method == equiv.MethodGuard && equiv.GuardSkip() != "" {
				t.Skip(equiv.GuardSkip())
			}
			res, err := results(tc.impl, only(tc.method))
			ces := equiv.Counterexamples(err)
			if !errors.Is(err, equiv.ErrMismatch) {
				t.Fatalf("method %s returned %v, want a mismatch", tc.method, err)
			}
			if len(ces) == 1 {
				t.Logf("caught after %d inputs: %v", res[tc.method].Checked, ces[0])
				checkCaught(t, tc.impl, tc.method, ces[0])
			} else {
				// A law that does not hold is an error, not a counterexample.
				t.Logf("caught after %d inputs: %v", res[tc.method].Checked, err)
			}
			// Its bug-free twin, the reference in the same places, passes.
			if err := checksumtest.Check(twin(tc.impl), only(tc.method)); err != nil {
				t.Errorf("the bug-free twin fails: %v", err)
			}
		})
	}
}

// twinHelpers puts the reference's helpers into t wherever impl has one.
func twinHelpers(impl, t checksumtest.Impl) checksumtest.Impl {
	if impl.Combine != nil {
		t.Combine = ref.Combine
	}
	if impl.Put != nil {
		t.Put = ref.Put
	}
	if impl.PseudoHeaderSum != nil {
		t.PseudoHeaderSum = ref.PseudoHeaderSum
	}
	if impl.FinishUDP != nil {
		t.FinishUDP = ref.FinishUDP
	}
	if impl.UpdateUDP != nil {
		t.UpdateUDP = ref.UpdateUDP
	}
	if impl.UpdateUDP6 != nil {
		t.UpdateUDP6 = ref.UpdateUDP6
	}
	if impl.VerifyUDP != nil {
		t.VerifyUDP = ref.VerifyUDP
	}
	return t
}
