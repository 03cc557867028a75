module github.com/equivcheck/equivcheck/bench

go 1.26.3

replace github.com/equivcheck/equivcheck => ../

require (
	github.com/gobwas/ws v1.5.0
	github.com/quic-go/quic-go v0.65.0
	github.com/segmentio/asm v1.2.1
	gvisor.dev/gvisor v0.0.0-20260905035102-160fafc42237
)

require (
	golang.org/x/exp v0.0.0-20250711185948-6ae5c78190dc // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

require (
	github.com/equivcheck/equivcheck v0.0.0
	github.com/gobwas/httphead v0.1.0 // indirect
)
