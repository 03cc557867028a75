//go:build amd64 && !purego

package websocket

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestVariantsIsolated checks, in the sources, that no variant hands any
// part of its work to the dispatchers: a bug in a variant's own code must
// show when that variant is checked, not only where dispatch happens to
// pick it. Each assembly body may jump only to the bodies listed (never to
// ·xorKey or ·xorKeyInPlace, the dispatchers, nor to the generic code),
// and each Go variant calls only its own body. The short paths are macros
// that every entry, variants included, expands in its own code.
func TestVariantsIsolated(t *testing.T) {
	asm, err := os.ReadFile("websocket_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	jumps := asmJumps(string(asm))
	for body, allowed := range map[string][]string{
		"xorKeyAVX2":   {"longAVX2<>"},
		"xorKeyAVX512": {"xorKeyAVX2", "longAVX512<>"},
		"longAVX2<>":   nil,
		"longAVX512<>": nil,
	} {
		for _, to := range jumps[body] {
			if !slices.Contains(allowed, to) {
				t.Errorf("%s jumps to %s: only %v are its own code", body, to, allowed)
			}
		}
	}
	for dispatcher, long := range map[string]string{"xorKey": "over32<>", "xorKeyInPlace": "inPlace<>"} {
		if !slices.Contains(jumps[dispatcher], long) {
			t.Errorf("the scan found no jump of %s to its long path %s: %v", dispatcher, long, jumps)
		}
	}
	for file, calls := range map[string]map[string]string{
		"websocket_amd64.go": {"maskAVX2": "xorKeyAVX2", "maskCopyAVX2": "xorKeyAVX2",
			"maskAVX512": "xorKeyAVX512", "maskCopyAVX512": "xorKeyAVX512"},
		"websocket_generic.go": {"maskGeneric": "xorKeyGeneric", "maskCopyGeneric": "xorKeyGeneric"},
	} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for fn, body := range calls {
			got := goBody(string(src), fn)
			if !strings.Contains(got, "return "+body+"(") || strings.Contains(got, "xorKey(") ||
				regexp.MustCompile(`\bMask(Copy)?\(`).MatchString(got) {
				t.Errorf("%s: %s must call %s and nothing that dispatches:\n%s", file, fn, body, got)
			}
		}
	}
}

// asmJumps maps each TEXT symbol of an assembly file to the symbols its
// JMP and CALL instructions name, file-local ones with their "<>".
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

// goBody returns the text of func fn in src, up to its closing brace at
// the start of a line.
func goBody(src, fn string) string {
	_, rest, ok := strings.Cut(src, "\nfunc "+fn+"(")
	if !ok {
		return ""
	}
	body, _, _ := strings.Cut(rest, "\n}")
	return body
}
