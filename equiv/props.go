package equiv

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/leanovate/gopter"
	"pgregory.net/rapid"
)

// The suites run rapid and gopter outside "go test" too (the release gate
// calls the same cores as the tests), so neither is handed a *testing.T:
// rapid gets rapidTB below, and gopter's Prop.Check needs none.

var testingFlagsOnce sync.Once

// ensureTestingFlags makes testing.Short, which rapid consults, callable in a
// program that is not a test binary: it registers the testing flags if they
// are not registered yet and marks the flag set parsed if nothing parsed it.
func ensureTestingFlags() {
	testingFlagsOnce.Do(func() {
		if flag.Lookup("test.short") == nil {
			testing.Init()
		}
		if !flag.Parsed() {
			_ = flag.CommandLine.Parse(nil)
		}
	})
}

// rapidMu serializes rapid runs: rapid's configuration (number of checks,
// seed) lives in its command-line flags, which rapidCheck sets per run.
var rapidMu sync.Mutex

// rapidCheck runs prop through rapid for the given number of checks, seeded
// from the run's seed, and returns rapid's report if the property failed
// (after rapid shrank the failing case), or "" if it held.
func rapidCheck(r *run, checks int, prop func(*rapid.T)) string {
	ensureTestingFlags()
	rapidMu.Lock()
	defer rapidMu.Unlock()
	for name, value := range map[string]string{
		"rapid.checks":     strconv.Itoa(checks),
		"rapid.seed":       strconv.FormatUint(r.rng.Uint64()|1, 10),
		"rapid.nofailfile": "true",
	} {
		if err := flag.Set(name, value); err != nil {
			panic(fmt.Sprintf("equiv: setting %s: %v", name, err))
		}
	}
	tb := &rapidTB{name: r.pair + "/" + r.method}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = withFaultPanics(func() error { rapid.Check(tb, prop); return nil })
	}()
	<-done
	if !tb.failed {
		return ""
	}
	return tb.log.String()
}

// rapidTB is the rapid.TB that rapidCheck hands to rapid.Check: it records
// failures and messages, and ends the checking goroutine on FailNow.
type rapidTB struct {
	name   string
	failed bool
	log    strings.Builder
}

func (t *rapidTB) Helper()      {}
func (t *rapidTB) Name() string { return t.name }
func (t *rapidTB) Logf(format string, args ...any) {
	if t.failed {
		fmt.Fprintf(&t.log, format+"\n", args...)
	}
}
func (t *rapidTB) Log(args ...any) {
	if t.failed {
		fmt.Fprintln(&t.log, args...)
	}
}
func (t *rapidTB) Skipf(format string, args ...any) {
	t.Errorf("skipped: "+format, args...)
	t.FailNow()
}
func (t *rapidTB) Skip(args ...any) { t.Error(append([]any{"skipped:"}, args...)...); t.FailNow() }
func (t *rapidTB) SkipNow()         { t.Skip() }
func (t *rapidTB) Errorf(format string, args ...any) {
	t.failed = true
	fmt.Fprintf(&t.log, format+"\n", args...)
}
func (t *rapidTB) Error(args ...any) {
	t.failed = true
	fmt.Fprintln(&t.log, args...)
}
func (t *rapidTB) Fatalf(format string, args ...any) { t.Errorf(format, args...); t.FailNow() }
func (t *rapidTB) Fatal(args ...any)                 { t.Error(args...); t.FailNow() }
func (t *rapidTB) FailNow()                          { t.failed = true; runtime.Goexit() }
func (t *rapidTB) Fail()                             { t.failed = true }
func (t *rapidTB) Failed() bool                      { return t.failed }

// gopterCheck checks p on n generated cases seeded from the run, counts the
// cases that ran, and returns a description of the (shrunk) failing case, or
// "" if the property held.
func gopterCheck(r *run, n int, p gopter.Prop) string {
	params := gopter.DefaultTestParametersWithSeed(int64(r.rng.Uint64() >> 1))
	params.MinSuccessfulTests = n
	var res *gopter.TestResult
	_ = withFaultPanics(func() error { res = p.Check(params); return nil })
	r.count(res.Succeeded)
	if res.Passed() {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "gopter: %v after %d cases", res.Status, res.Succeeded)
	if res.Error != nil {
		fmt.Fprintf(&b, ": %v", res.Error)
	}
	for _, a := range res.Args {
		fmt.Fprintf(&b, "; %s = %s", a.Label, a.ArgFormatted)
	}
	return b.String()
}
