package peers

// Every peer's file holds its adapters and options between
// "// peers:begin NAME" and "// peers:end NAME", and docs/peers.md holds
// the same text after "<!-- peers:NAME -->": TestPeersDoc keeps the two
// byte for byte the same, so the documented adapter is the one that
// passes. Each file also asserts, with assertDivergence, what every
// option or Exclude of its passing run leaves out: the suite, run
// without it, reports exactly the peer's divergence, so a fix upstream
// or a change in the suites fails a test instead of leaving a stale
// option behind.

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
)

// quick is the level of every peer's passing run: EQUIV_LEVEL overrides
// it (make peers LEVEL=standard).
var quick = equiv.WithLevel(equiv.Quick)

// sampledAtQuick makes a quick run compare one unit in n of each long
// method's domain (equiv.WithSample; every Result says "sampled"), for
// adapters whose calls cost microseconds each (a frame through a
// connection, an octet at a time): so that the module's quick run stays
// within a few minutes on two cores. At EQUIV_LEVEL=standard or deep
// (make peers LEVEL=standard) the domains run whole.
func sampledAtQuick(n int) equiv.Option {
	if l := os.Getenv(equiv.EnvLevel); l != "" && l != "quick" {
		n = 1
	}
	return equiv.WithSample(n)
}

// vectorsOnly runs the vectors method alone: the divergence checks need
// one counterexample, not every method's.
var vectorsOnly = equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors })

// assertDivergence checks that err, the verdict of a suite run without
// the option that hides a divergence, holds exactly one counterexample
// and that it contains each of want, in order.
func assertDivergence(t *testing.T, name string, err error, want ...string) {
	t.Helper()
	ces := equiv.Counterexamples(err)
	if len(ces) != 1 {
		t.Errorf("%s: got %v, want one counterexample (has the peer or the suite changed? docs/peers.md)", name, err)
		return
	}
	s, at := ces[0].Error(), 0
	for _, w := range want {
		i := strings.Index(s[at:], w)
		if i < 0 {
			t.Errorf("%s: counterexample %q lacks %q (after offset %d)", name, s, w, at)
			return
		}
		at += i + len(w)
	}
}

// TestPeersDoc: every adapter in this package's files is in
// docs/peers.md, byte for byte, and the document has no other.
func TestPeersDoc(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	code := map[string]string{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for name, text := range regionsOf(t, string(src), regexp.MustCompile(`(?ms)^// peers:begin (\w+)\n(.*?)^// peers:end (\w+)\n`)) {
			if _, dup := code[name]; dup {
				t.Errorf("adapter %q in two files", name)
			}
			code[name] = text
		}
	}
	doc, err := os.ReadFile("../docs/peers.md")
	if err != nil {
		t.Fatal(err)
	}
	text := regionsOf(t, string(doc), regexp.MustCompile("(?ms)^<!-- peers:(\\w+) -->\n```go\n(.*?)^```\n"))
	if len(code) == 0 {
		t.Fatal("no adapter found in *_test.go")
	}
	for name, c := range code {
		d, ok := text[name]
		switch {
		case !ok:
			t.Errorf("docs/peers.md has no snippet %q (<!-- peers:%s --> before a ```go block)", name, name)
		case d != c:
			t.Errorf("docs/peers.md's snippet %q differs from the test's:\n--- doc\n%s--- test\n%s", name, d, c)
		}
	}
	for name := range text {
		if _, ok := code[name]; !ok {
			t.Errorf("docs/peers.md has a snippet %q that no test runs", name)
		}
	}
}

// regionsOf returns the named regions re finds in s: the name is its first
// group, the text its second, and a third group, if any, must repeat the
// name.
func regionsOf(t *testing.T, s string, re *regexp.Regexp) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		if len(m) > 3 && m[3] != m[1] {
			t.Errorf("region %q ends as %q", m[1], m[3])
		}
		if _, dup := out[m[1]]; dup {
			t.Errorf("region %q twice", m[1])
		}
		out[m[1]] = m[2]
	}
	return out
}
