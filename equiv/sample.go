package equiv

import "fmt"

// ShortSample is the sample Test runs a Long method with under "go test
// -short": one unit in ShortSample of its domain (see WithSample).
const ShortSample = 4

// WithSample makes every Split method (Method.Split) run a sample of its
// domain: of the units it asks Run.Mine about, those whose index is
// congruent to the run's seed modulo n, about one in n. Each Result says
// so in Narrowed, with how many units of how many ran; a sample whose
// units compared nothing is reported skipped, as an empty shard is, and
// the method's expected classes are not required of a sample. Another
// seed picks another sample, so that repeated runs cover the whole
// domain, and the same seed the same one. Test runs each Long method with
// WithSample(ShortSample) under "go test -short" instead of skipping it.
// Methods that are not Split run whole. n <= 1 runs every unit.
func WithSample(n int) Option { return func(c *Config) { c.sampleN = n } }

// sampled reports whether unit i of a Split method is in the run's sample
// (always, without WithSample).
func (c *Config) sampled(i int) bool {
	return c.sampleN <= 1 || uint64(i)%uint64(c.sampleN) == c.seed%uint64(c.sampleN)
}

// Thin reports whether item j of one of a method's longest loops runs:
// always, without WithSample; under WithSample(n), about one item in n,
// those whose index is the seed's quotient by n, mod n (another residue
// than the units', so that over n*n seeds every item of every unit runs).
// A part that costs many times the others (a grid of every length, every
// first byte) thins its outer loop with it, so that no sample holds it
// whole: the sample's cost is about 1/n of the method's, not the cost of
// its heaviest unit. The sample's note counts the items left out.
func (r *Run) Thin(j int) bool {
	n := uint64(r.cfg.sampleN)
	if n <= 1 {
		return true
	}
	r.thinAsked++
	if uint64(j)%n != r.cfg.seed/n%n {
		return false
	}
	r.thinKept++
	return true
}

// sampleNote says, for a Split method run with WithSample, which part of
// its domain it ran, or "".
func (r *Run) sampleNote(split bool) string {
	if !split || r.cfg.sampleN <= 1 {
		return ""
	}
	thinned := ""
	if r.thinAsked > 0 {
		thinned = fmt.Sprintf(" and %d of the %d items of its longest loops", r.thinKept, r.thinAsked)
	}
	return fmt.Sprintf("sampled (WithSample, go test -short): %d of its %d units%s, by the seed; without -short it runs them all",
		r.sampledUnits, r.asked, thinned)
}

// partSkip is the Skipped of a Split method that asked Run.Mine and
// compared nothing on its shard or in its sample.
func (r *Run) partSkip() string {
	if r.cfg.shardN > 1 {
		return fmt.Sprintf("shard %d/%d compared nothing in its %d of %d units", r.cfg.shardK, r.cfg.shardN, r.owned, r.asked)
	}
	return fmt.Sprintf("the sample (WithSample %d) compared nothing in its %d of %d units", r.cfg.sampleN, r.owned, r.asked)
}
