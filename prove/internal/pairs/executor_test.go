package pairs

import (
	"encoding/binary"
	"io/fs"
	"math/rand/v2"
	"testing"

	"github.com/equivcheck/equivcheck/corpus"
	"github.com/equivcheck/equivcheck/equiv"
	optchk "github.com/equivcheck/equivcheck/optimized/checksum"
	optquic "github.com/equivcheck/equivcheck/optimized/quic"
	optutf8 "github.com/equivcheck/equivcheck/optimized/utf8valid"
	optws "github.com/equivcheck/equivcheck/optimized/websocket"
	"github.com/equivcheck/equivcheck/prove/internal/differential"
	"github.com/equivcheck/equivcheck/prove/internal/harness"
	"github.com/equivcheck/equivcheck/prove/internal/symex"
	refchk "github.com/equivcheck/equivcheck/reference/checksum"
	refquic "github.com/equivcheck/equivcheck/reference/quic"
	refutf8 "github.com/equivcheck/equivcheck/reference/utf8valid"
	refws "github.com/equivcheck/equivcheck/reference/websocket"
)

// The functions the prove method proves are run here by the executor and
// compiled, on the seed corpus (corpus/) and on random inputs of every
// length up to past each kernel's widest stride: the executor is trusted
// code, and these are the functions it is trusted with.

func kernels(t *testing.T) *symex.Program {
	return differential.Load(t, "github.com/equivcheck/equivcheck/prove/internal/harness",
		"github.com/equivcheck/equivcheck/optimized/websocket", "github.com/equivcheck/equivcheck/reference/websocket",
		"github.com/equivcheck/equivcheck/optimized/quic", "github.com/equivcheck/equivcheck/reference/quic",
		"github.com/equivcheck/equivcheck/optimized/utf8valid", "github.com/equivcheck/equivcheck/reference/utf8valid",
		"github.com/equivcheck/equivcheck/optimized/checksum", "github.com/equivcheck/equivcheck/reference/checksum")
}

// corpusInputs decodes every file of corpus/<pair>.
func corpusInputs(t *testing.T, pair string) [][]any {
	var out [][]any
	err := fs.WalkDir(corpus.FS, pair, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(corpus.FS, path)
		if err != nil {
			return err
		}
		vals, err := equiv.UnmarshalFuzzInput(data)
		if err != nil {
			return err
		}
		out = append(out, vals)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func randomBytes(rng *rand.Rand, n, spare int) []byte {
	b := make([]byte, n+spare)
	for i := range b {
		switch rng.IntN(4) {
		case 0:
			b[i] = byte(rng.IntN(128)) // ASCII, the kernels' fast paths
		case 1:
			b[i] = 0x80 | byte(rng.IntN(64)) // continuations
		default:
			b[i] = byte(rng.Uint32())
		}
	}
	return b[:n]
}

// lengths is 0..n, then the widths around the kernels' strides (under
// -short, every third length, and the strides up to 129).
func lengths(n int) []int {
	var out []int
	step := 1
	if testing.Short() {
		step = 4
	}
	for i := 0; i <= n; i += step {
		out = append(out, i)
	}
	if testing.Short() {
		return append(out, 63, 64, 65, 128, 129)
	}
	return append(out, 127, 128, 129, 255, 256, 257)
}

func TestExecutorMask(t *testing.T) {
	p := kernels(t)
	gen := generic(optws.Impls(), func(i optws.Impl) string { return i.Name }).Mask
	for _, in := range corpusInputs(t, "websocket") {
		var key [4]byte
		binary.BigEndian.PutUint32(key[:], in[1].(uint32))
		for _, f := range []any{refws.Mask, gen} {
			differential.Agree(t, p, f, in[0].([]byte), key, in[2].(int))
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range lengths(70) {
		key := [4]byte{byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32())}
		pos := int(rng.Uint64())
		b := randomBytes(rng, n, rng.IntN(9))
		for _, f := range []any{refws.Mask, gen} {
			differential.Agree(t, p, f, b, key, pos)
		}
	}
}

func TestExecutorQUIC(t *testing.T) {
	p := kernels(t)
	g := optquic.Impls()[0]
	for _, in := range corpusInputs(t, "quic") {
		b, ok := in[0].([]byte)
		if !ok {
			continue
		}
		for i := 0; i < len(b); i += 1 + len(b)/16 {
			differential.Agree(t, p, refquic.ParseVarint, b[i:])
			differential.Agree(t, p, g.ParseVarint, b[i:])
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range map[bool]int{false: 200, true: 50}[testing.Short()] {
		b := randomBytes(rng, rng.IntN(12), rng.IntN(4))
		differential.Agree(t, p, refquic.ParseVarint, b)
		differential.Agree(t, p, g.ParseVarint, b)
		v := rng.Uint64() >> rng.IntN(64)
		prefix := randomBytes(rng, rng.IntN(5), rng.IntN(9))
		for _, f := range []any{refquic.AppendVarint, g.AppendVarint} {
			differential.Agree(t, p, f, prefix, v)
		}
		for _, f := range []any{refquic.AppendVarintWithLen, g.AppendVarintWithLen} {
			differential.Agree(t, p, f, prefix, v, []int{1, 2, 4, 8, 3}[rng.IntN(5)])
		}
		largest, truncated := rng.Uint64()>>rng.IntN(64), rng.Uint64()
		if rng.IntN(8) == 0 {
			largest = 1<<64 - 1
		}
		for _, f := range []any{refquic.DecodePacketNumber, g.DecodePacketNumber} {
			differential.Agree(t, p, f, largest, truncated, rng.IntN(6))
		}
	}
}

func TestExecutorUTF8(t *testing.T) {
	p := kernels(t)
	g := generic(optutf8.Impls(), func(i optutf8.Impl) string { return i.Name })
	texts := [][]byte{}
	for _, in := range corpusInputs(t, "utf8") {
		texts = append(texts, in[0].([]byte))
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range lengths(40) {
		texts = append(texts, randomBytes(rng, n, 0))
		if !testing.Short() || n%8 == 0 {
			texts = append(texts, []byte(string(randomRunes(rng, n))))
		}
	}
	for _, b := range texts {
		differential.Agree(t, p, harness.RefWrite, new(refutf8.Validator), b)
		differential.Agree(t, p, harness.OptWrite, g.NewValidator(), b)
		differential.Agree(t, p, refutf8.Valid, b)
		differential.Agree(t, p, g.Valid, b)
	}
}

// randomRunes is valid UTF-8 of about n octets, of every length class.
func randomRunes(rng *rand.Rand, n int) []rune {
	var out []rune
	for range n / 2 {
		out = append(out, []rune{rune(rng.IntN(0x80)), rune(0x80 + rng.IntN(0x780)), rune(0x800 + rng.IntN(0xd000)),
			rune(0x10000 + rng.IntN(0x100000))}[rng.IntN(4)])
	}
	return out
}

func TestExecutorChecksum(t *testing.T) {
	p := kernels(t)
	gen := generic(optchk.Impls(), func(i optchk.Impl) string { return i.Name }).Sum
	for _, in := range corpusInputs(t, "checksum") {
		for _, f := range []any{refchk.Sum, gen} {
			differential.Agree(t, p, f, in[0].([]byte), in[1].(uint16))
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range lengths(70) {
		b := randomBytes(rng, n, 0)
		if rng.IntN(3) == 0 {
			for i := range b {
				b[i] = 0xff // carry chains
			}
		}
		initial := uint16(rng.Uint32())
		for _, f := range []any{refchk.Sum, gen} {
			differential.Agree(t, p, f, b, initial)
		}
		a, c, d := uint16(rng.Uint32()), uint16(rng.Uint32()), uint16(rng.Uint32())
		if rng.IntN(4) == 0 {
			a = 0
		}
		for _, pair := range [][2]any{{refchk.Update, optchk.Update}, {refchk.UpdateUDP, optchk.UpdateUDP},
			{refchk.UpdateUDP6, optchk.UpdateUDP6}} {
			differential.Agree(t, p, pair[0], a, c, d)
			differential.Agree(t, p, pair[1], a, c, d)
		}
		off := int(rng.Uint64()) >> rng.IntN(64)
		differential.Agree(t, p, refchk.Combine, a, c, off)
		differential.Agree(t, p, optchk.Combine, a, c, off)
		differential.Agree(t, p, refchk.FinishUDP, a)
		differential.Agree(t, p, optchk.FinishUDP, a)
		differential.Agree(t, p, refchk.Put, b[:min(len(b), 3)], c)
		differential.Agree(t, p, optchk.Put, b[:min(len(b), 3)], c)
	}
}
