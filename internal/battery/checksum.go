package battery

import "github.com/equivcheck/equivcheck/equiv"

var _ equiv.Suite

// checksumBugs lists the checksum pair's known-bad implementations.
func checksumBugs() []Bug {
	return nil
}
