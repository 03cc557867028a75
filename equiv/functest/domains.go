package functest

import (
	"iter"
	"math/rand/v2"
	"net/netip"
	"reflect"
	"slices"

	"github.com/equivcheck/equivcheck/equiv"
)

// smallLen is the longest []byte or string the exhaustive method
// enumerates whole at each level: two octets (65,793 values) at Quick,
// three (16.8M) at Standard and Deep.
func smallLen(l equiv.Level) int {
	if l == equiv.Quick {
		return 2
	}
	return 3
}

// exhaustiveMax is the most values a parameter's domain may hold to be
// enumerated whole, and the most inputs the exhaustive method's product of
// parameters runs at each level.
func exhaustiveMax(l equiv.Level) int {
	switch l {
	case equiv.Quick:
		return 1 << 20
	case equiv.Standard:
		return 1 << 24
	}
	return 1 << 27
}

// small returns p's domain for the exhaustive method and its size: every
// value, where there are few enough (Values' own, a bool, an integer of 16
// bits or fewer, a []byte or string to smallLen octets, an array or struct
// of such whose product is small), else its boundary values.
func (p *param) small(l equiv.Level) (iter.Seq[reflect.Value], int) {
	if p.values != nil {
		return slices.Values(p.values), len(p.values)
	}
	switch p.kind {
	case kBool:
		return slices.Values([]reflect.Value{reflect.ValueOf(false).Convert(p.t), reflect.ValueOf(true).Convert(p.t)}), 2
	case kInt, kUint:
		if p.bits <= 16 {
			n := 1 << p.bits
			return func(yield func(reflect.Value) bool) {
				for v := range n {
					if !yield(p.fromBits(uint64(v))) {
						return
					}
				}
			}, n
		}
	case kBytes, kString:
		return p.shortStrings(l)
	case kArray, kStruct:
		if seq, n := p.product(l); n > 0 {
			return seq, n
		}
	}
	b := p.boundaries()
	return slices.Values(b), len(b)
}

// shortStrings enumerates every []byte or string of up to smallLen(l)
// octets (up to maxLen, if set), shortest first.
func (p *param) shortStrings(l equiv.Level) (iter.Seq[reflect.Value], int) {
	maxN := smallLen(l)
	if p.maxLen > 0 {
		maxN = min(maxN, p.maxLen)
	}
	count := 0
	for n := 0; n <= maxN; n++ {
		count += 1 << (8 * n)
	}
	return func(yield func(reflect.Value) bool) {
		for n := 0; n <= maxN; n++ {
			b := make([]byte, n)
			for v := range 1 << (8 * n) {
				for i := range b {
					b[i] = byte(v >> (8 * i))
				}
				if !yield(p.fromBytes(b)) {
					return
				}
			}
		}
	}, count
}

// product enumerates every array or struct whose elements or fields take
// every value of their small domains, if that product is at most 2^16
// values; else it returns 0.
func (p *param) product(l equiv.Level) (iter.Seq[reflect.Value], int) {
	parts := p.parts()
	doms := make([][]reflect.Value, len(parts))
	n := 1
	for i, q := range parts {
		seq, k := q.small(l)
		if k > 1<<16 || n*k > 1<<16 {
			return nil, 0
		}
		doms[i] = slices.Collect(seq)
		n *= k
	}
	return func(yield func(reflect.Value) bool) {
		idx := make([]int, len(parts))
		for range n {
			v := reflect.New(p.t).Elem()
			for i := range parts {
				p.part(v, i).Set(doms[i][idx[i]])
			}
			if !yield(v) {
				return
			}
			for i := range idx {
				if idx[i]++; idx[i] < len(doms[i]) {
					break
				}
				idx[i] = 0
			}
		}
	}, n
}

// parts are an array's elements (each the same param) or a struct's fields
// (none for other kinds).
func (p *param) parts() []*param {
	switch p.kind {
	case kStruct:
		return p.fields
	case kArray:
		out := make([]*param, p.t.Len())
		for i := range out {
			out[i] = p.elem
		}
		return out
	}
	return nil
}

// part is element or field i of v, an array or struct of p's type.
func (p *param) part(v reflect.Value, i int) reflect.Value {
	if p.kind == kArray {
		return v.Index(i)
	}
	return v.Field(i)
}

// fromBits returns an integer of p's type with the low p.bits bits of u
// (sign-extended for a signed type).
func (p *param) fromBits(u uint64) reflect.Value {
	v := reflect.New(p.t).Elem()
	if p.kind == kInt {
		shift := 64 - p.bits
		v.SetInt(int64(u<<shift) >> shift)
	} else {
		v.SetUint(u)
	}
	return v
}

// fromBytes returns b (copied) as a value of p's type, a []byte or string.
func (p *param) fromBytes(b []byte) reflect.Value {
	if p.kind == kString {
		return reflect.ValueOf(string(b)).Convert(p.t)
	}
	return reflect.ValueOf(slices.Clone(b)).Convert(p.t)
}

// boundaries are p's boundary values: for an integer zero, one, its
// extremes and their neighbours, and every power of two and its
// neighbours (for an int32, a rune's limits too: runeBoundaries); for octets, the empty and nil values, single octets at the
// byte boundaries, and the content classes at the lengths either side of
// a word, a vector and a cache line; for an address, each family's
// extremes and special forms; for an array or struct, all zero, all
// maximal, and each element's or field's boundaries with the rest zero.
func (p *param) boundaries() []reflect.Value {
	if p.values != nil {
		return p.values
	}
	return p.bounds
}

// computeBoundaries builds boundaries' values, once, when the spec is
// made (its parameters are shared by every goroutine that checks).
func (p *param) computeBoundaries() {
	for _, q := range p.parts() {
		q.computeBoundaries()
	}
	var out []reflect.Value
	switch p.kind {
	case kBool:
		out = []reflect.Value{reflect.ValueOf(false).Convert(p.t), reflect.ValueOf(true).Convert(p.t)}
	case kInt, kUint:
		seen := map[uint64]bool{}
		for _, u := range intBoundaries(p.bits, p.kind == kInt) {
			if !seen[u] {
				seen[u] = true
				out = append(out, p.fromBits(u))
			}
		}
	case kBytes, kString:
		out = p.octetBoundaries()
	case kAddr:
		for _, a := range addrBoundaries {
			out = append(out, reflect.ValueOf(a))
		}
	case kArray, kStruct:
		out = p.partBoundaries()
	case kReader:
		for k := range readerKinds {
			out = append(out, reflect.ValueOf(readerArg{Data: []byte("0123456789abcdef\xff\x80"), Kind: k, At: 5}))
		}
	case kWriter:
		for k := range numWriterKinds {
			out = append(out, reflect.ValueOf(writerArg{Kind: k, At: 3}))
		}
	}
	p.bounds = out
}

// intBoundaries are the boundary values of an integer of bits bits, as
// bit patterns.
func intBoundaries(bits int, signed bool) []uint64 {
	mask := uint64(1)<<bits - 1
	if bits == 64 {
		mask = ^uint64(0)
	}
	out := []uint64{0, 1, 2, mask, mask - 1}
	for k := 1; k < bits; k++ {
		p := uint64(1) << k
		out = append(out, p-1, p, p+1)
	}
	if signed {
		min := uint64(1) << (bits - 1)
		out = append(out, min, min+1, min-1)
	}
	if signed && bits == 32 {
		out = append(out, runeBoundaries...)
	}
	for i := range out {
		out[i] &= mask
	}
	return out
}

// runeBoundaries are the boundary values of a rune (int32 is rune) that
// are not powers of two or their neighbours, as the UTF-8 lengths' limits
// are: either side of the surrogates U+D800..U+DFFF and of their halves,
// the replacement character, and either side of the last code point,
// U+10FFFF. Random int32 values meet none of them (tinygo-org/tinygo#2181
// encoded surrogates; duncanc/icu4lua#5 accepted U+110000).
var runeBoundaries = []uint64{0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfffd, 0x10ffff, 0x110000}

// octetLengths are the lengths of the octet boundaries: either side of a
// word, a vector and a cache line.
var octetLengths = []int{3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257}

// octetBoundaries are a []byte's or string's boundary values.
func (p *param) octetBoundaries() []reflect.Value {
	var out []reflect.Value
	if p.kind == kBytes {
		out = append(out, reflect.Zero(p.t)) // nil
	}
	for _, b := range [][]byte{{}, {0}, {1}, {0x7f}, {0x80}, {0xff}, {0, 0}, {0xff, 0xff}} {
		out = append(out, p.fromBytes(b))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i, n := range octetLengths {
		if p.maxLen > 0 && n > p.maxLen {
			break
		}
		b := make([]byte, n)
		fillClass(rng, b, i%len(contentClasses))
		out = append(out, p.fromBytes(b))
	}
	return out
}

// partBoundaries are an array's or struct's boundaries: every part zero,
// every part at its last boundary, and each part's boundaries with the
// others zero.
func (p *param) partBoundaries() []reflect.Value {
	zero := reflect.New(p.t).Elem()
	out := []reflect.Value{zero}
	parts := p.parts()
	top := reflect.New(p.t).Elem()
	for i, q := range parts {
		b := q.boundaries()
		if len(b) > 0 {
			p.part(top, i).Set(b[len(b)-1])
		}
		if p.kind == kArray && i > 0 {
			continue // an array's elements are alike: vary the first
		}
		for _, v := range b {
			w := reflect.New(p.t).Elem()
			p.part(w, i).Set(v)
			out = append(out, w)
		}
	}
	return append(out, top)
}

// addrBoundaries are netip.Addr's boundary values: the zero Addr, each
// family's unspecified, loopback, extreme and documentation addresses, an
// IPv4-mapped IPv6 address and a zoned link-local one.
var addrBoundaries = []netip.Addr{
	{},
	netip.MustParseAddr("0.0.0.0"), netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("192.0.2.1"),
	netip.MustParseAddr("255.255.255.255"),
	netip.MustParseAddr("::"), netip.MustParseAddr("::1"), netip.MustParseAddr("2001:db8::1"),
	netip.MustParseAddr("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"),
	netip.MustParseAddr("::ffff:192.0.2.1"), netip.MustParseAddr("fe80::1%eth0"),
}

// contentClasses are the content classes of octets: all zero, all 0xFF,
// alternating 0xFF and 0x00, random, the digit 9 (a number that
// overflows every integer type from 20 digits on) and printable ASCII
// text.
var contentClasses = []string{"zeros", "ones", "alternating", "random", "nines", "text"}

// classRandom is contentClasses' random class.
const classRandom = 3

// fillClass fills b with content class c.
func fillClass(rng *rand.Rand, b []byte, c int) {
	for i := range b {
		switch c {
		case 0:
			b[i] = 0
		case 1:
			b[i] = 0xff
		case 2:
			b[i] = ^byte(i&1) * 0xff
		case 4:
			b[i] = '9'
		case 5:
			b[i] = byte(' ' + rng.IntN(95))
		default:
			b[i] = byte(rng.Uint32())
		}
	}
}

// draw returns a random value of p's domain, biased to its boundaries:
// one time in four a boundary value; octets of a random length to 300
// (or maxLen) in a random content class.
func (p *param) draw(rng *rand.Rand) reflect.Value {
	if p.values != nil {
		return p.values[rng.IntN(len(p.values))]
	}
	if b := p.boundaries(); len(b) > 0 && rng.IntN(4) == 0 {
		return b[rng.IntN(len(b))]
	}
	switch p.kind {
	case kInt, kUint:
		return p.fromBits(rng.Uint64())
	case kBool:
		return reflect.ValueOf(rng.IntN(2) == 1).Convert(p.t)
	case kBytes, kString:
		n := rng.IntN(301)
		if p.maxLen > 0 {
			n = rng.IntN(p.maxLen + 1)
		}
		b := make([]byte, n)
		fillClass(rng, b, rng.IntN(len(contentClasses)))
		return p.fromBytes(b)
	case kAddr:
		return reflect.ValueOf(randomAddr(rng))
	case kArray, kStruct:
		v := reflect.New(p.t).Elem()
		for i, q := range p.parts() {
			p.part(v, i).Set(q.draw(rng))
		}
		return v
	case kReader:
		b := make([]byte, rng.IntN(300))
		fillClass(rng, b, rng.IntN(len(contentClasses)))
		return reflect.ValueOf(readerArg{Data: b, Kind: rng.IntN(len(readerKinds)), At: rng.IntN(len(b) + 1)})
	}
	return reflect.ValueOf(writerArg{Kind: rng.IntN(numWriterKinds), At: rng.IntN(64)})
}

// randomAddr draws an IPv4, IPv6 or IPv4-mapped address.
func randomAddr(rng *rand.Rand) netip.Addr {
	var a [16]byte
	for i := range a {
		a[i] = byte(rng.Uint32())
	}
	switch rng.IntN(3) {
	case 0:
		return netip.AddrFrom4([4]byte(a[:4]))
	case 1:
		return netip.AddrFrom16(a)
	}
	copy(a[:12], []byte{10: 0xff, 11: 0xff})
	return netip.AddrFrom16(a)
}
