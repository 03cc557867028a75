package equiv

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

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
	Input  []byte // the whole input, after minimization
	Args   string // every other coordinate: initial value, alignment, split points, …
	Got    string // what the implementation returned
	Want   string // what the reference returned
	Seed   uint64 // the seed of the run that found it
	// Stack is the implementation's stack when it panicked, if it did.
	Stack string

	// FuzzTarget and FuzzArgs reproduce the counterexample as the
	// arguments of the pair's fuzz target (the pair package's Fuzz
	// helper, and this module's fuzz/FuzzX): see FuzzFile.
	FuzzTarget string
	FuzzArgs   []any

	// Hung is set for a call that did not return within the call
	// timeout (WithCallTimeout): Input is the input in flight, and the
	// Counterexample also matches ErrHung.
	Hung bool
}

// Error renders the counterexample in the one format of every pair's
// Check, Test and Fuzz: "pair/method: Func(len=N args) = got, want want;
// input hex (seed S)". A Func with spaces (a law's name) is quoted; a
// counterexample with neither input nor fuzz arguments (a law's) has no
// len and no input; one without a seed (a fuzz input's, from CheckInput)
// says what reproduces it instead.
func (c *Counterexample) Error() string {
	var b strings.Builder
	noInput := c.Input == nil && c.FuzzArgs == nil
	fmt.Fprintf(&b, "%s/%s: %s(", c.Pair, c.Method, quoteIfSpaced(c.Func))
	if !noInput {
		fmt.Fprintf(&b, "len=%d", len(c.Input))
		if c.Args != "" {
			b.WriteString(" ")
		}
	}
	fmt.Fprintf(&b, "%s) = %s, want %s", c.Args, c.Got, c.Want)
	if !noInput {
		fmt.Fprintf(&b, "; input %s", hexString(c.Input))
	}
	switch {
	case c.Seed != 0:
		fmt.Fprintf(&b, " (seed %d)", c.Seed)
	case c.FuzzArgs != nil:
		b.WriteString(" (no seed: the fuzz input reproduces it)")
	}
	return b.String()
}

// Is reports whether target is ErrMismatch, or ErrHung for a call that
// did not return.
func (c *Counterexample) Is(target error) bool {
	return target == ErrMismatch || (c.Hung && target == ErrHung)
}

// FuzzFile returns the counterexample as a file in the "go test fuzz v1"
// format and the name "go test" would give it (a hash of the content), or
// ok false if it has no fuzz-target form. Placed in testdata/fuzz/FuzzX/ of
// a package whose FuzzX calls the pair's Fuzz helper, it is replayed by
// every plain "go test" from then on.
func (c *Counterexample) FuzzFile() (name string, data []byte, ok bool) {
	if c.FuzzTarget == "" || c.FuzzArgs == nil {
		return "", nil, false
	}
	data = MarshalFuzzInput(c.FuzzArgs...)
	sum := sha256.Sum256(data)
	return fmt.Sprintf("%x", sum[:8]), data, true
}

// hexString renders b as hex, eliding the middle of long inputs (the
// whole input is in Counterexample.Input and FuzzFile).
func hexString(b []byte) string {
	const max = 256
	if len(b) <= max {
		return fmt.Sprintf("%x", b)
	}
	return fmt.Sprintf("%x…(%d bytes)…%x", b[:max/2], len(b)-max, b[len(b)-max/2:])
}

// HexAt renders b as hex like a Counterexample's input, but when b is long
// it keeps the 64 bytes from the 32nd before offset at, eliding the rest,
// so that two long outputs can be shown where they first differ. A
// negative at, or one past the end, keeps the start.
func HexAt(b []byte, at int) string {
	const whole, window = 256, 64
	if len(b) <= whole {
		return fmt.Sprintf("%x", b)
	}
	if at < 0 || at >= len(b) {
		at = 0
	}
	lo := max(0, at-window/2)
	hi := min(len(b), lo+window)
	s := ""
	if lo > 0 {
		s = fmt.Sprintf("…(%d bytes)…", lo)
	}
	s += fmt.Sprintf("%x", b[lo:hi])
	if hi < len(b) {
		s += fmt.Sprintf("…(%d bytes)…", len(b)-hi)
	}
	return s
}

// Panic is a recovered panic: its value and the stack where it happened.
type Panic struct {
	Value any
	// Stack is the stack, formatted; StackOf fills it in from the
	// program counters Catch recorded, so that a panic nobody reports
	// (one the reference raises too) costs no formatting.
	Stack string
	pcs   []uintptr
}

// Catch calls f and returns the panic it raised, with its stack, or nil.
// Memory faults are turned into panics while f runs (and the goroutine's
// setting restored after), so that an access to a guard page or a write to
// an input on read-only pages (Buffer.Input) is returned as a Panic whose
// Value is a *Fault saying what was touched, instead of crashing the
// process.
func Catch(f func()) (p *Panic) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if v := recover(); v != nil {
			if f := faultOf(v); f != nil {
				v = f
			}
			pcs := make([]uintptr, 64)
			p = &Panic{Value: v, pcs: pcs[:runtime.Callers(2, pcs)]}
		}
	}()
	f()
	return nil
}

// PanicValue returns the value p panicked with, or nil if p is nil.
func PanicValue(p *Panic) any {
	if p == nil {
		return nil
	}
	return p.Value
}

// StackOf returns p's stack, or "" if p is nil: the functions from the
// panic's site up, each with its file and line.
func StackOf(p *Panic) string {
	if p == nil {
		return ""
	}
	if p.Stack == "" && len(p.pcs) > 0 {
		var b strings.Builder
		frames := runtime.CallersFrames(p.pcs)
		for {
			f, more := frames.Next()
			fmt.Fprintf(&b, "%s\n\t%s:%d\n", f.Function, f.File, f.Line)
			if !more {
				break
			}
		}
		p.Stack = b.String()
	}
	return p.Stack
}

// Counterexamples returns every Counterexample in err, which may be the
// joined error returned by Check.
func Counterexamples(err error) []*Counterexample {
	var out []*Counterexample
	for _, e := range Flatten(err) {
		var c *Counterexample
		if errors.As(e, &c) {
			out = append(out, c)
		}
	}
	return out
}

// Flatten undoes errors.Join, recursively.
func Flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, Flatten(e)...)
		}
		return out
	}
	return []error{err}
}
