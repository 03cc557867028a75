//go:build amd64 && !purego

package utf8valid

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// kernelNames names the kernels as Impls does.
var kernelNames = map[kernel]string{kernelAVX512: "avx512", kernelAVX2: "avx2", kernelGeneric: "generic"}

// TestGODEBUG runs this test binary again under GODEBUG settings and checks
// which variants it reports available and which kernel dispatch runs:
// cpu.avx512f=off and cpu.avx512bw=off leave AVX2, cpu.avx2=off and
// cpu.all=off leave only the generic code. Where this process itself runs
// under a GODEBUG, what the CPU really has is unknown, and only what must
// be off is checked.
func TestGODEBUG(t *testing.T) {
	if os.Getenv("EQUIV_GODEBUG_CHILD") != "" {
		var avail []string
		for _, i := range Impls() {
			if i.Available {
				avail = append(avail, i.Name)
			}
		}
		fmt.Printf("available=%s\n", strings.Join(avail, ","))
		fmt.Printf("dispatch=%s\n", kernelNames[best])
		fmt.Printf("zero=%s\n", kernelNames[new(Validator).kernel()])
		return
	}
	if testing.Short() {
		t.Skip("runs the test binary again; -short")
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
		{"cpu.avx2=off", false, false},
		{"cpu.avx512f=off,cpu.avx2=off", false, false},
		{"cpu.all=off", false, false},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGODEBUG$")
		cmd.Env = append(os.Environ(), "EQUIV_GODEBUG_CHILD=1", "GODEBUG="+tc.godebug)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GODEBUG=%s: %v", tc.godebug, err)
		}
		got := string(out)
		want := kernelNames[bestOf(tc.avx2, tc.avx512)]
		if real && (!strings.Contains(got, "dispatch="+want+"\n") || !strings.Contains(got, "zero="+want+"\n")) {
			t.Errorf("GODEBUG=%s: child reports %q, want dispatch and zero Validator %s", tc.godebug, strings.TrimSpace(got), want)
		}
		for name, may := range map[string]bool{"avx512": tc.avx512, "avx2": tc.avx2, "generic": true} {
			has := strings.Contains(got, name+",") || strings.Contains(got, name+"\n")
			if has && !may || !has && may && (real || name == "generic") {
				t.Errorf("GODEBUG=%s: child reports %q: %s available %v, want %v", tc.godebug, strings.TrimSpace(got), name, has, may)
			}
		}
	}
}

// TestKernels checks the feature predicate on every combination of the
// bits it reads, whatever this CPU has, and the wiring of Impls: each
// variant's Validator runs its own kernel, never dispatch.
func TestKernels(t *testing.T) {
	if kernelAVX512 != 3 {
		t.Errorf("kernelAVX512 = %d; utf8valid_amd64.s defines it as 3", kernelAVX512)
	}
	for bits := range 8 {
		a2, f, bw := bits&1 != 0, bits&2 != 0, bits&4 != 0
		avx2, avx512 := kernels(a2, f, bw)
		if avx2 != a2 || avx512 != (a2 && f && bw) {
			t.Errorf("kernels(avx2=%v, avx512f=%v, avx512bw=%v) = %v, %v", a2, f, bw, avx2, avx512)
		}
	}
	if a2, a512 := kernels(cpu.X86.HasAVX2, cpu.X86.HasAVX512F, cpu.X86.HasAVX512BW); a2 != useAVX2 || a512 != useAVX512 || best != bestOf(a2, a512) {
		t.Errorf("useAVX2, useAVX512, best = %v, %v, %d; want %v, %v from this CPU's bits", useAVX2, useAVX512, best, a2, a512)
	}
	for _, im := range Impls() {
		if k := im.NewValidator().k; kernelNames[k] != im.Name {
			t.Errorf("%s: NewValidator runs kernel %d (%s)", im.Name, k, kernelNames[k])
		}
	}
	if new(Validator).k != dispatch || Impls()[0].Available != useAVX512 || Impls()[1].Available != useAVX2 {
		t.Errorf("the zero Validator or the Available flags are wrong")
	}
}
