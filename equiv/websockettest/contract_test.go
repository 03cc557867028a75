package websockettest

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// TestContracts: every function of Impl and method of MaskReader and
// MaskWriter has one contract, and a quick run (a sample of its long
// methods) applies to each every mechanism its contract calls for.
func TestContracts(t *testing.T) {
	impl := Impl{Mask: ref.Mask, MaskCopy: ref.MaskCopy,
		NewMaskReader: func(r io.Reader, key [4]byte) MaskReader { return ref.NewMaskReader(r, key) },
		NewMaskWriter: func(w io.Writer, key [4]byte) MaskWriter { return ref.NewMaskWriter(w, key) }}
	var results []equiv.Result
	err := Check(impl, equiv.WithSeed(1), equiv.WithSample(equiv.ShortSample),
		equiv.WithReport(func(r equiv.Result) { results = append(results, r) }))
	if err != nil {
		t.Fatal(err)
	}
	if err := equiv.CheckContracts(Impl{}, contracts, results); err != nil {
		t.Error(err)
	}
}

// TestFirstWrong: the scale method's oracle agrees with the reference's
// Mask, octet for octet, at every length to 100, offset and phase, and
// names the first octet that differs.
func TestFirstWrong(t *testing.T) {
	in := make([]byte, 100)
	markers(in, 3)
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	for n := 0; n <= len(in); n++ {
		for pos := range 8 {
			out := append([]byte(nil), in[:n]...)
			ref.Mask(out, key, pos)
			if i := firstWrong(out, in[:n], key, pos); i != -1 {
				t.Fatalf("len %d pos %d: firstWrong = %d on the reference's masking", n, pos, i)
			}
			for j := range n {
				out[j] ^= 0x40
				if i := firstWrong(out, in[:n], key, pos); i != j {
					t.Fatalf("len %d pos %d: octet %d changed, firstWrong = %d", n, pos, j, i)
				}
				out[j] ^= 0x40
			}
			if n > 0 {
				if i := firstWrong(out[:n-1], in[:n], key, pos); i != n-1 {
					t.Fatalf("len %d pos %d: one octet short, firstWrong = %d", n, pos, i)
				}
			}
		}
	}
}

// TestContractTable: docs/equivalence.md's table of the pair's contracts
// is the one contractTable renders from the declarations, so that the
// two cannot drift apart.
func TestContractTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/equivalence.md")
	if err != nil {
		t.Skip(err) // not in a checkout of the module
	}
	const begin, end = "<!-- contracts:websocket -->\n", "<!-- /contracts:websocket -->"
	_, after, ok1 := strings.Cut(string(doc), begin)
	table, _, ok2 := strings.Cut(after, end)
	if !ok1 || !ok2 {
		t.Fatalf("docs/equivalence.md has no %q ... %q block", strings.TrimSpace(begin), end)
	}
	if want := contractTable(); table != want {
		t.Errorf("docs/equivalence.md's contract table is not the declarations'; want:\n%s", want)
	}
}

// contractTable renders contracts as a Markdown table: each function's
// buffers and streams with their access, whether it has state, and the
// mechanisms that do not apply to it, with why (equiv.Contract.Applies).
func contractTable() string {
	var b strings.Builder
	b.WriteString("| function | buffers and streams | state | mechanisms that do not apply, and why |\n|---|---|---|---|\n")
	for _, c := range contracts {
		var params, na []string
		for _, p := range c.Params {
			s := fmt.Sprintf("`%s` %s", p.Name, p.Access)
			if p.Keeps {
				s += ", kept"
			}
			params = append(params, s)
		}
		for _, m := range equiv.Mechanisms {
			if ok, why := c.Applies(m); !ok {
				na = append(na, fmt.Sprintf("%s: %s", m, why))
			}
		}
		state := ""
		if c.Object {
			state = "object"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", c.Func, strings.Join(params, "; "), state, strings.Join(na, "; "))
	}
	return b.String()
}
