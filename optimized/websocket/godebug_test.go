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
		{"cpu.all=off", false, false},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGODEBUG$")
		cmd.Env = append(os.Environ(), "EQUIV_GODEBUG_CHILD=1", "GODEBUG="+tc.godebug)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GODEBUG=%s: %v", tc.godebug, err)
		}
		got := string(out)
		for name, may := range map[string]bool{"avx512": tc.avx512, "avx2": tc.avx2, "generic": true} {
			has := strings.Contains(got, name+",") || strings.Contains(got, name+"\n")
			if has && !may || !has && may && (real || name == "generic") {
				t.Errorf("GODEBUG=%s: %s reports %q: %s available %v, want %v", tc.godebug, strings.Join(cmd.Args, " "), strings.TrimSpace(got), name, has, may)
			}
		}
	}
}
