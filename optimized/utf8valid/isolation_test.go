//go:build amd64 && !purego

package utf8valid

import (
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
		if !strings.Contains(got, body) || regexp.MustCompile(`\b(Valid|valid|scan|blocks|scanBlocks)\(`).MatchString(got) {
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
// into the assembly), the automaton's step and state, and window3. Each
// call that stops being inlined costs about a nanosecond per Write, 10% of
// a 1 KiB Write of ASCII (BenchmarkUTF8Stream in bench/).
func TestInlined(t *testing.T) {
	out := inlinecheck.Report(t)
	for _, fn := range []string{"blocks", "step", "(*Validator).state", "window3", "(*Validator).kernel"} {
		if inlinecheck.Inlined(out, `utf8valid\.go`, fn) == 0 {
			t.Errorf("%s is no longer inlined into utf8valid.go (go build -gcflags=-m=2 . gives its cost)", fn)
		}
	}
}
