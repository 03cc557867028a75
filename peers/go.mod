module github.com/equivcheck/equivcheck/peers

go 1.26.3

replace github.com/equivcheck/equivcheck => ../

require (
	github.com/coder/websocket v1.8.15
	github.com/equivcheck/equivcheck v0.0.0
	github.com/gobwas/ws v1.5.0
	github.com/google/gopacket v1.1.19
	github.com/gopacket/gopacket v1.7.7
	github.com/gorilla/websocket v1.5.3
	github.com/lucas-clemente/quic-go v0.26.0
	github.com/lxzan/gws v1.8.9
	github.com/quic-go/quic-go v0.66.0
	github.com/segmentio/asm v1.2.1
	golang.org/x/net v0.63.0
	golang.org/x/text v0.44.0
	gvisor.dev/gvisor v0.0.0-20260905035102-160fafc42237
)

require (
	github.com/AdaLogics/go-fuzz-headers v0.0.0-20240806141605-e8a1dd7889d6 // indirect
	github.com/dolthub/maphash v0.1.0 // indirect
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/klauspost/compress v1.17.9 // indirect
	github.com/leanovate/gopter v0.2.11 // indirect
	golang.org/x/exp v0.0.0-20250711185948-6ae5c78190dc // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/time v0.15.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
