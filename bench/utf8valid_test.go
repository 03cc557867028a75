package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/equivcheck/equivcheck/optimized/utf8valid"
	"github.com/equivcheck/equivcheck/optimized/websocket"
	"github.com/gobwas/ws/wsutil"
	segutf8 "github.com/segmentio/asm/utf8"
)

// Peer benchmarks for UTF-8 validation (RFC 3629 §4), streaming (a
// WebSocket text message, RFC 6455 §8.1) and fused with unmasking (RFC 6455
// §5.3), through the public APIs:
//
//	impl=equivcheck  optimized/utf8valid (dispatch: Valid, the zero Validator)
//	impl=stdlib      unicode/utf8.Valid
//	impl=segmentio   github.com/segmentio/asm/utf8.Valid (AVX2 assembly)
//	impl=gobwas      github.com/gobwas/ws/wsutil.UTF8Reader (streaming)
//	impl=mask+valid  optimized/websocket.Mask, then utf8valid.Valid
//
// Every input is valid UTF-8 of one class, and each benchmark cycles
// through several different texts of its size and class (as many as fit
// in 32 KiB, up to 64), so that the branch predictor cannot learn one
// buffer: a text's characters, and so its branches, are drawn at random.

// utf8Classes are the characters of each class of text. They are chosen so
// that XOR with the octet 0x01 (the key of the fused benchmarks) maps each
// to another valid character of its class (C3 <-> C2, E6 <-> E7, F0 9F
// <-> F1 9E, ...): unmasking a text with that key gives valid text again,
// and the same buffer can be unmasked again and again, each time a real
// unmasking of a valid text.
var utf8Classes = map[string][]string{
	"ascii": {"a", "b", "c", "d", "e", " ", "0", "T", ",", "."},
	"latin": {"é", "ß", "ñ", "ø", "ü", "Ω", "Ж"},
	"cjk":   {"日", "本", "語", "中", "文", "字", "한"},
	"emoji": {"😀", "🚀", "🎉", "👍", "🔥"},
	"mixed": {"a", "b", " ", "e", "é", "ß", "€", "日", "本", "😀", "🚀"},
}

var utf8ClassNames = []string{"ascii", "latin", "cjk", "emoji", "mixed"}

// utf8Texts returns the texts a benchmark of size octets of class cycles
// through, each 64-octet aligned; their number is a power of two.
func utf8Texts(class string, size int) [][]byte {
	return utf8TextsAt(class, size, 0)
}

// utf8TextsAt is utf8Texts with each text align octets past a 64-octet
// boundary; the texts are the same whatever align is.
func utf8TextsAt(class string, size, align int) [][]byte {
	r := rand.New(rand.NewPCG(uint64(size), uint64(len(class))))
	count := 1
	for count < 64 && 2*count*size <= 32<<10 {
		count *= 2
	}
	texts := make([][]byte, count)
	for i := range texts {
		texts[i] = utf8TextAt(r, class, size, align)
	}
	return texts
}

// utf8Text returns size octets of valid UTF-8 of class, drawn with r, in
// a buffer of its own that starts at a 64-octet boundary. Where the last
// character would not fit, ASCII fills the rest (so a text of 1 octet is
// ASCII in every class).
func utf8Text(r *rand.Rand, class string, size int) []byte {
	return utf8TextAt(r, class, size, 0)
}

// utf8TextAt is utf8Text with the text align octets past the boundary.
func utf8TextAt(r *rand.Rand, class string, size, align int) []byte {
	chars := utf8Classes[class]
	b := wsAlignedBuf(size, align)[:0]
	for len(b) < size {
		c := chars[r.IntN(len(chars))]
		if len(b)+len(c) > size {
			c = "x"
		}
		b = append(b, c...)
	}
	if !utf8.Valid(b) || len(b) != size {
		panic("utf8Text: not a valid text of the size asked for")
	}
	return b
}

var utf8Sizes = []int{1, 16, 64, 256, 1024, 16384, 65536, 1 << 20}

var sinkBool bool

// BenchmarkUTF8Valid compares one-shot validation at each size and class.
func BenchmarkUTF8Valid(b *testing.B) {
	for _, class := range utf8ClassNames {
		for _, size := range utf8Sizes {
			texts := utf8Texts(class, size)
			name := fmt.Sprintf("class=%s/size=%d", class, size)
			b.Run(name+"/impl=equivcheck", benchUTF8Valid(texts))
			b.Run(name+"/impl=stdlib", benchStdlibValid(texts))
			b.Run(name+"/impl=segmentio", benchSegmentioValid(texts))
		}
	}
}

// benchUTF8Valid measures utf8valid.Valid over texts in turn.
//
//go:noinline
func benchUTF8Valid(texts [][]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(texts[0])))
		m := len(texts) - 1
		ok := true
		for i := 0; b.Loop(); i++ {
			ok = ok && utf8valid.Valid(texts[i&m])
		}
		sinkBool = ok
	}
}

// benchStdlibValid measures unicode/utf8.Valid over texts in turn.
//
//go:noinline
func benchStdlibValid(texts [][]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(texts[0])))
		m := len(texts) - 1
		ok := true
		for i := 0; b.Loop(); i++ {
			ok = ok && utf8.Valid(texts[i&m])
		}
		sinkBool = ok
	}
}

// benchSegmentioValid measures segmentio/asm/utf8.Valid over texts in turn.
//
//go:noinline
func benchSegmentioValid(texts [][]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(texts[0])))
		m := len(texts) - 1
		ok := true
		for i := 0; b.Loop(); i++ {
			ok = ok && segutf8.Valid(texts[i&m])
		}
		sinkBool = ok
	}
}

// utf8StreamWrites are the piece sizes of the streaming benchmark.
var utf8StreamWrites = []int{1, 16, 128, 1024}

// BenchmarkUTF8Stream validates a 64 KiB message (four different texts in
// turn) in pieces of write octets: impl=equivcheck with a Validator's
// Write per piece and Close at the end, impl=gobwas with a UTF8Reader's
// Read per piece over a source that hands the piece back in place (no
// copy), impl=unmask with a Validator's Unmask per piece (the fused
// path, as a Reader runs it), and impl=oneshot, utf8valid.Valid of the
// whole message, the yardstick of the 1.15× target.
func BenchmarkUTF8Stream(b *testing.B) {
	const size = 64 << 10
	for _, class := range utf8ClassNames {
		texts := utf8Texts(class, size)[:1]
		r := rand.New(rand.NewPCG(7, 7))
		for range 3 {
			texts = append(texts, utf8Text(r, class, size))
		}
		for _, w := range utf8StreamWrites {
			name := fmt.Sprintf("class=%s/write=%d", class, w)
			b.Run(name+"/impl=equivcheck", benchUTF8Writes(texts, w))
			b.Run(name+"/impl=unmask", benchUnmaskWrites(texts, w))
			b.Run(name+"/impl=gobwas", benchGobwasUTF8(texts, w))
			b.Run(name+"/impl=oneshot", benchUTF8Valid(texts))
		}
	}
}

// benchUnmaskWrites measures a Validator's Unmask over each text in
// pieces of w, a Reader's way with a frame read in pieces (fusedKey, all
// of whose octets are equal, keeps every text valid masked or not).
//
//go:noinline
func benchUnmaskWrites(texts [][]byte, w int) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(texts[0])))
		var v utf8valid.Validator
		var err error
		for i := 0; b.Loop(); i++ {
			t := texts[i&3]
			v.Reset()
			pos := 0
			for len(t) > 0 {
				p := t[:min(w, len(t))]
				pos, _, _ = v.Unmask(p, fusedKey, pos)
				t = t[len(p):]
			}
			err = v.Close()
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// benchUTF8Writes measures a Validator over each text in pieces of w.
//
//go:noinline
func benchUTF8Writes(texts [][]byte, w int) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(texts[0])))
		var v utf8valid.Validator
		var err error
		for i := 0; b.Loop(); i++ {
			t := texts[i&3]
			v.Reset()
			for len(t) > 0 {
				p := t[:min(w, len(t))]
				v.Write(p)
				t = t[len(p):]
			}
			err = v.Close()
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// inPlace is an io.Reader that returns len(p) octets without touching p:
// the caller's slice of the message is the data read.
type inPlace struct{}

func (inPlace) Read(p []byte) (int, error) { return len(p), nil }

// benchGobwasUTF8 measures gobwas' UTF8Reader over each text in pieces of
// w, each Read handed the piece itself.
//
//go:noinline
func benchGobwasUTF8(texts [][]byte, w int) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(texts[0])))
		u := wsutil.NewUTF8Reader(inPlace{})
		ok := true
		for i := 0; b.Loop(); i++ {
			t := texts[i&3]
			u.Reset(inPlace{})
			for len(t) > 0 {
				p := t[:min(w, len(t))]
				u.Read(p)
				t = t[len(p):]
			}
			ok = ok && u.Valid()
		}
		if !ok {
			b.Fatal("gobwas found the text invalid")
		}
	}
}

// fusedKey is the masking key of the fused benchmarks (see utf8Classes).
var fusedKey = [4]byte{1, 1, 1, 1}

// BenchmarkUTF8Unmask measures the fused path on a 16 KiB fragment (and
// the headline sizes around it): impl=equivcheck, a Validator's Unmask;
// impl=mask+valid, websocket.Mask then utf8valid.Valid; impl=valid,
// utf8valid.Valid alone (the 1.2× target).
func BenchmarkUTF8Unmask(b *testing.B) {
	for _, class := range utf8ClassNames {
		for _, size := range []int{125, 1024, 16384, 65536} {
			texts := utf8Texts(class, size)
			name := fmt.Sprintf("class=%s/size=%d", class, size)
			b.Run(name+"/impl=equivcheck", benchUnmask(texts))
			b.Run(name+"/impl=mask+valid", benchMaskValid(texts))
			b.Run(name+"/impl=valid", benchUTF8Valid(texts))
		}
	}
}

// benchUnmask measures a Validator's Unmask of each text in turn, a new
// message each time (Reset), with fusedKey.
//
//go:noinline
func benchUnmask(texts [][]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(texts[0])))
		m := len(texts) - 1
		var v utf8valid.Validator
		var err error
		for i := 0; b.Loop(); i++ {
			v.Reset()
			_, _, err = v.Unmask(texts[i&m], fusedKey, 0)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// benchUnmaskCopy measures what benchUnmask does on buf, after copying
// the next text into it.
//
//go:noinline
func benchUnmaskCopy(buf []byte, texts [][]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		m := len(texts) - 1
		var v utf8valid.Validator
		var err error
		for i := 0; b.Loop(); i++ {
			copy(buf, texts[i&m])
			v.Reset()
			_, _, err = v.Unmask(buf, fusedKey, 0)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// benchMaskValidCopy measures what benchMaskValid does on buf, after
// copying the next text into it.
//
//go:noinline
func benchMaskValidCopy(buf []byte, texts [][]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		m := len(texts) - 1
		ok := true
		for i := 0; b.Loop(); i++ {
			copy(buf, texts[i&m])
			websocket.Mask(buf, fusedKey, 0)
			ok = ok && utf8valid.Valid(buf)
		}
		if !ok {
			b.Fatal("mask+valid found the text invalid")
		}
	}
}

// benchValidatorWrite measures a Validator's Write of each text in turn,
// a new message each time (Reset): benchUnmask without the unmasking.
//
//go:noinline
func benchValidatorWrite(texts [][]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(texts[0])))
		m := len(texts) - 1
		var v utf8valid.Validator
		var err error
		for i := 0; b.Loop(); i++ {
			v.Reset()
			_, err = v.Write(texts[i&m])
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// benchMaskWrite measures websocket.Mask then a Validator's Write of each
// text in turn, a new message each time (Reset): the two passes of a
// reader that keeps a message's state across frames, as Unmask does.
//
//go:noinline
func benchMaskWrite(texts [][]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(texts[0])))
		m := len(texts) - 1
		var v utf8valid.Validator
		var err error
		for i := 0; b.Loop(); i++ {
			t := texts[i&m]
			v.Reset()
			websocket.Mask(t, fusedKey, 0)
			_, err = v.Write(t)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// benchMaskTexts measures websocket.Mask of each text in turn, with
// fusedKey: the masking half of benchMaskValid.
//
//go:noinline
func benchMaskTexts(texts [][]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(texts[0])))
		m := len(texts) - 1
		pos := 0
		for i := 0; b.Loop(); i++ {
			pos += websocket.Mask(texts[i&m], fusedKey, 0)
		}
		sinkInt = pos
	}
}

// benchMaskValid measures websocket.Mask then utf8valid.Valid of each text
// in turn, with fusedKey.
//
//go:noinline
func benchMaskValid(texts [][]byte) func(*testing.B) {
	return func(b *testing.B) {
		b.SetBytes(int64(len(texts[0])))
		m := len(texts) - 1
		ok := true
		for i := 0; b.Loop(); i++ {
			t := texts[i&m]
			websocket.Mask(t, fusedKey, 0)
			ok = ok && utf8valid.Valid(t)
		}
		if !ok {
			b.Fatal("mask+valid found the text invalid")
		}
	}
}
