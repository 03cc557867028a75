package gate

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/atomicfile"
)

// usageError is a problem with the command line or its inputs: exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

type options struct {
	level     equiv.Level
	timeout   time.Duration
	callLimit time.Duration
	shardK    int // 1-based; 0: not sharded
	shardN    int
	junit     string
	verbose   bool
	version   bool
	run       *regexp.Regexp
	seed      uint64
	require   []string
	json      string
	corpus    fs.FS  // nil: each suite's own
	corpusDir string // -corpus as given
	fuzzdir   string // "" when the default is absent (runAll says so)
	list      bool
}

// defaultFuzzdir is -fuzzdir's default: this repository's fuzz targets'
// inputs, relative to its root.
var defaultFuzzdir = filepath.Join("fuzz", "testdata", "fuzz")

func newFlagSet(name string) *flag.FlagSet {
	fset := flag.NewFlagSet(name, flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	fset.String("level", "quick", "input domains: quick, standard or deep")
	fset.String("run", "", "only checks whose pair/variant/method matches this regexp")
	fset.Uint64("seed", 0, "seed of every random choice (0: a fresh one, printed)")
	fset.String("require", "", "comma-separated variants (name or pair/name) that must run here")
	fset.String("json", "", "write a machine-readable report (schema in docs/report.md) to this file, or to stdout with -json - (the table then goes to stderr)")
	fset.String("corpus", "", "seed corpus directory (one subdirectory per pair) to replay instead of the suites' own")
	fset.String("fuzzdir", defaultFuzzdir, "regression inputs to replay, and where counterexamples are written (one directory per fuzz target; the default is skipped, with a note, where it does not exist)")
	fset.Bool("list", false, "list pairs and variants and exit")
	fset.String("junit", "", "write a JUnit XML report (one testcase per pair/variant/method) to this file")
	fset.Duration("timeout", 0, "stop after this long: what finished is reported, the rest marked not run, exit 1 (0: no limit)")
	fset.Duration("calltimeout", 0, "a call into an implementation that has not returned after this long fails its method, naming the input in flight (0: the level's default, 10s quick, 30s standard, 2m deep)")
	fset.String("shard", "", "run shard k/n of the checks (split methods run their part on every shard; the rest are dealt out)")
	fset.Bool("v", false, "print each method's domain (sizes reached, boundary classes hit) under its row, and progress every few seconds during long methods (also when stderr is a terminal)")
	fset.Bool("version", false, "print the version and exit")
	return fset
}

func parseFlags(name string, args []string) (*options, error) {
	fset := newFlagSet(name)
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usageError{err.Error()}
	}
	if fset.NArg() > 0 {
		return nil, usageError{fmt.Sprintf("unexpected argument %q", fset.Arg(0))}
	}
	get := func(name string) string { return fset.Lookup(name).Value.String() }
	var err0 error
	o := &options{json: get("json"), junit: get("junit"), fuzzdir: get("fuzzdir"),
		list: get("list") == "true", verbose: get("v") == "true", version: get("version") == "true"}
	o.seed = fset.Lookup("seed").Value.(flag.Getter).Get().(uint64)
	o.timeout = fset.Lookup("timeout").Value.(flag.Getter).Get().(time.Duration)
	if o.timeout < 0 {
		return nil, usageError{"-timeout: must not be negative"}
	}
	if o.callLimit = fset.Lookup("calltimeout").Value.(flag.Getter).Get().(time.Duration); o.callLimit < 0 {
		return nil, usageError{"-calltimeout: must not be negative"}
	}
	if sh := get("shard"); sh != "" {
		if o.shardK, o.shardN, err0 = equiv.ParseShard(sh); err0 != nil {
			return nil, usageError{"-shard: " + err0.Error()}
		}
	}
	var err error
	if o.level, err = equiv.ParseLevel(get("level")); err != nil {
		return nil, usageError{fmt.Sprintf("-level: unknown level %q (want quick, standard or deep)", get("level"))}
	}
	if o.run, err = regexp.Compile(get("run")); err != nil {
		return nil, usageError{fmt.Sprintf("-run: %v", err)}
	}
	for _, r := range strings.Split(get("require"), ",") {
		if r = strings.TrimSpace(r); r != "" {
			o.require = append(o.require, r)
		}
	}
	for flagName, path := range map[string]string{"-json": o.json, "-junit": o.junit} {
		if err := checkOutput(path); err != nil {
			return nil, usageError{flagName + ": " + err.Error()}
		}
	}
	if o.json != "" && o.junit != "" && filepath.Clean(o.json) == filepath.Clean(o.junit) {
		return nil, usageError{fmt.Sprintf("-json and -junit: both name %s", o.json)}
	}
	if err := o.checkFuzzdir(fset); err != nil {
		return nil, err
	}
	if dir := get("corpus"); dir != "" {
		st, err := os.Stat(dir)
		if err != nil || !st.IsDir() {
			return nil, usageError{fmt.Sprintf("-corpus: %s is not a readable directory", dir)}
		}
		o.corpus, o.corpusDir = os.DirFS(dir), dir
	}
	return o, nil
}

// checkFuzzdir rejects a -fuzzdir that is not a directory, or that was
// named on the command line and does not exist. The default, absent where
// the gate runs outside this repository's root, is dropped (o.fuzzdir
// becomes ""): runAll says so once, and nothing is replayed or written.
// A -fuzzdir named on the command line is never "" here.
func (o *options) checkFuzzdir(fset *flag.FlagSet) error {
	set := false
	fset.Visit(func(f *flag.Flag) { set = set || f.Name == "fuzzdir" })
	st, err := os.Stat(o.fuzzdir)
	switch {
	case err == nil && !st.IsDir():
		return usageError{fmt.Sprintf("-fuzzdir: %s is not a directory", o.fuzzdir)}
	case err != nil && (set || !errors.Is(err, fs.ErrNotExist)):
		return usageError{fmt.Sprintf("-fuzzdir: %s is not a readable directory", o.fuzzdir)}
	case err != nil:
		o.fuzzdir = ""
	}
	return nil
}

// checkOutput rejects a report path that cannot be written: its directory
// missing or not writable, or a directory in its place. "" and "-"
// (stdout) are fine.
func checkOutput(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("the directory of %s does not exist", path)
	}
	if st, err := os.Lstat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	// The report is written as a new file in dir, renamed over path.
	f, err := os.CreateTemp(dir, atomicfile.TempPrefix+"probe-*")
	if err != nil {
		return fmt.Errorf("cannot create %s: %v", path, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// usage prints every flag with its description.
func usage(w io.Writer, name string) {
	fmt.Fprintf(w, "usage: %s [flags]\n\nflags:\n", name)
	fset := newFlagSet(name)
	fset.SetOutput(w)
	fset.PrintDefaults()
	fmt.Fprintf(w, "\nexit status: 0 every check that ran agreed; 1 a disagreement, or a required variant that could not run; 2 unusable flags, a corrupt corpus file, or nothing compared (every selected check skipped here); 130 interrupted\n")
}

// suiteOptions are the options every suite runs with.
func (o *options) suiteOptions() []equiv.Option {
	opts := []equiv.Option{equiv.WithLevel(o.level), equiv.WithSeed(o.seed)}
	if o.callLimit > 0 {
		opts = append(opts, equiv.WithCallTimeout(o.callLimit))
	}
	if o.shardN > 1 {
		opts = append(opts, equiv.WithShard(o.shardK, o.shardN))
	}
	if o.corpus != nil {
		opts = append(opts, equiv.WithCorpus(o.corpus))
	}
	if o.fuzzdir != "" {
		opts = append(opts, equiv.WithRegressions(os.DirFS(o.fuzzdir)))
	}
	return opts
}
