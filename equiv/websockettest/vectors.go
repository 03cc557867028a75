package websockettest

import (
	"bytes"
	"fmt"
	"testing/iotest"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// RFC 6455 §5.7 (https://www.rfc-editor.org/rfc/rfc6455#section-5.7):
// "A single-frame masked text message
//
//	0x81 0x85 0x37 0xfa 0x21 0x3d 0x7f 0x9f 0x4d 0x51 0x58
//
// (contains "Hello")": key 37 fa 21 3d, masked payload 7f 9f 4d 51 58.
var (
	rfcKey    = [4]byte{0x37, 0xfa, 0x21, 0x3d}
	rfcPlain  = []byte("Hello")
	rfcMasked = []byte{0x7f, 0x9f, 0x4d, 0x51, 0x58}
)

// vectors checks RFC 6455 §5.7's vector both ways, then every truncation
// of it with trailing junk, MaskCopy's panics, and the vector streamed
// through the streamers.
func (c *checker) vectors(r *equiv.Run) error {
	c.expectLens(r, "len=8..15")
	if err := c.vector(r, rfcPlain, rfcMasked, "RFC 6455 §5.7 mask"); err != nil {
		return err
	}
	if err := c.vector(r, rfcMasked, rfcPlain, "RFC 6455 §5.7 unmask"); err != nil {
		return err
	}
	if err := c.truncations(r); err != nil {
		return err
	}
	if err := c.maskCopyPanics(r); err != nil {
		return err
	}
	if err := c.streamVectors(r); err != nil {
		return err
	}
	return c.readerContract(r)
}

// vector checks Mask(in, rfcKey, 0) = want, next 1, after checking that the
// reference agrees with the RFC.
func (c *checker) vector(r *equiv.Run, in, want []byte, name string) error {
	if o := refMask(in, rfcKey, 0); o.p != nil || o.next != 1 || !bytes.Equal(o.out, want) {
		return r.Errorf("reference Mask(%x) = %v, want %x, next 1 (%s): the oracle is wrong", in, o, want, name)
	}
	k := c.h.Call(cMask)
	defer k.End()
	b := k.Bytes(0, in, 0)
	if equiv.Excluded(c.cfg, Input{Func: "Mask", Payload: b, Key: rfcKey}) {
		return nil
	}
	got := c.callMask(k, b, rfcKey, 0)
	got.out = bytes.Clone(b)
	r.Count(1)
	wantO := outcome{out: want, next: 1}
	if c.agree(got, wantO) {
		return nil
	}
	args := fmt.Sprintf("vector=%q", name)
	// The reference gives the vector, so checking against it minimizes.
	if ce, _ := c.checkMask(in, rfcKey, 0, 0); ce != nil {
		ce.Args += " " + args
		return r.Fail(ce)
	}
	return r.Fail(site{fn: "Mask", payload: in, key: rfcKey, args: args}.failure(got, wantO))
}

// truncations checks every truncation of the masked vector followed by
// junk, at every phase and alignment 0..7 (MaskCopy's destination at
// 7-align), and every split of it into three calls, empty ones included.
func (c *checker) truncations(r *equiv.Run) error {
	count := tally(r)
	junk := append(bytes.Clone(rfcMasked), 0x00, 0xff, 0x80)
	for n := 0; n <= len(junk); n++ {
		for pos := range 4 {
			for align := range 8 {
				if err := count(c.checkMask(junk[:n], rfcKey, pos, align)); err != nil {
					return err
				}
				if err := count(c.checkMaskCopy(junk[:n], rfcKey, pos, align, 7-align)); err != nil {
					return err
				}
			}
			if err := c.splits(r, junk[:n], rfcKey, pos); err != nil {
				return err
			}
		}
	}
	return nil
}

// splits checks every split of payload into three calls of Mask, empty
// ones included.
func (c *checker) splits(r *equiv.Run, payload []byte, key [4]byte, pos int) error {
	count := tally(r)
	for i := 0; i <= len(payload); i++ {
		for j := i; j <= len(payload); j++ {
			if err := count(c.checkChunked(payload, key, pos, []int{i, j})); err != nil {
				return err
			}
		}
	}
	return nil
}

// overlapCases are MaskCopy calls within one 64-byte array on which the
// reference panics (a short dst, an inexact overlap) or does not (an exact
// overlap, disjoint or empty buffers): [lo, hi) of dst, then of src.
var overlapCases = []struct {
	name     string
	dst, src [2]int
}{
	{"short dst", [2]int{0, 3}, [2]int{8, 12}},
	// Both preconditions broken: the reference checks the length first.
	{"short dst, one behind src", [2]int{0, 15}, [2]int{1, 17}},
	{"short dst, one ahead of src", [2]int{2, 17}, [2]int{1, 17}},
	{"empty dst", [2]int{0, 0}, [2]int{8, 9}},
	{"dst one behind src", [2]int{0, 16}, [2]int{1, 17}},
	{"dst one ahead of src", [2]int{1, 17}, [2]int{0, 16}},
	{"dst longer, overlapping", [2]int{0, 40}, [2]int{20, 30}},
	{"exact overlap", [2]int{0, 16}, [2]int{0, 16}},
	{"disjoint, adjacent", [2]int{0, 16}, [2]int{16, 32}},
	{"both empty", [2]int{0, 0}, [2]int{5, 5}},
}

// maskCopyPanics checks that MaskCopy panics, with the reference's message
// (or any, with equiv.AnyPanic), exactly where the reference does.
func (c *checker) maskCopyPanics(r *equiv.Run) error {
	if c.impl.MaskCopy == nil {
		return nil
	}
	key := keys[0]
	contents := make([]byte, 64)
	for _, tc := range overlapCases {
		got, want, compared := c.overlapCase(contents, tc.dst, tc.src, key)
		if !compared {
			continue
		}
		r.Count(1)
		if !c.cfg.SamePanic(equiv.PanicValue(got.p), equiv.PanicValue(want.p)) {
			return r.Fail(&equiv.Counterexample{Func: "MaskCopy", Input: bytes.Clone(cut(contents, tc.src)),
				Args: fmt.Sprintf("key=%x pos=0 %s (dst=buf[%d:%d] src=buf[%d:%d])", key, tc.name, tc.dst[0], tc.dst[1], tc.src[0], tc.src[1]),
				Got:  panicString(got.p), Want: panicString(want.p), Stack: equiv.StackOf(got.p)})
		}
	}
	return nil
}

// overlapCase calls MaskCopy with dst and src the ranges dstAt and srcAt
// of one array of contents, placed as MaskCopy's dst, all of it writable,
// and the reference on a copy: what each did, and whether the call was in
// scope.
func (c *checker) overlapCase(contents []byte, dstAt, srcAt [2]int, key [4]byte) (got, want outcome, compared bool) {
	k := c.h.Call(cMaskCopy)
	defer k.End()
	all := k.Prefix(0, contents, 0, len(contents))
	dst, src := cut(all, dstAt), cut(all, srcAt)
	if equiv.Excluded(c.cfg, Input{Func: "MaskCopy", Payload: src, Dst: dst, Key: key}) {
		return got, want, false
	}
	refAll := bytes.Clone(contents)
	want = maskCopy(ref.MaskCopy, cut(refAll, dstAt), cut(refAll, srcAt), key, 0)
	got = c.callMaskCopy(k, dst, src, key, 0)
	return got, want, true
}

func panicString(p *equiv.Panic) string {
	if p == nil {
		return "no panic"
	}
	return fmt.Sprintf("panic(%v)", p.Value)
}

// readerContractLens are the payload lengths readerContract reads.
var readerContractLens = []int{0, 1, 5, 64, 1000}

// readerContract runs testing/iotest.TestReader, which checks io.Reader's
// contract the way the standard library checks its own readers (reads of
// every size, the end of the stream, and ReadAt and Seek if the reader
// has them), on a MaskReader over the masked RFC key payload of each of
// readerContractLens: the reference's first (the oracle must pass), then
// the implementation's.
func (c *checker) readerContract(r *equiv.Run) error {
	if c.impl.NewMaskReader == nil {
		return nil
	}
	for _, n := range readerContractLens {
		plain := make([]byte, n)
		markers(plain, n)
		wire := bytes.Clone(plain)
		ref.Mask(wire, rfcKey, 0)
		if err := iotest.TestReader(ref.NewMaskReader(bytes.NewReader(wire), rfcKey), plain); err != nil {
			return r.Errorf("reference MaskReader fails testing/iotest.TestReader on %d octets: %v: the oracle is wrong", n, err)
		}
		in := Input{Func: "MaskReader", Payload: wire, Key: rfcKey, Underlying: "bytes.Reader (iotest.TestReader)"}
		if equiv.Excluded(c.cfg, in) {
			continue
		}
		var err error
		p := equiv.Catch(func() {
			c.h.Note(cNewReader)
			err = iotest.TestReader(notedReader(c.h, c.impl.NewMaskReader(bytes.NewReader(wire), rfcKey)), plain)
		})
		if p != nil || err != nil {
			return r.Fail(&equiv.Counterexample{Func: "MaskReader", Input: wire, Args: fmt.Sprintf("key=%x under testing/iotest.TestReader", rfcKey),
				Got: fmt.Sprint(orPanic(err, p)), Want: "io.Reader's contract kept", Stack: equiv.StackOf(p), FuzzTarget: "FuzzMask",
				FuzzArgs: []any{bytes.Clone(wire), keyWord(rfcKey), 0, encodePlan(plan{})}})
		}
		r.Count(1)
	}
	return nil
}

// orPanic is err, or the panic p if there was one.
func orPanic(err error, p *equiv.Panic) any {
	if p != nil {
		return fmt.Sprintf("panic(%v)", p.Value)
	}
	return err
}
