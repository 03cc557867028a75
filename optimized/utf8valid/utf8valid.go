// Package utf8valid validates UTF-8 as RFC 3629 §4 defines it
// (https://www.rfc-editor.org/rfc/rfc3629#section-4), streaming and fused
// with WebSocket unmasking (RFC 6455 §5.3, §8.1), with SIMD on amd64.
//
// It mirrors reference/utf8valid: same names, same signatures, same
// results, the same error values.
//
// # Contract every variant keeps
//
// Every variant listed by [Impls] (avx512, avx2, generic) gives exactly the
// results of reference/utf8valid, for every input, length and alignment,
// and however a text is cut into Writes:
//
//   - Valid(b) is reference/utf8valid.Valid(b);
//   - a Validator's Write, Unmask, Close and Offset return what the
//     reference's return after the same calls: the accepted count n (the
//     index of the first octet at which the text can no longer be valid),
//     the error value, and Unmask's octets and next position;
//   - Valid and Write read only b[:len(b)] (p for Write) and never write
//     it, not even temporarily; Unmask reads and writes only b[:len(b)];
//     none of them keeps a reference to its slice after returning;
//   - none of them allocates, and a Validator holds all the state between
//     calls (no package-level state is written after initialization).
//
// The SIMD kernels check 64 (AVX-512) or 32 (AVX2) octets at a time with
// the lookup method of Keiser and Lemire, "Validating UTF-8 In Less Than
// One Instruction Per Byte" (Software: Practice and Experience, 2021): each
// octet is classified with its predecessor by three 16-entry table lookups
// (lookup.go), and a block that fails is re-scanned octet by octet with
// the generic automaton to find the exact failing octet.
package utf8valid

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// The verdicts on a text: the very values of reference/utf8valid, so that
// errors.Is and == work across the two packages.
var (
	// ErrInvalid says that the text is not, and can no longer become,
	// UTF-8.
	ErrInvalid = ref.ErrInvalid
	// ErrIncomplete says that the text ends inside a code point.
	ErrIncomplete = ref.ErrIncomplete
)

// kernel names the code a Validator runs.
type kernel uint8

const (
	dispatch kernel = iota // the best kernel this CPU and build run: best
	kernelGeneric
	kernelAVX2
	kernelAVX512
)

// Valid reports whether b is entirely valid UTF-8 (RFC 3629 §4): no
// overlong forms, no surrogates U+D800..U+DFFF, nothing above U+10FFFF and
// no sequence cut short at the end. It works like
// reference/utf8valid.Valid, with the best kernel of this CPU.
func Valid(b []byte) bool {
	if len(b) < 2 {
		return len(b) == 0 || b[0] < 0x80
	}
	return valid(best, b)
}

// Validator checks a text that arrives in pieces: a WebSocket text message
// over its fragments and reads (RFC 6455 §8.1). It carries the last three
// octets of one Write into the next, so that a code point split between
// two Writes costs nothing more, and it rejects the text at the first
// octet after which it can no longer be valid, as Autobahn's cases 6.x
// require of a server that fails fast. It works like
// reference/utf8valid.Validator.
//
// The zero Validator is ready and runs the best kernel of this CPU; one
// from an [Impl]'s NewValidator runs that variant's kernel. A Validator is
// not safe for concurrent use. It does not allocate.
type Validator struct {
	off int64 // octets accepted
	// ctx is the window of the last three octets accepted (see
	// window3): the context in which the next octet is checked.
	ctx uint32
	// st is the automaton's state after ctx, with stKnown set, or 0 when
	// it has not been worked out since the last SIMD kernel ran (a zero
	// Validator's is worked out at its first short Write).
	st     uint8
	failed bool
	k      kernel
}

// stKnown marks Validator.st as the automaton's state.
const stKnown = 0x80

// smallWrite is the length under which Write runs the automaton from its
// state, whatever the kernel. A SIMD kernel's first block has a latency of
// about 25 cycles (the masked load, the shuffles and the lookups, then the
// test of the flags) that no short text avoids, while the automaton takes
// a cycle or two per octet: 1-octet Writes, as a server that reads a frame
// octet by octet makes, take one step instead of a call into assembly
// (4.4 ns per octet, BenchmarkUTF8Stream/write=1 in bench/). Unmask under
// smallWrite octets unmasks with one or two loads and stores in Go
// (unmaskShort), tests the unmasked words for ASCII from the registers, and
// runs the automaton only over text that is not ASCII: a Zen 1 core took
// 28-33 ns for 1 to 15 octets through the AVX2 kernel, whose short block
// goes through a buffer on the stack, against 11-20 for Mask then Valid
// (SweepUnmask in bench/).
const smallWrite = 16

// state returns the automaton's state after ctx.
func (v *Validator) state() uint64 {
	if v.st&stKnown != 0 {
		return uint64(v.st &^ stKnown)
	}
	return stateOf(v.ctx)
}

// kernel returns the kernel v runs.
func (v *Validator) kernel() kernel {
	if v.k == dispatch {
		return best
	}
	return v.k
}

// Write validates p as the next octets of the text. While the text so far
// can still be the start of valid UTF-8, it returns len(p), nil.
// Otherwise it returns n, ErrInvalid, where p[n] is the first octet at
// which the text can no longer be valid (so p[:n] extends the accepted
// prefix). After a failure every Write returns 0, ErrInvalid until Reset.
// Write never modifies or retains p.
func (v *Validator) Write(p []byte) (n int, err error) {
	if v.failed {
		return 0, ErrInvalid
	}
	k := v.kernel()
	switch {
	case len(p) < smallWrite:
		// The automaton, inline and without a test per octet: a 1-octet
		// Write is one step.
		s0 := v.state()
		s := run(s0, p)
		if s&63 == sError {
			return v.fail(firstError(s0, p, 0))
		}
		v.st = uint8(s&63) | stKnown
	case k == kernelGeneric:
		var s uint64
		if n, s = scanGeneric(v.state(), p); n < len(p) {
			return v.fail(n)
		}
		v.st = uint8(s&63) | stKnown
	case len(p) < 32 && asciiMid(p) && !incomplete(v.ctx):
		// ASCII after a boundary, tested as Valid tests it, takes no
		// kernel call (a Write of 16 octets of ASCII 42% faster), and
		// leaves the state as it was (sAccept, known or not). The
		// ASCII test comes first: text that is not ASCII then takes one
		// branch whatever its state, where the state's test goes both
		// ways in a stream of pieces that cut characters.
	default:
		// A SIMD kernel. Its common result, every block passed and p
		// ending below C0, needs no settle.
		if s := blocks(k, p, v.ctx); s != len(p) || p[s-1] >= 0xC0 {
			if n = settle(v.ctx, p, s); n < len(p) {
				return v.fail(n)
			}
		}
		v.st = 0
	}
	v.ctx = window3(v.ctx, p, len(p))
	v.off += int64(len(p))
	return len(p), nil
}

// fail records that the text can no longer be valid at the octet n octets
// past the accepted ones, and returns Write's results.
func (v *Validator) fail(n int) (int, error) {
	v.failed = true
	v.off += int64(n)
	return n, ErrInvalid
}

// Unmask XORs b in place with the masking key from key octet pos&3, as
// optimized/websocket.Mask does (any int pos), and validates the unmasked
// octets as Write would, in one pass: each block is loaded, unmasked,
// stored and checked while in a register (under 16 octets, a text that is
// not ASCII is checked by the automaton, from 4 octets its first four
// steps over the first unmasked word in a register and the rest over the
// octets just stored; 16 to 31 octets after a character boundary are
// unmasked and tested for ASCII in registers, and stored only if they
// are). It returns Mask's next position, (pos+len(b))&3, and Write's n
// and err. All of b is unmasked even when the text is, or already was,
// invalid. Unmask does not retain b.
func (v *Validator) Unmask(b []byte, key [4]byte, pos int) (next, n int, err error) {
	// k is the key as a little-endian word whose low octet is b[0]'s.
	k := bits.RotateLeft32(binary.LittleEndian.Uint32(key[:]), -8*(pos&3))
	next = (pos + len(b)) & 3
	kn := v.kernel()
	switch {
	case v.failed:
		// Nothing is left to check: only unmask.
		maskRest(b, uint64(k)*(1<<32|1))
		return next, 0, ErrInvalid
	case len(b) < smallWrite:
		if len(b) == 1 && v.st == stKnown|sAccept {
			// One ASCII octet at a boundary: nothing but the octet,
			// the window and the offset change (7.3 ns against 13.8
			// through unmaskShort, an internal benchmark of Reset then
			// Unmask, 10 interleaved rounds).
			if c := b[0] ^ byte(k); c < 0x80 {
				b[0] = c
				v.ctx = window3(v.ctx, b, 1)
				v.off++
				return next, 1, nil
			}
		}
		// ASCII after a boundary needs no automaton; anything else runs
		// it as Write does, over the octets just stored.
		x, w := unmaskShort(b, k)
		s0 := v.state()
		s := s0
		if x&ascii8 != 0 || s0&63 != sAccept {
			// From 4 octets, the first four take the steps written
			// out over w, as in valid, and the loop the rest.
			q := b
			if len(b) > 3 {
				s, q = steps4(s0, w), b[4:]
			}
			if s = run(s, q); s&63 == sError {
				n, err = v.fail(firstError(s0, b, 0))
				return next, n, err
			}
		}
		v.st = uint8(s&63) | stKnown
	case kn == kernelGeneric:
		var s uint64
		if n, s = unmaskGeneric(v.state(), b, k); n < len(b) {
			n, err = v.fail(n)
			return next, n, err
		}
		v.st = uint8(s&63) | stKnown
	default:
		n = len(b)
		if n < 32 && !incomplete(v.ctx) {
			// 16 to 31 octets after a boundary, ASCII once unmasked:
			// four words, all loaded and tested before any is stored,
			// and no call (docs/performance.md; as a function, not
			// inlined, it cost other text twice as much). The boundary
			// is tested first, unlike in Write: tested last, it made
			// fused streams of mixed text at 16 octets 7.5% faster but
			// non-ASCII text of 4-15 octets 4-21% slower, its automaton
			// laid out again (docs/performance.md).
			le := binary.LittleEndian
			k0 := uint64(k) * (1<<32 | 1)
			k1 := bits.RotateLeft64(k0, -8*n)
			w0 := le.Uint64(b) ^ k0
			w1 := le.Uint64(b[8:]) ^ k0
			w2 := le.Uint64(b[n-16:]) ^ k1
			w3 := le.Uint64(b[n-8:]) ^ k1
			if (w0|w1|w2|w3)&ascii8 == 0 {
				le.PutUint64(b, w0)
				le.PutUint64(b[8:], w1)
				le.PutUint64(b[n-16:], w2)
				le.PutUint64(b[n-8:], w3)
				v.ctx = uint32(w3 >> 40)
				v.off += int64(n)
				return next, n, nil
			}
		}
		// The last four octets, unmasked in a register from a load
		// made before the kernel's stores, not read back after them.
		last := binary.LittleEndian.Uint32(b[n-4:]) ^ bits.RotateLeft32(k, -8*(n&3))
		var s int
		if n >= alignMin && kn == kernelAVX512 && uintptr(unsafe.Pointer(unsafe.SliceData(b)))&63 != 0 {
			s = unmaskAligned(kn, b, k, v.ctx)
		} else {
			s = unmaskBlocks(kn, b, k, v.ctx)
		}
		if s != n || last >= 0xC0<<24 {
			if n = settle(v.ctx, b, s); n < len(b) {
				n, err = v.fail(n)
				return next, n, err
			}
		}
		v.st = 0
		v.ctx = last >> 8
		v.off += int64(n)
		return next, n, nil
	}
	v.ctx = window3(v.ctx, b, len(b))
	v.off += int64(len(b))
	return next, len(b), nil
}

// alignMin is the length from which the AVX-512 Unmask runs its kernel
// in two calls when the text does not start on a 64-octet boundary: the
// octets up to the boundary, then the rest, so that each of the kernel's
// 64-octet stores writes one cache line, not two (unmaskAligned). ASCII
// one octet off at 4-64 KiB took 14-35% less time; from 1 KiB, mixed text
// one octet off at 1-2 KiB took 6-21% more (the second call and its
// constants cost more than the aligned stores saved). The AVX2 kernel,
// which moves its stores to 32-octet boundaries itself, gained nothing
// from a split (within 1%). docs/performance.md, "The split moved into
// the kernel calls".
const alignMin = 4096

// unmaskAligned is unmaskBlocks over b, which does not start on a 64-octet
// boundary, in two calls: b[:h], up to the first boundary, then b[h:]
// after the window of the octets before it, which it takes from the
// masked octets (the first call's stores are not read back). After a
// failure in b[:h] it unmasks b[h:]. The window is window3's, written out:
// through window3, over the last three octets unmasked one by one, ASCII
// one octet off at 4096-4097 octets took 10-13% longer (docs/performance.md).
func unmaskAligned(kn kernel, b []byte, k, ctx uint32) int {
	h := -int(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) & 63
	k2 := bits.RotateLeft32(k, -8*(h&3)) // the key word at b[h]
	w := ctx
	if h >= 4 {
		w = (binary.LittleEndian.Uint32(b[h-4:]) ^ k2) >> 8
	} else {
		for i, o := range b[:h] {
			w = w>>8 | uint32(o^byte(k>>(8*i)))<<16
		}
	}
	if s := unmaskBlocks(kn, b[:h], k, ctx); s < h {
		maskRest(b[h:], uint64(k2)*(1<<32|1))
		return s
	}
	return h + unmaskBlocks(kn, b[h:], k2, w)
}

// Close reports the verdict at the end of the text: nil if it is valid
// UTF-8, ErrIncomplete if it ends inside a code point, ErrInvalid after a
// failure. It does not change the state: Reset starts the next text.
func (v *Validator) Close() error {
	switch {
	case v.failed:
		return ErrInvalid
	case incomplete(v.ctx):
		return ErrIncomplete
	}
	return nil
}

// Reset makes v ready for a new text, with the same kernel.
func (v *Validator) Reset() {
	// The state of a boundary is known: the first Write or Unmask need
	// not work it out from ctx (stateOf), which took about 4 ns of a
	// 1-octet Unmask after Reset.
	*v = Validator{k: v.k, st: stKnown | sAccept}
}

// Offset returns the number of octets accepted so far: after a failure,
// the offset from the start of the text of the first octet at which it
// could no longer be valid.
func (v *Validator) Offset() int64 {
	return v.off
}

// Impl is one variant of the package, for tests and benchmarks.
type Impl struct {
	Name      string // "avx512", "avx2", "generic"
	Available bool   // whether this CPU and build can run it
	// Valid is the variant's own Valid, and NewValidator returns a
	// Validator that runs the variant's kernel in Write and Unmask (and
	// so does a Reader built on it). Neither goes through dispatch; they
	// must not be called unless Available.
	Valid        func(b []byte) bool
	NewValidator func() *Validator
}

// Impls returns every variant, best first: "avx512", "avx2", "generic",
// including those this CPU or build cannot run (with Available false).
// Valid and the zero Validator run the first available one, chosen once at
// initialization.
func Impls() []Impl {
	return []Impl{
		archImpl("avx512", kernelAVX512),
		archImpl("avx2", kernelAVX2),
		{Name: "generic", Available: true, Valid: validGeneric, NewValidator: newValidator(kernelGeneric)},
	}
}

// newValidator returns a constructor of Validators that run k.
func newValidator(k kernel) func() *Validator {
	return func() *Validator { return &Validator{k: k} }
}
