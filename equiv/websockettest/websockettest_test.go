package websockettest_test

import (
	"errors"
	"io"
	"math"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/websockettest"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

var reference = websockettest.Impl{Name: "reference", Mask: ref.Mask, MaskCopy: ref.MaskCopy,
	NewMaskReader: func(r io.Reader, key [4]byte) websockettest.MaskReader { return ref.NewMaskReader(r, key) },
	NewMaskWriter: func(w io.Writer, key [4]byte) websockettest.MaskWriter { return ref.NewMaskWriter(w, key) },
}

func TestReference(t *testing.T) {
	websockettest.Test(t, reference)
}

// report runs Check with opts and returns its error and each method's
// Result by name.
func report(impl websockettest.Impl, opts ...equiv.Option) (error, map[string]equiv.Result) {
	res := map[string]equiv.Result{}
	err := websockettest.Check(impl, append(opts, equiv.WithReport(func(r equiv.Result) { res[r.Method] = r }))...)
	return err, res
}

// checkedCounts returns each method's count, leaving out the guard method
// where guard pages are not implemented.
func checkedCounts(res map[string]equiv.Result) map[string]int64 {
	counts := map[string]int64{}
	for m, r := range res {
		if m == equiv.MethodGuard && equiv.GuardSkip() != "" {
			continue
		}
		counts[m] = r.Checked
	}
	return counts
}

// TestCountsUnchanged pins what each method compares at Quick with seed
// 1. It was the proof of the move to the new engine (every method compared
// exactly as many inputs as the old flat package's CheckMask did); the
// streamers' domain (MaskReader and MaskWriter, docs/equivalence.md) then
// grew it deliberately, each method by its streamed cases:
//
//	vectors      1246 → 1392     +146: "Hello" read in Reads of 1..6 over 5 readers, fresh and
//	                                   after a Reset (60), written in its 16 splits, likewise (32),
//	                                   9 failing readers and writers at offsets 0..5 (54)
//	exhaustive 992611 → 1024110  +31499: every split of 0..10 octets over 5 readers and 1 writer,
//	                                   fresh and after a Reset (12282); every split of 0..8 octets
//	                                   over 9 faults at every offset (18441); 96 lengths around
//	                                   multiples of 512 up to 16 KiB+1, 6 ways (576); 200 random
//	guard       18456 → 30760    +12304: lengths 0..768 × 2 edges × 4 phases × reader, writer
//	properties   1900 → 2100     +200: the MaskReader and MaskWriter state machines, 100 each
//	corpus          5 → 15       +10: each corpus input also read and written through them
//
// Issue 8's domains (domain.go) then grew exhaustive again:
//
//	exhaustive 1024110 → 1106190 +82080: 28 pos around ±2^31 and ±2^32 at lengths 0..768 (21532);
//	                                   66 boundary lengths × 4 and 2 × 2 past 4 MiB (268); 10 key
//	                                   classes × lengths 0..300 × 4 phases × 3 alignments (36120);
//	                                   64×64 alignment pairs at 5 lengths (20480); dst 8 slacks
//	                                   longer at lengths 0..300 (2408); overlap distances (1258);
//	                                   streams of 253..259 calls, read and written (14)
//
// and issue 12's prefetching loop past 1 MiB (optimized/websocket) grew it
// once more:
//
//	exhaustive 1106190 → 1106226 +36: 9 lengths at 2^20 and 2^20+1+32k, k = 0..7, × 2
//	                                   alignments, Mask and MaskCopy (farLens)
//
// and issue 24's contract layer grew vectors and exhaustive:
//
//	vectors      1392 → 1399     +7: MaskCopy with a dst both short and overlapping src, one
//	                                   behind and one ahead (2); testing/iotest.TestReader on a
//	                                   MaskReader over 0, 1, 5, 64 and 1000 octets (5)
//	exhaustive 1106226 → 1119711 +13485: every split of 0..10 octets also over a nested
//	                                   MaskReader and a nested MaskWriter, and after a warm-up
//	                                   through the same reader or writer and a Reset to it
//	                                   (24560 - 12282 = 12278); each overlap distance with a dst
//	                                   one short (1111); the 96 long payloads read in one Read (96)
//
// An Impl without the streamers compares what it did before (TestPartial),
// plus the Mask calls of the new parts (57936 = 21532 + 266 + 36120 + 18).
//
// Issue 29 made every call go through the harness (contracts), which
// checks every eighth input that passed again, its octets complemented,
// at the same address (equiv.Again): which inputs that is follows from
// the enumeration (and from how many calls the implementation's
// streamers make of a nested one), so the number is fixed. With the
// NoReuse knob the counts are the ones before. It also added the scale
// method (scale.go), whose count at seed 1 is fixed likewise:
//
//	vectors      1399 → 1512     +113: the reuse re-checks
//	exhaustive 1119711 → 1302543 +182832: the reuse re-checks
//	scale           — → 4005     the one-shot calls at the scale points of 88 sizes and the
//	                                   streams at each size, 2 × 1337 calls of the history and
//	                                   the Resets after it, 152 streams over the (n, err)
//	                                   family, 16 overlap rounds × 2 lanes × 6, and re-checks
func TestCountsUnchanged(t *testing.T) {
	err, res := report(reference, equiv.WithSeed(1))
	if err != nil {
		t.Fatal(err)
	}
	const issue29ReuseVectors, issue29ReuseExhaustive = 113, 182832
	want := map[string]int64{
		equiv.MethodVectors:    1399 + issue29ReuseVectors,
		equiv.MethodExhaustive: 1119711 + issue29ReuseExhaustive,
		equiv.MethodGuard:      30760,
		equiv.MethodProperties: 2100,
		equiv.MethodCorpus:     15,
		equiv.MethodScale:      4005,
	}
	if equiv.GuardSkip() != "" {
		delete(want, equiv.MethodGuard)
	}
	if got := checkedCounts(res); !reflect.DeepEqual(got, want) {
		t.Errorf("counts = %v, want %v", got, want)
	}
	for m, r := range res {
		if len(r.Unchecked) > 0 || len(r.Narrowed) > 0 {
			t.Errorf("%s: unchecked %q, narrowed %q; want the full domain", m, r.Unchecked, r.Narrowed)
		}
	}
}

// TestPartial: without MaskCopy and the streamers, Mask alone is checked,
// as many inputs as before the streamers existed, and every method says
// the others were not.
func TestPartial(t *testing.T) {
	err, res := report(websockettest.Impl{Mask: ref.Mask}, equiv.WithSeed(1))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{
		equiv.MethodVectors:    1246 - 9*4*8 - 8 + 32,               // no MaskCopy in the truncations, no panic cases; 32 reuse re-checks
		equiv.MethodExhaustive: 992611 - 769*64*4*2 + 57936 + 58065, // none in the grid; 58065 reuse re-checks
		equiv.MethodGuard:      18456 / 3,                           // Mask alone
		equiv.MethodProperties: 1900 - 300,                          // no MaskCopy law
		equiv.MethodCorpus:     5,
		equiv.MethodScale:      856, // Mask at the scale points, and in the overlap rounds
	}
	if equiv.GuardSkip() != "" {
		delete(want, equiv.MethodGuard)
	}
	if got := checkedCounts(res); !reflect.DeepEqual(got, want) {
		t.Errorf("counts = %v, want %v", got, want)
	}
	for _, m := range []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodGuard, equiv.MethodProperties, equiv.MethodScale, equiv.MethodCorpus} {
		if u := res[m].Unchecked; !slices.Equal(u, []string{"MaskCopy: Impl.MaskCopy is nil",
			"NewMaskReader: Impl.NewMaskReader is nil", "NewMaskWriter: Impl.NewMaskWriter is nil"}) {
			t.Errorf("%s: Unchecked = %q", m, u)
		}
	}
}

// TestNilMask: a nil Mask is one error naming it, not one per method.
func TestNilMask(t *testing.T) {
	n := 0
	err := websockettest.Check(websockettest.Impl{MaskCopy: ref.MaskCopy},
		equiv.WithReport(func(equiv.Result) { n++ }))
	if errs := equiv.Flatten(err); len(errs) != 1 || !strings.Contains(err.Error(), "Impl.Mask is nil") {
		t.Errorf("Check = %v, want one error naming Impl.Mask", err)
	}
	if n != 0 {
		t.Errorf("%d methods ran", n)
	}
	if err := websockettest.CheckInput(websockettest.Impl{}, nil, 0, 0, nil); err == nil || errors.Is(err, equiv.ErrMismatch) {
		t.Errorf("CheckInput = %v, want the nil-Mask error", err)
	}
}

// TestNilMaskTest: Test reports a nil Mask as one fatal error, before any
// subtest. It runs itself in a child process to see that.
func TestNilMaskTest(t *testing.T) {
	if os.Getenv("WEBSOCKETTEST_NIL_MASK") == "1" {
		websockettest.Test(t, websockettest.Impl{Name: "broken"})
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNilMaskTest$", "-test.v")
	cmd.Env = append(os.Environ(), "WEBSOCKETTEST_NIL_MASK=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the test passed:\n%s", out)
	}
	s := string(out)
	if strings.Count(s, "Impl.Mask is nil (broken)") != 1 || strings.Count(s, "--- FAIL") != 1 || strings.Contains(s, "=== RUN   TestNilMaskTest/") {
		t.Errorf("want one failure naming Impl.Mask and no subtest; got:\n%s", s)
	}
}

// Known-bad maskers, each with a bug seen in real masking code.

// maskWords is a word-at-a-time masker in the usual shape (8-byte body,
// byte tail) with switches for the bugs below.
func maskWords(b []byte, key [4]byte, pos int, bug string) int {
	p := pos & 3
	i := 0
	if bug == "preamble-wrong-key" {
		// Align the body to 8 bytes first, but then rotate the key by the
		// original pos, forgetting the preamble's length.
		addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		for ; i < len(b) && (addr+uintptr(i))%8 != 0; i++ {
			b[i] ^= key[(p+i)&3]
		}
		for ; i+8 <= len(b); i += 8 {
			for k := range 8 {
				b[i+k] ^= key[(p+k)&3]
			}
		}
	} else {
		for ; i+8 <= len(b); i += 8 {
			for k := range 8 {
				b[i+k] ^= key[(p+i+k)&3]
			}
		}
	}
	for ; i < len(b); i++ {
		if bug == "tail-ignores-pos" {
			b[i] ^= key[i&3]
		} else {
			b[i] ^= key[(p+i)&3]
		}
	}
	if bug == "write-past-end" && len(b) > 0 {
		// A SIMD store of a whole vector over a short tail.
		q := (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), len(b)))
		sinkByte = *q
		*q ^= 1
	}
	if bug == "wrong-rotation-odd" && len(b)%2 == 1 {
		return (pos + len(b) + 1) & 3
	}
	return (pos + len(b)) & 3
}

var sinkByte byte

func only(method string) equiv.Option {
	return equiv.WithMethods(func(m string) bool { return m == method })
}

func TestCatchesKnownBad(t *testing.T) {
	for _, tc := range []struct {
		bug    string
		method string
	}{
		{"wrong-rotation-odd", equiv.MethodVectors},
		{"tail-ignores-pos", equiv.MethodVectors},
		{"write-past-end", equiv.MethodVectors},
		{"write-past-end", equiv.MethodGuard},
		{"preamble-wrong-key", equiv.MethodExhaustive},
		{"tail-ignores-pos", equiv.MethodProperties},
	} {
		t.Run(tc.bug+"/"+tc.method, func(t *testing.T) {
			if tc.method == equiv.MethodGuard && equiv.GuardSkip() != "" {
				t.Skip(equiv.GuardSkip())
			}
			impl := websockettest.Impl{Mask: func(b []byte, key [4]byte, pos int) int { return maskWords(b, key, pos, tc.bug) }}
			err := websockettest.Check(impl, only(tc.method))
			if !errors.Is(err, equiv.ErrMismatch) {
				t.Fatalf("%s: method %s returned %v, want a mismatch", tc.bug, tc.method, err)
			}
			ces := equiv.Counterexamples(err)
			if len(ces) == 0 {
				t.Fatalf("no counterexample in %v", err)
			}
			t.Logf("caught: %v", ces[0])
			if tc.bug == "write-past-end" && tc.method == equiv.MethodGuard && ces[0].Stack == "" {
				t.Errorf("the fault's panic has no stack")
			}
		})
	}
	// The correct shape of the same code passes the methods above, so the
	// bugs are what they caught.
	methods := equiv.WithMethods(func(m string) bool { return m != equiv.MethodScale && m != equiv.MethodCorpus })
	err := websockettest.Check(websockettest.Impl{Mask: func(b []byte, key [4]byte, pos int) int { return maskWords(b, key, pos, "") }}, methods)
	if err != nil {
		t.Fatalf("the bug-free word masker failed: %v", err)
	}
}

// TestMinimized: counterexamples come minimized, from every kind of check.
func TestMinimized(t *testing.T) {
	tailBug := func(b []byte, key [4]byte, pos int) int { return maskWords(b, key, pos, "tail-ignores-pos") }
	for _, method := range []string{equiv.MethodVectors, equiv.MethodExhaustive, equiv.MethodProperties} {
		err := websockettest.Check(websockettest.Impl{Mask: tailBug}, only(method))
		ces := equiv.Counterexamples(err)
		if len(ces) != 1 {
			t.Fatalf("%s: %v, want one counterexample", method, err)
		}
		// A few zero bytes at a phase other than 0 show the bug (one, for
		// a key whose octets differ).
		if in := ces[0].Input; len(in) > 4 || len(in) == 0 || slices.ContainsFunc(in, func(b byte) bool { return b != 0 }) {
			t.Errorf("%s: not minimized: %v", method, ces[0])
		}
	}
}

// lax is a MaskCopy that checks the length but not the overlap rule.
func lax(dst, src []byte, key [4]byte, pos int) int {
	if len(dst) < len(src) {
		panic("websocket: MaskCopy: dst shorter than src")
	}
	for i := range src {
		dst[i] = src[i] ^ key[(pos+i)&3]
	}
	return (pos + len(src)) & 3
}

// TestMaskCopyOverlapRule: a MaskCopy that accepts an inexact overlap
// disagrees with the reference, which panics; declaring inexact overlaps
// out of scope lets it pass, and says so.
func TestMaskCopyOverlapRule(t *testing.T) {
	impl := websockettest.Impl{Mask: ref.Mask, MaskCopy: lax}
	err := websockettest.Check(impl, only(equiv.MethodVectors))
	if !errors.Is(err, equiv.ErrMismatch) {
		t.Fatalf("got %v, want a mismatch", err)
	}
	noOverlapCheck := websockettest.Exclude("inexact overlap", func(in websockettest.Input) bool {
		return in.Func == "MaskCopy" && inexactOverlap(in.Dst[:min(len(in.Dst), len(in.Payload))], in.Payload)
	})
	err, res := report(impl, only(equiv.MethodVectors), noOverlapCheck)
	if err != nil {
		t.Fatalf("with the overlap excluded: %v", err)
	}
	if n := res[equiv.MethodVectors].Narrowed; !slices.Equal(n, []string{`excluded "inexact overlap": 4 inputs`}) {
		t.Errorf("Narrowed = %q", n)
	}
}

func inexactOverlap(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 || &x[0] == &y[0] {
		return false
	}
	px, py := uintptr(unsafe.Pointer(&x[0])), uintptr(unsafe.Pointer(&y[0]))
	return px < py+uintptr(len(y)) && py < px+uintptr(len(x))
}

// TestAnyPanic: a MaskCopy that panics where the reference does, with
// another message, fails by default and passes with equiv.AnyPanic.
func TestAnyPanic(t *testing.T) {
	own := func(dst, src []byte, key [4]byte, pos int) int {
		if len(dst) < len(src) {
			panic("mask: short buffer")
		}
		if inexactOverlap(dst[:len(src)], src) {
			panic("mask: overlap")
		}
		return lax(dst, src, key, pos)
	}
	impl := websockettest.Impl{Mask: ref.Mask, MaskCopy: own}
	err := websockettest.Check(impl, only(equiv.MethodVectors))
	ces := equiv.Counterexamples(err)
	if len(ces) != 1 || ces[0].Stack == "" || !strings.Contains(ces[0].Got, "mask: short buffer") {
		t.Fatalf("got %v, want a counterexample with the panic and its stack", err)
	}
	err, res := report(impl, equiv.AnyPanic())
	if err != nil {
		t.Fatalf("with AnyPanic: %v", err)
	}
	for m, r := range res {
		if !slices.ContainsFunc(r.Narrowed, func(s string) bool { return strings.Contains(s, "AnyPanic") }) {
			t.Errorf("%s: Narrowed = %q, want AnyPanic listed", m, r.Narrowed)
		}
	}
}

// gobwasLike takes the key octet as gobwas/ws's Cipher does for 16 octets
// and more, from pos%4: right for every pos >= 0, and an index out of
// range for most negative ones. (Under 16 octets Cipher uses (pos+i)%4,
// which overflows past math.MaxInt too: cipherLike.)
func gobwasLike(b []byte, key [4]byte, pos int) int {
	p := pos % 4
	for i := range b {
		b[i] ^= key[(p+i)%4]
	}
	return (p + len(b)) & 3
}

// TestNonNegativePos: a masker that panics on a negative position fails
// by default and passes with NonNegativePos, which reports what it left
// out.
func TestNonNegativePos(t *testing.T) {
	impl := websockettest.Impl{Mask: gobwasLike}
	err := websockettest.Check(impl, equiv.WithSeed(1))
	ces := equiv.Counterexamples(err)
	if len(ces) == 0 || !strings.Contains(ces[0].Args, "pos=-") || ces[0].Stack == "" {
		t.Fatalf("got %v, want a counterexample at a negative pos, with the stack", err)
	}
	err, res := report(impl, equiv.WithSeed(1), websockettest.NonNegativePos())
	if err != nil {
		t.Fatalf("with NonNegativePos: %v", err)
	}
	for _, m := range []string{equiv.MethodExhaustive, equiv.MethodProperties} {
		n := res[m].Narrowed
		if len(n) != 1 || !strings.HasPrefix(n[0], `excluded "negative pos": `) || strings.HasSuffix(n[0], ": 0 inputs") {
			t.Errorf("%s: Narrowed = %q, want the negative positions counted", m, n)
		}
	}
	if res[equiv.MethodProperties].Checked != 1900-300 {
		// The excluded cases are drawn again or discarded, not counted.
		t.Errorf("properties compared %d, want 1600", res[equiv.MethodProperties].Checked)
	}
}

// cipherLike takes the key octet as gobwas/ws's Cipher does for payloads
// under 16 octets, from (pos+i)%4: right for every pos >= 0 until pos+i
// overflows int, an index out of range for most negative pos and past
// math.MaxInt.
func cipherLike(b []byte, key [4]byte, pos int) int {
	for i := range b {
		b[i] ^= key[(pos+i)%4]
	}
	return (pos + len(b)) & 3
}

// TestStreamOffsetPos: a masker that computes pos+i in an int panics past
// math.MaxInt, which NonNegativePos leaves in; StreamOffsetPos leaves out
// those calls too, reports both exclusions, and keeps the last offsets
// that fit (pos = math.MaxInt - len(b) + 1) in.
func TestStreamOffsetPos(t *testing.T) {
	impl := websockettest.Impl{Mask: cipherLike}
	err := websockettest.Check(impl, equiv.WithSeed(1), websockettest.NonNegativePos(), only(equiv.MethodExhaustive))
	ces := equiv.Counterexamples(err)
	if len(ces) != 1 || !strings.Contains(ces[0].Args, "pos=922337203685477580") || !strings.Contains(ces[0].Got, "index out of range") {
		t.Fatalf("with NonNegativePos: %v, want a panic near pos=math.MaxInt", err)
	}
	err, res := report(impl, equiv.WithSeed(1), websockettest.StreamOffsetPos())
	if err != nil {
		t.Fatalf("with StreamOffsetPos: %v", err)
	}
	for _, m := range []string{equiv.MethodExhaustive, equiv.MethodProperties} {
		n := res[m].Narrowed
		if len(n) != 2 || !strings.HasPrefix(n[0], `excluded "negative pos": `) ||
			!strings.HasPrefix(n[1], `excluded "octet offset pos+len(b)-1 past math.MaxInt": `) ||
			strings.HasSuffix(n[0], ": 0 inputs") || strings.HasSuffix(n[1], ": 0 inputs") {
			t.Errorf("%s: Narrowed = %q, want both exclusions counted", m, n)
		}
	}
	for n := 1; n <= 20; n++ {
		b := make([]byte, n)
		if err := websockettest.CheckInput(impl, b, 0x37fa213d, math.MaxInt-n+1, nil); err != nil {
			t.Errorf("len %d at pos MaxInt-%d: %v", n, n-1, err)
		}
	}
}

// TestMapErrors: masking has no errors to map, so MapErrors changes no
// verdict, but every Result says it was given.
func TestMapErrors(t *testing.T) {
	mapped := equiv.MapErrors(func(err error) error { return err })
	err, res := report(reference, only(equiv.MethodVectors), mapped)
	if err != nil {
		t.Fatal(err)
	}
	if n := res[equiv.MethodVectors].Narrowed; !slices.Equal(n, []string{"errors mapped by MapErrors"}) {
		t.Errorf("Narrowed = %q", n)
	}
}

// TestCheckInput: a fuzz input's counterexample is minimized and replays
// through FuzzMask.
func TestCheckInput(t *testing.T) {
	if err := websockettest.CheckInput(reference, []byte("Hello"), 0x37fa213d, 0, nil); err != nil {
		t.Fatal(err)
	}
	bad := websockettest.Impl{Mask: func(b []byte, key [4]byte, pos int) int { return maskWords(b, key, pos, "tail-ignores-pos") }}
	err := websockettest.CheckInput(bad, []byte("Hello, world"), 0x37fa213d, 3, []byte{5, 0, 0})
	var ce *equiv.Counterexample
	if !errors.As(err, &ce) || ce.Pair != "websocket" || ce.Method != "fuzz" || len(ce.Input) != 1 {
		t.Fatalf("got %v, want a minimized websocket/fuzz counterexample", err)
	}
	if ce.FuzzTarget != "FuzzMask" || len(ce.FuzzArgs) != 4 {
		t.Fatalf("fuzz form %s %v", ce.FuzzTarget, ce.FuzzArgs)
	}
	a := ce.FuzzArgs
	if err := websockettest.CheckInput(bad, a[0].([]byte), a[1].(uint32), a[2].(int), a[3].([]byte)); err == nil {
		t.Errorf("the fuzz form %v does not reproduce %v", a, ce)
	}
}

// FuzzMask is the one-line fuzz target of the package doc, on the
// reference; "go test" replays its seeds.
func FuzzMask(f *testing.F) { websockettest.Fuzz(f, reference) }

// TestConcurrent: one Suite checked from two goroutines at once (run with
// -race to see that methods share no state).
func TestConcurrent(t *testing.T) {
	s := websockettest.NewSuite(reference)
	cheap := equiv.WithMethods(func(m string) bool {
		return m != equiv.MethodExhaustive && m != equiv.MethodGuard && m != equiv.MethodScale
	})
	errs := make(chan error, 2)
	for range 2 {
		go func() { errs <- equiv.Check(s, cheap) }()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
