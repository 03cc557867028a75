//go:build !linux

package equiv

import "errors"

// GuardSkip returns "" where guard pages are implemented (Linux), else the
// reason the guard method is skipped.
func GuardSkip() string { return "guard pages are implemented on Linux only" }

func newGuarded(n int) (*Guarded, error) {
	return nil, errors.New("guard pages are implemented on Linux only")
}
