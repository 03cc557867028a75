package battery

import "math"

// miniPN is RFC 9000 Appendix A.3 as most stacks write it (the candidate
// compared without subtracting, so nothing wraps), with a switch for each
// bug in the window arithmetic:
//   - "pn-underflow": the Appendix ported literally to uint64, so
//     expected_pn - pn_hwin wraps when expected_pn < pn_hwin (largest 10,
//     truncated 0xff, 1 byte decodes as 511 instead of 255);
//   - "pn-edge-lower-3": for 3-byte packet numbers the lower edge is
//     exclusive (candidate + hwin < expected), so the one truncated value
//     exactly half a window below expected decodes a window too low;
//   - "pn-edge-upper-4": for 4-byte packet numbers the upper edge is
//     inclusive (candidate >= expected + hwin), so the value exactly half
//     a window above expected decodes a window too low;
//   - "pn-limit-62": for 3- and 4-byte packet numbers the 2^62 guard is
//     candidate <= 2^62 - win, so a candidate exactly at the last window
//     start is pushed to 2^62.
func miniPN(largest, truncated uint64, pnLen int, bug string) uint64 {
	switch {
	case uint(pnLen-1) > 3:
		panic("quic: DecodePacketNumber: pnLen not in 1..4")
	case largest >= 1<<62 && largest != math.MaxUint64:
		panic("quic: DecodePacketNumber: largest packet number exceeds 2^62-1")
	}
	bits := 8 * uint(pnLen)
	expected, win := largest+1, uint64(1)<<bits
	hwin := win >> 1
	candidate := expected>>bits<<bits | truncated&(win-1)
	lower := candidate+hwin <= expected
	switch {
	case bug == "pn-underflow":
		lower = candidate <= expected-hwin
	case bug == "pn-edge-lower-3" && pnLen == 3:
		lower = candidate+hwin < expected
	}
	below := candidate < 1<<62-win
	if bug == "pn-limit-62" && pnLen >= 3 {
		below = candidate <= 1<<62-win
	}
	if lower && below {
		return candidate + win
	}
	upper := candidate > expected+hwin
	if bug == "pn-edge-upper-4" && pnLen == 4 {
		upper = candidate >= expected+hwin
	}
	if upper && candidate >= win {
		return candidate - win
	}
	return candidate
}
