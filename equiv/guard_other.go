//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || illumos || windows)

package equiv

import "errors"

// GuardSkip returns "" where guard pages are implemented (Unix systems and
// Windows), else the reason the guard method is skipped.
func GuardSkip() string {
	return "guard pages need mmap/mprotect or VirtualAlloc/VirtualProtect, which this system lacks"
}

func newGuarded(n int) (*Guarded, error) { return nil, errors.New(GuardSkip()) }
