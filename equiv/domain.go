package equiv

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"
)

// ErrUnreached is reported for a method that finished without reaching a
// boundary class it declared with Run.Expect: its domain was smaller than
// it claims, so its "pass" would not mean what it says.
var ErrUnreached = errors.New("expected boundary classes not reached")

// Domain is what a method's compared inputs actually covered: the lengths
// it recorded with Run.Size and the boundary classes it recorded with
// Run.Reach. A Result carries it, and the gate reports it.
type Domain struct {
	Sizes   Sizes
	Classes []Class // sorted by name
}

// Sizes summarizes the input lengths a method recorded. Lengths below 1024
// are counted exactly; above, the percentiles are the lower bound of a
// bucket 1/16 of a power of two wide, so they are within 6.25% below the
// true value. Min and Max are exact.
type Sizes struct {
	N                       int64 // number of lengths recorded
	Min, P50, P90, P99, Max int64
}

// Class is one boundary class: how many compared inputs fell in it, and
// whether the method declared (Run.Expect) that it must reach it.
type Class struct {
	Name     string
	Hits     int64
	Expected bool
}

// Unreached lists the classes the method expected and did not reach.
func (d Domain) Unreached() []string {
	var out []string
	for _, c := range d.Classes {
		if c.Expected && c.Hits == 0 {
			out = append(out, c.Name)
		}
	}
	return out
}

// String is a one-line summary: the size range and percentiles, and the
// classes reached.
func (d Domain) String() string {
	var b strings.Builder
	if d.Sizes.N > 0 {
		s := d.Sizes
		fmt.Fprintf(&b, "sizes %d..%d (p50 %d, p90 %d, p99 %d; %d recorded)", s.Min, s.Max, s.P50, s.P90, s.P99, s.N)
	}
	if len(d.Classes) > 0 {
		reached, expected := 0, 0
		for _, c := range d.Classes {
			if c.Hits > 0 {
				reached++
			}
			if c.Expected {
				expected++
			}
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "classes %d of %d reached (%d expected)", reached, len(d.Classes), expected)
		if u := d.Unreached(); len(u) > 0 {
			fmt.Fprintf(&b, ", unreached: %s", strings.Join(u, ", "))
		}
	}
	return b.String()
}

// sizeHist counts lengths: exactly below exactSizes, then in 16 buckets
// per power of two.
type sizeHist struct {
	n, min, max int64
	exact       [exactSizes]int64
	log         [64 * 16]int64
}

const exactSizes = 1024

func (h *sizeHist) add(n int64) {
	if n < 0 {
		n = 0
	}
	if h.n == 0 || n < h.min {
		h.min = n
	}
	if n > h.max {
		h.max = n
	}
	h.n++
	if n < exactSizes {
		h.exact[n]++
		return
	}
	h.log[logBucket(n)]++
}

// logBucket is the bucket of n >= exactSizes: its power of two and the
// next four bits below the leading one.
func logBucket(n int64) int {
	p := bits.Len64(uint64(n)) - 1
	return p*16 + int(uint64(n)>>(p-4)&15)
}

func bucketLow(i int) int64 {
	p, sub := i/16, int64(i%16)
	return 1<<p | sub<<(p-4)
}

// quantile is the nearest-rank q-quantile of the recorded lengths (the
// bucket's lower bound above exactSizes).
func (h *sizeHist) quantile(q float64) int64 {
	want := int64(math.Ceil(q * float64(h.n))) // nearest rank
	var seen int64
	for i, c := range h.exact {
		if seen += c; seen >= want {
			return int64(i)
		}
	}
	for i, c := range h.log {
		if seen += c; seen >= want {
			return max(bucketLow(i), h.min)
		}
	}
	return h.max
}

func (h *sizeHist) sizes() Sizes {
	if h.n == 0 {
		return Sizes{}
	}
	return Sizes{N: h.n, Min: h.min, Max: h.max, P50: h.quantile(.5), P90: h.quantile(.9), P99: h.quantile(.99)}
}

// Size records the length of one compared input (for a pair of buffers,
// the one whose length drives the implementation's paths), for the
// Result's Domain.
func (r *Run) Size(n int) {
	if r.sizes == nil {
		r.sizes = new(sizeHist)
	}
	r.sizes.add(int64(n))
}

// Reach records that one compared input fell in the named boundary class
// (say "len=2^16+1" or "carry:64-bit end-around").
func (r *Run) Reach(class string) { r.ReachN(class, 1) }

// ReachN records that n compared inputs fell in the named class.
func (r *Run) ReachN(class string, n int64) {
	if r.classes == nil {
		r.classes = make(map[string]*Class)
	}
	c := r.classes[class]
	if c == nil {
		c = &Class{Name: class}
		r.classes[class] = c
	}
	c.Hits += n
}

// Expect declares classes the method must reach at the running level: a
// method that finishes without reaching one of them fails with
// ErrUnreached, naming it. A method calls it with the classes its domain
// argument (docs/equivalence.md) relies on.
func (r *Run) Expect(classes ...string) {
	for _, name := range classes {
		r.ReachN(name, 0)
		r.classes[name].Expected = true
	}
}

// domain is what the run covered.
func (r *Run) domain() Domain {
	var d Domain
	if r.sizes != nil {
		d.Sizes = r.sizes.sizes()
	}
	for _, c := range r.classes {
		d.Classes = append(d.Classes, *c)
	}
	sort.Slice(d.Classes, func(i, j int) bool { return d.Classes[i].Name < d.Classes[j].Name })
	return d
}

// unreachedErr is the error of a method that ran to its end without
// reaching an expected class, or nil. A Split method on one shard of a
// sharded run, or run on a sample (WithSample), is exempt: the shards, or
// the samples of other seeds, reach the classes between them.
func (r *Run) unreachedErr(split bool) error {
	if split && (r.cfg.shardN > 1 || r.cfg.sampleN > 1) {
		return nil
	}
	d := r.domain()
	if u := d.Unreached(); len(u) > 0 {
		return fmt.Errorf("%s/%s: %w: %s", r.pair, r.method, ErrUnreached, strings.Join(u, ", "))
	}
	return nil
}
