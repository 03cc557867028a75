//go:build !plan9

package equiv_test

import (
	"errors"
	"syscall"
)

// isENOEXEC reports whether err says that the kernel cannot run a binary.
func isENOEXEC(err error) bool { return errors.Is(err, syscall.ENOEXEC) }
