//go:build amd64 && !purego

package checksum

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestGODEBUG runs this test binary again under GODEBUG settings and checks
// which variants it reports available: cpu.avx512f=off leaves AVX2,
// cpu.avx2=off and cpu.all=off leave only the generic code. Where this
// process itself runs under a GODEBUG, what the CPU really has is unknown,
// and only what must be off is checked.
func TestGODEBUG(t *testing.T) {
	if os.Getenv("EQUIV_GODEBUG_CHILD") != "" {
		var avail []string
		for _, i := range Impls() {
			if i.Available {
				avail = append(avail, i.Name)
			}
		}
		fmt.Printf("available=%s\nchosen=%s\n", strings.Join(avail, ","), chosen)
		return
	}
	if runtime.GOARCH != "amd64" || testing.Short() {
		t.Skip("the settings below are amd64's; -short")
	}
	real := os.Getenv("GODEBUG") == ""
	hasAVX2 := cpu.X86.HasAVX2
	hasAVX512 := hasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW
	if !real {
		hasAVX2, hasAVX512 = true, true // unknown: may be either
	}
	for _, tc := range []struct {
		godebug      string
		avx512, avx2 bool // may be available
	}{
		{"", hasAVX512, hasAVX2},
		{"cpu.avx512f=off", false, hasAVX2},
		{"cpu.avx512bw=off", false, hasAVX2},
		{"cpu.avx512f=off,cpu.avx512bw=off", false, hasAVX2},
		{"cpu.avx2=off", false, false},
		{"cpu.avx2=off,cpu.avx512f=off", false, false},
		{"cpu.avx2=off,cpu.avx512bw=off", false, false},
		{"cpu.all=off", false, false},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGODEBUG$")
		cmd.Env = append(os.Environ(), "EQUIV_GODEBUG_CHILD=1", "GODEBUG="+tc.godebug)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GODEBUG=%s: %v", tc.godebug, err)
		}
		got := string(out)
		checkChosen(t, tc.godebug, got, tc.avx512, tc.avx2, real)
		for name, may := range map[string]bool{"avx512": tc.avx512, "avx2": tc.avx2, "generic": true} {
			has := strings.Contains(got, name+",") || strings.Contains(got, name+"\n")
			if has && !may || !has && may && (real || name == "generic") {
				t.Errorf("GODEBUG=%s: %s reports %q: %s available %v, want %v", tc.godebug, strings.Join(cmd.Args, " "), strings.TrimSpace(got), name, has, may)
			}
		}
	}
}

// checkChosen checks the variant a child reports Sum dispatches to: the
// best one it may have (where the real CPU is known), and never one the
// GODEBUG setting turned off.
func checkChosen(t *testing.T, godebug, out string, avx512, avx2, real bool) {
	t.Helper()
	_, chosen, _ := strings.Cut(out, "chosen=")
	chosen, _, _ = strings.Cut(chosen, "\n")
	want := "generic"
	switch {
	case avx512:
		want = "avx512"
	case avx2:
		want = "avx2"
	}
	if chosen == want || !real && (chosen == "avx2" && avx2 || chosen == "generic") {
		return
	}
	t.Errorf("GODEBUG=%s: Sum dispatches to %q, want %q", godebug, chosen, want)
}
