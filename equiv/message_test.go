package equiv_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/equiv/quictest"
	"github.com/equivcheck/equivcheck/equiv/websockettest"
	"github.com/equivcheck/equivcheck/reference/checksum"
	"github.com/equivcheck/equivcheck/reference/quic"
)

// Broken implementations of each pair, for the messages they get.
var (
	dropsOdd  = func(b []byte, initial uint16) uint16 { return checksum.Sum(b[:len(b)&^1], initial) }
	masksNone = func(b []byte, key [4]byte, pos int) int { return (pos + len(b)) & 3 }
	parsesNil = func(b []byte, sdl int) (quic.Header, error) { return quic.Header{}, nil }
)

// TestOneMessageFormat: every pair's Fuzz reports a disagreement in one
// format, at the line of the fuzz target that called it (it was inside
// the library, fuzz.go), with the same prefix (it was ": checksum/fuzz",
// "impl #0: quic/fuzz" or "impls[0]: websocket/fuzz" for one unnamed
// Impl), and says what reproduces it rather than "(seed 0)"; Test reports
// at its caller's line, in the same shape, with the run's seed.
func TestOneMessageFormat(t *testing.T) {
	canExec(t)
	line := regexp.MustCompile(`(?m)^\s+(\S+\.go):\d+: (.*)$`)
	for _, tc := range []struct{ child, prefix, end string }{
		{"FuzzMsgChecksum", "checksum/fuzz: Sum(len=", "(no seed: the fuzz input reproduces it)"},
		{"FuzzMsgMask", "websocket/fuzz: Mask(len=", "(no seed: the fuzz input reproduces it)"},
		{"FuzzMsgQUIC", "quic/fuzz: ParseHeader(len=", "(no seed: the fuzz input reproduces it)"},
		{"FuzzMsgNamed", "mine: checksum/fuzz: Sum(len=", "(no seed: the fuzz input reproduces it)"},
		{"TestMsgChild", "checksum/vectors: Sum(len=", "(seed 7)"},
	} {
		out, err := child(tc.child, []string{equiv.EnvSeed + "=7"})
		if err == nil {
			t.Errorf("%s did not fail:\n%s", tc.child, out)
			continue
		}
		found := false
		for _, m := range line.FindAllStringSubmatch(out, -1) {
			if !strings.Contains(m[2], "/fuzz: ") && !strings.Contains(m[2], "/vectors: ") {
				continue // another log line
			}
			found = true
			if m[1] != "message_test.go" || !strings.HasPrefix(m[2], tc.prefix) || !strings.HasSuffix(m[2], tc.end) {
				t.Errorf("%s: %s: %s\nwant message_test.go: %s… %s", tc.child, m[1], m[2], tc.prefix, tc.end)
			}
		}
		if !found {
			t.Errorf("%s: no failure message:\n%s", tc.child, out)
		}
	}
}

func FuzzMsgChecksum(f *testing.F) {
	isChild(f)
	checksumtest.Fuzz(f, checksumtest.Impl{Sum: dropsOdd})
}

func FuzzMsgNamed(f *testing.F) {
	isChild(f)
	checksumtest.Fuzz(f, checksumtest.Impl{Name: "mine", Sum: dropsOdd})
}

func FuzzMsgMask(f *testing.F) {
	isChild(f)
	websockettest.Fuzz(f, websockettest.Impl{Mask: masksNone})
}

func FuzzMsgQUIC(f *testing.F) {
	isChild(f)
	quictest.Fuzz(f, quictest.Impl{ParseHeader: parsesNil})
}

func TestMsgChild(t *testing.T) {
	isChild(t)
	checksumtest.Test(t, checksumtest.Impl{Sum: dropsOdd}, equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors }))
}
