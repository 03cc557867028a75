//go:build !linux

package equiv

// sampleThread reads nothing where the operating system has no per-thread
// CPU clock and count of involuntary switches the engine reads: no call
// is ever taken for descheduled (interrupted).
func sampleThread() threadSample { return threadSample{} }
