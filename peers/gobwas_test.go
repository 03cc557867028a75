package peers

import (
	"errors"
	"io"
	"math"
	"syscall"
	"testing"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/websockettest"
)

// peers:begin gobwas
// gobwasImpl is gobwas/ws as a websockettest.Impl. Cipher(b, key, offset)
// returns nothing, so the adapter returns the next key position;
// wsutil's CipherReader and CipherWriter have Reset(r, key) already.
var gobwasImpl = websockettest.Impl{
	Name: "gobwas",
	Mask: func(b []byte, key [4]byte, pos int) int {
		ws.Cipher(b, key, pos)
		return (pos + len(b)) & 3
	},
	NewMaskReader: func(r io.Reader, key [4]byte) websockettest.MaskReader {
		return wsutil.NewCipherReader(r, key)
	},
	NewMaskWriter: func(w io.Writer, key [4]byte) websockettest.MaskWriter {
		return wsutil.NewCipherWriter(w, key)
	},
}

// gobwasOptions: Cipher takes pos as a stream offset, which it adds to
// each octet's index in an int; the cipher streams trust the counts of
// the reader or writer under them; CipherWriter hands an empty Write to
// the writer under it, and returns that writer's answer
// (websocket-writer-no-empty-call, docs/strictness.md).
var gobwasOptions = []equiv.Option{websockettest.StreamOffsetPos(), websockettest.ValidUnderlyingCounts(),
	websockettest.Relax("websocket-writer-no-empty-call")}

func TestPeerGobwas(t *testing.T) {
	t.Parallel()
	websockettest.Test(t, gobwasImpl, append(gobwasOptions, quick)...)
}

// peers:end gobwas

// TestDivergeGobwas: what gobwasOptions leave out, as the suite reports it
// without them (docs/peers.md).
func TestDivergeGobwas(t *testing.T) {
	t.Parallel()
	assertDivergence(t, "gobwas: Cipher at pos=MaxInt",
		websockettest.CheckInput(websockettest.Impl{Mask: gobwasImpl.Mask}, make([]byte, 3), 0x37fa213d, math.MaxInt, nil),
		`Mask(len=3 key=37fa213d pos=9223372036854775807`, `= panic(runtime error: index out of range [-3])`)
	assertDivergence(t, "gobwas: CipherReader over a count of -1",
		websockettest.Check(websockettest.Impl{Mask: gobwasImpl.Mask, NewMaskReader: gobwasImpl.NewMaskReader}, vectorsOnly),
		`MaskReader(len=0 key=37fa213d over "count -1 at 0"`, `panic(runtime error: slice bounds out of range [:-1])`)
	assertDivergence(t, "gobwas: CipherWriter passes a short count on",
		websockettest.Check(websockettest.Impl{Mask: gobwasImpl.Mask, NewMaskWriter: gobwasImpl.NewMaskWriter}, vectorsOnly),
		`MaskWriter(len=1 key=37fa213d over "short count once at 0"`, `= call 1 Write(1) = 0, <nil>;`, `want call 1 Write(1) = 0, short write;`)
	// The suite meets it where one of its writers answers an empty Write
	// with an error (the exhaustive and guard methods, by their draws):
	// here directly, over a writer that does.
	n, err := wsutil.NewCipherWriter(eagainOnEmpty{}, [4]byte{0xde, 0xad, 0xbe, 0xef}).Write(nil)
	if n != 0 || !errors.Is(err, syscall.EAGAIN) {
		t.Errorf("gobwas: CipherWriter.Write(nil) over a writer failing an empty Write = %d, %v; want 0, EAGAIN (has the peer changed? docs/peers.md, gobwas-3)", n, err)
	}
}

// eagainOnEmpty fails an empty Write with EAGAIN, as a non-blocking
// socket's writer may, and takes every other Write whole.
type eagainOnEmpty struct{}

func (eagainOnEmpty) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, syscall.EAGAIN
	}
	return len(p), nil
}
