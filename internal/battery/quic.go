package battery

import "github.com/equivcheck/equivcheck/equiv"

var _ equiv.Suite

// quicBugs lists the quic pair's known-bad implementations.
func quicBugs() []Bug {
	return nil
}
