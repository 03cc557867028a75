package functest_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math/bits"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/functest"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// crcBitwise is CRC-32C a bit at a time, as RFC 3720 §B.4 describes it.
func crcBitwise(b []byte) uint32 {
	c := ^uint32(0)
	for _, v := range b {
		c ^= uint32(v)
		for range 8 {
			c = c>>1 ^ 0x82f63b78&-(c&1)
		}
	}
	return ^c
}

func crcTable(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// caught checks s at quick with seed 1 and returns its first
// counterexample, failing t if there is none, or if the counterexample's
// fuzz form does not fail again when the suite's fuzz target replays it.
func caught(t *testing.T, s equiv.Suite) *equiv.Counterexample {
	t.Helper()
	err := equiv.Check(s, equiv.WithSeed(1))
	ces := equiv.Counterexamples(err)
	if !errors.Is(err, equiv.ErrMismatch) || len(ces) == 0 {
		t.Fatalf("Check = %v, want a counterexample", err)
	}
	ce := ces[0]
	if ce.FuzzArgs != nil {
		again, _ := s.Targets[0].Check(equiv.NewConfig(), ce.FuzzArgs)
		if again == nil {
			t.Errorf("the fuzz form of %v passes when replayed", ce)
		}
	}
	return ce
}

// TestCatches: a bug in each kind of parameter, or in what a function may
// do to its buffers, is caught with a counterexample that replays.
func TestCatches(t *testing.T) {
	for _, tc := range []struct {
		name  string
		suite equiv.Suite
		want  string // in the counterexample's text
	}{
		{"octets", functest.New("Checksum", crcBitwise, func(b []byte) uint32 {
			if len(b) > 16 && len(b)%8 == 3 {
				return crcTable(b[:len(b)-1])
			}
			return crcTable(b)
		}), "Checksum(len="},
		{"integer", functest.New("OnesCount64", bits.OnesCount64, func(x uint64) int {
			return bits.OnesCount32(uint32(x)) + bits.OnesCount16(uint16(x>>32)) // drops the top 16 bits
		}), "arg0="},
		{"in place past the end", functest.New("Lower", lowerASCII, lowerWide, functest.Writes(0)), "Lower("},
		{"append past the room", functest.New("AppendUvarint", binary.AppendUvarint, appendUvarintWide, functest.Appends(0)), "AppendUvarint("},
		{"string over-read", functest.New("Count", strings.Count, countOverRead), "Count("},
		{"reader drops data with EOF", functest.New("ReadAll", io.ReadAll, readAllDropsLast), "ReadAll("},
		{"writer ignores short writes", functest.New("WriteAll", writeAll, writeAllIgnoresN), "WriteAll("},
		{"error class", functest.New("ParseUint", parseUint, parseUintByHand), "ParseUint("},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ce := caught(t, tc.suite)
			if !strings.Contains(ce.Error(), tc.want) {
				t.Errorf("counterexample %v, want %q in it", ce, tc.want)
			}
			t.Log(ce)
		})
	}
}

// lowerASCII lower-cases the ASCII letters of b in place.
func lowerASCII(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}

// lowerWide lower-cases b eight octets at a time (SWAR), its last word
// loaded and stored whole, past the end where the capacity allows: right
// results, octets it does not own written back.
func lowerWide(b []byte) {
	i := 0
	for ; i+8 <= cap(b) && i < len(b); i += 8 {
		w := b[i : i+8 : i+8]
		if i+8 > len(b) {
			w = b[i:cap(b)][:8]
		}
		v := binary.LittleEndian.Uint64(w)
		n := min(8, len(b)-i)
		for k := range n {
			c := byte(v >> (8 * k))
			if 'A' <= c && c <= 'Z' {
				v += uint64('a'-'A') << (8 * k)
			}
		}
		binary.LittleEndian.PutUint64(w, v)
	}
	lowerASCII(b[min(i, len(b)):])
}

// appendUvarintWide stores the encoding 8 octets at a time into b's
// room: right results, octets past those appended written.
func appendUvarintWide(b []byte, v uint64) []byte {
	var tmp [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(tmp[:], v)
	if cap(b)-len(b) >= 8 && n <= 8 {
		room := b[len(b) : len(b)+8]
		copy(room, tmp[:n])
		clear(room[n:])
		return b[:len(b)+n]
	}
	return append(b, tmp[:n]...)
}

// countOverRead counts a one-octet sep by loading s 8 octets at a time,
// its last word past the end: right results, a read one word out.
func countOverRead(s, sep string) int {
	if len(sep) != 1 || len(s) < 64 {
		return strings.Count(s, sep)
	}
	n := 0
	p := unsafe.StringData(s)
	for i := 0; i < len(s); i += 8 {
		w := *(*[8]byte)(unsafe.Add(unsafe.Pointer(p), i))
		for k := range min(8, len(s)-i) {
			if w[k] == sep[0] {
				n++
			}
		}
	}
	return n
}

// readAllDropsLast reads to the end, dropping the octets a Read returns
// with io.EOF (the iotest.DataErrReader case).
func readAllDropsLast(r io.Reader) ([]byte, error) {
	var out []byte
	buf := make([]byte, 512)
	for {
		n, err := r.Read(buf)
		if err == io.EOF {
			return out, nil
		}
		out = append(out, buf[:n]...)
		if err != nil {
			return out, err
		}
	}
}

func writeAll(w io.Writer, p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k, err := w.Write(p[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// writeAllIgnoresN counts a Write that failed as writing all it was given.
func writeAllIgnoresN(w io.Writer, p []byte) (int, error) {
	if _, err := w.Write(p); err != nil {
		return len(p), err
	}
	return len(p), nil
}

func parseUint(s string) (uint64, error) { return strconv.ParseUint(s, 10, 64) }

// parseUintByHand parses decimal digits, but says "invalid syntax" where
// strconv says "value out of range".
func parseUintByHand(s string) (uint64, error) {
	v, err := strconv.ParseUint(s, 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, &strconv.NumError{Func: "ParseUint", Num: s, Err: strconv.ErrSyntax}
	}
	return v, err
}

// TestCRCQuick: a quick run of a func([]byte) uint32 pair, every method.
func TestCRCQuick(t *testing.T) {
	equiv.Test(t, functest.New("Checksum", crcBitwise, crcTable))
}

// TestContractsApplied: on a derived suite, every mechanism the derived
// contract calls for is applied to some call, for a function of each
// access: reads, writes in place, appends.
func TestContractsApplied(t *testing.T) {
	for _, tc := range []struct {
		name  string
		suite equiv.Suite
	}{
		{"Checksum", functest.New("Checksum", crcBitwise, crcTable)},
		{"Lower", functest.New("Lower", lowerASCII, lowerASCII, functest.Writes(0))},
		{"AppendUvarint", functest.New("AppendUvarint", binary.AppendUvarint, binary.AppendUvarint, functest.Appends(0))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var results []equiv.Result
			err := equiv.Check(tc.suite, equiv.WithSeed(1), equiv.WithSample(equiv.ShortSample),
				equiv.WithReport(func(r equiv.Result) { results = append(results, r) }))
			if err != nil {
				t.Fatal(err)
			}
			// An Impl type with the one function, for CheckContracts.
			impl := reflect.New(reflect.StructOf([]reflect.StructField{{Name: tc.name, Type: reflect.TypeFor[func()]()}})).Elem().Interface()
			var contract equiv.Contract
			for _, r := range results {
				for _, a := range r.Applied {
					contract.Func = a.Func
				}
			}
			if contract.Func != tc.name {
				t.Fatalf("no mechanism applied to %s", tc.name)
			}
			if err := equiv.CheckContracts(impl, tc.suite.Contracts, results); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestBadSpecs: a suite New cannot derive says why, and runs nothing.
func TestBadSpecs(t *testing.T) {
	for _, tc := range []struct {
		suite equiv.Suite
		want  string
	}{
		{functest.New("Map", func(map[int]int) int { return 0 }, func(map[int]int) int { return 0 }), "has no default domain"},
		{functest.New("NotFunc", 1, 2), "is not a function type"},
		{functest.New("Nil", crcBitwise, nil), "the implementation is nil"},
		{functest.New("Appends", crcBitwise, crcTable, functest.Appends(0)), "the first result must be"},
		{functest.New("Vector", crcBitwise, crcTable, functest.Vector(1, 2)), "Vector has 2 arguments"},
		{functest.New("Writes", bits.OnesCount64, bits.OnesCount64, functest.Writes(0)), "only a []byte"},
	} {
		if tc.suite.Err == nil || !strings.Contains(tc.suite.Err.Error(), tc.want) {
			t.Errorf("%s: Err = %v, want %q", tc.suite.Pair, tc.suite.Err, tc.want)
		}
		if err := equiv.Check(tc.suite); err == nil {
			t.Errorf("%s: Check passed", tc.suite.Pair)
		}
	}
}

// TestExcludeAndVectors: Exclude sees every input as an Input with the
// arguments, and Vector's inputs run in the vectors method.
func TestExcludeAndVectors(t *testing.T) {
	var seen []string
	s := functest.New("Checksum", crcBitwise, crcTable, functest.Vector([]byte("123456789")))
	var res equiv.Result
	err := equiv.Check(s, equiv.WithSeed(1), equiv.Serial(), equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors }),
		functest.Exclude("the check string", func(in functest.Input) bool {
			b := in.Args[0].([]byte)
			seen = append(seen, string(b))
			return string(b) == "123456789"
		}),
		equiv.WithReport(func(r equiv.Result) {
			if r.Method == equiv.MethodVectors {
				res = r
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Narrowed) != 2 || !strings.Contains(res.Narrowed[1], `excluded "the check string": 1 inputs`) {
		t.Errorf("Narrowed = %q", res.Narrowed)
	}
	if len(seen) == 0 || seen[0] != "123456789" {
		t.Errorf("Exclude saw %q first, want the vector", seen)
	}
}

// TestNilAndEmptyAlike: a function that tells nil from empty is caught:
// the harness places an empty slice nil, empty and roomy by turns.
func TestNilAndEmptyAlike(t *testing.T) {
	nilCheck := func(b []byte) uint32 {
		if b == nil {
			return 1
		}
		return crcTable(b)
	}
	if ce := caught(t, functest.New("Checksum", crcTable, nilCheck)); !bytes.Equal(ce.Input, []byte{}) {
		t.Errorf("counterexample %v, want the empty input", ce)
	}
}
