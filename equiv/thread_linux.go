package equiv

import (
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sampleThread reads what Linux says of the calling thread: the CPU time
// it has used (CLOCK_THREAD_CPUTIME_ID, exact to the nanosecond), its id,
// and how many times the scheduler switched it out while it could run
// (getrusage's involuntary context switches). The calls are raw system
// calls, which the Go scheduler cannot move the goroutine off its thread
// around, and the thread's id is read before and after them.
func sampleThread() threadSample {
	var ts unix.Timespec
	var ru unix.Rusage
	tid := unix.Gettid()
	_, _, e1 := unix.RawSyscall(unix.SYS_CLOCK_GETTIME, unix.CLOCK_THREAD_CPUTIME_ID, uintptr(unsafe.Pointer(&ts)), 0)
	_, _, e2 := unix.RawSyscall(unix.SYS_GETRUSAGE, unix.RUSAGE_THREAD, uintptr(unsafe.Pointer(&ru)), 0)
	if e1 != 0 || e2 != 0 || unix.Gettid() != tid {
		return threadSample{}
	}
	return threadSample{cpu: time.Duration(ts.Nano()), tid: tid, preempted: int64(ru.Nivcsw), ok: true}
}
