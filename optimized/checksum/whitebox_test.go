package checksum

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math/bits"
	"slices"
	"testing"
)

// TestVariantsStandAlone: no variant hands any of its work to the
// dispatching Sum (or to sumLarge or sumVector), so that a bug in a
// variant's tail shows in that variant's own checks, not only under
// -tags purego. It reads the variants' source: a call cannot hide from it
// the way it hides from a test that only sees results.
func TestVariantsStandAlone(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	variants := []string{"sumGeneric", "sumAVX2", "sumAVX512", "sumTail"}
	found := 0
	for _, f := range pkgs["checksum"].Files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !slices.Contains(variants, fn.Name.Name) {
				continue
			}
			found++
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && slices.Contains([]string{"Sum", "sumLarge", "sumVector"}, id.Name) {
					t.Errorf("%s: %s uses %s: a variant must not go through dispatch", fset.Position(id.Pos()), fn.Name.Name, id.Name)
				}
				return true
			})
		}
	}
	if found < 2 {
		t.Fatalf("found %d of the variants %v in the source", found, variants)
	}
}

// TestVariantsWithoutDispatch runs every variant with dispatch pointed at
// a function that panics: a variant that still reached it would panic.
func TestVariantsWithoutDispatch(t *testing.T) {
	defer func(old func([]byte, uint16) uint16) { sumLarge = old }(sumLarge)
	sumLarge = func([]byte, uint16) uint16 { panic("a variant went through dispatch") }
	b := make([]byte, 700)
	for i := range b {
		b[i] = byte(i*7 + 0x80)
	}
	for _, v := range Impls() {
		if !v.Available {
			continue
		}
		for n := range len(b) {
			for _, initial := range []uint16{0, 0xffff, 0x1234} {
				if got, want := v.Sum(b[n%3:n], initial), model(b[n%3:n], initial); got != want {
					t.Fatalf("%s: Sum(len=%d align=%d initial=%#04x) = %#04x, want %#04x", v.Name, n-n%3, n%3, initial, got, want)
				}
			}
		}
	}
}

// foldModel folds x by RFC 1071's loop, which cannot overflow for any
// uint64 (x>>16 + 0xFFFF < 2^49).
func foldModel(x uint64) uint16 {
	for x>>16 != 0 {
		x = x>>16 + x&0xffff
	}
	return uint16(x)
}

// edgeValues are uint64s at every carry edge of fold64, fold32 and
// addEAC: 0, all ones, each power of two and its neighbours, multiples of
// 0xFFFF and of 2^32-1, and the halves' patterns.
func edgeValues() []uint64 {
	vs := []uint64{0, 1, 0xffff, 0x10000, 0xffffffff, 0x1_0000_0000, 0xffff_ffff_ffff_ffff,
		0xffff_0000_ffff_0000, 0x0000_ffff_0000_ffff, 0xffff_ffff_0000_0000, 0x8000_0000_8000_0000,
		0xfffe_ffff_ffff_fffe, 0xffff * 0x1_0001_0001, 0xffffffff * 0xffffffff}
	for k := range 64 {
		for _, d := range []int64{-2, -1, 0, 1, 2} {
			vs = append(vs, uint64(int64(1)<<k+d), ^uint64(0)-uint64(int64(1)<<k+d))
		}
	}
	return vs
}

// TestFold checks fold64 and fold32 against the RFC's loop at every edge
// value: ≡ x (mod 0xFFFF), 0 only for 0, 0xFFFF for nonzero multiples of
// 0xFFFF (the second rotate's carry is the end-around carry).
func TestFold(t *testing.T) {
	for _, x := range edgeValues() {
		if got, want := fold64(x), foldModel(x); got != want {
			t.Errorf("fold64(%#x) = %#04x, want %#04x", x, got, want)
		}
		if got, want := fold32(uint32(x)), foldModel(uint64(uint32(x))); got != want {
			t.Errorf("fold32(%#x) = %#04x, want %#04x", uint32(x), got, want)
		}
	}
}

// TestAddEAC checks the 64-bit end-around carry on every pair of edge
// values: a + b with the carry out of bit 63 added back is ≡ a + b
// (mod 2^64-1, so mod 0xFFFF) and zero only if both are.
func TestAddEAC(t *testing.T) {
	vs := edgeValues()
	for _, a := range vs {
		for _, b := range vs {
			got := addEAC(a, b)
			s, c := bits.Add64(a, b, 0)
			// want is the sum mod 2^64-1 in [1, 2^64-1] (or 0 for 0+0).
			want := s + c
			if got != want || (got == 0) != (a == 0 && b == 0) {
				t.Errorf("addEAC(%#x, %#x) = %#x, want %#x", a, b, got, want)
			}
			if foldModel(got) != foldModel(uint64(foldModel(a))+uint64(foldModel(b))) {
				t.Errorf("addEAC(%#x, %#x) = %#x: not ≡ a + b (mod 0xFFFF)", a, b, got)
			}
		}
	}
	// The carry: all ones plus one wraps to 0 and carries 1.
	if got := addEAC(^uint64(0), 1); got != 1 {
		t.Errorf("addEAC(2^64-1, 1) = %#x, want 1", got)
	}
	if got := addEAC(^uint64(0), ^uint64(0)); got != ^uint64(0) {
		t.Errorf("addEAC(2^64-1, 2^64-1) = %#x, want 2^64-1", got)
	}
}
