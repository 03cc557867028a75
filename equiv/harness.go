package equiv

import (
	"fmt"
	"slices"

	"github.com/equivcheck/equivcheck/internal/contractknob"
)

// Harness makes the calls of one checker, one at a time, as their
// Contracts say: it places each byte slice a call takes (between
// canaries, with spare capacity, on read-only pages, flush against
// unmapped or read-only pages, with the exact room an append needs), runs
// the call with memory faults caught, judges the memory around and inside
// the slices afterwards, poisons what the call may not keep, keeps alive
// what it returns that the caller owns, and counts, per function, the
// calls each Mechanism was applied to (Result.Applied). A suite's checks
// say what to call and what to compare; the Harness says how memory is
// placed and watched. A checker makes one with NewHarness and releases it
// when done; a Harness belongs to one goroutine.
type Harness struct {
	cfg   *Config
	calls [maxDepth]*Call // the calls in flight, each with its buffers
	// counts holds, per Contract, the calls each mechanism (by its index
	// in Mechanisms) was applied to; last caches the last one used, since
	// a method calls one function many times in a row, and recent the
	// last few, since a check calls a few in turn (New, Write, Reset,
	// Close), where a map lookup per call was a tenth of a tight loop's
	// time.
	counts map[*Contract]*mechCounts
	lastC  *Contract
	last   *mechCounts
	recent [4]recentCounts
	nextR  int                 // the entry of recent to replace next
	marks  []int               // mechanisms every call counts under for now (Marking, Again)
	called *Contract           // the function of the last Call
	tries  map[*Contract]int64 // inputs offered to Again, per function of their last call
	unit   uint64              // the Config's unit when tries was last cleared (sync)
	before func()              // called before the next call runs (Before)
	// synced is the Call whose first Do ran before (its span, for an
	// overlap lane, ends at its End), or nil.
	synced *Call
}

// mechCounts counts calls per mechanism, indexed as Mechanisms.
type mechCounts [numMechanisms]int64

// recentCounts is an entry of Harness.recent: a Contract and its counts.
type recentCounts struct {
	c *Contract
	n *mechCounts
}

// The index of each mechanism in Mechanisms, for counting.
const (
	iSpare = iota
	iReadOnly
	iNeighbours
	iGuard
	iPoison
	iReuse
	iExactAppend
	iKeep
	iWatchdog
	iConcurrent
	iOverlap
	iScale
	iHistory
	iIOEdges
	numMechanisms
)

// maxParams is the most byte-slice parameters one call places, and
// maxDepth the most calls in flight at once (a call of a Digest's Sum
// inside the check of its Writes).
const (
	maxParams = 4
	maxDepth  = 4
)

// NewHarness returns a Harness for calls checked under cfg.
func NewHarness(cfg *Config) *Harness {
	h := &Harness{cfg: cfg, counts: map[*Contract]*mechCounts{}}
	if l := cfg.overlap; l != nil {
		l.harnesses = append(l.harnesses, h)
	}
	return h
}

// Release gives the harness's buffers back (Buffer.Release) and adds what
// it counted to its method's Result.Applied. No slice it placed may be
// used after it.
func (h *Harness) Release() {
	for _, k := range h.calls {
		if k != nil {
			for i := range k.bufs {
				k.bufs[i].Release()
			}
		}
	}
	all := map[appliedKey]int64{}
	for c, n := range h.counts {
		for i, calls := range n {
			if calls > 0 {
				all[appliedKey{c.Func, Mechanisms[i]}] += calls
			}
		}
	}
	h.cfg.applied.add(all)
	clear(h.counts)
	h.lastC, h.last, h.recent = nil, nil, [4]recentCounts{}
}

// Config is the configuration the harness checks under.
func (h *Harness) Config() *Config { return h.cfg }

// note counts one call of c under mechanism number m.
func (h *Harness) note(c *Contract, m int) {
	if c != h.lastC {
		h.lastC, h.last = c, h.countsOf(c)
	}
	h.last[m]++
}

// countsOf returns c's counts, from recent if they are there.
func (h *Harness) countsOf(c *Contract) *mechCounts {
	for _, r := range h.recent {
		if r.c == c {
			return r.n
		}
	}
	n := h.counts[c]
	if n == nil {
		n = new(mechCounts)
		h.counts[c] = n
	}
	h.recent[h.nextR] = recentCounts{c, n}
	h.nextR = (h.nextR + 1) % len(h.recent)
	return n
}

// Call begins a call of the function c declares and returns it, with no
// slice placed yet. The Call is the harness's own, reused once End has
// been called: a few calls may be in flight at once (one inside the
// check of another), each with buffers of its own.
func (h *Harness) Call(c *Contract) *Call {
	h.called = c
	if h.synced == nil {
		h.endSynchronized()
	}
	var k *Call
	for i, x := range h.calls {
		if x == nil {
			x = &Call{h: h}
			h.calls[i] = x
		}
		if !x.active {
			k = x
			break
		}
	}
	if k == nil {
		panic(fmt.Sprintf("equiv: %s: more than %d calls in flight (a Call without End)", c.Func, maxDepth))
	}
	k.c, k.active, k.placed = c, true, [maxParams]bool{}
	h.count(c)
	return k
}

// Note counts a call of the function c declares that places no slice (a
// Digest's Sum16, a value-only function), for the mechanisms that apply
// to every call: the watchdog, the concurrent caller, overlap and reuse.
// A suite calls it just before the call (Call notes its calls itself).
func (h *Harness) Note(c *Contract) {
	if h.synced == nil {
		h.endSynchronized()
	}
	h.runBefore(nil)
	h.count(c)
}

// Before has f called just before the next call runs (Call.Do, or the
// call Note counts): an overlap lane (Run.Overlap) passes its wait, so
// that the two lanes' calls of the implementation start together, their
// inputs placed and the reference's results computed. It reports whether
// an earlier f was still waiting, which it then replaces.
func (h *Harness) Before(f func()) bool {
	pending := h.before != nil
	h.before = f
	return pending
}

// runBefore runs what Before set, if anything, before a call through k
// (nil: the call Note counts), and begins an overlap lane's span of it.
func (h *Harness) runBefore(k *Call) {
	if f := h.before; f != nil {
		h.before = nil
		f()
		if l := h.cfg.overlap; l != nil {
			l.begin()
			h.synced = k
		}
	}
}

// endSynchronized ends the span of an overlap lane's call made just after
// its wait: at the Call's End, so that the span holds every Do of it (a
// sequence the call returned, ranged in later Dos, runs the function's
// work there), or, for a call Note counted, at the harness's next call
// (or the end of the round).
func (h *Harness) endSynchronized() {
	if l := h.cfg.overlap; l != nil {
		l.end()
	}
}

// count counts a call of c under the mechanisms that apply to every call.
func (h *Harness) count(c *Contract) {
	if h.cfg.callTimeout > 0 {
		h.note(c, iWatchdog)
	}
	switch h.cfg.role {
	case roleConcurrent, roleLanes:
		h.note(c, iConcurrent)
	case roleOverlap:
		h.note(c, iOverlap)
	}
	for _, m := range h.marks {
		h.note(c, m)
	}
}

// Marking runs f, counting every call it makes under mechanism m too: a
// suite that feeds a long history to a value (MechHistory), reuses one
// across Resets (MechReuse) or drives it through io's (n, err) forms
// (MechIOEdges) wraps the calls in it.
func (h *Harness) Marking(m Mechanism, f func()) {
	h.marks = append(h.marks, mechIndex(m))
	defer func() { h.marks = h.marks[:len(h.marks)-1] }()
	f()
}

// mechIndex is m's index in Mechanisms.
func mechIndex(m Mechanism) int {
	i := slices.Index(Mechanisms, m)
	if i < 0 {
		panic("equiv: no mechanism " + string(m))
	}
	return i
}

// Call is one call of a function, as a Harness places and judges it.
type Call struct {
	h      *Harness
	c      *Contract
	bufs   [maxParams]Buffer
	placed [maxParams]bool
	active bool // begun and not ended
}

// param returns parameter i's declaration, panicking (a bug in the suite)
// if the Contract has none or its access is not want.
func (k *Call) param(i int, want ...Access) Param {
	if i < 0 || i >= len(k.c.Params) || i >= maxParams {
		panic(fmt.Sprintf("equiv: %s has no parameter %d in its Contract", k.c.Func, i))
	}
	p := k.c.Params[i]
	for _, a := range want {
		if p.Access == a {
			return p
		}
	}
	// want is cloned so that it does not escape: the caller's variadic
	// slice then stays on its stack, where it was a heap allocation per
	// call.
	panic(fmt.Sprintf("equiv: %s's parameter %s %s, not %v", k.c.Func, p.Name, p.Access, slices.Clone(want)))
}

// Bytes places data for parameter i, a slice the function reads (on
// read-only pages) or writes in place (Writes), at align (0..63), and
// returns the slice to pass.
func (k *Call) Bytes(i int, data []byte, align int) []byte {
	p := k.param(i, Reads, Writes)
	return k.place(i, p.Access, data, len(data), align, 0)
}

// Output places n canary bytes for parameter i, a slice the function
// writes (Writes), so that an octet it fails to write shows.
func (k *Call) Output(i, n, align int) []byte {
	k.param(i, Writes)
	return k.place(i, Writes, nil, n, align, 0)
}

// Prefix places data for parameter i, a slice of which the function
// writes data[:w] at most (WritesPrefix): the rest, and the memory around,
// must stay as it was.
func (k *Call) Prefix(i int, data []byte, align, w int) []byte {
	k.param(i, WritesPrefix)
	return k.place(i, WritesPrefix, data, len(data), align, w)
}

// Append places data for parameter i, a slice to which the function
// appends w octets (Appends), with the spare capacity of the append
// schedule: exactly w, one less, one more, and each of 0 to 8 (and more)
// in turn. The function may write the room it has in place, up to the w
// octets appended (an append of one octet at a time fills what room
// there is before it moves to a new array), and nothing else: not
// b[:len(b)], not past the appended octets.
func (k *Call) Append(i int, data []byte, align, w int) []byte {
	k.param(i, Appends)
	return k.place(i, Appends, data, len(data), align, w)
}

// place lays parameter i out and counts the mechanisms its layout applies.
func (k *Call) place(i int, acc Access, data []byte, n, align, w int) []byte {
	h := k.h
	acc2, lo, hi, lay := plan(acc, n, align, w)
	if acc == Appends && lay.Spare == w && w > 0 && !contractknob.NoExactAppend.Load() {
		h.note(k.c, iExactAppend)
	}
	b := k.bufs[i].place(acc2, data, n, lo, hi, lay)
	k.placed[i] = true
	l := k.bufs[i].Layout()
	if l.Spare > 0 || l.Nil {
		h.note(k.c, iSpare)
	}
	if l.ReadOnly {
		h.note(k.c, iReadOnly)
	}
	switch l.Edge {
	case GuardBefore, GuardAfter:
		h.note(k.c, iGuard)
	case ReadOnlyBefore, ReadOnlyAfter:
		h.note(k.c, iNeighbours)
	}
	if n >= ScaleMin {
		h.note(k.c, iScale)
	}
	return b
}

// Layout is the layout parameter i was placed with.
func (k *Call) Layout(i int) Layout { return k.bufs[i].Layout() }

// Do calls f, the call itself, and returns the panic it raised (a memory
// fault in it as a *Fault), or nil.
func (k *Call) Do(f func()) *Panic {
	k.h.runBefore(k)
	return Catch(f)
}

// Flaw judges the memory of every slice placed once the call has
// returned: "" if all is as the contract allows, else what the call did,
// such as "wrote outside b" (canaries or spare capacity changed) or
// "modified src" (octets of the slice it may not write).
func (k *Call) Flaw() string {
	for i, placed := range k.placed {
		if !placed {
			continue
		}
		switch k.bufs[i].damage() {
		case damageOutside:
			return "wrote outside " + k.c.Params[i].Name
		case damageInside:
			return "modified " + k.c.Params[i].Name
		}
	}
	return ""
}

// Poison overwrites octets lo to hi of parameter i, once the call that was
// given them has returned: a stateful function fed a slice in pieces has
// each piece poisoned in turn. End poisons the rest.
func (k *Call) Poison(i, lo, hi int) {
	if !k.c.Params[i].Keeps {
		k.bufs[i].PoisonRange(lo, hi)
	}
}

// Keep keeps got, a result the function returned that the caller owns
// (Contract.Fresh), alive and compares it again after later calls: see
// Config.Keep.
func (k *Call) Keep(got []byte, fail func(now []byte) *Counterexample) *Counterexample {
	if !contractknob.NoKeep.Load() {
		k.h.note(k.c, iKeep)
	}
	return k.h.cfg.Keep(got, fail)
}

// Mark records that the suite applied mechanism m to this call itself
// (MechHistory, MechReuse of an object or an iterator, MechIOEdges, and
// MechScale for a stream that moved ScaleMin octets or more).
func (k *Call) Mark(m Mechanism) { k.h.note(k.c, mechIndex(m)) }

// End completes the call once its results are judged: every slice placed
// that the function may not keep is poisoned, so that a view it kept
// shows in its next call.
func (k *Call) End() {
	if h := k.h; h.synced == k {
		h.synced = nil
		h.endSynchronized()
	}
	for i, placed := range k.placed {
		if placed && !k.c.Params[i].Keeps && !contractknob.NoPoison.Load() {
			k.bufs[i].Poison()
			k.h.note(k.c, iPoison)
		}
	}
	k.active = false
}

// Again, every againEvery-th input that passed (counted per function of
// the last call, from a point each unit of a Split method fixes), checks
// vary(in), the same
// input with other contents in the same places (the same lengths and
// alignments, so its slices lie at the same addresses), with check: an
// implementation that remembers a result by its input's address, or keeps
// a view of it, answers the old contents. It returns what check found and
// whether it ran (for the suite to count). vary returns false for an
// input it cannot vary; a varied input out of scope (Exclude) is not
// checked, and counted as excluded.
func Again[T any](h *Harness, in T, vary func(T) (T, bool), check func(T) *Counterexample) (*Counterexample, bool) {
	h.sync()
	if h.tries == nil {
		h.tries = map[*Contract]int64{}
	}
	h.tries[h.called]++
	if (h.tries[h.called]+int64(h.unit)*5)%againEvery != 0 || contractknob.NoReuse.Load() {
		return nil, false
	}
	v, ok := vary(in)
	if !ok || Excluded(h.cfg, v) {
		return nil, false
	}
	var ce *Counterexample
	h.Marking(MechReuse, func() { ce = check(v) })
	return ce, true
}

// sync starts Again's counts of inputs again where a unit of a Split
// method begins (Run.Mine), from a point the unit's index fixes, so that
// the inputs Again re-checks are the same whichever shard or lane runs
// the unit, and after which other unit (a call a checker makes once and
// keeps, say, falls in whichever unit comes first).
func (h *Harness) sync() {
	if u := h.cfg.unit; u != h.unit {
		h.unit = u
		clear(h.tries)
	}
}

// againEvery is how often Again re-checks an input with new contents.
const againEvery = 8

// ScaleMin is the length from which a call counts as one at scale
// (MechScale): 32 KiB, where implementations switch to chunked or
// parallel paths and single Reads and Writes to bulk copies.
const ScaleMin = 32 << 10

// LayoutFor returns the Layout a Call gives a parameter of n bytes with
// access acc at align, of which the function writes the first w octets
// (Prefix) or to which it appends w (Append), as it is placed on this
// system: for a counterexample that describes where its input lay.
func LayoutFor(acc Access, n, align, w int) Layout {
	_, _, _, lay := plan(acc, n, align, w)
	lay.ReadOnly = lay.ReadOnly && readOnlySkip == ""
	return lay
}

// plan lays out a parameter of n bytes with access acc at align (writing
// w octets of it, or appending w): the access it is placed with (an
// append without room is placed as one that must not be written at all),
// the range [lo, hi) it may write, and its layout, the Edge included
// where this system has them. ReadOnly says it would be read-only where
// the system allows.
func plan(acc Access, n, align, w int) (Access, int, int, Layout) {
	lay := LayoutOf(n, align)
	lo, hi := 0, n
	switch acc {
	case Reads:
		hi = 0
	case WritesPrefix:
		hi = min(max(w, 0), n)
	case Appends:
		lay.Spare = appendSpare(n, align, w)
		if n == 0 && lay.Nil && lay.Spare > 0 {
			lay.Nil = false
		}
		// An append may fill the room it has in place, octet by octet,
		// before it moves to a new array (as append(b, v) in a loop
		// does), and never writes past the octets appended.
		lo, hi = n, n+min(lay.Spare, w)
	}
	if edgeSkip == "" && !lay.Nil {
		lay.Edge = edgeFor(n, align, lo, hi, acc != Reads)
		// The room past the octets an append writes is still the
		// caller's array, which the function may read: slices.Grow,
		// the first call of most append functions (hex.AppendDecode's),
		// copies s[:cap(s)] when it must move. So an append's room lies
		// before read-only octets, never on an unmapped page.
		if acc == Appends && lay.Edge == GuardAfter && lay.Spare > hi-n {
			lay.Edge = ReadOnlyAfter
		}
	}
	lay.ReadOnly = acc == Reads && !contractknob.NoReadOnly.Load()
	return acc, lo, hi, lay
}
