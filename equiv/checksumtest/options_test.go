package checksumtest_test

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// TestExclude: an implementation documented not to handle the empty input
// passes once that input is excluded, and every Result says how many
// inputs were left out (none, in the scale method, whose inputs are 1 KiB
// and more).
func TestExclude(t *testing.T) {
	impl := checksumtest.Impl{Sum: emptyWrong}
	if err := checksumtest.Check(impl); !errors.Is(err, equiv.ErrMismatch) {
		t.Fatalf("without Exclude: %v, want a mismatch", err)
	}
	empty := checksumtest.Exclude("empty input", func(in checksumtest.Input) bool {
		return in.Func == "Sum" && len(in.Data) == 0
	})
	res, err := results(impl, empty)
	if err != nil {
		t.Fatalf("with Exclude: %v", err)
	}
	for m, r := range res {
		none := strings.HasSuffix(r.Narrowed[0], ": 0 inputs")
		if len(r.Narrowed) != 1 || !strings.HasPrefix(r.Narrowed[0], `excluded "empty input": `) || none != (m == equiv.MethodScale) {
			t.Errorf("%s: Narrowed = %q, want the exclusion with its nonzero count", m, r.Narrowed)
		}
	}
}

// TestExcludeSeesEveryFunction: Exclude is asked about the inputs of every
// function, with the fields that function uses, and an excluded input is
// neither compared nor counted.
func TestExcludeSeesEveryFunction(t *testing.T) {
	seen := map[string]bool{}
	all := checksumtest.Exclude("everything", func(in checksumtest.Input) bool {
		seen[in.Func] = true
		return true
	})
	res, err := results(refImpl, all, only(equiv.MethodVectors))
	if !errors.Is(err, equiv.ErrNothingChecked) {
		t.Errorf("everything excluded: %v, want ErrNothingChecked", err)
	}
	if n := res[equiv.MethodVectors].Checked; n != 0 {
		t.Errorf("everything excluded: %d inputs compared", n)
	}
	for _, f := range []string{"Sum", "Checksum", "Digest", "Update",
		"Combine", "Put", "PseudoHeaderSum", "FinishUDP", "UpdateUDP", "UpdateUDP6", "VerifyUDP"} {
		if !seen[f] {
			t.Errorf("Exclude never saw an input of %s", f)
		}
	}
}

// TestAnyPanic: the reference never panics, so AnyPanic does not make an
// implementation's panic agree; the Result says the option was given.
func TestAnyPanic(t *testing.T) {
	res, err := results(checksumtest.Impl{Sum: emptyPanics}, equiv.AnyPanic(), only(equiv.MethodVectors))
	if !errors.Is(err, equiv.ErrMismatch) {
		t.Errorf("AnyPanic: %v, want a mismatch", err)
	}
	if n := res[equiv.MethodVectors].Narrowed; len(n) != 1 || !strings.Contains(n[0], "AnyPanic") {
		t.Errorf("Narrowed = %q, want AnyPanic", n)
	}
}

// TestMapErrors: the checksum returns no errors, so MapErrors changes no
// verdict, but the Result says errors were mapped.
func TestMapErrors(t *testing.T) {
	mapped := equiv.MapErrors(func(error) error { return io.EOF })
	dropOdd, _ := knownBad(t, "drop-odd-byte")
	for _, impl := range []checksumtest.Impl{refImpl, dropOdd} {
		plain := checksumtest.Check(impl, only(equiv.MethodVectors))
		res, err := results(impl, mapped, only(equiv.MethodVectors))
		if (err == nil) != (plain == nil) {
			t.Errorf("MapErrors changed the verdict: %v, was %v", err, plain)
		}
		if n := res[equiv.MethodVectors].Narrowed; len(n) != 1 || !strings.Contains(n[0], "MapErrors") {
			t.Errorf("Narrowed = %q, want MapErrors", n)
		}
	}
}

// TestNilSumTestFatal: Test with a nil Sum is one fatal error, before any
// subtest. It runs a test of this binary that is meant to fail, and reads
// its output.
func TestNilSumTestFatal(t *testing.T) {
	if os.Getenv("CHECKSUMTEST_NIL_SUM") == "1" {
		checksumtest.Test(t, checksumtest.Impl{})
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNilSumTestFatal$", "-test.v")
	cmd.Env = append(os.Environ(), "CHECKSUMTEST_NIL_SUM=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("Test with a nil Sum passed:\n%s", out)
	}
	if n := strings.Count(string(out), "checksumtest: every function of the Impl is nil"); n != 1 {
		t.Errorf("the error appears %d times, want once:\n%s", n, out)
	}
	if strings.Contains(string(out), "TestNilSumTestFatal/") {
		t.Errorf("subtests ran:\n%s", out)
	}
}

// TestCorpusMethodReportsBadFile: the corpus method fails on a corrupt
// corpus instead of passing on what it could read.
func TestCorpusMethodReportsBadFile(t *testing.T) {
	fsys := fstest.MapFS{"checksum/bad": {Data: []byte("go test fuzz v1\nnope\n")}}
	err := checksumtest.Check(refImpl, equiv.WithCorpus(fsys), only(equiv.MethodCorpus))
	if !errors.Is(err, equiv.ErrCorpus) {
		t.Fatalf("corpus method on a corrupt corpus = %v, want ErrCorpus", err)
	}
}

// TestEmptyCorpusIsNotAPass: a method that compares nothing fails.
func TestEmptyCorpusIsNotAPass(t *testing.T) {
	fsys := fstest.MapFS{"checksum/.keep": {Data: nil}}
	err := checksumtest.Check(refImpl, equiv.WithCorpus(fsys), only(equiv.MethodCorpus))
	if !errors.Is(err, equiv.ErrNothingChecked) {
		t.Fatalf("corpus method on an empty corpus = %v, want ErrNothingChecked", err)
	}
}

// TestRelax: a clause relaxed by name leaves out the inputs it decides,
// counted under its name, so that an implementation correct by the RFC
// with another API passes; an unknown clause is an error naming the
// clauses there are.
func TestRelax(t *testing.T) {
	noOffset := refImpl
	noOffset.Combine = func(sum, next uint16, _ int) uint16 { return ref.Combine(sum, next, 0) } // gVisor's API
	vectors := equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors })
	if err := checksumtest.Check(noOffset, vectors); !errors.Is(err, equiv.ErrMismatch) {
		t.Fatalf("without Relax: %v, want a mismatch", err)
	}
	res, err := results(noOffset, vectors, checksumtest.Relax("checksum-combine-offset"))
	if err != nil {
		t.Fatalf("with Relax: %v", err)
	}
	if n := res[equiv.MethodVectors].Narrowed; len(n) != 1 || !strings.HasPrefix(n[0], `excluded "relaxed checksum-combine-offset": `) {
		t.Errorf("Narrowed = %q", n)
	}
	err = checksumtest.Check(refImpl, checksumtest.Relax("no-such-clause"))
	if err == nil || !strings.Contains(err.Error(), `checksumtest.Relax: no clause "no-such-clause"`) || !strings.Contains(err.Error(), "checksum-put-short-false") {
		t.Errorf("an unknown clause: %v", err)
	}
}
