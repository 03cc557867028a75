package equiv_test

import (
	"bytes"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv"
)

// at returns a pointer to the octet off bytes from b's first (which may lie
// outside b).
func at(b []byte, off int) *byte {
	return (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), off))
}

// rmw reads the octet at p and writes it back, as a wide load and store
// over octets a function does not own do: canaries cannot see it.
func rmw(p *byte) *equiv.Panic { return equiv.Catch(func() { *p = same(*p) }) }

// same returns v, out of the compiler's sight, so that rmw's store of the
// octet it loaded is not eliminated.
//
//go:noinline
func same(v byte) byte { return v }

// needFaultAddr skips t where a fault's address is not reported, so that
// no Fault can say where it was: qemu-arm's user-mode emulation gives none
// for a write to a read-only page (the runtime then panics with a plain
// nil-dereference error), where Linux on an ARM core gives it.
func needFaultAddr(t *testing.T) {
	t.Helper()
	if equiv.ReadOnlySkip() != "" {
		return
	}
	var buf equiv.Buffer
	defer buf.Release()
	b := buf.Input([]byte{1}, 0)
	// No panic at all is left to the test (a writable read-only view is
	// its failure); a panic that is no Fault means no address.
	if p := rmw(&b[0]); p != nil {
		if _, ok := equiv.PanicValue(p).(*equiv.Fault); !ok {
			t.Skip("this system reports no address for a memory fault (qemu-arm?): a Fault cannot be described")
		}
	}
}

// faultSays reports whether p is a *Fault whose description contains s.
//
// On s390x, which reports the page of a fault and not its byte, the
// distance that starts s ("1 bytes past the end") is not in the message,
// and only the rest of s is looked for.
func faultSays(p *equiv.Panic, s string) bool {
	f, ok := equiv.PanicValue(p).(*equiv.Fault)
	if runtime.GOARCH == "s390x" {
		s = strings.TrimPrefix(s, "1 bytes ")
	}
	return ok && strings.Contains(f.What, s)
}

// TestEdges: each length meets each Edge at the one alignment that puts a
// page boundary where it belongs, and a read-modify-write of an octet
// just outside the writable range faults there, naming the distance; a
// read past an input flush against an unmapped page faults too.
func TestEdges(t *testing.T) {
	if why := equiv.EdgeSkip(); why != "" {
		t.Skip(why)
	}
	needFaultAddr(t)
	var buf equiv.Buffer
	defer buf.Release()
	for n := 1; n <= 300; n++ {
		seen := map[equiv.Edge]bool{}
		for align := range 64 {
			b := buf.Place(bytes.Repeat([]byte{1}, n), align)
			lay := buf.Layout()
			seen[lay.Edge] = true
			switch lay.Edge {
			case equiv.ReadOnlyAfter:
				if p := rmw(at(b, n)); !faultSays(p, "1 bytes past the end of the range it may write") {
					t.Fatalf("Place(len=%d align=%d) %v: a write-back past the end: %v", n, align, lay, p)
				}
			case equiv.ReadOnlyBefore:
				if p := rmw(at(b, -1)); !faultSays(p, "1 bytes before the start of the range it may write") {
					t.Fatalf("Place(len=%d align=%d) %v: a write-back before the start: %v", n, align, lay, p)
				}
			case equiv.GuardAfter:
				if p := equiv.Catch(func() { _ = same(*at(b, n)) }); !faultSays(p, "1 bytes past the buffer's end") {
					t.Fatalf("Place(len=%d align=%d) %v: a read past the end: %v", n, align, lay, p)
				}
			case equiv.GuardBefore:
				if p := equiv.Catch(func() { _ = same(*at(b, -1)) }); !faultSays(p, "1 bytes before the buffer") {
					t.Fatalf("Place(len=%d align=%d) %v: a read before the start: %v", n, align, lay, p)
				}
			}
			if !bytes.Equal(b, bytes.Repeat([]byte{1}, n)) || !buf.Intact() || int(equiv.AddrOf(b)%64) != align {
				t.Fatalf("Place(len=%d align=%d) %v: holds %x, intact %v, at %d", n, align, lay, b, buf.Intact(), equiv.AddrOf(b)%64)
			}
			for i := range b {
				b[i] = 2 // the whole slice is writable
			}
		}
		after := seen[equiv.ReadOnlyAfter] || seen[equiv.GuardAfter]
		before := seen[equiv.ReadOnlyBefore] || seen[equiv.GuardBefore]
		if n%64 != 0 && (!before || !after) || n%64 == 0 && before == after {
			t.Fatalf("len=%d: edges %v over the alignments", n, seen)
		}
		in := buf.Input(make([]byte, n), -n&63)
		if lay := buf.Layout(); lay.Edge != equiv.GuardAfter && lay.Edge != equiv.GuardBefore || !lay.ReadOnly {
			t.Fatalf("Input(len=%d align=%d): %v, want read-only against an unmapped page", n, -n&63, lay)
		}
		if p := equiv.Catch(func() { _ = same(*at(in, n)) }); buf.Layout().Edge == equiv.GuardAfter && p == nil {
			t.Fatalf("Input(len=%d): a read past the end did not fault", n)
		}
	}
}

var (
	putContract    = equiv.Contract{Func: "Put", Params: []equiv.Param{{Name: "b", Access: equiv.WritesPrefix}}}
	appendContract = equiv.Contract{Func: "Append", Params: []equiv.Param{{Name: "b", Access: equiv.Appends}}, Fresh: true}
	sumContract    = equiv.Contract{Func: "Sum", Params: []equiv.Param{{Name: "b", Access: equiv.Reads}}}
)

// TestHarnessPrefix: a slice the function writes a prefix of may not be
// written past it: a change there is "modified b", a write-back faults
// where the prefix ends at a read-only page.
func TestHarnessPrefix(t *testing.T) {
	if why := equiv.EdgeSkip(); why != "" {
		t.Skip(why) // no read-only octets to fault on here
	}
	needFaultAddr(t)
	h := equiv.NewHarness(equiv.NewConfig())
	defer h.Release()
	faults, changes := 0, 0
	for align := range 64 {
		k := h.Call(&putContract)
		b := k.Prefix(0, []byte{1, 2, 3, 4, 5}, align, 2)
		if p := rmw(&b[2]); p != nil {
			if !faultSays(p, "past the end of the range it may write") {
				t.Fatalf("align=%d: %v", align, p)
			}
			faults++
			k.End()
			continue
		}
		b[0], b[1] = 9, 9
		if f := k.Flaw(); f != "" {
			t.Fatalf("align=%d: writing the prefix: %q", align, f)
		}
		if p := equiv.Catch(func() { b[3] = 0 }); p != nil {
			t.Fatalf("align=%d %v: writing b[3] faulted: %v", align, k.Layout(0), p)
		}
		if f := k.Flaw(); f != "modified b" {
			t.Fatalf("align=%d: writing past the prefix: %q, want modified b", align, f)
		}
		changes++
		k.End()
	}
	if faults == 0 || changes == 0 {
		t.Errorf("%d faults, %d changes seen over the alignments", faults, changes)
	}
}

// TestHarnessAppend: the append schedule gives every spare capacity from
// 0 to 8 and exactly the octets appended; the room may be written in
// place, up to the octets appended, and nothing else: not past them, not
// the prefix.
func TestHarnessAppend(t *testing.T) {
	h := equiv.NewHarness(equiv.NewConfig())
	defer h.Release()
	const w = 4
	spares := map[int]bool{}
	for align := range 64 {
		for n := range 8 {
			k := h.Call(&appendContract)
			b := k.Append(0, bytes.Repeat([]byte{7}, n), align, w)
			spare := cap(b) - len(b)
			spares[spare] = true
			room := b[len(b):min(cap(b), len(b)+w)]
			for i := range room {
				room[i] = 1 // as appends in place, octet by octet, do
			}
			if f := k.Flaw(); f != "" {
				t.Fatalf("len=%d align=%d spare %d: writing the room in place: %q", n, align, spare, f)
			}
			if n > 0 {
				if p := equiv.Catch(func() { b[0] = 9 }); p == nil && k.Flaw() != "modified b" {
					t.Fatalf("len=%d align=%d: a write to the prefix went unseen", n, align)
				}
			}
			if spare > w {
				if p := equiv.Catch(func() { b[:n+w+1][n+w] = 0 }); p == nil && k.Flaw() != "wrote outside b" {
					t.Fatalf("len=%d align=%d: a write past the appended octets went unseen", n, align)
				}
			}
			k.End()
		}
	}
	for s := range 9 {
		if !spares[s] {
			t.Errorf("no append placement had spare capacity %d (saw %v)", s, spares)
		}
	}
}

// TestHarnessAppendRoomReadable: an append's spare capacity is the
// caller's array, so reading all of it never faults, also where nothing
// is appended and the slice meets a page at its end: slices.Grow, which
// hex.AppendDecode calls before it finds an invalid digit, copies
// s[:cap(s)] when the room is short, and faulted there.
func TestHarnessAppendRoomReadable(t *testing.T) {
	h := equiv.NewHarness(equiv.NewConfig())
	defer h.Release()
	for n := range 300 {
		for align := range 64 {
			k := h.Call(&appendContract)
			b := k.Append(0, bytes.Repeat([]byte{7}, n), align, 0)
			if p := equiv.Catch(func() { _ = bytes.Clone(b[:cap(b)]) }); p != nil {
				t.Fatalf("len=%d %v: reading the room: %v", n, k.Layout(0), p)
			}
			k.End()
		}
	}
}

// TestHarnessCounts: a method's Result counts the mechanisms its calls
// had, per function, and CheckContracts finds what a contract calls for
// and no call had, and a function with no contract.
func TestHarnessCounts(t *testing.T) {
	if why := equiv.ReadOnlySkip() + equiv.GuardSkip(); why != "" {
		t.Skip(why) // the read-only and guard mechanisms are not there to count
	}
	type impl struct {
		Sum    func([]byte) uint16
		Append func([]byte) []byte
	}
	suite := equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: "m", Func: func(r *equiv.Run) error {
		h := equiv.NewHarness(r.Config())
		defer h.Release()
		for align := range 64 {
			k := h.Call(&sumContract)
			b := k.Bytes(0, []byte{1, 2, 3}, align)
			k.Do(func() { _ = b[0] })
			k.End()
			r.Count(1)
		}
		return nil
	}}}}
	var results []equiv.Result
	if err := equiv.Check(suite, equiv.WithReport(func(r equiv.Result) { results = append(results, r) })); err != nil {
		t.Fatal(err)
	}
	got := map[equiv.Mechanism]int64{}
	for _, a := range results[0].Applied {
		got[a.Mechanism] += a.Calls
	}
	if got[equiv.MechReadOnly] != 64 || got[equiv.MechPoison] != 64 || got[equiv.MechGuard] == 0 || got[equiv.MechSpare] == 0 {
		t.Errorf("applied %v", results[0].Applied)
	}
	err := equiv.CheckContracts(impl{}, []equiv.Contract{sumContract}, results)
	for _, want := range []string{"Append: no Contract declared", "Sum: the contract calls for reuse", "Sum: the contract calls for scale"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckContracts = %v, want %q", err, want)
		}
	}
	if err != nil && strings.Contains(err.Error(), "Sum: the contract calls for readonly") {
		t.Errorf("CheckContracts = %v: readonly was applied", err)
	}
}

// TestAgainSameOnEveryShard: the inputs Again re-checks in a Split
// method's unit are the same whether the whole run or a shard runs the
// unit, and whatever came before it on its lane (a call made once and
// kept, as a probe of what the implementation has, included), so that
// the shards' counts add up to the whole's.
func TestAgainSameOnEveryShard(t *testing.T) {
	c := &equiv.Contract{Func: "F", Params: []equiv.Param{{Name: "b"}}}
	var mu sync.Mutex
	rechecked := map[int]bool{}
	s := equiv.Suite{Pair: "toy", Methods: []equiv.Method{{Name: "split", Split: true, Lanes: true, Func: func(r *equiv.Run) error {
		h := equiv.NewHarness(r.Config())
		probed := false
		for unit := range 12 {
			if !r.Mine(unit) {
				continue
			}
			if !probed {
				probed = true
				k := h.Call(c) // a probe, made once per lane
				k.End()
			}
			for i := range 10 + unit {
				in := unit*100 + i
				_, again := equiv.Again(h, in, func(v int) (int, bool) { return v, true }, func(v int) *equiv.Counterexample {
					mu.Lock()
					rechecked[v] = true
					mu.Unlock()
					return nil
				})
				r.Count(1 + map[bool]int{true: 1}[again])
			}
		}
		return nil
	}}}}
	whole, err := results(s)
	if err != nil {
		t.Fatal(err)
	}
	all := map[int]bool{}
	for v := range rechecked {
		all[v] = true
	}
	clear(rechecked)
	var sum int64
	for k := 1; k <= 5; k++ {
		rs, err := results(s, equiv.WithShard(k, 5))
		if err != nil {
			t.Fatal(err)
		}
		sum += rs[0].Checked
	}
	if sum != whole[0].Checked || !reflect.DeepEqual(all, rechecked) || len(all) == 0 {
		t.Errorf("5 shards counted %d and re-checked %v; the whole run %d and %v", sum, rechecked, whole[0].Checked, all)
	}
}
