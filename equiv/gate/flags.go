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

	"github.com/equivcheck/equivcheck/equiv"
)

// usageError is a problem with the command line or its inputs: exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

type options struct {
	level   equiv.Level
	run     *regexp.Regexp
	seed    uint64
	require []string
	json    string
	corpus  fs.FS // nil: each suite's own
	fuzzdir string
	list    bool
}

func newFlagSet(name string) *flag.FlagSet {
	fset := flag.NewFlagSet(name, flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	fset.String("level", "quick", "input domains: quick, standard or deep")
	fset.String("run", "", "only checks whose pair/variant/method matches this regexp")
	fset.Uint64("seed", 0, "seed of every random choice (0: a fresh one, printed)")
	fset.String("require", "", "comma-separated variants (name or pair/name) that must run here")
	fset.String("json", "", "write a machine-readable report to this file")
	fset.String("corpus", "", "seed corpus directory (one subdirectory per pair) to replay instead of the suites' own")
	fset.String("fuzzdir", filepath.Join("fuzz", "testdata", "fuzz"), "regression inputs to replay, and where counterexamples are written (one directory per fuzz target; ignored if absent)")
	fset.Bool("list", false, "list pairs and variants and exit")
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
	o := &options{json: get("json"), fuzzdir: get("fuzzdir"), list: get("list") == "true"}
	o.seed = fset.Lookup("seed").Value.(flag.Getter).Get().(uint64)
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
	if o.json != "" && o.json != "-" {
		if st, err := os.Stat(filepath.Dir(o.json)); err != nil || !st.IsDir() {
			return nil, usageError{fmt.Sprintf("-json: the directory of %s does not exist", o.json)}
		}
		if st, err := os.Lstat(o.json); err == nil && st.IsDir() {
			return nil, usageError{fmt.Sprintf("-json: %s is a directory", o.json)}
		}
	}
	if dir := get("corpus"); dir != "" {
		st, err := os.Stat(dir)
		if err != nil || !st.IsDir() {
			return nil, usageError{fmt.Sprintf("-corpus: %s is not a readable directory", dir)}
		}
		o.corpus = os.DirFS(dir)
	}
	return o, nil
}

// usage prints every flag with its description.
func usage(w io.Writer, name string) {
	fmt.Fprintf(w, "usage: %s [flags]\n\nflags:\n", name)
	fset := newFlagSet(name)
	fset.SetOutput(w)
	fset.PrintDefaults()
	fmt.Fprintf(w, "\nexit status: 0 every check that ran agreed; 1 a disagreement, or a required variant that could not run; 2 unusable flags or a corrupt corpus file\n")
}

// suiteOptions are the options every suite runs with.
func (o *options) suiteOptions() []equiv.Option {
	opts := []equiv.Option{equiv.WithLevel(o.level), equiv.WithSeed(o.seed)}
	if o.corpus != nil {
		opts = append(opts, equiv.WithCorpus(o.corpus))
	}
	if st, err := os.Stat(o.fuzzdir); err == nil && st.IsDir() {
		opts = append(opts, equiv.WithRegressions(os.DirFS(o.fuzzdir)))
	}
	return opts
}
