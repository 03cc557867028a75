package checksumtest

import (
	"io/fs"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/equivcheck/equivcheck/corpus"
	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// The seed files written before the helper section existed must decode
// as they always did: no helper section, the same alignment, splits and
// update triple.
func TestOldPlansHaveNoHelperSection(t *testing.T) {
	old := map[string]plan{
		"empty":                  {},
		"ipv4-header-ttl-update": {update: &[3]uint16{0xb861, 0x4011, 0x3f11}},
		"ones-odd-splits":        {align: 1, splits: []int{1, 33}},
		"rfc1071-sec3":           {splits: []int{3, 5, 7}, update: &[3]uint16{0xdd2f, 0x5555, 0x3285}},
		"rfc1624-sec4":           {update: &[3]uint16{0xdd2f, 0x5555, 0x3285}},
		"zeros-align63":          {align: 63},
	}
	target := fuzzTarget(Impl{})
	entries, err := equiv.LoadCorpus(target, corpus.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, e := range entries {
		want, ok := old[strings.TrimPrefix(e.File, "checksum/")]
		if !ok {
			continue
		}
		seen++
		p := decodePlan(e.Values[2].([]byte), len(e.Values[0].([]byte)))
		if p.words != nil || p.addrs != nil || p.align != want.align || !slices.Equal(p.splits, want.splits) ||
			(p.update == nil) != (want.update == nil) || (p.update != nil && *p.update != *want.update) {
			t.Errorf("%s decodes to %+v, want %+v", e.File, p, want)
		}
	}
	if seen != len(old) {
		t.Errorf("found %d of the %d old seed files", seen, len(old))
	}
	if _, err := fs.Stat(corpus.FS, "checksum/udp-ipv6-zero-checksum"); err != nil {
		t.Errorf("the helper seeds are missing: %v", err)
	}
}

// TestPlanHelpersRoundTrip: the helper section encodes and decodes every
// family, offset and length.
func TestPlanHelpersRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := &wordArgs{next: rapid.Uint16().Draw(t, "next"), offset: rapid.Int().Draw(t, "offset")}
		var a *addrArgs
		if rapid.Bool().Draw(t, "addrs") {
			draw := func(label string) netip.Addr {
				f := family(rapid.IntRange(0, int(numFamilies)-1).Draw(t, label+" family"))
				return addrOf(f, [16]byte(rapid.SliceOfN(rapid.Byte(), 16, 16).Draw(t, label)))
			}
			a = &addrArgs{src: draw("src"), dst: draw("dst"), proto: rapid.Uint8().Draw(t, "proto"), length: rapid.Uint32().Draw(t, "length")}
		}
		p := decodePlan(encodePlan(plan{align: 7, words: w, addrs: a}), 10)
		if p.update == nil || *p.update != [3]uint16{} || p.words == nil || *p.words != *w {
			t.Fatalf("words %+v decode to update %v, words %+v", w, p.update, p.words)
		}
		if (a == nil) != (p.addrs == nil) || (a != nil && *a != *p.addrs) {
			t.Fatalf("addresses %+v decode to %+v", a, p.addrs)
		}
	})
}

// TestHelperFuzzArgsReplay: every helper's Input, as fuzz arguments,
// decodes to the same coordinates.
func TestHelperFuzzArgsReplay(t *testing.T) {
	for _, v := range helperVectors() {
		in := v.in
		args := in.fuzzArgs()
		data, initial := args[0].([]byte), args[1].(uint16)
		p := decodePlan(args[2].([]byte), len(data))
		if !slices.Equal(data, in.Data) || p.words == nil {
			t.Errorf("%s: fuzz args %v decode to %x, %+v", in.Func, args, data, p)
			continue
		}
		var got Input
		switch in.Func {
		case "Combine":
			got = Input{Func: in.Func, Initial: initial, Value: p.words.next, Offset: p.words.offset}
		case "FinishUDP":
			got = Input{Func: in.Func, Initial: initial}
		case "Put":
			got = Input{Func: in.Func, Data: data, Value: p.words.next}
		case "UpdateUDP", "UpdateUDP6":
			got = Input{Func: in.Func, Update: *p.update}
		case "PseudoHeaderSum":
			got = Input{Func: in.Func, Src: p.addrs.src, Dst: p.addrs.dst, Proto: p.addrs.proto, Length: p.addrs.length}
		case "VerifyUDP":
			got = Input{Func: in.Func, Data: data, Src: p.addrs.src, Dst: p.addrs.dst}
		}
		if wantOf(got) != wantOf(in) || got.helperArgs(aligned(0)) != in.helperArgs(aligned(0)) {
			t.Errorf("%s(%s) replays as %s(%s)", in.Func, in.helperArgs(aligned(0)), got.Func, got.helperArgs(aligned(0)))
		}
	}
}

// TestToZero: the to-zero class reaches Eqn. 3's 0x0000 result, the one
// the UDP rule rewrites. (Where nothing changes in a field of 0xFFFF,
// ref.Update returns it as it is, RFC 1624 errata 4782, and Eqn. 3 gives
// 0x0000; the UDP rule gives 0xFFFF there either way.)
func TestToZero(t *testing.T) {
	for _, hc := range nearEnds(64) {
		for _, m := range nearEnds(64) {
			for _, m2 := range toZero(hc, m) {
				got := ref.Update(hc, m, m2)
				if unchangedFFFF([3]uint16{hc, m, m2}) {
					got = ^onesAdd(onesAdd(^hc, ^m), m2) // Eqn. 3 itself
				}
				if got != 0 {
					t.Fatalf("Update(%#04x, %#04x, %#04x) = %#04x, want 0", hc, m, m2, got)
				}
			}
		}
	}
}

// TestFamilies: addrOf and familyOf agree, and each family is the class
// the reference tells apart.
func TestFamilies(t *testing.T) {
	b := [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	for f := range numFamilies {
		a := addrOf(f, b)
		g, _ := familyOf(a)
		if g != f {
			t.Errorf("addrOf(%v) = %v, of family %v", f, a, g)
		}
		if gb := addrOf(familyOf(a)); gb != a {
			t.Errorf("%v does not round-trip: %v", a, gb)
		}
	}
	if a := addrOf(famMapped, b); !a.Is6() || !a.Is4In6() || a.Unmap() != netip.AddrFrom4([4]byte{13, 14, 15, 16}) {
		t.Errorf("mapped address %v", a)
	}
}
