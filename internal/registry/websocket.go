package registry

import (
	"github.com/equivcheck/equivcheck/equiv/websockettest"
	"github.com/equivcheck/equivcheck/optimized/websocket"
)

// Mask returns every variant of optimized/websocket, each with its own Mask
// and MaskCopy, and, last, "dispatch": the exported API.
func Mask() []Variant[websockettest.Impl] {
	var vs []Variant[websockettest.Impl]
	for _, impl := range websocket.Impls() {
		vs = append(vs, Variant[websockettest.Impl]{Name: impl.Name, Available: impl.Available,
			Impl: websockettest.Impl{Name: impl.Name, Mask: impl.Mask, MaskCopy: impl.MaskCopy}})
	}
	return append(vs, Variant[websockettest.Impl]{Name: "dispatch", Available: true,
		Impl: websockettest.Impl{Name: "dispatch", Mask: websocket.Mask, MaskCopy: websocket.MaskCopy}})
}
