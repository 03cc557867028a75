package equiv

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/equivcheck/equivcheck/internal/contractknob"
)

// Method names. Every suite of this module runs the same methods under
// these names, so that a report can be read across pairs and -run can
// select them. A suite of your own may name its methods as it likes.
const (
	MethodVectors    = "vectors"    // published RFC test vectors
	MethodExhaustive = "exhaustive" // bounded-exhaustive enumeration
	MethodGuard      = "guard"      // buffers against unmapped guard pages
	MethodProperties = "properties" // rapid and gopter property checks
	MethodCorpus     = "corpus"     // replay of the seed corpus and regression inputs
)

// Suite describes one pair (a reference and the implementation under test)
// bound to one implementation: the methods that check it and the fuzz
// targets whose corpus the corpus method replays. The pair packages
// (checksumtest, websockettest, quictest, utf8validtest) build one with NewSuite; a suite
// for a pair of your own is a Suite literal.
type Suite struct {
	// Pair names the pair, such as "checksum". It prefixes every error.
	Pair string
	// Err, if non-nil, says why the implementation cannot be checked at
	// all (a required function is missing): Check returns it alone.
	Err error
	// Methods run in order. Each one's Func gets a fresh Run.
	Methods []Method
	// Targets are the pair's fuzz targets. If any is given, Check adds a
	// method named MethodCorpus that replays each target's inputs.
	Targets []FuzzTarget
	// Corpus is the default seed corpus: one directory per FuzzTarget.Corpus.
	// WithCorpus replaces it.
	Corpus fs.FS
	// Unchecked lists the implementation's functions no method checks,
	// with the reason (say, "Update: Impl.Update is nil"); every Result
	// carries it.
	Unchecked []string
	// Describe renders an input of the pair (the value a suite passes to
	// Excluded) as a Counterexample without Got and Want, for the report
	// of a call that did not return (WithCallTimeout). Without it, the
	// report prints the input with %+v.
	Describe func(input any) *Counterexample
	// Serial declares an implementation documented as not safe for
	// concurrent use, as the option Serial does for one run: every run
	// of the suite is serial.
	Serial bool
	// Contracts are the contracts of the implementation's functions, as
	// the suite's harness applies them (see Contract, CheckContracts).
	Contracts []Contract
}

// Method is one verification method of a suite.
type Method struct {
	Name string
	// Skip, if non-empty, says why the method cannot run here; it is
	// reported as skipped (after -run selection, so that a method nobody
	// selected is never reported).
	Skip string
	// Func checks the implementation, counting every comparison with
	// Run.Count, and returns the joined Counterexamples (or any other
	// error) of what disagreed.
	Func func(r *Run) error
	// Unchecked lists the functions of the implementation this method
	// leaves out, with the reason (say, "Update: Impl.Update is nil").
	Unchecked []string
	// Split marks a method that divides its domain with Run.Mine, so that
	// it runs on every shard of a sharded run (WithShard), each doing its
	// part.
	Split bool
	// Lanes marks a Split method whose Func may run on several
	// goroutines at once (splitLanes, two), each with a Run of its own
	// and the units Run.Mine deals its lane: it shares no mutable state
	// across its calls but through the Run (a checker per call of Func,
	// as the pair packages make). The longest enumerations then take
	// about half the time on two cores, and call the implementation from
	// two goroutines at once throughout. Counts add up to a run on one
	// lane; a unit draws the same inputs as long as it draws them from a
	// source of its own (Run.Iterations, or a part's own PCG).
	Lanes bool
	// Long marks a method that takes long (a large enumeration): under
	// "go test -short", as slow emulated platforms (wasip1, qemu) run the
	// suites, Test runs a sample of it if it is Split (WithSample), which
	// its Result and the test's log say, and else skips it, saying so.
	Long bool
}

// Result is what one method of one suite did.
type Result struct {
	Pair    string        // the pair checked, such as "checksum"
	Method  string        // one of the Method* names
	Checked int64         // number of inputs on which implementation and reference were compared
	Elapsed time.Duration // wall time of the method
	Skipped string        // if non-empty, the method did not run, and why
	Err     error         // nil when every compared input agreed
	Seed    uint64        // the seed the method's random choices derived from
	Level   Level         // the level it ran at
	// Unchecked lists the implementation's functions this method did not
	// check, and why; Narrowed lists what the options relaxed or left out
	// (MapErrors, AnyPanic, Exclude with its count). Both empty means
	// the method's full domain was compared.
	Unchecked []string
	Narrowed  []string
	// Interrupted is set for a method that was stopped (WithStop) before
	// it finished (Err matches ErrInterrupted) or never started (Skipped
	// says "not run").
	Interrupted bool
	// Domain is what the compared inputs covered: their lengths and the
	// boundary classes they reached (Run.Size, Run.Reach, Run.Expect).
	Domain Domain
	// Concurrent is how many inputs the concurrent caller compared while
	// the method ran, from another goroutine (see Serial); they are not
	// in Checked.
	Concurrent int64
	// Hung is set when a call into the implementation did not return
	// within the call timeout: Err matches ErrHung, and the suite's later
	// methods were not run.
	Hung bool
	// Applied counts, per function, the calls each contract mechanism was
	// applied to (by the method, its lanes and its concurrent caller):
	// see Harness and CheckContracts.
	Applied []Applied
	// Bounds is what a proof method found per input size (Run.Bound).
	Bounds []Bound
}

// Check runs every method of s at the configured level and returns the
// joined errors of those that failed (Counterexamples match ErrMismatch),
// or nil if the implementation agreed on every input. It never calls
// t.Fatal or os.Exit and changes no global state, so the same check runs
// in a test, a fuzz target and a release gate, and several may run at once.
func Check(s Suite, opts ...Option) error {
	if s.Err != nil {
		return s.Err
	}
	if s.Serial {
		opts = append(opts[:len(opts):len(opts)], Serial())
	}
	cfg := NewConfig(opts...)
	if cfg.optErr != nil {
		return cfg.optErr
	}
	var errs []error
	var inputs []seedInput // the concurrent caller's, loaded once
	if !cfg.serial {
		inputs = concurrentInputs(s, cfg)
	}
	hung := ""
	for i, m := range methods(s) {
		m.Unchecked = append(s.Unchecked[:len(s.Unchecked):len(s.Unchecked)], m.Unchecked...)
		var res Result
		if hung != "" && (cfg.methods == nil || cfg.methods(m.Name)) {
			res = Result{Pair: s.Pair, Method: m.Name, Seed: cfg.seed, Level: cfg.level, Unchecked: m.Unchecked,
				Skipped: "not run: " + hung, Interrupted: true}
		} else {
			res = runMethod(s, cfg, i, m, inputs)
		}
		if res.Hung {
			hung = fmt.Sprintf("a call of the %s method did not return", m.Name)
		}
		if res.Err != nil {
			errs = append(errs, res.Err)
		}
		if cfg.report != nil {
			cfg.report(res)
		}
	}
	if cfg.stopped() && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("%s: %w", s.Pair, ErrInterrupted))
	}
	return errors.Join(errs...)
}

// methods lists the methods Check runs for s: the suite's own, then the
// corpus method if s has fuzz targets.
func methods(s Suite) []Method {
	ms := s.Methods
	if len(s.Targets) > 0 {
		ms = append(ms[:len(ms):len(ms)], corpusMethod(s))
	}
	return ms
}

// runMethod runs method number i of suite s and reports what it did. The
// method runs on a goroutine of its own, beside the concurrent caller
// (concurrent.go), while this one watches it (watch.go): a method stopped
// by WithStop that does not reach a checkpoint within a grace period, or
// whose call does not return, is abandoned, still running; so is a
// concurrent caller stuck in a call after the stop.
func runMethod(s Suite, cfg *Config, i int, m Method, inputs []seedInput) Result {
	res := Result{Pair: s.Pair, Method: m.Name, Seed: cfg.seed, Level: cfg.level, Unchecked: m.Unchecked}
	switch {
	case cfg.methods != nil && !cfg.methods(m.Name):
		res.Skipped = "not selected"
		return res
	case m.Skip != "":
		res.Skipped = m.Skip
		return res
	case cfg.stopped():
		res.Skipped, res.Interrupted = "not run: the run was stopped", true
		return res
	}
	cfg.resetScopes()
	cfg.kept.reset()
	cfg.applied = new(applied)
	r := &Run{cfg: cfg, pair: s.Pair, method: m.Name, index: uint64(i)}
	start := time.Now()
	r.start, r.lastProgress = start, start
	n := 1
	if m.Split && m.Lanes && !cfg.serial && !contractknob.NoConcurrent.Load() {
		n = splitLanes
	}
	l := startLanes(r, n, m.Func)
	conc := startConcurrent(inputs, cfg, i)
	why := watch(cfg, l.done)
	calls, concErr := conc.finish(s, cfg.stop, why != "")
	res.Elapsed = time.Since(start)
	res.Concurrent = calls
	res.Narrowed = cfg.narrowing()
	if turnTaking && len(inputs) > 0 && !cfg.serial {
		res.Narrowed = append(res.Narrowed, "no concurrent caller: on "+runtime.GOARCH+" goroutines take turns, so no two calls overlap")
	}
	switch why {
	case "stopped":
		return abandonedAfterStop(res, l.seen(), "in a call still running")
	case "hung":
		res.Checked = l.seen()
		res.Err, res.Hung = r.Fail(hungCounterexample(s, l.stuck(), cfg.callTimeout)), true
		return res
	}
	merged, err := l.merged()
	if errors.Is(concErr, errCallerStuck) {
		if err == nil || errors.Is(err, ErrInterrupted) {
			// The method reached a checkpoint after the stop; the
			// concurrent caller is the one stuck in a call.
			return abandonedAfterStop(res, l.seen(), "with the concurrent caller in a call still running")
		}
		concErr = nil // the method's own failure is reported
	}
	return merged.finish(res, m, err, concErr)
}

// abandonedAfterStop completes res for a method abandoned stopGrace after
// the stop, when seen inputs had been counted; where says which call was
// still running.
func abandonedAfterStop(res Result, seen int64, where string) Result {
	res.Checked = seen
	res.Err = fmt.Errorf("%s/%s: after about %d inputs, abandoned %v after the stop, %s: %w", res.Pair, res.Method, seen, stopGrace, where, ErrInterrupted)
	res.Interrupted = true
	return res
}

// runFunc runs a method's Func, then compares once more the results it
// kept alive (Config.Keep).
func (r *Run) runFunc(f func(*Run) error) error {
	if err := f(r); err != nil {
		return err
	}
	if ce := r.cfg.kept.check(); ce != nil {
		return r.Fail(ce)
	}
	return nil
}

// finish completes the Result of a method that returned err, beside a
// concurrent caller that found concErr.
func (r *Run) finish(res Result, m Method, err, concErr error) Result {
	res.Err = err
	// What the concurrent caller found is reported when the method itself
	// passed: beside a failure it is most often the same bug again.
	if concErr != nil && err == nil {
		var ce *Counterexample
		if errors.As(concErr, &ce) {
			concErr = r.Fail(ce)
			res.Hung = ce.Hung
		} else {
			concErr = r.Errorf("%w", concErr)
		}
		res.Err = errors.Join(err, concErr)
	}
	res.Interrupted = errors.Is(res.Err, ErrInterrupted)
	if note := r.sampleNote(m.Split); note != "" {
		res.Narrowed = append(res.Narrowed, note)
	}
	res.Checked = r.checked
	res.Domain = r.domain()
	res.Applied = r.cfg.applied.list()
	res.Bounds = r.bounds
	if res.Err == nil && !r.cfg.stopped() {
		res.Err = r.unreachedErr(m.Split)
	}
	switch {
	case res.Err != nil || r.checked > 0:
	case (r.cfg.shardN > 1 || r.cfg.sampleN > 1) && m.Split && r.asked > 0:
		// The method divided its domain and this shard's part (or the
		// sample) compared nothing: whether the whole method compared
		// anything is for the other shards to say, and this one did not
		// check anything.
		res.Skipped = r.partSkip()
	default:
		// A method that compared nothing did not check anything. One
		// that never asked Run.Mine did the same on every shard.
		res.Err = fmt.Errorf("%s/%s: %w", r.pair, m.Name, ErrNothingChecked)
	}
	return res
}

// Run is the state of one method while it runs: what it has counted, its
// random source, its level, and the helpers a method uses to report. A Run
// belongs to one goroutine.
type Run struct {
	cfg          *Config
	pair         string
	method       string
	checked      int64
	calls        uint64 // of Count, for the checkpoints
	asked, owned int    // units Mine was asked about, and gave this shard
	sampledUnits int    // of those asked, the units in the sample (WithSample)
	thinAsked    int    // items Thin was asked about (WithSample)
	thinKept     int    // of those, the items it let run
	rng          *rand.Rand
	start        time.Time
	lastProgress time.Time
	sizes        *sizeHist
	classes      map[string]*Class
	seen         atomic.Int64 // checked, as of the last checkpoint, for the watchdog
	// lane is this Run's lane of lanes (lanes.go): a Split method runs
	// on several goroutines at once, each the units Mine gives its lane;
	// passed counts the units that passed the shard and the sample, which
	// deal them to the lanes in turn; a lane stops at the first unit past
	// failedAt.
	lane, lanes int
	passed      int
	failedAt    *atomic.Int64 // the earliest unit a lane failed in (lanes.go)
	index       uint64        // the method's position in its suite, which seeds rng
	bounds      []Bound       // a proof method's outcomes per size (bound.go)
}

// Pair and Method name what is running.
func (r *Run) Pair() string   { return r.pair }
func (r *Run) Method() string { return r.method }

// Config is the run's configuration: level, seed, error and panic
// comparison, scope.
func (r *Run) Config() *Config { return r.cfg }

// Level is the configured level; Pick chooses a value by it.
func (r *Run) Level() Level { return r.cfg.level }

// Rand is the method's random source, seeded from the run's seed and the
// method's position, so that a seed reproduces every choice.
func (r *Run) Rand() *rand.Rand { return r.rng }

// Count records that n more inputs were compared.
// Every 1024th call is a checkpoint, where a stopped run (WithStop) ends
// and progress (WithProgress) is reported.
func (r *Run) Count(n int) {
	r.checked += int64(n)
	if r.calls++; r.calls&1023 == 0 {
		r.checkpoint()
	}
}

// Checked is the number of comparisons counted so far.
func (r *Run) Checked() int64 { return r.checked }

// Fail fills in the coordinates every counterexample carries (pair, method,
// seed) and returns c, for a method to return.
func (r *Run) Fail(c *Counterexample) error {
	c.Pair, c.Method, c.Seed = r.pair, r.method, r.cfg.seed
	return c
}

// Errorf formats an error prefixed with pair/method, wrapping the
// arguments of any %w as fmt.Errorf does: a failure that is not a
// counterexample (a law that does not hold wraps ErrMismatch; a wrong
// oracle or a missing resource wraps nothing).
func (r *Run) Errorf(format string, args ...any) error {
	return fmt.Errorf("%s/%s: "+format, append([]any{r.pair, r.method}, args...)...)
}

// protect runs f, turning a panic that escapes it (the implementation's, or
// the suite's own) into an error carrying the stack, rather than a crash.
func (r *Run) protect(f func(*Run) error) (err error) {
	defer func() {
		switch p := recover(); p.(type) {
		case nil:
		case interrupt:
			err = fmt.Errorf("%s/%s: after %d inputs: %w", r.pair, r.method, r.checked, ErrInterrupted)
		case laneHalt:
			err = nil // another lane failed: its error is the method's
		default:
			err = fmt.Errorf("%s/%s: panic after %d inputs: %v\n%s", r.pair, r.method, r.checked, p, debug.Stack())
		}
	}()
	err = f(r)
	if err == nil && r.cfg.stopped() {
		// A stop that came after the last checkpoint: the method may have
		// cut its work short through a callee that recovered the unwind.
		err = fmt.Errorf("%s/%s: after %d inputs: %w", r.pair, r.method, r.checked, ErrInterrupted)
	}
	return err
}
