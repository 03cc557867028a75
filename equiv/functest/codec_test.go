package functest

import (
	"io"
	"math/rand/v2"
	"net/netip"
	"reflect"
	"testing"
)

type pairOf struct {
	A uint8
	B []byte
}

// everyKind takes a parameter of each kind a derived suite supports.
func everyKind(b []byte, s string, t bool, i8 int8, i16 int16, u32 uint32, i64 int64, a [3]uint16, st pairOf,
	addr netip.Addr, r io.Reader, w io.Writer) int {
	return 0
}

// TestCodecRoundTrip: every argument a derived suite draws, of every kind,
// decodes from its encoding as it was, so that a counterexample's fuzz
// file replays its input.
func TestCodecRoundTrip(t *testing.T) {
	s, err := newSpec("everyKind", reflect.ValueOf(everyKind), reflect.ValueOf(everyKind), reflect.TypeOf(everyKind), nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	// An argument decodes to one that encodes alike: equal, but that a
	// nil slice comes back empty (the harness places an empty slice nil,
	// empty and roomy by turns anyway).
	check := func(args []reflect.Value) {
		t.Helper()
		data := s.encodeArgs(args, 37)
		got, align := s.decodeArgs(data)
		if align != 37 {
			t.Fatalf("alignment 37 decodes as %d", align)
		}
		for i, p := range s.params {
			want, have := p.encode(nil, args[i]), p.encode(nil, got[i])
			if string(want) != string(have) {
				t.Fatalf("%s: %#v decodes as %#v", p.name, args[i].Interface(), got[i].Interface())
			}
		}
		if again := s.encodeArgs(got, align); string(again) != string(data) {
			t.Fatalf("encoding %x decodes to arguments that encode as %x", data, again)
		}
	}
	for range 2000 {
		args := make([]reflect.Value, len(s.params))
		for i, p := range s.params {
			args[i] = p.draw(rng)
		}
		check(args)
	}
	for i, p := range s.params {
		for _, b := range p.boundaries() {
			args := s.baseArgs()
			args[i] = b
			check(args)
		}
	}
}

// TestDecodeAnything: any octets decode to arguments, without a panic,
// however short or long.
func TestDecodeAnything(t *testing.T) {
	s, err := newSpec("everyKind", reflect.ValueOf(everyKind), reflect.ValueOf(everyKind), reflect.TypeOf(everyKind), nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 400 {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		args, _ := s.decodeArgs(data)
		if len(args) != len(s.params) {
			t.Fatalf("%d octets: %d arguments", n, len(args))
		}
		for i, a := range args {
			if a.Type() != s.params[i].t && s.params[i].kind != kReader && s.params[i].kind != kWriter {
				t.Fatalf("%d octets: argument %d is a %s", n, i, a.Type())
			}
		}
	}
}
