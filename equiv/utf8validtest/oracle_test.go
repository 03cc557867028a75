package utf8validtest

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
	"github.com/equivcheck/equivcheck/reference/websocket"
)

// TestOracle: the scale method's oracle (scaleOracle) gives the
// reference's transcript, the reference run on the whole text, for
// Valid, a Validator and Unmask, on texts of filler with windows of every
// boundary class and of random octets written over them at random
// offsets (one to three windows, adjacent and overlapping ones
// included), cut into random
// pieces, for the texts equiv.Again checks in their place
// (scaleOracle.varied), and for pieces of them from anywhere to anywhere
// (scaleOracle.within, which minimization cuts).
func TestOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	filler := fillText(rng, 4096, nil)
	for i := range 20000 {
		n := rng.IntN(len(filler))
		st := newScaleText(filler, n)
		for range 1 + rng.IntN(3) {
			w := windows[rng.IntN(len(windows))].data
			if rng.IntN(3) == 0 {
				w = randomOctets(rng, 1+rng.IntN(8))
			}
			if len(w) > n {
				continue
			}
			st.put(w, rng.IntN(n-len(w)+1))
		}
		in := Input{Text: st.text, Splits: randomSplits(rng, n), Key: keyOf(i), Pos: rng.IntN(4), oracle: st.oracle()}
		checkOracle(t, in)
		if v, ok := vary(in); ok {
			checkOracle(t, v)
		}
		lo := rng.IntN(n + 1)
		hi := lo + rng.IntN(n-lo+1)
		piece := in
		piece.Text = in.Text[lo:hi]
		piece.Splits = randomSplits(rng, hi-lo)
		piece.oracle = in.oracle.within(piece.Text)
		checkOracle(t, piece)
		st.restore()
	}
	if !bytes.Equal(filler, fillText(rand.New(rand.NewPCG(1, 2)), 4096, nil)) {
		t.Fatal("restore left the filler changed")
	}
}

// checkOracle compares in's oracle's transcripts with the reference's.
func checkOracle(t *testing.T, in Input) {
	t.Helper()
	whole := in
	whole.oracle = nil
	if got, want := in.oracle.valid(), ref.Valid(in.Text); got != want {
		t.Fatalf("valid() = %v, want %v on %x (windows %v)", got, want, in.Text, in.oracle.at)
	}
	for _, f := range []func(Input) transcript{refStream, refUnmask} {
		got, want := f(in), f(whole)
		want.out = nil // unmask compares a scale text's octets in place
		if !slices.EqualFunc(got.calls, want.calls, func(a, b call) bool { return a.n == b.n && a.next == b.next && a.err == b.err }) ||
			got.midClose != want.midClose || got.close != want.close || got.offset != want.offset || got.out != nil {
			t.Fatalf("%s, want %s on %x split at %v (windows %v)", got.String("Unmask"), want.String("Unmask"), in.Text, in.Splits, in.oracle.at)
		}
	}
}

func randomOctets(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// randomSplits returns up to 4 sorted cuts of n octets, at the ends
// too.
func randomSplits(rng *rand.Rand, n int) []int {
	s := make([]int, rng.IntN(5))
	for i := range s {
		s[i] = rng.IntN(n + 1)
	}
	slices.Sort(s)
	return s
}

// TestMask: the suite's mask masks as reference/websocket's Mask does,
// at every length to 40 and every key position.
func TestMask(t *testing.T) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	for n := range 41 {
		for pos := range 9 {
			text := make([]byte, n)
			for i := range text {
				text[i] = byte(i * 37)
			}
			got, want := bytes.Clone(text), bytes.Clone(text)
			mask(got, key, pos)
			websocket.Mask(want, key, pos)
			if !bytes.Equal(got, want) {
				t.Fatalf("mask(%d octets, pos %d) = %x, want %x", n, pos, got, want)
			}
		}
	}
}

// TestMultiOctetWindows: the windows scaleSize puts across a text's
// middle, windows[1:1+multiOctetWindows], are exactly the valid ones with
// a character of more than one octet, so that cut at the middle they are
// valid text cut inside a character.
func TestMultiOctetWindows(t *testing.T) {
	for i, w := range windows {
		multi := ref.Valid(w.data) && slices.ContainsFunc(w.data, func(b byte) bool { return b >= 0x80 })
		if in := i >= 1 && i < 1+multiOctetWindows; multi != in {
			t.Errorf("windows[%d] (%s): a valid multi-octet class %v, in windows[1:1+multiOctetWindows] %v", i, w.name, multi, in)
		}
	}
}
