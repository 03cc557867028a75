package equiv

import "bytes"

// shrinkBudget bounds the calls a minimization makes.
const shrinkBudget = 4000

// prefixTries is the longest prefix ShrinkBytes tries before removing
// chunks.
const prefixTries = 64

// ShrinkBytes returns a smaller input on which fails still holds: it
// first tries the shortest prefixes (up to prefixTries bytes; a bug that
// shows on a short prefix is found there whatever the input's length, where
// chunk removal could spend the budget on a long input before reaching
// it), then removes ever smaller chunks (halves, quarters, … single bytes), then
// pairs of adjacent bytes (a single-byte removal changes the length's
// parity, which an odd-length bug needs), then zeroes the bytes that
// remain, keeping each change only if the input still fails, within a
// budget of 4000 calls of fails (no work is done once it is spent). data
// is not modified; fails must not retain its argument. Suites minimize
// every counterexample with it before reporting.
func ShrinkBytes(data []byte, fails func([]byte) bool) []byte {
	s := &shrinker{d: bytes.Clone(data), fails: fails, budget: shrinkBudget}
	for n := range min(len(s.d), prefixTries+1) {
		if s.try(bytes.Clone(s.d[:n])) {
			s.d = s.d[:n]
			break
		}
	}
	for chunk := len(s.d) / 2; chunk >= 1; chunk /= 2 {
		s.remove(chunk)
	}
	s.remove(2)
	for i := range s.d {
		if s.budget <= 0 {
			break
		}
		if s.d[i] == 0 {
			continue
		}
		c := bytes.Clone(s.d)
		c[i] = 0
		if s.try(c) {
			s.d = c
		}
	}
	return s.d
}

type shrinker struct {
	d      []byte
	fails  func([]byte) bool
	budget int
}

func (s *shrinker) try(c []byte) bool {
	s.budget--
	return s.fails(c)
}

// remove tries removing each run of chunk bytes, left to right.
func (s *shrinker) remove(chunk int) {
	for i := 0; i+chunk <= len(s.d) && s.budget > 0; {
		c := append(append([]byte(nil), s.d[:i]...), s.d[i+chunk:]...)
		if s.try(c) {
			s.d = c
		} else {
			i += chunk
		}
	}
}

// ShrinkPrefix returns the shortest prefix of data that still fails, as
// a bisection finds it (about log2(len(data)) calls of fails); data
// itself must fail. ShrinkBytes's budget of tries would take seconds on
// megabytes: a suite cuts a long input with ShrinkPrefix (and
// ShrinkSuffix) first, so that a bug that needs many octets (a chunked or
// parallel path, a counter that wraps) keeps just as many.
func ShrinkPrefix(data []byte, fails func([]byte) bool) []byte {
	lo, hi := 0, len(data) // data[:hi] fails; data[:lo] is not known to
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; fails(data[:mid]) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return data[:hi]
}

// ShrinkSuffix is ShrinkPrefix for the shortest failing suffix.
func ShrinkSuffix(data []byte, fails func([]byte) bool) []byte {
	lo, hi := 0, len(data) // data[lo:] fails; data[hi:] is not known to
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; fails(data[mid:]) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return data[lo:]
}
