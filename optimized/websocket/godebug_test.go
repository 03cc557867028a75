//go:build amd64 && !purego

package websocket

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
// which variants it reports available: cpu.avx512f=off leaves AVX2
// (AVX512BW is not needed),
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
		fmt.Printf("available=%s\n", strings.Join(avail, ","))
		fmt.Printf("dispatch=%s\n", kernel(useAVX2, useAVX512))
		return
	}
	if runtime.GOARCH != "amd64" || testing.Short() {
		t.Skip("the settings below are amd64's; -short")
	}
	real := os.Getenv("GODEBUG") == ""
	hasAVX2 := cpu.X86.HasAVX2
	hasAVX512 := hasAVX2 && cpu.X86.HasAVX512F // the kernel needs no AVX512BW
	if !real {
		hasAVX2, hasAVX512 = true, true // unknown: may be either
	}
	for _, tc := range []struct {
		godebug      string
		avx512, avx2 bool // may be available
	}{
		{"", hasAVX512, hasAVX2},
		{"cpu.avx512f=off", false, hasAVX2},
		{"cpu.avx512bw=off", hasAVX512, hasAVX2},
		{"cpu.avx2=off", false, false},
		{"cpu.avx512f=off,cpu.avx2=off", false, false},
		{"cpu.avx2=off,cpu.avx512f=off", false, false},
		{"cpu.avx512f=off,cpu.avx512bw=off", false, hasAVX2},
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
		// Dispatch picks the best kernel available, which is known only
		// where this process runs on the real CPU features.
		if want := "dispatch=" + kernel(tc.avx2, tc.avx512) + "\n"; real && !strings.Contains(got, want) {
			t.Errorf("GODEBUG=%s: child reports %q, want %q", tc.godebug, strings.TrimSpace(got), strings.TrimSpace(want))
		}
		for name, may := range map[string]bool{"avx512": tc.avx512, "avx2": tc.avx2, "generic": true} {
			has := strings.Contains(got, name+",") || strings.Contains(got, name+"\n")
			if has && !may || !has && may && (real || name == "generic") {
				t.Errorf("GODEBUG=%s: %s reports %q: %s available %v, want %v", tc.godebug, strings.Join(cmd.Args, " "), strings.TrimSpace(got), name, has, may)
			}
		}
	}
}

// TestKernels checks the feature predicate on every combination of the
// bits it reads, whatever this CPU has: AVX-512 only with AVX2 as well
// (its short payloads run AVX2 code), and the dispatcher's choice.
func TestKernels(t *testing.T) {
	for _, tc := range []struct {
		hasAVX2, hasAVX512F bool
		avx2, avx512        bool
		dispatch            string
	}{
		{false, false, false, false, "generic"},
		{false, true, false, false, "generic"},
		{true, false, true, false, "avx2"},
		{true, true, true, true, "avx512"},
	} {
		avx2, avx512 := kernels(tc.hasAVX2, tc.hasAVX512F)
		if avx2 != tc.avx2 || avx512 != tc.avx512 || kernel(avx2, avx512) != tc.dispatch {
			t.Errorf("kernels(avx2=%v, avx512f=%v) = %v, %v (dispatch %s), want %v, %v (%s)",
				tc.hasAVX2, tc.hasAVX512F, avx2, avx512, kernel(avx2, avx512), tc.avx2, tc.avx512, tc.dispatch)
		}
	}
	if a2, a512 := kernels(cpu.X86.HasAVX2, cpu.X86.HasAVX512F); a2 != useAVX2 || a512 != useAVX512 {
		t.Errorf("useAVX2, useAVX512 = %v, %v; want kernels of this CPU's bits, %v, %v", useAVX2, useAVX512, a2, a512)
	}
}
