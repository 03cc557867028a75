package utf8validtest

import (
	"bytes"
	"fmt"
	"testing/iotest"

	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// vector is a text with what RFC 3629, Markus Kuhn's stress test or the
// Autobahn testsuite says of it: failAt is the offset of the first octet
// at which it can no longer be valid (-1 if it can still be valid at its
// end), incomplete whether it ends inside a character.
type vector struct {
	source     string
	text       []byte
	failAt     int
	incomplete bool
}

// kosme is "κόσμε", the Autobahn testsuite's text (cases 6.3-6.6).
var kosme = []byte{0xce, 0xba, 0xe1, 0xbd, 0xb9, 0xcf, 0x83, 0xce, 0xbc, 0xce, 0xb5}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// vectors are the suite's worked examples.
var vectors = []vector{
	// RFC 3629 §7 (https://www.rfc-editor.org/rfc/rfc3629#section-7).
	{"RFC 3629 §7: A<NOT IDENTICAL TO><ALPHA>.", []byte{0x41, 0xe2, 0x89, 0xa2, 0xce, 0x91, 0x2e}, -1, false},
	{"RFC 3629 §7: Korean", []byte{0xed, 0x95, 0x9c, 0xea, 0xb5, 0xad, 0xec, 0x96, 0xb4}, -1, false},
	{"RFC 3629 §7: Japanese", []byte{0xe6, 0x97, 0xa5, 0xe6, 0x9c, 0xac, 0xe8, 0xaa, 0x9e}, -1, false},
	{"RFC 3629 §7: BOM and U+233B4", []byte{0xef, 0xbb, 0xbf, 0xf0, 0xa3, 0x8e, 0xb4}, -1, false},
	// Kuhn's stress test, 2.1-2.3: the first, last and other boundary
	// characters of each length.
	{"Kuhn 2.1: first of each length", []byte{0x00, 0xc2, 0x80, 0xe0, 0xa0, 0x80, 0xf0, 0x90, 0x80, 0x80}, -1, false},
	{"Kuhn 2.2: last of each length", []byte{0x7f, 0xdf, 0xbf, 0xef, 0xbf, 0xbf, 0xf4, 0x8f, 0xbf, 0xbf}, -1, false},
	{"Kuhn 2.3: U+D7FF U+E000 U+FFFD", []byte{0xed, 0x9f, 0xbf, 0xee, 0x80, 0x80, 0xef, 0xbf, 0xbd}, -1, false},
	{"Kuhn 2.3, Autobahn 6.11.5: U+110000", []byte{0xf4, 0x90, 0x80, 0x80}, 1, false},
	// 3.1-3.5: continuations alone, lonely starts, missing last octets,
	// impossible octets.
	{"Kuhn 3.1: a lone continuation", []byte{0x80}, 0, false},
	{"Kuhn 3.1: two continuations", []byte{0x80, 0xbf}, 0, false},
	{"Kuhn 3.2: C0 then a space", []byte{0xc0, 0x20}, 0, false},
	{"Kuhn 3.2: C2 then a space", []byte{0xc2, 0x20}, 1, false},
	{"Kuhn 3.2: E0 then a space", []byte{0xe0, 0x20}, 1, false},
	{"Kuhn 3.2: F0 then a space", []byte{0xf0, 0x20}, 1, false},
	{"Kuhn 3.3: C2 at the end", []byte{0xc2}, -1, true},
	{"Kuhn 3.3: E0 A0 at the end", []byte{0xe0, 0xa0}, -1, true},
	{"Kuhn 3.3: F0 90 80 at the end", []byte{0xf0, 0x90, 0x80}, -1, true},
	{"Kuhn 3.3: F4 8F BF at the end", []byte{0xf4, 0x8f, 0xbf}, -1, true},
	{"Kuhn 3.4: incomplete characters concatenated", []byte{0xc2, 0xe0, 0xa0}, 1, false},
	{"Kuhn 3.5, Autobahn 6.16: FE FE FF FF", []byte{0xfe, 0xfe, 0xff, 0xff}, 0, false},
	// 4.1-4.3: overlong forms.
	{"Kuhn 4.1: overlong '/' in 2", []byte{0xc0, 0xaf}, 0, false},
	{"Kuhn 4.1: overlong '/' in 3", []byte{0xe0, 0x80, 0xaf}, 1, false},
	{"Kuhn 4.1: overlong '/' in 4", []byte{0xf0, 0x80, 0x80, 0xaf}, 1, false},
	{"Kuhn 4.2: largest overlong in 2", []byte{0xc1, 0xbf}, 0, false},
	{"Kuhn 4.2: largest overlong in 3", []byte{0xe0, 0x9f, 0xbf}, 1, false},
	{"Kuhn 4.2: largest overlong in 4", []byte{0xf0, 0x8f, 0xbf, 0xbf}, 1, false},
	{"Kuhn 4.3: overlong NUL in 3", []byte{0xe0, 0x80, 0x80}, 1, false},
	// 5.1-5.3: surrogates, paired surrogates, noncharacters (valid).
	{"Kuhn 5.1, Autobahn 6.18: U+D800", []byte{0xed, 0xa0, 0x80}, 1, false},
	{"Kuhn 5.1: U+DFFF", []byte{0xed, 0xbf, 0xbf}, 1, false},
	{"Kuhn 5.2, Autobahn 6.19: U+D800 U+DC00", []byte{0xed, 0xa0, 0x80, 0xed, 0xb0, 0x80}, 1, false},
	{"Kuhn 5.3, Autobahn 6.21: U+FFFE U+FFFF U+FDD0", []byte{0xef, 0xbf, 0xbe, 0xef, 0xbf, 0xbf, 0xef, 0xb7, 0x90}, -1, false},
	// Autobahn 6.x (derived from the case descriptions).
	{"Autobahn 6.1.1: empty text", []byte{}, -1, false},
	{"Autobahn 6.2.1: Hello-µ@ßöäüàá-UTF-8!!", []byte("Hello-\u00b5@\u00df\u00f6\u00e4\u00fc\u00e0\u00e1-UTF-8!!"), -1, false},
	{"Autobahn 6.3.1: κόσμε, a surrogate, edited", cat(kosme, []byte{0xed, 0xa0, 0x80}, []byte("edited")), 12, false},
	{"Autobahn 6.4.1: κόσμε, U+110000, edited", cat(kosme, []byte{0xf4, 0x90, 0x80, 0x80}, []byte("edited")), 12, false},
	{"Autobahn 6.4.3: κόσμε, F4 90 in the middle of a chunk", cat(kosme, []byte{0xf4, 0x90, 0x80, 0x80, 0xce, 0xba}), 12, false},
	{"Autobahn 6.5.1: κόσμε", kosme, -1, false},
	{"Autobahn 6.6: κόσμε cut inside ό", kosme[:4], -1, true},
	{"Autobahn 6.10.1: F7 BF BF BF", []byte{0xf7, 0xbf, 0xbf, 0xbf}, 0, false},
	{"Autobahn 6.10.2: a 5-octet form", []byte{0xfb, 0xbf, 0xbf, 0xbf, 0xbf}, 0, false},
	{"Autobahn 6.10.3: a 6-octet form", []byte{0xfd, 0xbf, 0xbf, 0xbf, 0xbf, 0xbf}, 0, false},
	{"Autobahn 6.15.1: all incomplete, concatenated", []byte{0xc0, 0xe0, 0x80, 0xf0, 0x80, 0x80, 0xf7, 0xbf, 0xbf}, 0, false},
	{"Autobahn 6.20.1: a surrogate after ASCII", cat([]byte("ab"), []byte{0xed, 0xb0, 0x80}), 3, false},
}

// vectors checks the reference against each vector (the oracle must agree
// with its source), then the implementation on each, its every
// truncation, the vector with trailing junk and the vector after runs of
// ASCII (afterASCII): Valid, Write in one piece,
// in 1-octet pieces (Autobahn 6.3.2's fragmentation) and in every split in
// two, Unmask likewise at every key phase, and a Reader over iotest's
// one-octet reader and a plain one; then a Reader under
// testing/iotest.TestReader.
func (c *checker) vectors(r *equiv.Run) error {
	count := tally(r)
	for _, v := range vectors {
		if err := oracle(v); err != nil {
			return r.Errorf("%v: the oracle is wrong", err)
		}
		for _, text := range vectorTexts(v.text) {
			for _, in := range vectorInputs(text) {
				ce, compared := c.compare(in)
				if ce != nil {
					ce.Args += fmt.Sprintf(" vector=%q", v.source)
				}
				if err := count(ce, compared); err != nil {
					return err
				}
			}
		}
		for _, text := range asciiTexts(v) {
			for _, in := range afterASCII(text) {
				ce, compared := c.compare(in)
				if ce != nil {
					ce.Args += fmt.Sprintf(" vector=%q after ASCII", v.source)
				}
				if err := count(ce, compared); err != nil {
					return err
				}
			}
		}
	}
	for _, in := range append(phaseTexts(), loneTexts()...) {
		if err := count(c.compare(in)); err != nil {
			return err
		}
	}
	return c.readerContract(r)
}

// loneTexts are ASCII texts of 1 to 64 octets with one octet that is not
// ASCII (a continuation, a 2-octet first octet cut short, an octet that
// starts nothing) at each position, whole: Valid, one Write and Unmask
// (at key phase i&3). A word-wise ASCII test that leaves out one of its
// overlapping words misses only the positions that word alone covers (of
// four 8-octet words over 25-31 octets, the third alone covers 16 to n-9),
// which random texts reach only at some seeds: the fused Unmask's test
// without its third word passed every method at seed 1.
func loneTexts() []Input {
	var ins []Input
	for n := 1; n <= 64; n++ {
		for i := range n {
			for _, o := range []byte{0x80, 0xc3, 0xff} {
				text := bytes.Repeat([]byte{'a'}, n)
				text[i] = o
				ins = append(ins,
					Input{Func: "Valid", Text: text, Align: (n + i) & 63},
					Input{Func: "Validator", Text: text, Align: (n + 2*i) & 63},
					Input{Func: "Unmask", Text: text, Align: (n + 3*i) & 63, Key: vectorKey, Pos: i & 3})
			}
		}
	}
	return ins
}

// phaseKeys are the masking keys of phaseTexts: every pattern of high
// bits over the four key octets but all-clear and all-set (under which
// every phase looks alike), with low bits that differ octet by octet.
func phaseKeys() [][4]byte {
	var keys [][4]byte
	for hi := 1; hi < 15; hi++ {
		var k [4]byte
		for j := range k {
			k[j] = byte(0x35+0x11*j) | byte(hi>>j&1)<<7
		}
		keys = append(keys, k)
	}
	return keys
}

// phaseTexts are Unmask inputs whose masked octets look ASCII when
// unmasked with the key at the wrong phase: for each of phaseKeys, each
// position pos and each wrong rotation r = 1..3, a text of n = 1..64
// octets with a lone continuation octet (0x80) where the key octets of
// phases i+pos and i+pos+r differ in their high bit, and 'a' elsewhere;
// the continuation octets over the whole text, and only over its last 4,
// 8 or 16 octets (where word-wise code puts a last word that overlaps the
// one before, at another offset mod 4). An ASCII test of masked words
// that rotates the key differently from the unmasking finds such a text
// all ASCII and accepts it, where it is invalid (unless no phase
// differs: then it is all 'a', and valid).
func phaseTexts() []Input {
	var ins []Input
	for ki, key := range phaseKeys() {
		for pos := range 4 {
			for r := 1; r <= 3; r++ {
				for n := 1; n <= 64; n++ {
					for li, last := range []int{n, 16, 8, 4} {
						if li > 0 && last >= n {
							continue // the whole text again
						}
						text := make([]byte, n)
						for i := range text {
							text[i] = 'a'
							if i >= n-last && (key[(i+pos)&3]^key[(i+pos+r)&3])&0x80 != 0 {
								text[i] = 0x80
							}
						}
						ins = append(ins, Input{Func: "Unmask", Text: text, Align: (n + ki + last) & 63, Key: key, Pos: pos})
					}
				}
			}
		}
	}
	return ins
}

// asciiRuns are the ASCII runs afterASCII puts before a vector: one octet
// short of the optimized code's strides (16, 32 and 64 octets), so that
// the vector's first octet is the last of a block that starts with ASCII,
// and a path that skips an all-ASCII block must look at it
// (simdjson/simdjson#1169: 63 spaces then FF accepted). The run of 31 is
// of NULs, the least octet: a vector of one octet cut after it (C0, say)
// then ends a word of 00 00 00 and that octet, the edge of any test of
// the text's last word against a threshold on its top octet
// (optimized/utf8valid's Unmask asks whether the last word is C0000000 or
// more; the mutant asking whether it is more passed every method when
// the runs were all spaces).
var asciiRuns = []struct {
	n    int
	fill byte
}{{15, ' '}, {31, 0x00}, {63, ' '}}

// asciiTexts are the texts of v that afterASCII puts after its runs: v's
// text, and if octets follow the one at which it fails, the text cut just
// after that octet. Then the failing octet is the last of a text of 16, 32
// or 64 octets: an octet that starts no character (C0, C1, F5-FF) there
// has no octet after it for a SIMD kernel's checks, which look at an octet
// together with the next, and is left to the code after the kernel
// (optimized/utf8valid's settle); a test of it narrowed to E0 and up
// in the fused Unmask was caught before only at the seeds whose random
// texts happened to end so.
func asciiTexts(v vector) [][]byte {
	if v.failAt >= 0 && v.failAt+1 < len(v.text) {
		return [][]byte{v.text, v.text[:v.failAt+1]}
	}
	return [][]byte{v.text}
}

// afterASCII are the inputs of text after each of asciiRuns' runs,
// whole: Valid, one Write, and one Unmask at every key phase.
func afterASCII(text []byte) []Input {
	var ins []Input
	for _, run := range asciiRuns {
		t := cat(bytes.Repeat([]byte{run.fill}, run.n), text)
		ins = append(ins, Input{Func: "Valid", Text: t}, Input{Func: "Validator", Text: t, Align: run.n & 7})
		for pos := range 4 {
			ins = append(ins, Input{Func: "Unmask", Text: t, Align: pos, Key: vectorKey, Pos: pos})
		}
	}
	return ins
}

// oracle checks the reference's verdict on v against v's source.
func oracle(v vector) error {
	var val ref.Validator
	n, err := val.Write(v.text)
	wantN, wantErr := len(v.text), error(nil)
	if v.failAt >= 0 {
		wantN, wantErr = v.failAt, ref.ErrInvalid
	}
	wantClose := map[bool]error{true: ref.ErrIncomplete}[v.incomplete]
	if wantErr != nil {
		wantClose = ref.ErrInvalid
	}
	if n != wantN || err != wantErr || val.Close() != wantClose || ref.Valid(v.text) != (wantErr == nil && !v.incomplete) {
		return fmt.Errorf("reference on %q (%x): Write = %d, %v; Close = %v; want %d, %v; %v", v.source, v.text, n, err, val.Close(), wantN, wantErr, wantClose)
	}
	return nil
}

// vectorTexts are a vector's text, its every proper prefix, and the text
// followed by an ASCII and by an impossible octet.
func vectorTexts(text []byte) [][]byte {
	out := [][]byte{text}
	for n := range len(text) {
		out = append(out, text[:n])
	}
	return append(out, cat(text, []byte("!")), cat(text, []byte{0xff}))
}

// vectorKey is the masking key of the vectors' Unmask and Reader inputs:
// RFC 6455 §5.7's.
var vectorKey = [4]byte{0x37, 0xfa, 0x21, 0x3d}

// vectorInputs are the inputs made of one vector's text.
func vectorInputs(text []byte) []Input {
	// The alignments step by a half-length, so that a length's layout
	// (equiv.LayoutOf) does not come out the same for every input.
	ins := []Input{{Func: "Valid", Text: text, Align: len(text) >> 1 & 63}}
	splitWays := [][]int{nil, everyOctet(len(text))}
	for i := 1; i < len(text); i++ {
		splitWays = append(splitWays, []int{i})
	}
	for i, splits := range splitWays {
		ins = append(ins, Input{Func: "Validator", Text: text, Align: (i + len(text)>>1) & 63, Splits: splits})
		for pos := range 4 {
			ins = append(ins, Input{Func: "Unmask", Text: text, Align: (i + pos + len(text)>>1) & 63, Splits: splits, Key: vectorKey, Pos: pos})
		}
	}
	for _, kind := range []int{srcPlain, srcOneByte} {
		rc := readerCase{kind: kind}
		ins = append(ins, Input{Func: "Reader", Text: text, Key: vectorKey, Underlying: sourceName(kind, 0), rc: rc})
	}
	return ins
}

// everyOctet returns the splits of n octets into 1-octet pieces.
func everyOctet(n int) []int {
	var s []int
	for i := 1; i < n; i++ {
		s = append(s, i)
	}
	return s
}

// readerContractTexts are the valid texts readerContract reads.
var readerContractTexts = [][]byte{{}, []byte("a"), kosme, bytes.Repeat(kosme, 100)}

// readerContract runs testing/iotest.TestReader, which checks io.Reader's
// contract as the standard library checks its readers, on a Reader over
// each of readerContractTexts masked with the vectors' key: the
// reference's first (the oracle), then the implementation's.
func (c *checker) readerContract(r *equiv.Run) error {
	if c.impl.NewReader == nil {
		return nil
	}
	for _, text := range readerContractTexts {
		wire := masked(text, vectorKey, 0)
		if err := iotest.TestReader(ref.NewReader(bytes.NewReader(wire), vectorKey, new(ref.Validator)), text); err != nil {
			return r.Errorf("reference Reader fails testing/iotest.TestReader on %d octets: %v: the oracle is wrong", len(text), err)
		}
		in := Input{Func: "Reader", Text: text, Key: vectorKey, Underlying: "bytes.Reader (iotest.TestReader)"}
		if equiv.Excluded(c.cfg, in) {
			continue
		}
		var err error
		p := equiv.Catch(func() {
			err = iotest.TestReader(c.impl.NewReader(bytes.NewReader(wire), vectorKey, c.impl.NewValidator()), text)
		})
		if p != nil || err != nil {
			got := fmt.Sprint(err)
			if p != nil {
				got = fmt.Sprintf("panic(%v)", p.Value)
			}
			return r.Fail(&equiv.Counterexample{Func: "Reader", Input: bytes.Clone(text),
				Args: fmt.Sprintf("key=%x under testing/iotest.TestReader", vectorKey), Got: got,
				Want: "io.Reader's contract kept", Stack: equiv.StackOf(p), FuzzTarget: fuzzName,
				FuzzArgs: []any{bytes.Clone(text), keyWord(vectorKey), 0, encodePlan(plan{})}})
		}
		r.Count(1)
	}
	return nil
}

// tally returns a function that counts a check's comparisons, if it made
// any, and turns its counterexample into the method's failure.
func tally(r *equiv.Run) func(*equiv.Counterexample, int) error {
	return func(ce *equiv.Counterexample, compared int) error {
		if ce != nil {
			return r.Fail(ce)
		}
		r.Count(compared)
		return nil
	}
}
