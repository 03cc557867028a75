package equiv_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
)

func TestDomainSizes(t *testing.T) {
	var got equiv.Result
	s := equiv.Suite{Pair: "p", Methods: []equiv.Method{{Name: "m", Func: func(r *equiv.Run) error {
		for n := 0; n < 100; n++ {
			r.Size(n)
			r.Count(1)
		}
		r.Size(1 << 20)
		r.Size(3<<20 + 5)
		return nil
	}}}}
	if err := equiv.Check(s, equiv.WithReport(func(r equiv.Result) { got = r })); err != nil {
		t.Fatal(err)
	}
	sz := got.Domain.Sizes
	if sz.N != 102 || sz.Min != 0 || sz.Max != 3<<20+5 || sz.P50 != 50 || sz.P90 != 91 || sz.P99 != 1<<20 {
		t.Errorf("sizes = %+v", sz)
	}
	if !strings.Contains(got.Domain.String(), "sizes 0..3145733") {
		t.Errorf("String() = %q", got.Domain.String())
	}
}

func TestDomainLargeQuantiles(t *testing.T) {
	var got equiv.Result
	s := equiv.Suite{Pair: "p", Methods: []equiv.Method{{Name: "m", Func: func(r *equiv.Run) error {
		for _, n := range []int{65535, 65536, 65537, 70000, 1<<31 - 1} { // the largest int on 32-bit platforms
			r.Size(n)
		}
		r.Count(1)
		return nil
	}}}}
	equiv.Check(s, equiv.WithReport(func(r equiv.Result) { got = r }))
	sz := got.Domain.Sizes
	// 65535 lies in the bucket [61440, 65536) and is the minimum.
	if sz.Min != 65535 || sz.P50 != 65536 || sz.Max != 1<<31-1 {
		t.Errorf("sizes = %+v", sz)
	}
	if sz.P90 > 1<<31-1 || sz.P90 < (1<<31-1)-(1<<31-1)/16 {
		t.Errorf("p90 = %d, want within 1/16 below 2^31-1", sz.P90)
	}
}

func TestExpectUnreachedFails(t *testing.T) {
	var got equiv.Result
	s := equiv.Suite{Pair: "p", Methods: []equiv.Method{{Name: "m", Func: func(r *equiv.Run) error {
		r.Expect("small", "huge")
		r.Reach("small")
		r.ReachN("other", 3)
		r.Count(1)
		return nil
	}}}}
	err := equiv.Check(s, equiv.WithReport(func(r equiv.Result) { got = r }))
	if !errors.Is(err, equiv.ErrUnreached) || !strings.Contains(err.Error(), "huge") || strings.Contains(err.Error(), "small") {
		t.Fatalf("Check = %v, want ErrUnreached naming huge only", err)
	}
	if u := got.Domain.Unreached(); len(u) != 1 || u[0] != "huge" {
		t.Errorf("Unreached = %v", u)
	}
	want := []equiv.Class{{Name: "huge", Expected: true}, {Name: "other", Hits: 3}, {Name: "small", Hits: 1, Expected: true}}
	if len(got.Domain.Classes) != 3 {
		t.Fatalf("classes = %+v", got.Domain.Classes)
	}
	for i, c := range got.Domain.Classes {
		if c != want[i] {
			t.Errorf("class %d = %+v, want %+v", i, c, want[i])
		}
	}
}

func TestExpectReachedPasses(t *testing.T) {
	s := equiv.Suite{Pair: "p", Methods: []equiv.Method{{Name: "m", Split: true, Func: func(r *equiv.Run) error {
		r.Expect("a")
		for i := range 4 {
			if r.Mine(i) {
				r.Reach("a")
				r.Count(1)
			}
		}
		return nil
	}}}}
	if err := equiv.Check(s); err != nil {
		t.Fatal(err)
	}
	// Each shard of a Split method reaches part of the classes.
	s.Methods[0].Func = func(r *equiv.Run) error {
		r.Expect("a")
		if r.Mine(0) {
			r.Reach("a")
		}
		r.Count(1)
		return nil
	}
	if err := equiv.Check(s, equiv.WithShard(2, 2)); err != nil {
		t.Fatalf("shard 2/2: %v", err)
	}
	if err := equiv.Check(s); err != nil {
		t.Fatalf("unsharded: %v", err)
	}
}
