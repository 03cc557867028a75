package main

import (
	"archive/zip"
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
)

// TestEncodeLayout pins the byte layout of one FuzzChecksum input (data,
// initial, plan): 4-byte length and data; the uint16 and its byte-order
// byte; an empty last []byte as length 2 over one padding byte.
func TestEncodeLayout(t *testing.T) {
	got, err := encode([]any{[]byte{0xaa, 0xbb}, uint16(0x1234), []byte{}})
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{0, 0, 0, 2, 0xaa, 0xbb, 0x12, 0x34, 1, 0, 0, 0, 2, 0}
	if !bytes.Equal(got, want) {
		t.Errorf("encode = % x, want % x", got, want)
	}
}

// TestEncodeEdges round-trips the values whose encoding has a special
// case: empty []byte first, between and last; a []byte exactly as long as
// the bytes left; 30 bytes (the length 0 stands for); signed values that
// the harness truncates; the extremes of each width.
func TestEncodeEdges(t *testing.T) {
	thirty := bytes.Repeat([]byte{7}, 30)
	for _, values := range [][]any{
		{[]byte{}},
		{[]byte{1}},
		{[]byte{}, []byte{}},
		{[]byte{}, uint32(5), []byte{}},
		{thirty, []byte{}},
		{[]byte{}, thirty},
		{[]byte("x"), int(-1), []byte("yz")},
		{int(math.MinInt), int64(math.MaxInt64), uint(math.MaxUint), uint64(0)},
		{int8(-128), uint8(255), int16(-1), uint16(0xfffe), int32(math.MinInt32), uint32(math.MaxUint32)},
		{true, false, "", "go"},
	} {
		if _, err := encode(values); err != nil {
			t.Errorf("encode(%#v): %v", values, err)
		}
	}
}

// TestEncodeRejects: an argument type the harness cannot decode is an
// error, not a seed.
func TestEncodeRejects(t *testing.T) {
	if _, err := encode([]any{1.5}); err == nil {
		t.Error("encode(float64) succeeded")
	}
}

// TestNaiveEmptyBytes: the obvious encoding of an empty []byte, length 0,
// does not decode as empty (0 stands for 30), which is why encode checks
// what it writes.
func TestNaiveEmptyBytes(t *testing.T) {
	naive := append([]byte{0, 0, 0, 0}, bytes.Repeat([]byte{9}, 40)...)
	got, err := decode(naive, []any{[]byte{}})
	if err != nil {
		t.Fatal(err)
	}
	if b := got[0].([]byte); len(b) != 30 {
		t.Errorf("length 0 decodes as %d bytes, want the 30 that go-fuzz-headers substitutes", len(b))
	}
}

// TestCorpusConverts converts every input of every target, seeds and the
// fuzz package's regressions, as build.sh does, and checks that every
// target with seed files in corpus/ gets all of them.
func TestCorpusConverts(t *testing.T) {
	out := t.TempDir()
	if err := run(out, false, os.DirFS("../../fuzz/testdata/fuzz")); err != nil {
		t.Fatal(err)
	}
	for _, st := range targets() {
		entries, err := equiv.LoadCorpus(st.target, st.seeds, nil)
		if err != nil {
			t.Fatal(err)
		}
		files, _ := os.ReadDir(out + "/" + st.target.Name)
		if len(files) < len(entries) {
			t.Errorf("%s: %d seeds written, want at least %d", st.target.Name, len(files), len(entries))
		}
	}
}

// TestZip: the zips hold, byte for byte, the files of the directories.
func TestZip(t *testing.T) {
	dirs, zips := t.TempDir(), t.TempDir()
	if err := run(dirs, false, nil); err != nil {
		t.Fatal(err)
	}
	if err := run(zips, true, nil); err != nil {
		t.Fatal(err)
	}
	for _, st := range targets() {
		files, _ := os.ReadDir(filepath.Join(dirs, st.target.Name))
		if len(files) == 0 {
			continue
		}
		zr, err := zip.OpenReader(filepath.Join(zips, st.target.Name+"_seed_corpus.zip"))
		if err != nil {
			t.Fatal(err)
		}
		if len(zr.File) != len(files) {
			t.Errorf("%s: %d files in the zip, %d in the directory", st.target.Name, len(zr.File), len(files))
		}
		for _, zf := range zr.File {
			want, err := os.ReadFile(filepath.Join(dirs, st.target.Name, zf.Name))
			if err != nil {
				t.Fatal(err)
			}
			rc, err := zf.Open()
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(rc)
			rc.Close()
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s/%s: zip holds % x (%v), directory % x", st.target.Name, zf.Name, got, err, want)
			}
		}
		zr.Close()
	}
}

// TestTestcase: every seed, written as a libFuzzer input and printed back
// with -testcase, is the "go test fuzz v1" file's values again.
func TestTestcase(t *testing.T) {
	dir := t.TempDir()
	for _, st := range targets() {
		entries, err := equiv.LoadCorpus(st.target, st.seeds, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			data, err := encode(e.Values)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, "input")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := printTestcase(&out, st.target.Name, file); err != nil {
				t.Fatalf("%s: %v", e.File, err)
			}
			got, err := equiv.UnmarshalFuzzInput(out.Bytes())
			if err != nil {
				t.Fatalf("%s: -testcase printed %q: %v", e.File, out.Bytes(), err)
			}
			if len(got) != len(e.Values) {
				t.Fatalf("%s: %d arguments after the round trip, want %d", e.File, len(got), len(e.Values))
			}
			for i := range got {
				if !equal(got[i], e.Values[i]) {
					t.Errorf("%s: argument %d is %#v after the round trip, want %#v", e.File, i, got[i], e.Values[i])
				}
			}
		}
	}
	if err := printTestcase(io.Discard, "FuzzNoSuchTarget", "x"); err == nil {
		t.Error("printTestcase accepted an unknown target")
	}
}
