package equiv_test

// isENOEXEC reports false: plan9's syscall package has no ENOEXEC.
func isENOEXEC(error) bool { return false }
