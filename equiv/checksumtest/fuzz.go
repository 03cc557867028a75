package checksumtest

import (
	"encoding/binary"
	"net/netip"
	"slices"
	"testing"

	fuzzheaders "github.com/AdaLogics/go-fuzz-headers"

	"github.com/equivcheck/equivcheck/corpus"
	"github.com/equivcheck/equivcheck/equiv"
)

// fuzzName is the fuzz target's name: its regression directory and
// Counterexample.FuzzTarget.
const fuzzName = "FuzzChecksum"

// fuzzTarget is FuzzChecksum(data []byte, initial uint16, plan []byte) for
// impl, whose seed corpus is corpus/checksum.
func fuzzTarget(impl Impl) equiv.FuzzTarget {
	return equiv.FuzzTarget{
		Name:   fuzzName,
		Args:   []string{"[]byte", "uint16", "[]byte"},
		Corpus: pair,
		Check: func(cfg *equiv.Config, v []any) (*equiv.Counterexample, int) {
			return checkInput(impl, cfg, v[0].([]byte), v[1].(uint16), v[2].([]byte))
		},
	}
}

// CheckInput checks impl on one input of the fuzz target
// FuzzChecksum(data, initial, plan): Sum(data, initial) and Checksum(data)
// with data at the alignment the plan names, a Digest fed data in the
// pieces the plan names, and Update on the triple the plan names, if it
// names one. The plan is decoded with go-fuzz-headers: a byte (alignment
// mod 64), a byte (number of splits mod 8), that many uint16 split
// positions (mod len(data)+1, sorted), and three uint16s for Update. An
// optional helper section may follow (plans that end earlier mean what they
// always meant): a uint16 next and a uint64 offset, for Combine(initial,
// next, offset), FinishUDP(initial), Put(data, next) and UpdateUDP and
// UpdateUDP6 on the triple; then a byte of address families, a byte
// protocol, a uint32 length and 16 bytes for each address, for
// PseudoHeaderSum(src, dst, protocol, length) and VerifyUDP(src, dst,
// data). Fuzz and the corpus method call the same check, so a corpus file
// means the same thing to both. It returns the minimized
// *equiv.Counterexample (Pair "checksum", Method "fuzz") of the first
// function that disagreed.
func CheckInput(impl Impl, data []byte, initial uint16, plan []byte, opts ...equiv.Option) error {
	if s := NewSuite(impl); s.Err != nil {
		return s.Err
	}
	if ce, _ := checkInput(impl, equiv.NewConfig(opts...), data, initial, plan); ce != nil {
		ce.Pair, ce.Method = pair, "fuzz"
		return ce
	}
	return nil
}

// checkInput checks one input of FuzzChecksum and returns the first
// counterexample and the number of inputs compared: 1, or 0 if every call
// was out of scope.
func checkInput(impl Impl, cfg *equiv.Config, data []byte, initial uint16, planBytes []byte) (*equiv.Counterexample, int) {
	compared := 0
	c := newChecker(impl, cfg, func(int) { compared = 1 })
	defer c.release()
	return c.checkAll(data, initial, decodePlan(planBytes, len(data))), compared
}

// checkAll checks every function on one input of FuzzChecksum, decoded,
// and returns the first counterexample.
func (c *checker) checkAll(data []byte, initial uint16, p plan) *equiv.Counterexample {
	if ce := c.sum(aligned(p.align), data, initial); ce != nil {
		return ce
	}
	if ce := c.checksum(aligned(p.align), data); ce != nil {
		return ce
	}
	if ce := c.digest(aligned(p.align), data, p.splits); ce != nil {
		return ce
	}
	if p.update != nil {
		if ce := c.update(p.update[0], p.update[1], p.update[2]); ce != nil {
			return ce
		}
	}
	return checkHelpers(c, p, data, initial)
}

// checkHelpers checks the helpers on the values of p's helper section, if
// it has one, and returns the first counterexample.
func checkHelpers(c *checker, p plan, data []byte, initial uint16) *equiv.Counterexample {
	if w := p.words; w != nil {
		u := p.update
		for _, check := range []func() *equiv.Counterexample{
			func() *equiv.Counterexample { return c.combine(initial, w.next, w.offset) },
			func() *equiv.Counterexample { return c.finishUDP(initial) },
			func() *equiv.Counterexample { return c.put(aligned(p.align), data, w.next) },
			func() *equiv.Counterexample { return c.updateUDP(u[0], u[1], u[2]) },
		} {
			if ce := check(); ce != nil {
				return ce
			}
		}
	}
	if a := p.addrs; a != nil {
		if ce := c.pseudo(a.src, a.dst, a.proto, a.length); ce != nil {
			return ce
		}
		return c.verifyUDP(aligned(p.align), a.src, a.dst, data)
	}
	return nil
}

// Fuzz fuzzes impl against the reference with the target FuzzChecksum,
// seeded from the corpus, so that a fuzz target of your own is one line:
//
//	func FuzzMySum(f *testing.F) { checksumtest.Fuzz(f, checksumtest.Impl{Sum: mypkg.Sum}) }
//
// Each input is checked as CheckInput checks it; a disagreement is an
// error of the fuzz test, reported with its minimized counterexample.
func Fuzz(f equiv.F, impl Impl, opts ...equiv.Option) {
	f.Helper()
	FuzzAll(f, []Impl{impl}, opts...)
}

// FuzzAll is Fuzz for several implementations at once (the variants of one
// package, say): every input is checked on each of impls, and each
// disagreement is reported with the implementation's Name (see
// equiv.FuzzReporter), at the line of the fuzz target that called it.
func FuzzAll(f equiv.F, impls []Impl, opts ...equiv.Option) {
	f.Helper()
	fr := equiv.NewFuzzReporter(impls, func(i Impl) string { return i.Name })
	for _, impl := range impls {
		if s := NewSuite(impl); s.Err != nil {
			f.Fatal(s.Err)
		}
	}
	addSeeds(f)
	check := func(t equiv.Reporter, data []byte, initial uint16, plan []byte) {
		t.Helper()
		for i, impl := range impls {
			if err := CheckInput(impl, data, initial, plan, opts...); err != nil {
				fr.Report(t, i, err)
			}
		}
	}
	if tf, ok := f.(*testing.F); ok {
		tf.Fuzz(func(t *testing.T, data []byte, initial uint16, plan []byte) { check(t, data, initial, plan) })
		return
	}
	f.Fuzz(check) // go-118-fuzz-build (see equiv.F)
}

// addSeeds adds the seed corpus to f (apart from f.Fuzz: see
// equiv.AddSeeds).
func addSeeds(f equiv.F) {
	f.Helper()
	equiv.AddSeeds(f, equiv.Suite{Pair: pair, Corpus: corpus.FS}, fuzzTarget(Impl{}))
}

// maxSplits is the most Digest splits a plan holds.
const maxSplits = 7

// plan is the decoded form of FuzzChecksum's plan argument.
type plan struct {
	align  int        // offset of data from a 64-byte boundary
	splits []int      // Digest write boundaries (positions into data)
	update *[3]uint16 // Update(checksum, old, new), if present

	// The helper section, after the update triple.
	words *wordArgs // Combine, FinishUDP, Put, UpdateUDP, UpdateUDP6, if present
	addrs *addrArgs // PseudoHeaderSum and VerifyUDP, if present
}

// wordArgs are the helper section's values for Combine and Put.
type wordArgs struct {
	next   uint16 // Combine's next, Put's checksum
	offset int    // Combine's offset
}

// addrArgs are the helper section's values for PseudoHeaderSum and
// VerifyUDP.
type addrArgs struct {
	src, dst netip.Addr
	proto    uint8
	length   uint32
}

// decodePlan reads, with go-fuzz-headers: a byte (alignment mod 64), a
// byte and the Digest splits it counts (decodeSplits), three uint16s for
// Update, and the helper
// section (decodeHelpers). Whatever the plan runs out before keeps its
// default.
func decodePlan(b []byte, dataLen int) plan {
	var p plan
	c := fuzzheaders.NewConsumer(b)
	a, err := c.GetByte()
	if err != nil {
		return p
	}
	p.align = int(a % 64)
	n, err := c.GetByte()
	if err != nil {
		return p
	}
	if p.splits, err = decodeSplits(c, n, dataLen); err != nil {
		return p // the plan ran out among the splits
	}
	var u [3]uint16
	for i := range u {
		if u[i], err = c.GetUint16(); err != nil {
			return p
		}
	}
	p.update = &u
	decodeHelpers(c, &p)
	return p
}

// decodeSplits reads the Digest splits after their count byte n: below
// extended, n mod 8 splits as uint16s (the form of every plan written
// before issue 8); from extended, a uint32 count and that many uint32
// splits, so that fuzzing reaches Digests of any number of writes over
// inputs of any length. Each split is taken mod dataLen+1; they are
// returned sorted, with an error if the plan ran out among them.
func decodeSplits(c *fuzzheaders.ConsumeFuzzer, n byte, dataLen int) ([]int, error) {
	var splits []int
	var err error
	if n < extended {
		for range n % (maxSplits + 1) {
			var v uint16
			if v, err = c.GetUint16(); err != nil {
				break
			}
			splits = append(splits, int(v)%(dataLen+1))
		}
	} else {
		var count uint32
		if count, err = c.GetUint32(); err == nil {
			for range count {
				var v uint32
				if v, err = c.GetUint32(); err != nil {
					break
				}
				splits = append(splits, int(uint64(v)%uint64(dataLen+1)))
			}
		}
	}
	slices.Sort(splits)
	return splits, err
}

// extended is the split count byte from which the splits are in the
// extended form (see decodeSplits).
const extended = 0x80

// decodeHelpers reads the helper section that follows the update triple:
// a uint16 next and a uint64 offset (two's complement), then a byte of
// families (the source's is the byte mod 5, the destination's the byte / 5
// mod 5, in the order of the family constants), a byte protocol, a uint32
// length and 16 bytes for each address (see addrOf). A group the plan runs
// out in is absent.
func decodeHelpers(c *fuzzheaders.ConsumeFuzzer, p *plan) {
	next, err := c.GetUint16()
	if err != nil {
		return
	}
	off, err := c.GetUint64()
	if err != nil {
		return
	}
	p.words = &wordArgs{next: next, offset: int(int64(off))}
	fams, err := c.GetByte()
	if err != nil {
		return
	}
	proto, err := c.GetByte()
	if err != nil {
		return
	}
	length, err := c.GetUint32()
	if err != nil {
		return
	}
	var src, dst [16]byte
	for _, a := range []*[16]byte{&src, &dst} {
		b, err := c.GetNBytes(16)
		if err != nil {
			return
		}
		copy(a[:], b)
	}
	p.addrs = &addrArgs{
		src:   addrOf(family(fams%uint8(numFamilies)), src),
		dst:   addrOf(family(fams/uint8(numFamilies)%uint8(numFamilies)), dst),
		proto: proto, length: length,
	}
}

// encodePlan is the inverse of decodePlan for splits below 2^32: at most
// maxSplits of them below 65536 in the short form, others in the extended
// one. The groups a plan's helper section needs before its own (the update
// triple, the words) are written as zeros if absent.
func encodePlan(p plan) []byte {
	b := []byte{byte(p.align), byte(len(p.splits))}
	u16 := func(v uint16) {
		// Two bytes, then a byte go-fuzz-headers reads as "not little
		// endian" (odd), so the value is read big-endian.
		b = append(b, byte(v>>8), byte(v), 1)
	}
	if len(p.splits) <= maxSplits && (len(p.splits) == 0 || p.splits[len(p.splits)-1] <= 0xFFFF) {
		for _, s := range p.splits {
			u16(uint16(s))
		}
	} else {
		b[1] = extended
		b = binary.BigEndian.AppendUint32(b, uint32(len(p.splits)))
		for _, s := range p.splits {
			b = binary.BigEndian.AppendUint32(b, uint32(s))
		}
	}
	if p.words == nil && p.addrs != nil {
		p.words = &wordArgs{}
	}
	if p.update == nil && p.words != nil {
		p.update = &[3]uint16{}
	}
	if p.update != nil {
		for _, v := range p.update {
			u16(v)
		}
	}
	if w := p.words; w != nil {
		u16(w.next)
		b = binary.BigEndian.AppendUint64(b, uint64(w.offset))
		b = append(b, 1) // big-endian, as for u16
	}
	if a := p.addrs; a != nil {
		fs, src := familyOf(a.src)
		fd, dst := familyOf(a.dst)
		b = append(b, byte(fs)+byte(numFamilies)*byte(fd), a.proto)
		b = binary.BigEndian.AppendUint32(b, a.length)
		b = append(append(b, src[:]...), dst[:]...)
	}
	return b
}
