// Package peers holds no code: its tests run this module's conformance
// suites (equiv/checksumtest, websockettest, quictest and utf8validtest)
// against implementations from other Go modules, through their exported
// APIs, with the adapters that docs/peers.md prints. Each peer's
// divergences from the RFCs are asserted, so that a fix upstream or a
// change in the suites shows up as a failing test.
//
//	cd peers && go test ./...                        # quick
//	cd peers && EQUIV_LEVEL=standard go test ./...   # or: make peers LEVEL=standard
package peers
