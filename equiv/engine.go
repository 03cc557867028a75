package equiv

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"strings"
	"time"
)

// Level names a set of input domains. Each suite documents, per level, which
// inputs it enumerates; docs/equivalence.md argues why they suffice.
type Level int

const (
	// Quick is the level CI and the release gate run by default: every
	// behaviour class of the optimized code, in well under a minute.
	Quick Level = iota
	// Standard adds the larger exhaustive spaces (for the checksum, every
	// 3-byte input) and more property and random checks.
	Standard
	// Deep adds long random sweeps and much larger property runs; it is
	// meant for release candidates and can take many minutes.
	Deep
)

var levelNames = [...]string{Quick: "quick", Standard: "standard", Deep: "deep"}

func (l Level) String() string {
	if l >= 0 && int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// ParseLevel returns the Level named s ("quick", "standard" or "deep").
func ParseLevel(s string) (Level, error) {
	for l, name := range levelNames {
		if s == name {
			return Level(l), nil
		}
	}
	return 0, fmt.Errorf("equiv: unknown level %q (want quick, standard or deep)", s)
}

// Method names. Every suite runs the same methods under these names, so that
// a report can be read across pairs and -run can select them.
const (
	MethodVectors    = "vectors"    // published RFC test vectors
	MethodExhaustive = "exhaustive" // bounded-exhaustive enumeration
	MethodGuard      = "guard"      // buffers against unmapped guard pages
	MethodProperties = "properties" // rapid and gopter property checks
	MethodCorpus     = "corpus"     // replay of the shared fuzz corpus
)

// Result is what one method of one suite did.
type Result struct {
	Pair    string        // the pair checked, such as "checksum"
	Method  string        // one of the Method* names
	Checked int64         // number of inputs on which implementation and reference were compared
	Elapsed time.Duration // wall time of the method
	Skipped string        // if non-empty, the method did not run, and why
	Err     error         // nil when every compared input agreed
	Seed    uint64        // the seed the method's random choices derived from
}

// Option configures a suite run.
type Option func(*config)

type config struct {
	level   Level
	seed    uint64
	report  func(Result)
	methods func(string) bool
	corpus  fs.FS
	rapidN  int
}

// WithLevel selects the input domains to enumerate. The default is Quick.
func WithLevel(l Level) Option { return func(c *config) { c.level = l } }

// WithSeed fixes the seed of every random choice, so that a failure reported
// with its seed can be reproduced. The default is a fresh random seed, which
// is reported in every Result and Counterexample.
func WithSeed(seed uint64) Option { return func(c *config) { c.seed = seed } }

// WithReport registers a function called once per method with its Result,
// including methods that were skipped.
func WithReport(f func(Result)) Option { return func(c *config) { c.report = f } }

// WithMethods restricts the run to the methods for which keep returns true.
// Methods not kept are reported as skipped.
func WithMethods(keep func(method string) bool) Option {
	return func(c *config) { c.methods = keep }
}

// WithCorpus replaces the corpus replayed by the corpus method. fsys holds
// one directory per pair ("checksum/", "websocket/", "quic/") of files in the
// "go test fuzz v1" format. The default is the corpus embedded from the
// repository's corpus/ directory.
func WithCorpus(fsys fs.FS) Option { return func(c *config) { c.corpus = fsys } }

func newConfig(opts []Option) *config {
	c := &config{level: Quick}
	for _, o := range opts {
		o(c)
	}
	if c.seed == 0 {
		c.seed = rand.Uint64() | 1
	}
	return c
}

// pick returns the value for the configured level.
func pick[T any](c *config, quick, standard, deep T) T {
	switch c.level {
	case Quick:
		return quick
	case Standard:
		return standard
	}
	return deep
}

// A method is one verification method of a suite.
type method struct {
	name string
	skip string // non-empty: cannot run, and why
	run  func(r *run) error
}

// run is the state of one method while it runs.
type run struct {
	cfg     *config
	pair    string
	method  string
	checked int64
	rng     *rand.Rand
}

// count records that n more inputs were compared.
func (r *run) count(n int) { r.checked += int64(n) }

// mismatch fills in the coordinates every counterexample carries.
func (r *run) mismatch(c *Counterexample) *Counterexample {
	c.Pair, c.Method, c.Seed = r.pair, r.method, r.cfg.seed
	return c
}

// propertyFailure turns a failed rapid property into an error: the
// counterexample the property recorded if there is one (the last one
// recorded is rapid's shrunk case), else rapid's own report.
func (r *run) propertyFailure(what string, last *Counterexample, msg string) error {
	if last != nil {
		return r.mismatch(last)
	}
	return fmt.Errorf("%s/%s: %s failed (seed %d): %s: %w", r.pair, r.method, what, r.cfg.seed, strings.TrimSpace(msg), ErrMismatch)
}

// replayCorpus loads the pair's corpus (the one WithCorpus gave, else the
// embedded one) and checks each entry's values with check, which returns
// the counterexample, if any, and how many comparisons it made. A corpus
// that cannot be loaded is an error matching ErrCorpus.
func (r *run) replayCorpus(check func(vals []any) (*Counterexample, int)) error {
	fsys := r.cfg.corpus
	if fsys == nil {
		fsys = DefaultCorpus()
	}
	entries, err := LoadCorpus(fsys, r.pair)
	if err != nil {
		return err
	}
	for _, e := range entries {
		ce, n := check(e.Values)
		if ce != nil {
			ce.Args += " corpus=" + e.File
			return r.mismatch(ce)
		}
		r.count(n)
	}
	return nil
}

// runSuite runs the methods of one suite and returns the joined errors of
// those that failed.
func runSuite(pair string, cfg *config, methods []method) error {
	var errs []error
	for i, m := range methods {
		res := Result{Pair: pair, Method: m.name, Seed: cfg.seed}
		switch {
		case m.skip != "":
			res.Skipped = m.skip
		case cfg.methods != nil && !cfg.methods(m.name):
			res.Skipped = "not selected"
		default:
			r := &run{cfg: cfg, pair: pair, method: m.name,
				rng: rand.New(rand.NewPCG(cfg.seed, uint64(i)))}
			start := time.Now()
			res.Err = protect(r, m.run)
			res.Elapsed = time.Since(start)
			res.Checked = r.checked
			if res.Err == nil && r.checked == 0 {
				// A method that compared nothing did not check anything.
				res.Err = fmt.Errorf("%s/%s: %w", pair, m.name, ErrNothingChecked)
			}
		}
		if res.Err != nil {
			errs = append(errs, res.Err)
		}
		if cfg.report != nil {
			cfg.report(res)
		}
	}
	return errors.Join(errs...)
}

// protect runs f, turning a panic that escapes it (the implementation's, or
// the suite's own) into an error rather than a crash.
func protect(r *run, f func(*run) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s/%s: panic after %d inputs: %v", r.pair, r.method, r.checked, p)
		}
	}()
	return f(r)
}

// ErrMismatch is matched (with errors.Is) by every Counterexample: the
// implementation under test disagreed with the reference.
var ErrMismatch = errors.New("implementation disagrees with the reference")

// ErrNothingChecked is reported for a method that ran but compared no input:
// a check that did not run is never reported as a pass.
var ErrNothingChecked = errors.New("method compared no input")

// Counterexample is a minimized input on which the implementation under test
// and the reference disagree. It is an error matching ErrMismatch.
type Counterexample struct {
	Pair   string // "checksum"
	Method string // the method that found it
	Func   string // the function that disagreed, such as "Sum" or "Digest"
	Input  []byte // the input bytes, after minimization
	Args   string // every other coordinate: initial value, alignment, split points, …
	Got    string // what the implementation returned
	Want   string // what the reference returned
	Seed   uint64 // the seed of the run that found it

	// FuzzTarget and FuzzArgs reproduce the counterexample as an input of
	// the named fuzz target in package fuzz (see MarshalFuzzInput).
	FuzzTarget string
	FuzzArgs   []any
}

func (c *Counterexample) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s: %s(len=%d", c.Pair, c.Method, c.Func, len(c.Input))
	if c.Args != "" {
		fmt.Fprintf(&b, " %s", c.Args)
	}
	fmt.Fprintf(&b, ") = %s, want %s; input %s (seed %d)", c.Got, c.Want, hexString(c.Input), c.Seed)
	return b.String()
}

// Is reports whether target is ErrMismatch.
func (c *Counterexample) Is(target error) bool { return target == ErrMismatch }

// hexString renders b as hex, eliding the middle of long inputs.
func hexString(b []byte) string {
	const max = 256
	if len(b) <= max {
		return fmt.Sprintf("%x", b)
	}
	return fmt.Sprintf("%x…(%d bytes)…%x", b[:max/2], len(b)-max, b[len(b)-max/2:])
}

// panicValue calls f and returns the value it panicked with, or nil.
func panicValue(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}
