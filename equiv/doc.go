// Package equiv is the engine of equivcheck's conformance suites: it runs
// the methods of a suite (RFC vectors, bounded-exhaustive enumeration,
// guard pages, rapid and gopter properties, corpus replay) against an
// implementation, counts what each compared, and reports minimized
// counterexamples. It knows no pair: the suites for this module's pairs are
// the packages checksumtest, websockettest, quictest and utf8validtest beside it, and the
// release gate is package gate.
//
// # Checking an implementation
//
// Most users never call this package directly: they call a pair package,
// as they would call testing/fstest.TestFS,
//
//	func TestMySum(t *testing.T) {
//		checksumtest.Test(t, checksumtest.Impl{Sum: mypkg.Sum})
//	}
//	func FuzzMySum(f *testing.F) {
//		checksumtest.Fuzz(f, checksumtest.Impl{Sum: mypkg.Sum})
//	}
//
// and pass Options from here: WithLevel, WithSeed, MapErrors, AnyPanic,
// Exclude. Outside "go test", Check returns the same verdict as an error:
// errors.Is(err, ErrMismatch), and Counterexamples(err) gives each
// minimized input with both outputs, the seed and a fuzz-file form.
// EQUIV_LEVEL and EQUIV_SEED change a "go test" run without editing code.
//
// # Writing a suite for a pair of your own
//
// A Suite is a value: the pair's name and its Methods, each a function of
// a *Run. The Run is to a method what *rapid.T is to a property: it counts
// comparisons (Count), draws randomness reproducibly (Rand, and Pick for
// level-dependent sizes), runs rapid properties and gopter laws (Property,
// Law) without touching any flag, maps guard pages (Guarded), and reports
// (Fail, Errorf). A method that compares nothing fails with
// ErrNothingChecked: a check that did not run is never a pass.
//
// A method also says what it covered: Size records each compared input's
// length, Reach the boundary classes it fell in (a carry, a window edge, a
// length at 2^16+1), and Expect the classes the method's domain argument
// relies on at the running level. Result.Domain carries the sizes reached
// (min, max, percentiles) and the classes hit, and a method that finishes
// without reaching a class it expected fails with ErrUnreached: a
// generator that stopped reaching its range shows as a failure, not as a
// quiet pass over a smaller domain.
//
//	func NewSuite(impl func([]byte) uint32) equiv.Suite {
//		return equiv.Suite{Pair: "adler32", Methods: []equiv.Method{{
//			Name: equiv.MethodExhaustive,
//			Func: func(r *equiv.Run) error {
//				for n := range 1 << 16 {
//					b := []byte{byte(n), byte(n >> 8)}
//					if got, want := impl(b), adler32.Checksum(b); got != want {
//						return r.Fail(&equiv.Counterexample{Func: "Checksum", Input: b,
//							Got: fmt.Sprint(got), Want: fmt.Sprint(want)})
//					}
//					r.Count(1)
//				}
//				return nil
//			},
//		}}}
//	}
//
// Check(NewSuite(f)) and Test(t, NewSuite(f)) then run it; a gate.Variant
// puts it in a release gate. Give the Suite FuzzTargets and the engine adds
// a corpus method that replays their seed and regression inputs.
//
// A suite never changes its caller's global state: no flag is registered,
// set or parsed, no environment variable or working directory is changed,
// and suites may run in parallel.
package equiv
