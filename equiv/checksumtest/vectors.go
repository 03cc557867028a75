package checksumtest

import (
	"bytes"
	"strconv"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// vector is a published input with its known sum.
type vector struct {
	source string
	data   []byte
	sum    uint16 // Sum(data, 0)
}

var vectors = []vector{
	// RFC 1071 §3, "Numerical Examples": the bytes 00 01 f2 03 f4 f5 f6 f7
	// sum to ddf2 (the 2's complement sum 2ddf0, carries folded).
	{"RFC 1071 §3", []byte{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}, 0xddf2},
	// RFC 1624 §4: the sum of the other header words C = 0xCD7A, and the
	// changing word m = 0x5555, so HC = ~(C + m) = 0xDD2F…
	{"RFC 1624 §4 (before)", []byte{0xcd, 0x7a, 0x55, 0x55}, ^uint16(0xdd2f)},
	// …and after m' = 0x3285, C + m' = 0xFFFF, so the checksum is 0x0000.
	{"RFC 1624 §4 (after)", []byte{0xcd, 0x7a, 0x32, 0x85}, 0xffff},
}

// runVectors checks each RFC example against the RFC's own value (and the
// reference against it too), then at every truncation and with trailing
// junk, and every split of it into Digest writes (RFC 1071 §3's
// odd-boundary rule); RFC 1624 §4's update; and the helpers' worked
// examples (runHelperVectors).
func runVectors(c *checker, r *equiv.Run) error {
	for _, v := range vectors {
		r.Expect("vector: " + v.source)
		if got := ref.Sum(v.data, 0); got != v.sum {
			return r.Errorf("reference Sum(%x) = %#04x, want %#04x (%s): the oracle is wrong", v.data, got, v.sum, v.source)
		}
		// The reference agrees with the RFC, so disagreeing with the
		// reference is disagreeing with the RFC.
		if ce := c.sum(aligned(0), v.data, 0); ce != nil {
			ce.Args += " vector=" + strconv.Quote(v.source)
			return r.Fail(ce)
		}
		if ce := truncations(c, v); ce != nil {
			return r.Fail(ce)
		}
		if ce := oddBoundaries(c, v); ce != nil {
			return r.Fail(ce)
		}
		r.Reach("vector: " + v.source)
	}
	// RFC 1624 §4: HC 0xDD2F, m 0x5555 → m' 0x3285 gives HC' 0x0000 by
	// Eqn. 3 (RFC 1141's Eqn. 2 gives 0xFFFF).
	if got := ref.Update(0xdd2f, 0x5555, 0x3285); got != 0x0000 {
		return r.Errorf("reference Update = %#04x, want 0x0000 (RFC 1624 §4): the oracle is wrong", got)
	}
	if ce := c.update(0xdd2f, 0x5555, 0x3285); ce != nil {
		ce.Args += " vector=" + strconv.Quote("RFC 1624 §4")
		return r.Fail(ce)
	}
	// RFC 1624 errata 4782: an update that changes nothing leaves the
	// field alone. Its example, HC 0x0000 with m = m' = 0x5555, keeps
	// 0x0000 under Eqn. 3 too once the end-around carry is added
	// (~(ffff + aaaa + 5555) = ~ffff = 0; errata 5864); a field of 0xFFFF,
	// the checksum of all-zero data, is where Eqn. 3 gives 0x0000
	// instead, which callUpdate accepts beside the reference's 0xFFFF.
	for _, u := range [][4]uint16{{0x0000, 0x5555, 0x5555, 0x0000}, {0xffff, 0x0000, 0x0000, 0xffff}} {
		if got := ref.Update(u[0], u[1], u[2]); got != u[3] {
			return r.Errorf("reference Update(%#04x, %#04x, %#04x) = %#04x, want %#04x (RFC 1624 errata 4782): the oracle is wrong", u[0], u[1], u[2], got, u[3])
		}
		if ce := c.update(u[0], u[1], u[2]); ce != nil {
			ce.Args += " vector=" + strconv.Quote("RFC 1624 errata 4782")
			return r.Fail(ce)
		}
	}
	return runHelperVectors(c, r)
}

// truncations checks Sum and Checksum on every prefix of v's data followed
// by three bytes of junk, at alignments 0, 1 and 2.
func truncations(c *checker, v vector) *equiv.Counterexample {
	junk := append(bytes.Clone(v.data), 0xff, 0x80, 0x01)
	for n := 0; n <= len(junk); n++ {
		for align := range 3 {
			if ce := c.sum(aligned(align), junk[:n], 0); ce != nil {
				return ce
			}
			if ce := c.checksum(aligned(align), junk[:n]); ce != nil {
				return ce
			}
		}
	}
	return nil
}

// oddBoundaries checks RFC 1071 §3's odd-boundary rule: any split of v's
// data into two or three Digest writes gives the same sum.
func oddBoundaries(c *checker, v vector) *equiv.Counterexample {
	for i := 0; i <= len(v.data); i++ {
		for j := i; j <= len(v.data); j++ {
			if ce := c.digest(aligned(0), v.data, []int{i, j}); ce != nil {
				return ce
			}
		}
	}
	return nil
}
