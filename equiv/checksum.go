package equiv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"slices"
	"testing"

	fuzzheaders "github.com/AdaLogics/go-fuzz-headers"

	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// ChecksumDigest is the streaming interface a checksum implementation
// offers: a hash.Hash whose Sum appends the 2-byte big-endian checksum, plus
// Sum16, the running one's-complement sum.
type ChecksumDigest interface {
	hash.Hash
	Sum16() uint16
}

// ChecksumImpl is an implementation of the Internet checksum (RFC 1071,
// RFC 1624) to check against reference/checksum. Sum is required; a nil
// Checksum, Update or New is not checked (and the methods say so).
type ChecksumImpl struct {
	Sum      func(b []byte, initial uint16) uint16
	Checksum func(b []byte) uint16
	Update   func(checksum, old, new uint16) uint16
	New      func() ChecksumDigest
}

// ChecksumGridLen is the longest input of the checksum suite's grid of
// lengths × alignments × content classes. It is at least twice the widest
// stride of the optimized code (a 256-byte unrolled AVX-512 loop) plus 64,
// and above the 63 + 2×256 + 64 = 639 bytes past which that loop, which
// starts at the 64-byte block holding the first byte, runs twice at every
// alignment; so every path is entered with 0, 1 and 2 iterations of every
// loop and every tail length. docs/equivalence.md has the argument.
const ChecksumGridLen = 3 * 256

// checksumInitials are the initial values every short input is checked
// with: zero, one, the byte boundaries and the values next to the carry.
var checksumInitials = []uint16{0x0000, 0x0001, 0x00ff, 0x0100, 0x7fff, 0x8000, 0xff00, 0xfffe, 0xffff}

// CheckChecksum checks impl against reference/checksum with every method at
// the configured level and returns the joined counterexamples (each matching
// ErrMismatch), or nil if impl agreed on every input.
func CheckChecksum(impl ChecksumImpl, opts ...Option) error {
	if impl.Sum == nil {
		return errors.New("equiv: ChecksumImpl.Sum is nil")
	}
	cfg := newConfig(opts)
	s := &checksumSuite{impl: impl, cfg: cfg}
	return runSuite("checksum", cfg, []method{
		{name: MethodVectors, run: s.vectors},
		{name: MethodExhaustive, run: s.exhaustive},
		{name: MethodGuard, run: s.guard, skip: guardSkip()},
		{name: MethodProperties, run: s.properties},
		{name: MethodCorpus, run: s.corpus},
	})
}

// TestChecksum runs CheckChecksum as subtests of t, one per method.
func TestChecksum(t *testing.T, impl ChecksumImpl, opts ...Option) {
	t.Helper()
	testSuite(t, func(o ...Option) error { return CheckChecksum(impl, o...) }, opts)
}

// CheckChecksumInput checks impl on one input of the fuzz target
// FuzzChecksum(data, initial, plan): Sum(data, initial) with data at the
// alignment the plan names, Checksum(data), a Digest fed data in the pieces
// the plan names, and Update on the triple the plan names. The plan is
// decoded with go-fuzz-headers (see checksumPlan). The fuzz targets and the
// corpus method call this, so a corpus file means the same thing to both.
func CheckChecksumInput(impl ChecksumImpl, data []byte, initial uint16, plan []byte) error {
	s := &checksumSuite{impl: impl, cfg: newConfig(nil)}
	if ce := s.checkInput(data, initial, plan); ce != nil {
		ce.Pair, ce.Method = "checksum", "fuzz"
		return ce
	}
	return nil
}

type checksumSuite struct {
	impl    ChecksumImpl
	cfg     *config
	scratch []byte
}

// checksumPlan is the decoded form of FuzzChecksum's plan argument.
type checksumPlan struct {
	align  int        // offset of data from a 64-byte boundary
	splits []int      // Digest write boundaries (positions into data)
	update *[3]uint16 // Update(checksum, old, new), if present
}

// decodeChecksumPlan reads, with go-fuzz-headers: a byte (alignment mod 64),
// a byte (number of splits mod 8), that many uint16 split positions (taken
// mod len(data)+1 and sorted), and three uint16s for Update. Whatever the
// plan runs out before keeps its default.
func decodeChecksumPlan(plan []byte, dataLen int) checksumPlan {
	var p checksumPlan
	c := fuzzheaders.NewConsumer(plan)
	a, err := c.GetByte()
	if err != nil {
		return p
	}
	p.align = int(a % 64)
	n, err := c.GetByte()
	if err != nil {
		return p
	}
	for range n % 8 {
		v, err := c.GetUint16()
		if err != nil {
			break
		}
		p.splits = append(p.splits, int(v)%(dataLen+1))
	}
	slices.Sort(p.splits)
	if len(p.splits) < int(n%8) {
		return p // the plan ran out among the splits
	}
	var u [3]uint16
	for i := range u {
		if u[i], err = c.GetUint16(); err != nil {
			return p
		}
	}
	p.update = &u
	return p
}

// encodeChecksumPlan is the inverse of decodeChecksumPlan for splits below
// 65536 and at most 7 of them.
func encodeChecksumPlan(p checksumPlan) []byte {
	b := []byte{byte(p.align), byte(len(p.splits))}
	u16 := func(v uint16) {
		// Two bytes, then a byte go-fuzz-headers reads as "not little
		// endian" (odd), so the value is read big-endian.
		b = append(b, byte(v>>8), byte(v), 1)
	}
	for _, s := range p.splits {
		u16(uint16(s))
	}
	if p.update != nil {
		for _, v := range p.update {
			u16(v)
		}
	}
	return b
}

func (s *checksumSuite) checkInput(data []byte, initial uint16, planBytes []byte) *Counterexample {
	p := decodeChecksumPlan(planBytes, len(data))
	if ce := s.checkSum(data, initial, p.align, true); ce != nil {
		return ce
	}
	if ce := s.checkChecksum(data, p.align); ce != nil {
		return ce
	}
	if ce := s.checkDigest(data, p.splits); ce != nil {
		return ce
	}
	if p.update != nil {
		if ce := s.checkUpdate(p.update[0], p.update[1], p.update[2]); ce != nil {
			return ce
		}
	}
	return nil
}

// guardLen bytes of canary surround the data in the scratch buffer.
const guardLen = 64

const canary = 0xA5

// place copies data into the scratch buffer at offset align from a 64-byte
// boundary, between canary bytes, and returns the copy. Inputs longer than
// the grid get a buffer of their own.
func (s *checksumSuite) place(data []byte, align int) []byte {
	need := guardLen + 64 + len(data) + guardLen
	if cap(s.scratch) < need {
		s.scratch = alignedBuffer(max(need, 2*guardLen+64+ChecksumGridLen))
	}
	buf := s.scratch[:need]
	b := buf[guardLen+align : guardLen+align+len(data) : guardLen+align+len(data)]
	fillCanary(buf[:guardLen+align])
	copy(b, data)
	fillCanary(buf[guardLen+align+len(data):])
	return b
}

// canariesIntact reports whether the bytes around the last placed input are
// unchanged.
func (s *checksumSuite) canariesIntact(align, n int) bool {
	buf := s.scratch[:guardLen+64+n+guardLen]
	return allCanary(buf[:guardLen+align]) && allCanary(buf[guardLen+align+n:])
}

func fillCanary(b []byte) {
	for i := range b {
		b[i] = canary
	}
}

func allCanary(b []byte) bool {
	for _, c := range b {
		if c != canary {
			return false
		}
	}
	return true
}

// alignedBuffer returns a buffer of n bytes starting at a 64-byte boundary.
func alignedBuffer(n int) []byte {
	b := make([]byte, n+64)
	off := int(64-addrOf(b)%64) % 64
	return b[off : off+n : off+n]
}

func callSum(f func([]byte, uint16) uint16, b []byte, initial uint16) (v uint16, p any) {
	defer func() { p = recover() }()
	return f(b, initial), nil
}

// checkSum compares Sum(data, initial) with data at the given alignment,
// and minimizes a disagreement if asked to.
func (s *checksumSuite) checkSum(data []byte, initial uint16, align int, minimize bool) *Counterexample {
	want := ref.Sum(data, initial)
	b := s.place(data, align)
	got, p := callSum(s.impl.Sum, b, initial)
	intact := s.canariesIntact(align, len(data))
	if p == nil && got == want && intact && bytes.Equal(b, data) {
		return nil
	}
	if minimize {
		fails := func(d []byte) bool { return s.checkSum(d, initial, align, false) != nil }
		data = shrinkBytes(data, fails)
		if initial != 0 && s.checkSum(data, 0, align, false) != nil {
			initial = 0
		}
		return s.checkSum(data, initial, align, false)
	}
	ce := &Counterexample{
		Func:       "Sum",
		Input:      bytes.Clone(data),
		Args:       fmt.Sprintf("initial=%#04x align=%d", initial, align),
		Want:       fmt.Sprintf("%#04x", want),
		FuzzTarget: "FuzzChecksum",
		FuzzArgs:   []any{bytes.Clone(data), initial, encodeChecksumPlan(checksumPlan{align: align})},
	}
	switch {
	case p != nil:
		ce.Got = fmt.Sprintf("panic(%v)", p)
	case got != want:
		ce.Got = fmt.Sprintf("%#04x", got)
	case !intact:
		ce.Got = fmt.Sprintf("%#04x but wrote outside the input", got)
	default:
		ce.Got = fmt.Sprintf("%#04x but modified the input", got)
	}
	return ce
}

// checkChecksum compares Checksum(data), if the implementation has one.
func (s *checksumSuite) checkChecksum(data []byte, align int) *Counterexample {
	if s.impl.Checksum == nil {
		return nil
	}
	want := ref.Checksum(data)
	b := s.place(data, align)
	var got uint16
	p := panicValue(func() { got = s.impl.Checksum(b) })
	if p == nil && got == want && s.canariesIntact(align, len(data)) {
		return nil
	}
	ce := &Counterexample{
		Func:       "Checksum",
		Input:      bytes.Clone(data),
		Args:       fmt.Sprintf("align=%d", align),
		Got:        fmt.Sprintf("%#04x", got),
		Want:       fmt.Sprintf("%#04x", want),
		FuzzTarget: "FuzzChecksum",
		FuzzArgs:   []any{bytes.Clone(data), uint16(0), encodeChecksumPlan(checksumPlan{align: align})},
	}
	if p != nil {
		ce.Got = fmt.Sprintf("panic(%v)", p)
	}
	return ce
}

// checkDigest feeds data to a new Digest in the pieces that the sorted split
// positions delimit, then checks Sum16, Sum, Size and, after Reset, a
// single write of data.
func (s *checksumSuite) checkDigest(data []byte, splits []int) *Counterexample {
	if s.impl.New == nil {
		return nil
	}
	want := ref.Sum(data, 0)
	wantSum := []byte{0xEE, byte(^want >> 8), byte(^want)}
	var got uint16
	var problem string
	p := panicValue(func() {
		d := s.impl.New()
		// Garbage first, then Reset: state must not leak through Reset.
		d.Write([]byte{0xFF, 0x01, 0x7F})
		d.Reset()
		prev := 0
		for _, end := range append(slices.Clone(splits), len(data)) {
			n, err := d.Write(data[prev:end])
			if n != end-prev || err != nil {
				problem = fmt.Sprintf("Write(%d bytes) = %d, %v", end-prev, n, err)
				return
			}
			prev = end
		}
		got = d.Sum16()
		if got != want {
			return
		}
		if sum := d.Sum([]byte{0xEE}); !bytes.Equal(sum, wantSum) {
			problem = fmt.Sprintf("Sum([ee]) = %x, want %x", sum, wantSum)
			return
		}
		if d.Size() != 2 {
			problem = fmt.Sprintf("Size() = %d, want 2", d.Size())
			return
		}
		if again := d.Sum16(); again != want {
			problem = fmt.Sprintf("Sum16 after Sum = %#04x, want %#04x", again, want)
		}
	})
	if p == nil && got == want && problem == "" {
		return nil
	}
	ce := &Counterexample{
		Func:       "Digest",
		Input:      bytes.Clone(data),
		Args:       fmt.Sprintf("splits=%v", splits),
		Got:        fmt.Sprintf("Sum16() = %#04x", got),
		Want:       fmt.Sprintf("%#04x", want),
		FuzzTarget: "FuzzChecksum",
	}
	if len(splits) <= 7 && len(data) <= 0xFFFF {
		ce.FuzzArgs = []any{bytes.Clone(data), uint16(0), encodeChecksumPlan(checksumPlan{splits: splits})}
	}
	switch {
	case p != nil:
		ce.Got = fmt.Sprintf("panic(%v)", p)
	case problem != "":
		ce.Got = problem
	}
	return ce
}

// checkUpdate compares Update(hc, old, new), if the implementation has one.
func (s *checksumSuite) checkUpdate(hc, old, new uint16) *Counterexample {
	if s.impl.Update == nil {
		return nil
	}
	want := ref.Update(hc, old, new)
	var got uint16
	p := panicValue(func() { got = s.impl.Update(hc, old, new) })
	if p == nil && got == want {
		return nil
	}
	ce := &Counterexample{
		Func:       "Update",
		Args:       fmt.Sprintf("checksum=%#04x old=%#04x new=%#04x", hc, old, new),
		Got:        fmt.Sprintf("%#04x", got),
		Want:       fmt.Sprintf("%#04x", want),
		FuzzTarget: "FuzzChecksum",
		FuzzArgs:   []any{[]byte{}, uint16(0), encodeChecksumPlan(checksumPlan{update: &[3]uint16{hc, old, new}})},
	}
	if p != nil {
		ce.Got = fmt.Sprintf("panic(%v)", p)
	}
	return ce
}

func guardSkip() string {
	if !guardSupported {
		return "guard pages are implemented on Linux only"
	}
	return ""
}

// be16 returns the big-endian bytes of v.
func be16(v uint16) []byte { return binary.BigEndian.AppendUint16(nil, v) }
