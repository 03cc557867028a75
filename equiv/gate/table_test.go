package gate_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/gate"
	"github.com/equivcheck/equivcheck/equiv/quictest"
	"github.com/equivcheck/equivcheck/equiv/websockettest"
	"github.com/equivcheck/equivcheck/reference/quic"
	"github.com/equivcheck/equivcheck/reference/websocket"
)

// tableLines returns the lines of the table and of the notes under it:
// from the header row to the first failure or the summary.
func tableLines(out string) []string {
	var lines []string
	in := false
	for _, l := range strings.Split(out, "\n") {
		in = in || strings.HasPrefix(l, "PAIR ")
		if in && (strings.HasPrefix(l, "FAIL ") || strings.Contains(l, " passed, ")) {
			break
		}
		if in {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestTableFits: every row of the table and every line of the notes under
// it fits 100 columns, whatever the reasons and the functions left out;
// a variant's unchecked functions are listed once, under the table, with
// its Note, and -v lists them under each row.
func TestTableFits(t *testing.T) {
	kernel := gate.Variant{Name: "kernel", Suite: websockettest.NewSuite(websockettest.Impl{Mask: websocket.Mask, MaskCopy: websocket.MaskCopy}), Note: "checked under dispatch"}
	varints := gate.Variant{Name: "varints", Suite: quictest.NewSuite(quictest.Impl{ParseVarint: quic.ParseVarint})}
	narrowed := gate.Variant{Name: "narrowed", Suite: refVariant.Suite, Options: []equiv.Option{
		equiv.Exclude("a label long enough to push any row past a hundred columns if it were printed there", func(any) bool { return false })}}
	far := gate.Variant{Name: "far", Suite: refVariant.Suite, Skip: strings.Repeat("a reason far longer than the room a row has for it, ", 3)}
	variants := []gate.Variant{kernel, varints, narrowed, far, brokenVariant}
	code, stdout, _ := runGate(t, variants, "-seed", "1", "-run", "vectors|far", "-fuzzdir", t.TempDir())
	lines := tableLines(stdout)
	if code != 1 || len(lines) < 6 {
		t.Fatalf("exit %d, table %q:\n%s", code, lines, stdout)
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("a line of %d columns:\n%s", n, l)
		}
	}
	for _, want := range []string{
		"websocket/kernel: NewMaskReader, NewMaskWriter: checked under dispatch",
		"quic/varints: AppendVarint, DecodePacketNumber, ParseHeader,",
		"narrowed by options", "checksum/narrowed",
		"[2 not checked]", "[9 not checked]", "[narrowed]", "skip (a reason far longer", "…)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the table lacks %q:\n%s", want, stdout)
		}
	}
	if n := strings.Count(stdout, "NewMaskReader"); n != 1 {
		t.Errorf("NewMaskReader named %d times, want once, under the table:\n%s", n, stdout)
	}
	_, verbose, _ := runGate(t, variants, "-seed", "1", "-run", "vectors|far", "-fuzzdir", t.TempDir(), "-v")
	for _, want := range []string{"    not checked: NewMaskReader: Impl.NewMaskReader is nil; NewMaskWriter: Impl.NewMaskWriter is nil",
		"    narrowed: excluded \"a label long enough", "    reason: " + far.Skip} {
		if !strings.Contains(verbose, want) {
			t.Errorf("-v lacks %q:\n%s", want, verbose)
		}
	}
}
