package fuzz

import (
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
)

// seed adds the shared corpus of pair to f.
func seed(f *testing.F, pair string) {
	f.Helper()
	entries, err := equiv.LoadCorpus(equiv.DefaultCorpus(), pair)
	if err != nil {
		f.Fatal(err)
	}
	if len(entries) == 0 {
		f.Fatalf("corpus/%s is empty", pair)
	}
	for _, e := range entries {
		f.Add(e.Values...)
	}
}
