package registry

import (
	"io"

	"github.com/equivcheck/equivcheck/equiv/websockettest"
	"github.com/equivcheck/equivcheck/optimized/websocket"
)

// Mask returns every variant of optimized/websocket, each with its own Mask
// and MaskCopy, and, last, "dispatch": the exported API, with the streaming
// MaskReader and MaskWriter.
//
// The streamers belong to no variant: they are built on the exported Mask
// and MaskCopy, so they are checked once, under "dispatch", over whichever
// kernel dispatch chose (GODEBUG=cpu.avx512f=off,cpu.avx2=off checks them
// over the generic one); every kernel is checked on its own through its
// variant's Mask and MaskCopy. The variants' rows list the streamers as
// unchecked, with the note "checked under dispatch".
func Mask() []Variant[websockettest.Impl] {
	var vs []Variant[websockettest.Impl]
	for _, impl := range websocket.Impls() {
		vs = append(vs, Variant[websockettest.Impl]{Name: impl.Name, Available: impl.Available,
			Impl: websockettest.Impl{Name: impl.Name, Mask: impl.Mask, MaskCopy: impl.MaskCopy},
			Note: "checked under dispatch"})
	}
	return append(vs, Variant[websockettest.Impl]{Name: "dispatch", Available: true,
		Impl: websockettest.Impl{Name: "dispatch", Mask: websocket.Mask, MaskCopy: websocket.MaskCopy,
			NewMaskReader: func(r io.Reader, key [4]byte) websockettest.MaskReader { return websocket.NewMaskReader(r, key) },
			NewMaskWriter: func(w io.Writer, key [4]byte) websockettest.MaskWriter { return websocket.NewMaskWriter(w, key) },
		}})
}
