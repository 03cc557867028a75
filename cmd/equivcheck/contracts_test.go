package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/registry"
)

// docsEquivalence is the page whose contract table TestContractTable keeps
// in step with the suites' declarations.
const docsEquivalence = "../../docs/equivalence.md"

// The markers around the generated table in docs/equivalence.md.
const (
	tableBegin = "<!-- contract table: generated from the suites' Contracts by cmd/equivcheck's TestContractTable; EQUIV_UPDATE_DOCS=1 rewrites it -->"
	tableEnd   = "<!-- end of the contract table -->"
)

// TestContractTable: docs/equivalence.md's function × mechanism table is
// the one the pairs' contracts declare (Suite.Contracts, each pair's first
// variant's suite): every function of every pair, each mechanism applied
// or not, and why not. EQUIV_UPDATE_DOCS=1 writes it instead of comparing.
func TestContractTable(t *testing.T) {
	want := contractTable()
	page, err := os.ReadFile(docsEquivalence)
	if err != nil {
		t.Fatal(err)
	}
	text := string(page)
	i, j := strings.Index(text, tableBegin), strings.Index(text, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no contract table between the markers %q and %q", docsEquivalence, tableBegin, tableEnd)
	}
	got := text[i+len(tableBegin) : j]
	if got == want {
		return
	}
	if os.Getenv("EQUIV_UPDATE_DOCS") == "1" {
		if err := os.WriteFile(docsEquivalence, []byte(text[:i+len(tableBegin)]+want+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's contract table is not the suites' declarations; run EQUIV_UPDATE_DOCS=1 go test -run TestContractTable ./cmd/equivcheck and commit it", docsEquivalence)
}

// contractTable renders, for each pair, one row per function: the
// mechanisms its contract calls for, and each that it does not with the
// reason.
func contractTable() string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, v := range registry.Gate() {
		s := v.Suite
		if seen[s.Pair] || len(s.Contracts) == 0 {
			continue
		}
		seen[s.Pair] = true
		fmt.Fprintf(&b, "\n\n**%s**\n\n| function | params | mechanisms applied | not applied, and why |\n|---|---|---|---|\n", s.Pair)
		for _, c := range s.Contracts {
			var params, on, off []string
			for _, p := range c.Params {
				params = append(params, fmt.Sprintf("%s %s", p.Access, p.Name))
			}
			reasons := map[string][]string{}
			var order []string
			for _, m := range equiv.Mechanisms {
				ok, why := c.Applies(m)
				if ok {
					on = append(on, string(m))
					continue
				}
				if reasons[why] == nil {
					order = append(order, why)
				}
				reasons[why] = append(reasons[why], string(m))
			}
			for _, why := range order {
				off = append(off, strings.Join(reasons[why], ", ")+": "+why)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", c.Func, strings.Join(params, "; "), strings.Join(on, ", "), strings.Join(off, "; "))
		}
	}
	b.WriteString("\n")
	return b.String()
}
