package quic

import "math"

// DecodePacketNumber recovers a full packet number from the pnLen-byte
// truncated packet number read from a packet, given largest, the largest
// packet number successfully processed so far in the packet number space
// (RFC 9000 §17.1, Appendix A.3).
//
// Pass largest = math.MaxUint64 when no packet has been processed in the
// space yet: expected_pn, largest+1, then wraps to 0 (the -1 other stacks
// use), and the result is truncated itself.
//
// Only the low 8*pnLen bits of truncated are used.
//
// DecodePacketNumber panics if pnLen is not in 1..4 or if largest is in
// [2^62, 2^64-2]. Neither can come from the wire: pnLen is the 2-bit
// Packet Number Length field plus one, and packet numbers stop at 2^62-1
// (RFC 9000 §12.3), so both are programming errors.
//
// The result is the one Appendix A.3 specifies. It can exceed 2^62-1 only
// when largest is within 2^(8*pnLen-1) of 2^62, where the space is
// exhausted anyway.
func DecodePacketNumber(largest, truncated uint64, pnLen int) uint64 {
	if pnLen < 1 || pnLen > 4 {
		panic("quic: DecodePacketNumber: pnLen not in 1..4")
	}
	if largest > MaxVarint && largest != math.MaxUint64 {
		panic("quic: DecodePacketNumber: largest packet number exceeds 2^62-1")
	}
	// https://www.rfc-editor.org/rfc/rfc9000#appendix-A.3
	//
	// expected_pn  = largest_pn + 1
	expected := largest + 1
	// pn_win       = 1 << pn_nbits
	win := uint64(1) << (8 * pnLen)
	// pn_hwin      = pn_win / 2
	hwin := win / 2
	// pn_mask      = pn_win - 1
	mask := win - 1
	// candidate_pn = (expected_pn & ~pn_mask) | truncated_pn
	candidate := expected&^mask | truncated&mask
	// if candidate_pn <= expected_pn - pn_hwin and
	//    candidate_pn < (1 << 62) - pn_win:
	//    return candidate_pn + pn_win
	//
	// In the RFC's arithmetic expected_pn - pn_hwin is negative when
	// expected_pn < pn_hwin, and the comparison is false. In uint64 it
	// wraps to a huge value and the comparison turns true: a literal port
	// decodes largest 10, truncated 0xff, 1 byte as 511 instead of 255.
	// candidate_pn + pn_hwin <= expected_pn is the same comparison without
	// the subtraction; it cannot overflow, as candidate_pn < 2^62 + 2^32.
	if candidate+hwin <= expected && candidate < 1<<62-win {
		return candidate + win
	}
	// if candidate_pn > expected_pn + pn_hwin and
	//    candidate_pn >= pn_win:
	//    return candidate_pn - pn_win
	if candidate > expected+hwin && candidate >= win {
		return candidate - win
	}
	// return candidate_pn
	return candidate
}
