package checksumtest_test

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// refImpl is the reference wired as an implementation under test.
var refImpl = checksumtest.Impl{
	Name:            "reference",
	Sum:             ref.Sum,
	Checksum:        ref.Checksum,
	Update:          ref.Update,
	New:             func() checksumtest.Digest { return ref.New() },
	Combine:         ref.Combine,
	Put:             ref.Put,
	PseudoHeaderSum: ref.PseudoHeaderSum,
	FinishUDP:       ref.FinishUDP,
	UpdateUDP:       ref.UpdateUDP,
	UpdateUDP6:      ref.UpdateUDP6,
	VerifyUDP:       ref.VerifyUDP,
}

// TestReference runs the suite on the reference itself: the RFC vectors
// check the oracle, and every method must compare a nonzero number of
// inputs and agree.
func TestReference(t *testing.T) {
	checksumtest.Test(t, refImpl)
}

// FuzzReference is the one-line fuzz target a user writes; plain "go
// test" runs it on the seed corpus.
func FuzzReference(f *testing.F) { checksumtest.Fuzz(f, refImpl) }

func FuzzReferenceParts(f *testing.F) {
	checksumtest.FuzzAll(f, []checksumtest.Impl{refImpl, {Name: "sum-only", Sum: ref.Sum}})
}

// results runs Check with opts and returns its error and each method's
// Result.
func results(impl checksumtest.Impl, opts ...equiv.Option) (map[string]equiv.Result, error) {
	res := map[string]equiv.Result{}
	err := checksumtest.Check(impl, append(opts, equiv.WithReport(func(r equiv.Result) { res[r.Method] = r }))...)
	return res, err
}

// only selects one method.
func only(method string) equiv.Option {
	return equiv.WithMethods(func(m string) bool { return m == method })
}

// TestCountsUnchanged is the refactor's proof: on a complete
// implementation, seed 1 at quick compares exactly as many inputs per
// method as the flat package did before the split, plus what the helpers
// (Combine, Put, PseudoHeaderSum, FinishUDP, UpdateUDP, UpdateUDP6,
// VerifyUDP) added on purpose, each domain named below
// (docs/equivalence.md, "The helpers").
func TestCountsUnchanged(t *testing.T) {
	const (
		// 46 worked examples (33 in the table, RFC 1071 §3 split at 9
		// offsets for Combine and 4 odd or extreme offsets) and VerifyUDP on
		// every truncation of 3 datagrams plus 3 junk bytes (14) × 3
		// alignments.
		helperVectors = 46 + 3*14*3
		// Issue 25's IPv4-mapped addresses: 10 more worked examples (5
		// PseudoHeaderSum, 5 VerifyUDP) and a fourth datagram at every
		// truncation, the zero-field one between mapped addresses.
		issue25Vectors = 10 + 14*3
		// Issue 32: RFC 1624 errata 4782's two no-op updates.
		issue32Vectors = 2
		// Combine: 256² near-end values × 8 offsets, and every next × 9
		// initials × 2 parities; FinishUDP: every sum; UpdateUDP and
		// UpdateUDP6: 64³ near-end triples, 4096 to-zero triples and 2^16
		// random ones, each to both; PseudoHeaderSum: 5² families × 4
		// address classes × 256 protocols × 14 lengths; VerifyUDP: 5²
		// families × 77 lengths × 5 segment classes × 2 alignments; Put:
		// every value into 2 bytes, and lengths 0..8 × 64 alignments × 5
		// values.
		helperExhaustive = 256*256*8 + 65536*9*2 + 65536 + 2*(64*64*64+4096+65536) +
			25*4*256*14 + 25*77*5*2 + 65536 + 9*64*5
		// Put on lengths 0..3 and VerifyUDP on lengths 0..768, at both edges.
		helperGuard = 4*2 + 769*2
		// 5 rapid properties and 7 gopter laws, 300 cases each.
		helperProperties = 5*300 + 7*300
		// Issue 8's domains: a sixth long input (4 MiB + 3) at 2 classes
		// × 2 alignments; every initial × content class × length of
		// crossLengths × 3 alignments; 2^10..2^16 ± 3 at 2 classes × 2
		// alignments, and every tail of 4 block sizes × 4 block counts;
		// Digests of 2^8 ± 1 writes in 2 patterns and of 2^16 ± 1 in one.
		issue8 = 2*2 + issue8Sum + 3*2 + 3
		// Issue 24's size gates (gates): 7 long lengths × 6 alignments
		// at Quick × (Sum, Checksum, and a Digest after an odd prefix of
		// 1, 3 and 63 bytes).
		issue24Gates = 7 * 6 * (2 + 3)
		// Issue 29's reuse (equiv.Again): every eighth input with a
		// buffer that passed (counted from a point each unit of a split
		// method fixes) is checked again, its octets complemented, at
		// the same address; which inputs that is follows from the
		// enumeration, so the number is fixed.
		issue29ReuseVectors, issue29ReuseExhaustive = 48, 153203
	)
	want := map[string]int64{
		// 247 -> 419 -> 471 -> 473 -> 521
		equiv.MethodVectors: 247 + helperVectors + issue25Vectors + issue32Vectors + issue29ReuseVectors,
		// 18956703 -> 21835793 -> 21843781 -> 21843991 -> 21997194
		equiv.MethodExhaustive: 18956703 + helperExhaustive + issue8 + issue24Gates + issue29ReuseExhaustive,
		equiv.MethodGuard:      3076 + helperGuard,      // 3076 -> 4622
		equiv.MethodProperties: 1900 + helperProperties, // 1900 -> 5500
		// Five seeds reach the helpers through the plan's helper section:
		// udp-ipv4-nat-update, udp-vxlan-no-checksum,
		// udp-ipv6-zero-checksum, pseudo-ipv6-jumbogram and (issue 25)
		// udp-ipv4-mapped-no-checksum.
		equiv.MethodCorpus: 6 + 5, // 6 -> 10 -> 11
	}
	checkCounts(t, refImpl, want)
}

// issue8Sum is what issue 8's exhaustive parts added for Sum: the
// crossing (9 initials × 7 contents × 31 lengths × 3 alignments), the
// width boundaries (7 powers × 7 offsets × 2 classes × 2 alignments) and
// the block tails ((32+64+128+256) × 4 block counts).
const issue8Sum = 9*7*31*3 + 7*7*2*2 + (32+64+128+256)*4

// TestPartialImplementation: an implementation with Sum alone checks only
// Sum, counts only what it compared, and says in every Result what it left
// out.
func TestPartialImplementation(t *testing.T) {
	want := map[string]int64{
		// The RFC sums, and Sum of every prefix at 3 alignments; 8 of them
		// checked again with other contents at the same address (issue 29).
		equiv.MethodVectors: 3 + (12+8+8)*3 + 8,
		// Short inputs, the grid without Checksum, long inputs, issue 8's,
		// issue 24's gates; 124174 of them checked again (issue 29).
		equiv.MethodExhaustive: 9*65793 + 769*64*8 + 6*2*2 + issue8Sum + 7*6 + 124174,
		equiv.MethodGuard:      769 * 2,     // every length at both edges, without Digest
		equiv.MethodProperties: 300 + 4*300, // rapid Sum and four laws: no Digest machine, no Update law
		equiv.MethodCorpus:     11,          // every seed compares Sum
	}
	res := checkCounts(t, checksumtest.Impl{Sum: ref.Sum}, want)
	// Every method lists the helpers it would check; the guard method only
	// those given a buffer.
	helpers := []string{"Combine: Impl.Combine is nil", "Put: Impl.Put is nil",
		"PseudoHeaderSum: Impl.PseudoHeaderSum is nil", "FinishUDP: Impl.FinishUDP is nil",
		"UpdateUDP: Impl.UpdateUDP is nil", "UpdateUDP6: Impl.UpdateUDP6 is nil", "VerifyUDP: Impl.VerifyUDP is nil"}
	every := append([]string{"Checksum: Impl.Checksum is nil", "Update: Impl.Update is nil", "New: Impl.New is nil"}, helpers...)
	unchecked := map[string][]string{
		equiv.MethodVectors:    every,
		equiv.MethodExhaustive: every,
		equiv.MethodGuard:      {"New: Impl.New is nil", "Put: Impl.Put is nil", "VerifyUDP: Impl.VerifyUDP is nil"},
		equiv.MethodProperties: append([]string{"Update: Impl.Update is nil", "New: Impl.New is nil"}, helpers...),
	}
	for m, u := range unchecked {
		if got := res[m].Unchecked; !slices.Equal(got, u) {
			t.Errorf("%s: Unchecked = %q, want %q", m, got, u)
		}
	}
	full, _ := results(refImpl, only(equiv.MethodVectors))
	if u := full[equiv.MethodVectors].Unchecked; len(u) != 0 {
		t.Errorf("complete implementation: Unchecked = %q, want none", u)
	}
}

// checkCounts runs impl with seed 1 at quick and compares each method's
// count with want (the guard count only where guard pages exist).
func checkCounts(t *testing.T, impl checksumtest.Impl, want map[string]int64) map[string]equiv.Result {
	t.Helper()
	res, err := results(impl, equiv.WithSeed(1))
	if err != nil {
		t.Fatal(err)
	}
	if equiv.GuardSkip() != "" {
		delete(want, equiv.MethodGuard)
	}
	for _, m := range slices.Sorted(maps.Keys(want)) {
		if got := res[m].Checked; got != want[m] {
			t.Errorf("%s compared %d inputs, want %d", m, got, want[m])
		}
	}
	return res
}

// TestNoFunction: an Impl with no function is one error naming it, not
// one per method; an Impl without Sum checks what it has (issue 32: Sum
// is no longer required), and a method that checks none of it is skipped.
func TestNoFunction(t *testing.T) {
	var reports int
	err := checksumtest.Check(checksumtest.Impl{}, equiv.WithReport(func(equiv.Result) { reports++ }))
	if errs := equiv.Flatten(err); len(errs) != 1 || errs[0].Error() != "checksumtest: every function of the Impl is nil" {
		t.Errorf("Check = %q, want the one error %q", errs, "checksumtest: every function of the Impl is nil")
	}
	if reports != 0 {
		t.Errorf("%d methods reported, want none", reports)
	}
	if err := checksumtest.CheckInput(checksumtest.Impl{}, nil, 0, nil); err == nil {
		t.Errorf("CheckInput with no function = nil, want an error")
	}
	res, err := results(checksumtest.Impl{Update: ref.Update},
		equiv.WithMethods(func(m string) bool { return m == equiv.MethodGuard || m == equiv.MethodExhaustive }))
	if err != nil {
		t.Fatalf("Update alone: %v", err)
	}
	if g := res[equiv.MethodGuard]; !strings.Contains(g.Skipped, "none of which the Impl has") {
		t.Errorf("Update alone: guard %q, want skipped", g.Skipped)
	}
	if e := res[equiv.MethodExhaustive]; e.Checked == 0 {
		t.Errorf("Update alone: the exhaustive method compared nothing")
	}
}

// TestConcurrentChecks checks one Suite value from two goroutines.
func TestConcurrentChecks(t *testing.T) {
	s := checksumtest.NewSuite(refImpl)
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			errs <- equiv.Check(s, equiv.WithMethods(func(m string) bool {
				return m == equiv.MethodVectors || m == equiv.MethodGuard || m == equiv.MethodCorpus
			}))
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestCheckInputMinimizes: a fuzz input is minimized, and names the pair
// and the method "fuzz".
func TestCheckInputMinimizes(t *testing.T) {
	data := append([]byte("hello, odd"), 0x80) // 11 bytes: dropOdd drops the 0x80
	dropOdd, _ := knownBad(t, "drop-odd-byte")
	err := checksumtest.CheckInput(dropOdd, data, 0x1234, nil)
	var ce *equiv.Counterexample
	if !errors.As(err, &ce) {
		t.Fatalf("CheckInput = %v, want a counterexample", err)
	}
	if ce.Pair != "checksum" || ce.Method != "fuzz" || ce.Func != "Sum" || len(ce.Input) != 1 || !strings.Contains(ce.Args, "initial=0x0000") {
		t.Errorf("counterexample %q/%q %s of %d bytes, want checksum/fuzz Sum of 1 byte onto 0: %v", ce.Pair, ce.Method, ce.Func, len(ce.Input), ce)
	}
	if err := checksumtest.CheckInput(refImpl, data, 0x1234, []byte{5, 2, 0, 3, 1, 0, 9, 1}); err != nil {
		t.Errorf("CheckInput(reference) = %v", err)
	}
}
