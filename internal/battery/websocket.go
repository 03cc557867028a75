package battery

import "github.com/equivcheck/equivcheck/equiv"

var _ equiv.Suite

// websocketBugs lists the websocket pair's known-bad implementations.
func websocketBugs() []Bug {
	return nil
}
