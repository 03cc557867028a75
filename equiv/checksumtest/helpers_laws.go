package checksumtest

import (
	"bytes"
	"encoding/binary"
	"math"
	"net/netip"
	"slices"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/equivcheck/equivcheck/equiv"
)

// helperLaws are the laws of the helpers the implementation provides: each
// relates a helper to the implementation's own Sum (or to another helper),
// so a bug shared with the reference would still break one.
func (c *checker) helperLaws() []law {
	var ls []law
	add := func(fn, name string, p func() gopter.Prop) {
		if c.has(fn) {
			ls = append(ls, law{name, p()})
		}
	}
	add("Combine", "Combine(Sum(a), Sum(b), len(a)+2k) == Sum(a||b) (RFC 1071 §2(A)-(B))", c.combineLaw)
	add("PseudoHeaderSum", "PseudoHeaderSum is Sum of the RFC 768/9293/8200 pseudo-header, symmetric, ok only for one family", c.pseudoLaw)
	add("FinishUDP", "FinishUDP(s) is never 0 and completes s to 0xFFFF (RFC 768)", c.finishLaw)
	add("UpdateUDP", "UpdateUDP equals recomputing the UDP checksum; 0 stays 0 (RFC 768, RFC 1624)", c.udpUpdateLaw(false))
	add("UpdateUDP6", "UpdateUDP6 equals recomputing the UDP checksum; 0 is invalid (RFC 8200 §8.1)", c.udpUpdateLaw(true))
	if c.has("PseudoHeaderSum") {
		add("VerifyUDP", "VerifyUDP accepts a finished datagram, rejects a flipped bit, and applies the zero rule of its family (IPv4-mapped is IPv4)", c.verifyLaw)
	}
	add("Put", "Put writes what binary.BigEndian.Uint16 reads, and nothing into a short b", c.putLaw)
	return ls
}

// in reports whether in is in scope for the case, and marks the case
// vacuous if not.
func (l *lawCase) in(in Input) bool {
	if l.out || equiv.Excluded(l.c.cfg, in) {
		l.out = true
		return false
	}
	return true
}

func (l *lawCase) combine(sum, next uint16, offset int) uint16 {
	if !l.in(Input{Func: "Combine", Initial: sum, Value: next, Offset: offset}) {
		return 0
	}
	return l.c.impl.Combine(sum, next, offset)
}

func (l *lawCase) pseudo(src, dst netip.Addr, proto uint8, length uint32) (uint16, bool) {
	if !l.in(Input{Func: "PseudoHeaderSum", Src: src, Dst: dst, Proto: proto, Length: length}) {
		return 0, false
	}
	return l.c.impl.PseudoHeaderSum(src, dst, proto, length)
}

func (l *lawCase) finish(sum uint16) uint16 {
	if !l.in(Input{Func: "FinishUDP", Initial: sum}) {
		return 0
	}
	return l.c.impl.FinishUDP(sum)
}

// updateUDP calls UpdateUDP6 if v6, else UpdateUDP (whose ok is then
// whether the field is nonzero).
func (l *lawCase) updateUDP(v6 bool, checksum, old, new uint16) (uint16, bool) {
	fn := map[bool]string{false: "UpdateUDP", true: "UpdateUDP6"}[v6]
	if !l.in(Input{Func: fn, Update: [3]uint16{checksum, old, new}}) {
		return 0, false
	}
	if v6 {
		return l.c.impl.UpdateUDP6(checksum, old, new)
	}
	return l.c.impl.UpdateUDP(checksum, old, new), checksum != 0
}

func (l *lawCase) verify(src, dst netip.Addr, seg []byte) bool {
	if !l.in(Input{Func: "VerifyUDP", Src: src, Dst: dst, Data: seg, Align: int(equiv.AddrOf(seg) % 64)}) {
		return false
	}
	return l.c.impl.VerifyUDP(src, dst, seg)
}

func (l *lawCase) put(b []byte, v uint16) bool {
	if !l.in(Input{Func: "Put", Data: b, Value: v, Align: int(equiv.AddrOf(b) % 64)}) {
		return false
	}
	return l.c.impl.Put(b, v)
}

// udpField is RFC 768's checksum field for a sum: its complement, all ones
// for a complement of zero.
func udpField(sum uint16) uint16 {
	if ^sum == 0 {
		return 0xffff
	}
	return ^sum
}

// combineLaw: the sums of adjacent pieces combine at their own offset,
// shifted by any even amount, into the sum of the whole.
func (c *checker) combineLaw() gopter.Prop {
	return prop.ForAll(func(a, b []byte, initial uint16, k int) bool {
		l := c.lawCase()
		whole := l.sum(append(slices.Clone(a), b...), initial)
		return l.holds(l.combine(l.sum(a, initial), l.sum(b, 0), len(a)+2*k) == whole)
	}, gen.SliceOf(gen.UInt8()).WithLabel("a"), gen.SliceOf(gen.UInt8()).WithLabel("b"), gen.UInt16().WithLabel("initial"),
		gen.IntRange(math.MinInt/4, math.MaxInt/4).WithLabel("k"))
}

// pseudoLaw: for two addresses of one family, once IPv4-mapped ones are
// unmapped (RFC 4291 §2.5.5.2), PseudoHeaderSum is the Sum of the
// pseudo-header laid out as the RFCs draw it (IPv4 only up to a 16-bit
// length); otherwise it is 0, false; and it does not depend on which
// address is the source.
func (c *checker) pseudoLaw() gopter.Prop {
	return prop.ForAll(func(fs, fd int, sb, db []byte, proto uint8, length uint32) bool {
		l := c.lawCase()
		src, dst := addrOf(family(fs), [16]byte(sb)), addrOf(family(fd), [16]byte(db))
		got, ok := l.pseudo(src, dst, proto, length)
		back, backOK := l.pseudo(dst, src, proto, length)
		want, wantOK := uint16(0), false
		switch us, ud := src.Unmap(), dst.Unmap(); {
		case us.Is4() && ud.Is4() && length <= 0xffff:
			s, d := us.As4(), ud.As4()
			ph := slices.Concat(s[:], d[:], []byte{0, proto}, be16(uint16(length)))
			want, wantOK = l.sum(ph, 0), true
		case us.Is6() && ud.Is6():
			s, d := us.As16(), ud.As16()
			ph := slices.Concat(s[:], d[:], binary.BigEndian.AppendUint32(nil, length), []byte{0, 0, 0, proto})
			want, wantOK = l.sum(ph, 0), true
		}
		return l.holds(got == want && ok == wantOK && back == got && backOK == ok)
	}, gen.IntRange(0, int(numFamilies)-1).WithLabel("fs"), gen.IntRange(0, int(numFamilies)-1).WithLabel("fd"),
		gen.SliceOfN(16, gen.UInt8()).WithLabel("sb"), gen.SliceOfN(16, gen.UInt8()).WithLabel("db"), gen.UInt8().WithLabel("proto"),
		gen.OneGenOf(gen.UInt32(), gen.UInt32Range(0xfff0, 0x1000f)).WithLabel("length"))
}

// finishLaw: FinishUDP(s) is nonzero, and s plus it sums to 0xFFFF: it is
// ^s, or 0xFFFF for s = 0xFFFF.
func (c *checker) finishLaw() gopter.Prop {
	return prop.ForAll(func(s uint16) bool {
		l := c.lawCase()
		f := l.finish(s)
		return l.holds(f != 0 && l.sum(be16(f), s) == 0xffff && (f == ^s || s == 0xffff))
	}, gen.OneGenOf(gen.UInt16(), gen.Const(uint16(0xffff)), gen.Const(uint16(0))).WithLabel("s"))
}

// udpUpdateLaw: updating the UDP checksum field of some words (RFC 768's
// field: never 0) for a change of one word gives the field of the new
// words, with no exception, since the UDP field has one representation of
// zero; a field of 0 stays 0 (UpdateUDP) or is refused (UpdateUDP6).
func (c *checker) udpUpdateLaw(v6 bool) func() gopter.Prop {
	return func() gopter.Prop {
		return prop.ForAll(func(words []uint16, i int, m2 uint16) bool {
			if len(words) == 0 {
				return true
			}
			l := c.lawCase()
			i %= len(words)
			field := udpField(l.sum(wordsBytes(words), 0))
			after := slices.Clone(words)
			after[i] = m2
			got, ok := l.updateUDP(v6, field, words[i], m2)
			zero, zeroOK := l.updateUDP(v6, 0, words[i], m2)
			return l.holds(got == udpField(l.sum(wordsBytes(after), 0)) && ok && zero == 0 && !zeroOK)
		}, gen.SliceOf(gen.OneGenOf(gen.UInt16(), gen.Const(uint16(0)), gen.Const(uint16(0xffff)))).WithLabel("words"),
			gen.IntRange(0, 1<<20).WithLabel("i"), gen.UInt16().WithLabel("m2"))
	}
}

// verifyLaw: a datagram whose field is computed from the implementation's
// own PseudoHeaderSum and Sum passes, a flipped bit fails, and a zero
// field passes over IPv4 only, IPv4-mapped addresses included. Both
// addresses are of one family, half the time in both notations of IPv4
// (one plain, one mapped).
func (c *checker) verifyLaw() gopter.Prop {
	return prop.ForAll(func(f int, renote bool, sb, db, payload []byte, bit uint8) bool {
		l := c.lawCase()
		fd := family(f)
		if renote {
			fd = otherNotation(fd)
		}
		src, dst := addrOf(family(f), [16]byte(sb)), addrOf(fd, [16]byte(db))
		seg := slices.Concat([]byte{0x04, 0x00, 0x00, 0x35}, be16(uint16(8+len(payload))), []byte{0, 0}, payload)
		ph, _ := l.pseudo(src, dst, 17, uint32(len(seg)))
		binary.BigEndian.PutUint16(seg[6:], udpField(l.sum(seg, ph)))
		valid := l.verify(src, dst, seg)
		seg[0] ^= 1 << (bit % 8)
		flipped := l.verify(src, dst, seg)
		seg[6], seg[7] = 0, 0
		zero := l.verify(src, dst, seg)
		return l.holds(valid && !flipped && zero == src.Unmap().Is4())
	}, gen.IntRange(int(famIPv4), int(numFamilies)-1).WithLabel("f"), gen.Bool().WithLabel("renote"),
		gen.SliceOfN(16, gen.UInt8()).WithLabel("sb"), gen.SliceOfN(16, gen.UInt8()).WithLabel("db"),
		gen.SliceOf(gen.UInt8()).WithLabel("payload"), gen.UInt8().WithLabel("bit"))
}

// putLaw: Put into two or more bytes writes c big-endian into the first
// two and nothing else; into fewer it writes nothing and reports false.
func (c *checker) putLaw() gopter.Prop {
	return prop.ForAll(func(b []byte, v uint16) bool {
		l := c.lawCase()
		before := slices.Clone(b)
		ok := l.put(b, v)
		if len(b) < 2 {
			return l.holds(!ok && bytes.Equal(b, before))
		}
		return l.holds(ok && binary.BigEndian.Uint16(b) == v && bytes.Equal(b[2:], before[2:]))
	}, gen.OneGenOf(gen.SliceOfN(0, gen.UInt8()), gen.SliceOfN(1, gen.UInt8()), gen.SliceOfN(2, gen.UInt8()),
		gen.SliceOf(gen.UInt8())).WithLabel("b"), gen.UInt16().WithLabel("v"))
}
