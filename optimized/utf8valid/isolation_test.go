//go:build amd64 && !purego

package utf8valid

import (
	"bytes"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/internal/inlinecheck"
)

// TestVariantsIsolated checks, in the sources, that each assembly kernel
// is its own code: the AVX-512 bodies jump to no other TEXT, the AVX2
// bodies call only their tail copier, and each Go entry of a variant calls
// only its own body. TestKernels checks the Validators' wiring.
func TestVariantsIsolated(t *testing.T) {
	asm, err := os.ReadFile("utf8valid_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	jumps := asmJumps(string(asm))
	for body, allowed := range map[string][]string{
		"scanAVX512": nil, "validAVX512Asm": nil, "unmaskAVX512": nil,
		"scanAVX2": {"copyShort<>"}, "unmaskAVX2": {"copyShort<>"}, "copyShort<>": nil,
		"scanBlocks": {"scanAVX512", "scanAVX2"}, "unmaskBlocksAsm": {"unmaskAVX512", "unmaskAVX2"},
	} {
		for _, to := range jumps[body] {
			if !slices.Contains(allowed, to) {
				t.Errorf("%s jumps to %s: only %v are its own code", body, to, allowed)
			}
		}
	}
	if !slices.Contains(jumps["scanAVX2"], "copyShort<>") {
		t.Errorf("the scan found no call of scanAVX2 to copyShort<>: %v", jumps)
	}
	src, err := os.ReadFile("utf8valid_amd64.go")
	if err != nil {
		t.Fatal(err)
	}
	for fn, body := range map[string]string{"validAVX512": "validAVX512Asm(", "validAVX2": "validAVX2Blocks(", "validAVX2Blocks": "scanAVX2("} {
		got := goBody(string(src), fn)
		if !strings.Contains(got, body) || regexp.MustCompile(`\b(Valid|valid|scan|blocks|scanBlocks|validAVX512|validAVX2)\(`).MatchString(got) {
			t.Errorf("%s must call %s and nothing that dispatches:\n%s", fn, body, got)
		}
	}
}

// asmJumps maps each TEXT symbol of an assembly file to the symbols its
// JMP and CALL instructions name.
func asmJumps(asm string) map[string][]string {
	out := map[string][]string{}
	cur := ""
	text := regexp.MustCompile(`^TEXT ·(\w+(?:<>)?)\(SB\)`)
	jump := regexp.MustCompile(`^\s*(JMP|CALL)\s+·(\w+(?:<>)?)\(SB\)`)
	for _, line := range strings.Split(asm, "\n") {
		if m := text.FindStringSubmatch(line); m != nil {
			cur = m[1]
		} else if m := jump.FindStringSubmatch(line); m != nil {
			out[cur] = append(out[cur], m[2])
		}
	}
	return out
}

// goBody returns the text of func fn in src, up to its closing brace.
func goBody(src, fn string) string {
	_, rest, ok := strings.Cut(src, "\nfunc "+fn+"(")
	if !ok {
		return ""
	}
	body, _, _ := strings.Cut(rest, "\n}")
	return body
}

// TestInlined checks with the compiler's report that the pieces of Write's
// paths are inlined into it: blocks (Write then makes one call, straight
// into the assembly), the automaton's run and state, and window3. Each
// call that stops being inlined costs about a nanosecond per Write, 10% of
// a 1 KiB Write of ASCII (BenchmarkUTF8Stream in bench/).
func TestInlined(t *testing.T) {
	out := inlinecheck.Report(t)
	for _, fn := range []string{"blocks", "run", "(*Validator).state", "window3", "(*Validator).kernel"} {
		if inlinecheck.Inlined(out, `utf8valid\.go`, fn) == 0 {
			t.Errorf("%s is no longer inlined into utf8valid.go (go build -gcflags=-m=2 . gives its cost)", fn)
		}
	}
}

// TestKernelsDirect calls the assembly kernels themselves at every length
// 0..maxLen, those the API leaves to the automaton (under 16 octets for
// Valid and Write) included, after each window of
// modelWindows, and checks settle's answer against the automaton's.
func TestKernelsDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 7))
	for _, k := range []kernel{kernelAVX512, kernelAVX2} {
		if k == kernelAVX512 && !useAVX512 || k == kernelAVX2 && !useAVX2 {
			continue
		}
		for n := 0; n <= maxLen; n++ {
			for i, txt := range variants(r, n) {
				ctx := modelWindows[(n+i)%len(modelWindows)]
				want, _ := scanGeneric(stateOf(ctx), txt)
				if got := settle(ctx, txt, scanBlocks(txt, ctx, k)); got != want {
					t.Fatalf("kernel %d: scan(% x after %06x) settles at %d, want %d", k, txt, ctx, got, want)
				}
				b := masked(txt, [4]byte{5, 6, 7, 8}, 0)
				if got := settle(ctx, b, unmaskBlocksAsm(b, 0x08070605, ctx, k)); got != want || !bytes.Equal(b, txt) {
					t.Fatalf("kernel %d: unmask(% x after %06x) settles at %d, % x; want %d", k, txt, ctx, got, b, want)
				}
				if k == kernelAVX512 && validAVX512Asm(txt) != validGeneric(txt) {
					t.Fatalf("validAVX512Asm(% x) = %v", txt, !validGeneric(txt))
				}
				if k == kernelAVX2 && validAVX2Blocks(txt) != validGeneric(txt) {
					t.Fatalf("validAVX2Blocks(% x) = %v", txt, !validGeneric(txt))
				}
			}
		}
	}
}
