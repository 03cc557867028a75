package main

import (
	"bytes"
	"strings"
	"testing"

	"example.com/equivuser/myvarint"
	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/gate"
	"github.com/equivcheck/equivcheck/equiv/quictest"
)

func TestGatePasses(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := gate.Run("gate", []string{"-seed", "1", "-fuzzdir", t.TempDir()}, &out, &errOut, Variants()); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "narrowed") {
		t.Errorf("the table does not show the narrowed domains:\n%s", out.String())
	}
}

// TestGateCatchesParseLoose: the same gate with the deliberately wrong
// parser exits 1 and writes the counterexample as a fuzz input.
func TestGateCatchesParseLoose(t *testing.T) {
	vs := append(Variants(), gate.Variant{Name: "loose",
		Suite: quictest.NewSuite(quictest.Impl{ParseVarint: myvarint.ParseLoose}), Options: []equiv.Option{MapErrors}})
	var out, errOut bytes.Buffer
	code := gate.Run("gate", []string{"-run", "loose", "-fuzzdir", t.TempDir()}, &out, &errOut, vs)
	if code != 1 || !strings.Contains(out.String(), "FAIL quic/loose") {
		t.Fatalf("exit %d, want 1 with quic/loose failing:\n%s\n%s", code, out.String(), errOut.String())
	}
}
