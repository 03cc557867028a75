package equiv

import "runtime/debug"

// withFaultPanics runs f with memory faults turned into panics on this
// goroutine (runtime/debug.SetPanicOnFault), so that an implementation that
// reads into a guard page panics, is recovered by the caller's checks, and is
// reported as a counterexample instead of crashing the process. The
// goroutine's previous setting is restored.
func withFaultPanics(f func() error) error {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	return f()
}
