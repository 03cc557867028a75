package equiv_test

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv"
)

// TestBuffer: every placement is at its alignment with its layout's spare
// capacity, holds the data, and sees a write one byte past its end (in the
// canaries, or as a fault where the slice lies flush against a read-only
// or unmapped page).
func TestBuffer(t *testing.T) {
	var buf equiv.Buffer
	for align := range 64 {
		for n := 1; n <= 9; n++ {
			data := bytes.Repeat([]byte{7}, n)
			b := buf.Place(data, align)
			lay := equiv.LayoutOf(n, align)
			if int(equiv.AddrOf(b)%64) != align || cap(b) != n+lay.Spare || !bytes.Equal(b, data) || !buf.Intact() {
				t.Fatalf("Place(len=%d align=%d): %v at %d, cap %d, want %v", n, align, b, equiv.AddrOf(b)%64, cap(b), lay)
			}
			past := (*byte)(unsafe.Add(unsafe.Pointer(&b[0]), n)) // one byte past the end
			if p := equiv.Catch(func() { *past = 0 }); p == nil && buf.Intact() {
				t.Fatalf("Place(len=%d align=%d): a write past the end went unseen", n, align)
			}
		}
	}
}

// TestLayoutSchedule: over the alignments, every length takes every spare
// capacity, none included; an empty slice is nil, empty, and empty with
// room.
func TestLayoutSchedule(t *testing.T) {
	for n := 1; n < 300; n++ {
		spares := map[int]bool{}
		for align := range 64 {
			spares[equiv.LayoutOf(n, align).Spare] = true
		}
		if len(spares) != 6 || !spares[0] || !spares[1] || !spares[64] {
			t.Fatalf("len=%d takes spare capacities %v over the alignments, want 0, 1, 7, 8, 31 and 64", n, spares)
		}
	}
	var sawNil, sawEmpty, sawRoom bool
	var buf equiv.Buffer
	for align := range 64 {
		b := buf.Input(nil, align)
		switch {
		case b == nil:
			sawNil = true
		case cap(b) == 0:
			sawEmpty = true
		default:
			sawRoom = true
		}
		if lay := buf.Layout(); (b == nil) != lay.Nil || cap(b) != lay.Spare {
			t.Errorf("align=%d: %v, cap %d, layout %v", align, b == nil, cap(b), lay)
		}
	}
	if !sawNil || !sawEmpty || !sawRoom {
		t.Errorf("empty inputs: nil %v, empty %v, with room %v; want all three", sawNil, sawEmpty, sawRoom)
	}
}

// TestInputReadOnly: a write to an Input faults, and Catch names the
// offset written; reading it is fine; the Buffer is reused after.
func TestInputReadOnly(t *testing.T) {
	if why := equiv.ReadOnlySkip(); why != "" {
		t.Skip(why)
	}
	needFaultAddr(t)
	var buf equiv.Buffer
	b := buf.Input([]byte{1, 2, 3, 4, 5}, 3)
	if lay := buf.Layout(); !lay.ReadOnly || !strings.Contains(lay.String(), "read-only") {
		t.Fatalf("layout %v, want read-only", lay)
	}
	sum := 0
	if p := equiv.Catch(func() {
		for _, c := range b {
			sum += int(c)
		}
	}); p != nil || sum != 15 {
		t.Fatalf("reading the input: %v, sum %d", p, sum)
	}
	p := equiv.Catch(func() { b[2] ^= 0xff; b[2] ^= 0xff })
	var f *equiv.Fault
	want := "offset 2 of 5 bytes"
	if runtime.GOARCH == "s390x" { // the page of a fault, not its byte
		want = "its read-only input"
	}
	if p == nil || !errors.As(p.Value.(error), &f) || !strings.Contains(f.What, want) {
		t.Fatalf("a write to the read-only input: %v", p)
	}
	if !buf.Intact() {
		t.Error("the faulted write changed the input")
	}
	if w := buf.Place([]byte{9}, 0); w[0] != 9 {
		t.Error("Place after Input")
	}
	w := buf.Place([]byte{9, 9}, 1)
	w[0] = 1 // Place is writable
}

// TestInputCopyCompared: where read-only pages are missing, a changed
// Input shows in Intact; with them, Intact sees a changed canary.
func TestInputIntact(t *testing.T) {
	var buf equiv.Buffer
	b := buf.Input([]byte{1, 2, 3}, 0)
	if !buf.Intact() {
		t.Fatal("a fresh Input is not intact")
	}
	if equiv.ReadOnlySkip() != "" {
		b[1] = 9
		if buf.Intact() {
			t.Error("a modified Input went unseen")
		}
	}
}

// TestPoison: Poison overwrites the last input through the writable view,
// so that a view kept by the implementation sees it change.
func TestPoison(t *testing.T) {
	var buf equiv.Buffer
	b := buf.Input([]byte{1, 2, 3}, 5)
	kept := b[:3]
	buf.Poison()
	if !bytes.Equal(kept, []byte{equiv.Poisoned, equiv.Poisoned, equiv.Poisoned}) {
		t.Errorf("after Poison the kept view holds %v", kept)
	}
}

// TestPoisonBytes: a slice a suite placed itself is overwritten whole,
// past one block of the engine's poison.
func TestPoisonBytes(t *testing.T) {
	b := make([]byte, 5000)
	equiv.PoisonBytes(b[1:4999])
	if b[0] != 0 || b[4999] != 0 || bytes.Count(b, []byte{equiv.Poisoned}) != 4998 {
		t.Errorf("PoisonBytes wrote outside b[1:4999] or missed some of it")
	}
}
