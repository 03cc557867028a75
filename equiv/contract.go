package equiv

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
)

// A Contract is what one function of an implementation may do beyond
// returning its results, as data: what it may read, write, append in
// place and keep, whether it may be called from several goroutines at
// once, and what it returns that the caller owns or ranges. Each pair
// package declares one per function of its Impl (and per method of an
// object an Impl function returns, "Digest.Write"), next to the Impl type;
// the Harness reads it on every call a method makes and applies every
// mechanism it calls for (Mechanisms), and CheckContracts compares the
// declarations with the Impl type and with what the harness applied.
type Contract struct {
	// Func names the function: an Impl field ("Sum"), or a method of the
	// interface an Impl field returns, prefixed with the interface's name
	// ("Digest.Write").
	Func string
	// Params are the parameters that are buffers or streams, in order;
	// parameters that are plain values have no entry.
	Params []Param
	// Serial declares a function documented as not safe for concurrent
	// use (for a method: not even on distinct values). The concurrent
	// caller and the overlap rounds leave it alone.
	Serial bool
	// Object declares a method of a value with state across calls (a
	// Digest, a streamer, a validator): it is reused across many calls
	// and Resets (MechHistory, MechReuse).
	Object bool
	// Fresh declares that the function returns a slice the caller owns
	// (an append to a nil or full buffer, a hash's Sum(nil)): the harness
	// keeps it alive and compares it again later (MechKeep).
	Fresh bool
	// Iter declares that the function returns an iterator, which is
	// ranged again, broken early and ranged after its input changed
	// (MechReuse).
	Iter bool
	// Length declares a function whose result depends on a length axis
	// through its values or its state (a length argument, a count of
	// octets written so far), for MechScale.
	Length bool
	// NotApplicable gives, for a mechanism that the declaration alone
	// would apply, why it does not: say, a streamer's Reset, which takes
	// a reader but reads nothing from it.
	NotApplicable map[Mechanism]string
}

// Param is one buffer or stream parameter of a Contract.
type Param struct {
	Name   string // as the function's documentation names it: "b", "src"
	Access Access
	// Keeps declares that the function may keep a view of the parameter
	// after it returns (the poison mechanism then leaves it alone).
	Keeps bool
}

// Access is what a function may do to one parameter.
type Access int

const (
	// Reads: a byte slice the function reads, b[:len(b)] only, and never
	// writes, not even for a moment: it lies on read-only pages.
	Reads Access = iota
	// Writes: a byte slice the function may write in place, b[:len(b)]
	// only: not its spare capacity, not the bytes around it.
	Writes
	// WritesPrefix: a byte slice of which the function writes a prefix
	// the suite names per call (Put's two octets), and nothing else.
	WritesPrefix
	// Appends: a byte slice the function appends n octets to: it may
	// write b[len(b):min(cap(b), len(b)+n)] in place, and nothing else,
	// never b[:len(b)].
	Appends
	// ReadsFrom: an io.Reader or io.ByteReader the function reads from,
	// whose (n, err) results follow io's contract in all its forms.
	ReadsFrom
	// WritesTo: an io.Writer the function writes to.
	WritesTo
)

var accessNames = [...]string{Reads: "reads", Writes: "writes", WritesPrefix: "writes a prefix of",
	Appends: "appends to", ReadsFrom: "reads from", WritesTo: "writes to"}

func (a Access) String() string {
	if a >= 0 && int(a) < len(accessNames) {
		return accessNames[a]
	}
	return fmt.Sprintf("Access(%d)", int(a))
}

// bytes reports whether a is an access to a byte slice.
func (a Access) bytes() bool { return a <= Appends }

// writes reports whether a lets the function write some of the slice.
func (a Access) writes() bool { return a == Writes || a == WritesPrefix || a == Appends }

// A Mechanism is one way the engine checks a contract beyond results.
type Mechanism string

// The mechanisms, in the order of docs/equivalence.md's contract table.
const (
	// MechSpare lays slices out with spare capacity holding canaries (and
	// empty ones as nil, empty, or empty with room), checked after the call.
	MechSpare Mechanism = "spare"
	// MechReadOnly places a slice the function may not write on
	// read-only pages: a write faults.
	MechReadOnly Mechanism = "readonly"
	// MechNeighbours places the writable range of a slice flush against
	// read-only pages, before it and after it by turns: a function that
	// reads octets it does not own and writes back what was there faults.
	MechNeighbours Mechanism = "neighbours"
	// MechGuard places a slice flush against an unmapped page, before it
	// and after it by turns: a read or write one octet out faults.
	MechGuard Mechanism = "guard"
	// MechPoison overwrites an input once the call that may not keep it
	// has returned.
	MechPoison Mechanism = "poison"
	// MechReuse calls again at the same address with new contents, ranges
	// an iterator again after its input changed, and reuses an object
	// across Resets.
	MechReuse Mechanism = "reuse"
	// MechExactAppend gives an appended slice spare capacity of exactly
	// the number of octets appended (and one less, and every value to 8).
	MechExactAppend Mechanism = "exact-append"
	// MechKeep keeps a result the caller owns alive and compares it again
	// after later calls.
	MechKeep Mechanism = "keep"
	// MechWatchdog turns a call that does not return into a counterexample.
	MechWatchdog Mechanism = "watchdog"
	// MechConcurrent calls the function from a second goroutine, on other
	// inputs, while the method runs.
	MechConcurrent Mechanism = "concurrent"
	// MechOverlap calls the function from two goroutines released
	// together by a barrier, for many rounds, so that the calls overlap.
	MechOverlap Mechanism = "overlap"
	// MechScale calls the function at sizes around every power of two up
	// to megabytes, with boundary classes placed at the boundaries.
	MechScale Mechanism = "scale"
	// MechHistory feeds a stateful value a long history of calls (a
	// thousand and more, of mixed sizes, empty ones included) before the
	// content that matters.
	MechHistory Mechanism = "history"
	// MechIOEdges drives a reader or writer parameter through every (n,
	// err) form of io's contract, and single Reads and Writes of one
	// octet and of 32 KiB and more.
	MechIOEdges Mechanism = "io-edges"
)

// Mechanisms lists every mechanism, in order. A test of a pair package
// (CheckContracts) fails if a function's contract calls for one that no
// call applied.
var Mechanisms = []Mechanism{MechSpare, MechReadOnly, MechNeighbours, MechGuard, MechPoison, MechReuse,
	MechExactAppend, MechKeep, MechWatchdog, MechConcurrent, MechOverlap, MechScale, MechHistory, MechIOEdges}

// has reports whether some parameter of c satisfies f.
func (c *Contract) has(f func(Param) bool) bool { return slices.ContainsFunc(c.Params, f) }

// Applies reports whether the contract calls for mechanism m and, if it
// does not, why not. The reasons are derived from the declaration, except
// where NotApplicable gives one.
func (c *Contract) Applies(m Mechanism) (bool, string) {
	if why, ok := c.NotApplicable[m]; ok {
		return false, why
	}
	slice := func(p Param) bool { return p.Access.bytes() }
	stream := func(p Param) bool { return !p.Access.bytes() }
	switch m {
	case MechSpare, MechReadOnly, MechNeighbours, MechGuard, MechPoison, MechExactAppend:
		if !c.has(slice) {
			return false, "takes no byte slice"
		}
	}
	switch m {
	case MechReadOnly:
		if !c.has(func(p Param) bool { return p.Access == Reads }) {
			return false, "may write some of every byte slice it is given"
		}
	case MechNeighbours:
		if !c.has(func(p Param) bool { return p.Access.writes() }) {
			return false, "writes no byte slice"
		}
	case MechGuard:
		if !c.has(func(p Param) bool { return p.Access.bytes() && p.Access != Appends }) {
			return false, "its only slice is appended to: its ends meet read-only octets (neighbours)"
		}
	case MechPoison:
		if !c.has(func(p Param) bool { return p.Access.bytes() && !p.Keeps }) {
			return false, "keeps every byte slice it is given"
		}
	case MechReuse:
		if !c.has(slice) && !c.Iter && !c.Object {
			return false, "takes no byte slice, returns no iterator and has no state"
		}
	case MechExactAppend:
		if !c.has(func(p Param) bool { return p.Access == Appends }) {
			return false, "appends to nothing"
		}
	case MechKeep:
		if !c.Fresh {
			return false, "returns nothing the caller owns"
		}
	case MechConcurrent, MechOverlap:
		if c.Serial {
			return false, "documented as not safe for concurrent use"
		}
	case MechScale:
		if len(c.Params) == 0 && !c.Length {
			return false, "has no length axis"
		}
	case MechHistory:
		if !c.Object {
			return false, "has no state across calls"
		}
	case MechIOEdges:
		if !c.has(stream) {
			return false, "takes no reader or writer"
		}
	}
	return true, ""
}

// Applied is how many calls of one function one mechanism was applied to
// in a method (Result.Applied).
type Applied struct {
	Func      string
	Mechanism Mechanism
	Calls     int64
}

// applied counts, for a method, the calls each mechanism was applied to,
// per function. Harnesses add their counts when released (or at the
// method's end); a method's lanes and its concurrent caller share one.
type applied struct {
	mu sync.Mutex
	n  map[appliedKey]int64
}

type appliedKey struct {
	fn string
	m  Mechanism
}

func (a *applied) add(counts map[appliedKey]int64) {
	if a == nil || len(counts) == 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n == nil {
		a.n = map[appliedKey]int64{}
	}
	for k, n := range counts {
		a.n[k] += n
	}
}

// list returns the counts sorted by function, then mechanism order.
func (a *applied) list() []Applied {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Applied, 0, len(a.n))
	for k, n := range a.n {
		out = append(out, Applied{Func: k.fn, Mechanism: k.m, Calls: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Func != out[j].Func {
			return out[i].Func < out[j].Func
		}
		return slices.Index(Mechanisms, out[i].Mechanism) < slices.Index(Mechanisms, out[j].Mechanism)
	})
	return out
}

// ContractFuncs lists the functions impl (an Impl struct value or type) has
// that need a Contract: each func-typed field by its name, and each method
// of an interface type a field returns, as "Interface.Method" (the methods
// of interfaces it embeds included).
func ContractFuncs(impl any) []string {
	t := reflect.TypeOf(impl)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	seen := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type.Kind() != reflect.Func || !f.IsExported() {
			continue
		}
		out = append(out, f.Name)
		for o := range f.Type.NumOut() {
			r := f.Type.Out(o)
			if r.Kind() != reflect.Interface || r.Name() == "" || r.Name() == "error" || seen[r.Name()] {
				continue
			}
			seen[r.Name()] = true
			for m := range r.NumMethod() {
				out = append(out, r.Name()+"."+r.Method(m).Name)
			}
		}
	}
	return out
}

// CheckContracts compares a pair's declarations with its Impl type and
// with what a run applied: every function of impl (ContractFuncs) must
// have exactly one Contract, every Contract a function, and every
// mechanism a Contract calls for (Contract.Applies) must have been applied
// to at least one call of that function by some method of results. It
// returns the joined problems, one line each, or nil: a function added to
// an Impl, or a mechanism added to the engine, cannot be left unwired.
func CheckContracts(impl any, contracts []Contract, results []Result) error {
	var problems []string
	funcs := ContractFuncs(impl)
	declared := map[string]*Contract{}
	for i := range contracts {
		c := &contracts[i]
		if declared[c.Func] != nil {
			problems = append(problems, fmt.Sprintf("%s: declared twice", c.Func))
		}
		declared[c.Func] = c
		if !slices.Contains(funcs, c.Func) {
			problems = append(problems, fmt.Sprintf("%s: declared, but the Impl has no such function", c.Func))
		}
	}
	counts := map[appliedKey]int64{}
	for _, r := range results {
		for _, a := range r.Applied {
			counts[appliedKey{a.Func, a.Mechanism}] += a.Calls
		}
	}
	for _, f := range funcs {
		c := declared[f]
		if c == nil {
			problems = append(problems, fmt.Sprintf("%s: no Contract declared", f))
			continue
		}
		for _, m := range Mechanisms {
			if ok, _ := c.Applies(m); ok && counts[appliedKey{f, m}] == 0 {
				problems = append(problems, fmt.Sprintf("%s: the contract calls for %s, which no call had", f, m))
			}
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("contracts:\n\t%s", strings.Join(problems, "\n\t"))
}
