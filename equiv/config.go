package equiv

import (
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
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

// An Option configures a run of a suite (Check, Test, a pair's CheckInput
// and Fuzz).
type Option func(*Config)

// Config is the configuration of one run, built from Options by NewConfig.
// Suites read it through a Run; a pair's CheckInput builds one of its own.
type Config struct {
	level       Level
	seed        uint64
	report      func(Result)
	methods     func(string) bool
	corpus      fs.FS
	regressions fs.FS
	mapErr      func(error) error
	anyPanic    bool
	scopes      []scope
	// scopeMu makes the scope functions (Exclude's, the caller's code) run
	// one at a time, though a method and its concurrent caller check
	// inputs at once; it is shared with forConcurrent's Config.
	scopeMu *sync.Mutex

	stop          <-chan struct{}
	progress      func(Progress)
	progressEvery time.Duration
	shardK        int
	shardN        int
	sampleN       int // WithSample
	// unit is 1 + the index of the unit of a Split method's enumeration
	// whose calls are being made (Run.Mine), 0 outside one: a Harness
	// counts a unit's calls from a point the index fixes (Again).
	unit uint64

	serial         bool // no concurrent caller (Serial)
	callTimeout    time.Duration
	callTimeoutSet bool
	beat           *progressBeat // the watchdog's view of progress (watch.go), shared by a method's lanes
	flight         any           // *flight[T]: the input in flight
	kept           keptResults   // results kept alive (Keep)
	// role says whose calls a Harness under this configuration makes,
	// and applied is where it counts the mechanisms it applied: the
	// method's, shared by its lanes, its overlap and its concurrent caller.
	role    role
	applied *applied
	// overlap is an overlap lane's record of its synchronized calls
	// (Run.Overlap), nil elsewhere.
	overlap *overlapLane
	// relaxed are the API-contract clauses Relax relaxed, and optErr an
	// option that could not apply (Check returns it and runs nothing).
	relaxed map[string]bool
	optErr  error
}

// role is who calls the implementation under a Config: the method itself
// (on one lane or several), the concurrent caller, or an overlap lane.
type role int

const (
	roleMethod role = iota
	roleLanes
	roleConcurrent
	roleOverlap
)

// scope is one out-of-scope restriction: inputs for which out returns true
// are not compared, and how many were left out is reported.
type scope struct {
	label string
	out   func(input any) bool
	n     *int64
}

// WithLevel selects the input domains to enumerate. The default is Quick.
func WithLevel(l Level) Option { return func(c *Config) { c.level = l } }

// WithSeed fixes the seed of every random choice, so that a failure reported
// with its seed can be reproduced. The default is a fresh random seed, which
// is reported in every Result and Counterexample.
func WithSeed(seed uint64) Option { return func(c *Config) { c.seed = seed } }

// WithReport registers a function called once per method with its Result,
// including methods that were skipped. It is called from the goroutine that
// called Check.
func WithReport(f func(Result)) Option { return func(c *Config) { c.report = f } }

// WithMethods restricts the run to the methods for which keep returns true.
// Methods not kept are reported as skipped with the reason "not selected".
func WithMethods(keep func(method string) bool) Option {
	return func(c *Config) { c.methods = keep }
}

// WithCorpus replaces the seed corpus replayed by the corpus method. fsys
// holds one directory per pair ("checksum/", "websocket/", "quic/", "utf8/"; see
// FuzzTarget.Corpus) of files in the "go test fuzz v1" format. The default
// is the suite's own (for this module's pairs, the corpus embedded from the
// repository's corpus/ directory).
func WithCorpus(fsys fs.FS) Option { return func(c *Config) { c.corpus = fsys } }

// WithRegressions adds a directory of regression inputs to the corpus
// method, laid out as "go test" lays out testdata/fuzz: one directory per
// fuzz target name ("FuzzChecksum/…"). A target with no directory there
// replays none. The release gate passes fuzz/testdata/fuzz, where it writes
// its counterexamples.
func WithRegressions(fsys fs.FS) Option { return func(c *Config) { c.regressions = fsys } }

// MapErrors maps the errors of the implementation under test onto the
// reference's error classes before they are compared: a parser that
// returns io.ErrUnexpectedEOF where the reference returns ErrTruncated
// passes map = func(err) { if errors.Is(err, io.ErrUnexpectedEOF) { return
// quic.ErrTruncated }; return err }. The reference's errors are not mapped.
// Every Result says that errors were mapped.
func MapErrors(m func(error) error) Option { return func(c *Config) { c.mapErr = m } }

// AnyPanic accepts any panic of the implementation where the reference
// panics, instead of requiring the same panic value. Every Result says so.
func AnyPanic() Option { return func(c *Config) { c.anyPanic = true } }

// Exclude declares inputs out of the implementation's documented scope:
// for every input on which out returns true, nothing is compared. out is
// called from one goroutine at a time (a method's and its concurrent
// caller's calls are serialized), so it may keep state of its own. The
// value passed to out is the pair's input type (checksumtest.Input,
// websockettest.Input, quictest.Input); the pair packages have typed
// wrappers. Each Result lists label with the number of inputs left out, so
// that nobody mistakes the narrowed domain for the full one.
func Exclude(label string, out func(input any) bool) Option {
	return func(c *Config) { c.scopes = append(c.scopes, scope{label: label, out: out}) }
}

// Relax is what a pair package's Relax option is made of: it relaxes the
// named API-contract clauses of the pair's suite, each one of known
// (docs/strictness.md lists them, with the RFC requirements no option
// relaxes). A clause that decides a class of inputs maps to the class
// (known[clause] reports whether an input is in it): those inputs are
// left out, as with Exclude, and every Result counts them under the
// clause's name. A clause whose known entry is nil is one the suite's
// checks consult themselves (Config.Relaxed), comparing the rest of the
// result; every Result names it. A clause not in known makes Check
// return an error naming pkg and the clauses there are, and run nothing.
func Relax(pkg string, known map[string]func(input any) bool, clauses ...string) Option {
	return func(c *Config) {
		for _, name := range clauses {
			out, ok := known[name]
			if !ok {
				names := slices.Sorted(maps.Keys(known))
				c.optErr = fmt.Errorf("%s.Relax: no clause %q (the clauses are %s)", pkg, name, strings.Join(names, ", "))
				return
			}
			if c.relaxed == nil {
				c.relaxed = map[string]bool{}
			}
			c.relaxed[name] = true
			if out != nil {
				c.scopes = append(c.scopes, scope{label: "relaxed " + name, out: out})
			}
		}
	}
}

// Relaxed reports whether the API-contract clause name was relaxed
// (Relax): a suite's check of it compares the rest of the result.
func (c *Config) Relaxed(name string) bool { return c.relaxed[name] }

// NewConfig applies opts to the defaults: level Quick, a fresh random seed.
func NewConfig(opts ...Option) *Config {
	c := &Config{level: Quick}
	for _, o := range opts {
		o(c)
	}
	if c.seed == 0 {
		c.seed = rand.Uint64() | 1
	}
	if !c.callTimeoutSet {
		c.callTimeout = DefaultCallTimeout(c.level)
	}
	c.beat = new(progressBeat)
	for i := range c.scopes {
		c.scopes[i].n = new(int64)
	}
	c.scopeMu = new(sync.Mutex)
	return c
}

// Level is the configured level.
func (c *Config) Level() Level { return c.level }

// Seed is the seed every random choice derives from.
func (c *Config) Seed() uint64 { return c.seed }

// MapError returns the implementation's error err as MapErrors maps it (err
// itself without MapErrors). Suites that compare whole results holding an
// error map the implementation's error with it, then compare by identity.
func (c *Config) MapError(err error) error {
	if c.mapErr != nil && err != nil {
		return c.mapErr(err)
	}
	return err
}

// SameError reports whether the implementation's error got agrees with the
// reference's want: the same error after MapErrors, by identity. A
// suite compares errors only through SameError.
func (c *Config) SameError(got, want error) bool {
	return c.MapError(got) == want
}

// SamePanic reports whether the implementation's panic value got (nil: no
// panic) agrees with the reference's want: both nil, or both panics with
// equal values (or, with AnyPanic, both panics; never a memory Fault,
// which no reference raises on purpose). Values are compared by
// their type and formatted text, since a panic value need not be
// comparable.
func (c *Config) SamePanic(got, want any) bool {
	_, gotFault := got.(*Fault)
	_, wantFault := want.(*Fault)
	switch {
	case got == nil || want == nil:
		return got == nil && want == nil
	case gotFault || wantFault:
		// A memory fault breaks the contract; it is no documented panic.
		return false
	case c.anyPanic:
		return true
	}
	return reflect.TypeOf(got) == reflect.TypeOf(want) && fmt.Sprint(got) == fmt.Sprint(want)
}

// Excluded reports whether input is out of scope (see Exclude), counting
// it for the report if so. A suite calls it on every input before
// comparing, and compares nothing for an excluded one. It also records
// input as the one in flight, which a call that does not return is
// reported with (WithCallTimeout). It is a function
// rather than a method so that, with no Exclude option, the input is not
// converted to an interface (which would allocate on every call).
func Excluded[T any](c *Config, input T) bool {
	note(c, input)
	if len(c.scopes) == 0 {
		return false
	}
	c.scopeMu.Lock()
	defer c.scopeMu.Unlock()
	for _, s := range c.scopes {
		if s.out(input) {
			*s.n++
			return true
		}
	}
	return false
}

// OutOfScope reports whether input is out of scope without counting it
// (for minimization, which tries candidates that are not inputs of the
// domain proper). Like Excluded, it records input as the one in flight.
func OutOfScope[T any](c *Config, input T) bool {
	note(c, input)
	if len(c.scopes) == 0 {
		return false
	}
	c.scopeMu.Lock()
	defer c.scopeMu.Unlock()
	for _, s := range c.scopes {
		if s.out(input) {
			return true
		}
	}
	return false
}

// resetScopes zeroes the exclusion counts, at the start of each method.
func (c *Config) resetScopes() {
	for _, s := range c.scopes {
		*s.n = 0
	}
}

// narrowing describes what this configuration relaxes or leaves out, for
// Result.Narrowed.
func (c *Config) narrowing() []string {
	var out []string
	if c.mapErr != nil {
		out = append(out, "errors mapped by MapErrors")
	}
	if c.anyPanic {
		out = append(out, "any panic accepted where the reference panics (AnyPanic)")
	}
	if c.serial {
		out = append(out, "not called from two goroutines at once (Serial)")
	}
	for _, name := range slices.Sorted(maps.Keys(c.relaxed)) {
		if !slices.ContainsFunc(c.scopes, func(s scope) bool { return s.label == "relaxed "+name }) {
			out = append(out, "relaxed "+name+" (its checks compare the rest of the result)")
		}
	}
	for _, s := range c.scopes {
		out = append(out, fmt.Sprintf("excluded %q: %d inputs", s.label, *s.n))
	}
	return out
}

// Pick returns the value for r's level: quick, standard or deep.
func Pick[V any](r *Run, quick, standard, deep V) V {
	switch r.cfg.level {
	case Quick:
		return quick
	case Standard:
		return standard
	}
	return deep
}

// describe renders a list of narrowings for messages.
func describe(n []string) string { return strings.Join(n, "; ") }

// forConcurrent returns a configuration for the concurrent caller beside a
// method run with c: the same comparison rules, scope counters of its own
// (its inputs are not the method's), and no report, stop or progress.
func (c *Config) forConcurrent() *Config {
	d := &Config{level: c.level, seed: c.seed, corpus: c.corpus, mapErr: c.mapErr, anyPanic: c.anyPanic,
		callTimeout: c.callTimeout, callTimeoutSet: true, serial: true, scopeMu: c.scopeMu, beat: new(progressBeat),
		role: roleConcurrent, applied: c.applied, relaxed: c.relaxed}
	for _, s := range c.scopes {
		d.scopes = append(d.scopes, scope{label: s.label, out: s.out, n: new(int64)})
	}
	return d
}
