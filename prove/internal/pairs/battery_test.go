package pairs

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/internal/battery"
	"github.com/equivcheck/equivcheck/prove"
	"github.com/equivcheck/equivcheck/prove/internal/symex"
	refchk "github.com/equivcheck/equivcheck/reference/checksum"
	refquic "github.com/equivcheck/equivcheck/reference/quic"
	refutf8 "github.com/equivcheck/equivcheck/reference/utf8valid"
	refws "github.com/equivcheck/equivcheck/reference/websocket"
)

const batteryPkg = "github.com/equivcheck/equivcheck/internal/battery"

// A planted bug the prove method must find: the method that proves the
// bad implementation (bug on) against the reference, and that proves its
// twin (bug off) equal, over the same sizes.
type planted struct {
	method func(on bool) equiv.Method
}

// inScope lists, by battery name, the bugs whose code is pure Go in the
// executor's subset and shows within the sizes proved. The others, and
// why not, are outOfScope's.
func inScope() map[string]planted {
	m := map[string]planted{}
	for _, b := range []string{"rotation-direction", "negative-pos", "zero-key-half", "phase3-key-table"} {
		m["websocket/"+b] = planted{masker(b)}
	}
	for name, factory := range map[string]string{"drop-odd-byte": "dropOdd", "odd-byte-low": "oddLow",
		"negative-zero": "negativeZero", "sign-extend": "signExtend", "tail-mod-4": "tailMod4"} {
		m["checksum/"+name] = planted{sumBug(name, factory)}
	}
	m["checksum/rfc1141-update"] = planted{helper("rfc1141-update", refchk.Update, "update", func(on bool) []any { return []any{on} })}
	m["checksum/udp-update-invents-checksum"] = planted{helper("udp-update-invents-checksum", refchk.UpdateUDP, "updateUDP", func(on bool) []any { return []any{on, false} })}
	m["checksum/udp-update-sends-zero"] = planted{helper("udp-update-sends-zero", refchk.UpdateUDP, "updateUDP", func(on bool) []any { return []any{false, on} })}
	m["checksum/udp6-update-zero-as-ipv4"] = planted{helper("udp6-update-zero-as-ipv4", refchk.UpdateUDP6, "updateUDP6", func(on bool) []any { return []any{on} })}
	m["checksum/finish-sends-zero"] = planted{helper("finish-sends-zero", refchk.FinishUDP, "finishUDP", func(on bool) []any { return []any{on} })}
	type combineBug struct{ noSwap, noCarry, signedOdd bool }
	m["checksum/combine-no-swap"] = planted{helper("combine-no-swap", refchk.Combine, "combine", func(on bool) []any { return []any{combineBug{noSwap: on}} })}
	m["checksum/combine-no-carry"] = planted{helper("combine-no-carry", refchk.Combine, "combine", func(on bool) []any { return []any{combineBug{noCarry: on}} })}
	m["checksum/combine-negative-odd-offset"] = planted{helper("combine-negative-odd-offset", refchk.Combine, "combine", func(on bool) []any { return []any{combineBug{signedOdd: on}} })}
	m["checksum/put-panics-short"] = planted{helper("put-panics-short", refchk.Put, "put", func(on bool) []any { return []any{on, false} })}
	m["checksum/put-partial-write"] = planted{helper("put-partial-write", refchk.Put, "put", func(on bool) []any { return []any{false, on} })}
	m["quic/append-2^62"] = planted{quicBug("append-2^62", refquic.AppendVarint, "miniAppendVarint", 3, 0)}
	m["quic/no-fit-check"] = planted{quicBug("no-fit-check", refquic.AppendVarintWithLen, "miniAppendWithLen", 3, 0)}
	m["quic/clobbers-spare"] = planted{quicBug("clobbers-spare", refquic.AppendVarintWithLen, "miniAppendWithLen", 3, 8)}
	for _, b := range []string{"pn-underflow", "pn-edge-lower-3", "pn-edge-upper-4", "pn-limit-62"} {
		m["quic/"+b] = planted{quicBug(b, refquic.DecodePacketNumber, "miniPN", 0, 0)}
	}
	for _, b := range []string{"accepts-surrogates", "accepts-overlong-2", "accepts-overlong-4", "accepts-above-10ffff",
		"incomplete-accepted-at-close", "valid4-mask-skips-first"} {
		m["utf8/"+b] = planted{utf8Valid(b, shortOr(4, 8), 0)}
	}
	m["utf8/incomplete-at-block-end"] = planted{utf8Valid("incomplete-at-block-end", 16, 0)}
	m["utf8/tail-load-to-cap"] = planted{utf8Valid("tail-load-to-cap", shortOr(4, 8), 8)}
	m["utf8/fails-late"] = planted{utf8Write("fails-late", shortOr(4, 8))}
	// Contract bugs of the spare capacity: it is an input too, with
	// Spare, whose contents are compared after the call.
	m["checksum/pad-from-capacity"] = planted{spareSum("pad-from-capacity", "padFromCap")}
	m["checksum/put/wide-store"] = planted{spareHelper("put/wide-store", refchk.Put, "putWide", 2)}
	m["quic/varint/load-to-cap"] = planted{quicContract("varint/load-to-cap", refquic.ParseVarint, "loadVarint")}
	m["quic/append/word-store"] = planted{quicContract("append/word-store", refquic.AppendVarint, "wordAppend")}
	return m
}

// shortOr is short under -short, else long.
func shortOr(short, long int) int {
	if testing.Short() {
		return short
	}
	return long
}

// outOfScope says, for every other bug of the battery, why the prove
// method does not reach it.
func outOfScope(name string) string {
	reasons := []struct{ match, why string }{
		{"websocket/head-key-not-rotated", "shows from 16 octets, where the model reads addresses (unsafe) to align"},
		{"websocket/tail-key-restarted", "shows from 16 octets, where the model reads addresses (unsafe) to align"},
		{"websocket/exact-multiple-32", "shows from 32 octets, where the model reads addresses (unsafe) to align"},
		{"websocket/len-", "lengths of 2^15 and more"},
		{"websocket/wide-", "lengths of 256 and more, where the model reads addresses (unsafe)"},
		{"websocket/overlap-", "MaskCopy's overlap check compares addresses (unsafe)"},
		{"websocket/reads-before-src", "a read outside the slice (unsafe.Add): guard pages"},
		{"websocket/writes-before-dst", "a write outside the slice (unsafe.Add): guard pages"},
		{"websocket/writes-past-src", "MaskCopy, whose overlap check compares addresses (unsafe)"},
		{"websocket/reader-", "MaskReader: io.Reader, an interface"},
		{"websocket/writer-", "MaskWriter: io.Writer, an interface"},
		{"websocket/mask", "contract: memory, pages, aliasing or concurrency"},
		{"checksum/fold-once", "a second carry needs 2^17 octets"},
		{"checksum/32-bit-accumulator", "2^17 octets"},
		{"checksum/over-read", "a read outside the slice (unsafe.Add): guard pages"},
		{"checksum/under-read", "a read outside the slice (unsafe.Add): guard pages"},
		{"checksum/initial-ffff-wide-path", "64 octets: past the checksum's bound"},
		{"checksum/lane-overflow", "1 MiB"},
		{"checksum/odd-address-swap", "reads the buffer's address (unsafe)"},
		{"checksum/16-bit-length", "2^16 octets"},
		{"checksum/64-bit-carry-dropped", "8-octet words: past the checksum's bound"},
		{"checksum/uint8-block-counter", "2^14 octets"},
		{"checksum/digest-", "the Digest: a stateful object behind an interface"},
		{"checksum/pseudo-", "netip.Addr"},
		{"checksum/verify-", "netip.Addr"},
		{"checksum/", "contract: memory, pages, aliasing or concurrency"},
		{"quic/varint-over-read", "a read outside the slice (unsafe.Add): guard pages"},
		{"quic/quicvarint-", "io.ByteReader and Peeker: interfaces"},
		{"quic/bytes-reader-overread", "io.ByteReader: an interface"},
		{"quic/peek-8", "Peeker: an interface"},
		{"quic/header/", "contract: header parsing, not among the functions proved"},
		{"quic/packets/", "contract: Packets, not among the functions proved"},
		{"quic/append/static-buffer", "contract: results kept across calls"},
		{"quic/readvarint/", "contract: ReadVarint's io.ByteReader, an interface"},
		{"quic/", "header parsing and Packets: not among the functions proved (docs/equivalence.md)"},
		{"utf8/loses-state-at-split", "two Writes: the harness proves one"},
		{"utf8/block-boundary-continuation", "33 octets: past the bound"},
		{"utf8/ascii-skip-misses-last", "64 octets: past the bound"},
		{"utf8/close-resets", "Close between Writes: the harness proves one Write"},
		{"utf8/keeps-tail-view", "contract: a view of the caller's buffer kept after Write"},
		{"utf8/shared-carry", "concurrency"},
		{"utf8/valid-scratch-in-place", "contract: a write restored before returning (read-only pages)"},
		{"utf8/tail-over-read", "a read outside the slice (unsafe.Add): guard pages"},
		{"utf8/unmask-", "Unmask: not in the prove method's pairs"},
		{"utf8/reader-", "the Reader: io.Reader, an interface"},
		{"utf8/reader/", "the Reader: io.Reader, an interface"},
		{"utf8/unmask/", "Unmask: not in the prove method's pairs"},
		{"utf8/valid/memo-by-address", "contract: a result remembered by the buffer's address (reuse)"},
		{"utf8/valid/trylock-fallback", "concurrency"},
		{"utf8/valid/halves-split-characters", "texts of 128 KiB and more: past the bound"},
		{"utf8/validator/", "many Writes or 512 KiB and more: the harness proves one short Write"},
		{"func/", "the functions of equiv/functest's battery: not among the pairs proved here (prove.Method takes any such pair)"},
	}
	for _, r := range reasons {
		if strings.HasPrefix(name, r.match) {
			return r.why
		}
	}
	return ""
}

// TestBattery proves every in-scope planted bug of internal/battery wrong,
// with a counterexample that replays on the compiled code, and its
// bug-free twin right over the same sizes; and checks that every other
// bug has a reason not to be reached.
func TestBattery(t *testing.T) {
	scope := inScope()
	found := 0
	for _, b := range battery.All() {
		p, ok := scope[b.Name]
		if !ok {
			continue // TestBatteryScope
		}
		delete(scope, b.Name)
		t.Run(b.Name, func(t *testing.T) {
			if testing.Short() && !sample[b.Name] {
				t.Skip("-short proves a sample of the planted bugs, one or two of each kind")
			}
			start := time.Now()
			bad := p.method(true)
			res, err := check(bad)
			var ce *equiv.Counterexample
			if !errors.As(err, &ce) {
				t.Fatalf("bad: want a counterexample, got %v", err)
			}
			t.Logf("found: %v (%s)", ce, equiv.BoundsSummary(res.Bounds))
			twin := p.method(false)
			res, err = check(twin)
			if err != nil {
				t.Fatalf("twin: %v", err)
			}
			t.Logf("twin: %s; %v", equiv.BoundsSummary(res.Bounds), time.Since(start).Round(time.Millisecond))
			found++
		})
	}
	for name := range scope {
		t.Errorf("%s: in scope, not in the battery", name)
	}
	t.Logf("battery: %d planted bugs found by the prove method", found)
}

// sample is what -short proves of the planted bugs (as .ci/run's prove
// step does): one or two of each kind of difference, each pair's.
var sample = map[string]bool{"websocket/rotation-direction": true, "checksum/tail-mod-4": true,
	"checksum/rfc1141-update": true, "checksum/put-partial-write": true, "quic/append-2^62": true,
	"quic/pn-underflow": true, "utf8/accepts-surrogates": true, "utf8/fails-late": true}

// TestBatteryScope checks that every bug of the battery is in scope or
// out of it with a reason, and logs how many each reason leaves out.
func TestBatteryScope(t *testing.T) {
	scope := inScope()
	count := map[string]int{}
	var order []string
	in := 0
	for _, b := range battery.All() {
		if _, ok := scope[b.Name]; ok {
			in++
			continue
		}
		why := outOfScope(b.Name)
		if why == "" {
			t.Errorf("%s: neither in scope nor out of it with a reason", b.Name)
			continue
		}
		if count[why] == 0 {
			order = append(order, why)
		}
		count[why]++
		t.Logf("out of scope: %s: %s", b.Name, why)
	}
	for _, why := range order {
		t.Logf("%3d out of scope: %s", count[why], why)
	}
	t.Logf("%d in scope of %d", in, len(battery.All()))
}

// check runs one method at quick.
func check(m equiv.Method) (equiv.Result, error) {
	var res equiv.Result
	err := equiv.Check(equiv.Suite{Pair: "battery", Methods: []equiv.Method{m}}, equiv.WithLevel(equiv.Quick),
		equiv.WithReport(func(r equiv.Result) { res = r }))
	return res, err
}

// bugName returns the battery switch: name when on, "" for the twin.
func bugName(name string, on bool) string {
	if on {
		return name
	}
	return ""
}

// confirmCall replays an input on two Go functions: results, inputs
// after and panics must agree.
func confirmCall(ref, impl any) prove.Option {
	return prove.Confirm(func(in []any) *equiv.Counterexample {
		want, got := callGo(ref, in), callGo(impl, in)
		if want == got {
			return nil
		}
		return &equiv.Counterexample{Got: got, Want: want}
	})
}

func callGo(f any, in []any) (out string) {
	args := make([]reflect.Value, len(in))
	for i, a := range in {
		v := reflect.ValueOf(a)
		if v.Kind() == reflect.Slice {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Cap())
			reflect.Copy(c.Slice(0, v.Cap()), v.Slice3(0, v.Cap(), v.Cap()))
			v = c
		}
		args[i] = v
	}
	defer func() {
		if p := recover(); p != nil {
			out = "panic"
		}
	}()
	var parts []string
	for _, r := range reflect.ValueOf(f).Call(args) {
		parts = append(parts, symex.RenderGo(r))
	}
	for _, a := range args {
		if a.Kind() == reflect.Slice {
			a = a.Slice3(0, a.Cap(), a.Cap())
		}
		parts = append(parts, symex.RenderGo(a))
	}
	return strings.Join(parts, " ")
}

// confirmTarget replays an input through the bad suite's fuzz target.
func confirmTarget(s equiv.Suite, target string, args func(in []any) []any) prove.Option {
	return prove.Confirm(func(in []any) *equiv.Counterexample {
		for _, t := range s.Targets {
			if t.Name == target {
				ce, _ := t.Check(equiv.NewConfig(equiv.WithSeed(1)), args(in))
				return ce
			}
		}
		return nil
	})
}

func suiteOf(name string, on bool) equiv.Suite {
	for _, b := range battery.All() {
		if b.Name == name {
			if on {
				return b.Bad
			}
			return b.Twin
		}
	}
	panic("no bug " + name)
}

// masker proves the websocket model masker's Mask, below 16 octets
// (where it starts reading addresses to align).
func masker(bug string) func(bool) equiv.Method {
	return func(on bool) equiv.Method {
		impl := prove.Func{Pkg: batteryPkg, Name: "maskModel.Mask", Args: func() []any { return []any{struct{ bug string }{bugName(bug, on)}} }}
		hi := shortOr(8, 15)
		return prove.Funcs(prove.Func{Value: refws.Mask}, impl, prove.Sizes(prove.Upto(hi, hi, hi)),
			confirmTarget(suiteOf("websocket/"+bug, on), "FuzzMask", func(in []any) []any {
				key := in[1].([4]byte)
				return []any{in[0], binary.BigEndian.Uint32(key[:]), in[2], []byte{}}
			}))
	}
}

// sumBug proves a checksum Sum made by a factory of the battery.
func sumBug(name, factory string) func(bool) equiv.Method {
	return func(on bool) equiv.Method {
		bad, twin, _ := battery.ChecksumImpls(name)
		impl := twin.Sum
		if on {
			impl = bad.Sum
		}
		return prove.Funcs(prove.Func{Value: refchk.Sum},
			prove.Func{Pkg: batteryPkg, Name: factory, Factory: true, Args: func() []any { return []any{on} }},
			prove.Sizes(prove.Upto(4, 4, 4)), confirmCall(refchk.Sum, impl))
	}
}

// helper proves one of the checksum helpers made by a factory.
func helper(name string, ref any, factory string, args func(on bool) []any) func(bool) equiv.Method {
	return func(on bool) equiv.Method {
		bad, twin, _ := battery.ChecksumImpls(name)
		impl := twin
		if on {
			impl = bad
		}
		fn := map[string]any{"update": impl.Update, "updateUDP": impl.UpdateUDP, "updateUDP6": impl.UpdateUDP6,
			"finishUDP": impl.FinishUDP, "combine": impl.Combine, "put": impl.Put}[factory]
		return prove.Funcs(prove.Func{Value: ref},
			prove.Func{Pkg: batteryPkg, Name: factory, Factory: true, Args: func() []any { return args(on) }},
			prove.Sizes(prove.Upto(3, 3, 3)), confirmCall(ref, fn))
	}
}

// quicBug proves one of the mini parser's functions, whose last parameter
// is the bug switch, up to size hi, with spare capacity.
func quicBug(bug string, ref any, fn string, hi, spare int) func(bool) equiv.Method {
	return func(on bool) equiv.Method {
		impl := battery.QUICImpl(bugName(bug, on))
		compiled := map[string]any{"miniAppendVarint": impl.AppendVarint, "miniAppendWithLen": impl.AppendVarintWithLen,
			"miniPN": impl.DecodePacketNumber}[fn]
		n := reflect.TypeOf(ref).NumIn()
		args := func() []any {
			a := make([]any, n+1)
			for i := range n {
				a[i] = prove.Free
			}
			a[n] = bugName(bug, on)
			return a
		}
		return prove.Funcs(prove.Func{Value: ref}, prove.Func{Pkg: batteryPkg, Name: fn, Args: args},
			prove.Sizes(prove.Upto(hi, hi, hi)), prove.Spare(spare), confirmCall(ref, compiled))
	}
}

// utf8Valid proves the model's Valid (modelValid with the bug switch).
func utf8Valid(bug string, hi, spare int) func(bool) equiv.Method {
	return func(on bool) equiv.Method {
		impl := prove.Func{Pkg: batteryPkg, Name: "modelValid", Args: func() []any { return []any{prove.Free, bugName(bug, on)} }}
		bad, twin, _ := battery.UTF8Impls(bug)
		compiled := twin.Valid
		if on {
			compiled = bad.Valid
		}
		return prove.Funcs(prove.Func{Value: refutf8.Valid}, impl, prove.Sizes(prove.Upto(hi, hi, hi)), prove.Spare(spare),
			confirmCall(refutf8.Valid, compiled))
	}
}

// utf8Model is the shape of battery's utf8Model, for its bound receiver.
type utf8Model struct {
	bug     string
	oneShot bool
	part    [4]byte
	n       int
	view    []byte
	failed  bool
	offset  int64
	writes  int
	lax     bool
}

// utf8Write proves one Write into the model's Validator.
func utf8Write(bug string, hi int) func(bool) equiv.Method {
	return func(on bool) equiv.Method {
		ref := prove.Func{Value: (*refutf8.Validator).Write, Args: func() []any { return []any{new(refutf8.Validator)} }}
		impl := prove.Func{Pkg: batteryPkg, Name: "(*utf8Model).Write", Args: func() []any { return []any{&utf8Model{bug: bugName(bug, on)}} }}
		return prove.Funcs(ref, impl, prove.Sizes(prove.Range(1, hi, hi, hi)),
			confirmTarget(suiteOf("utf8/"+bug, on), "FuzzUTF8", func(in []any) []any { return []any{in[0], uint32(0), 0, []byte{}} }))
	}
}

var _ = fmt.Sprint

// spareSum proves a checksum Sum of the contract battery, with a spare
// octet after the input.
func spareSum(name, factory string) func(bool) equiv.Method {
	return func(on bool) equiv.Method {
		bad, twin, _ := battery.ChecksumImpls(name)
		impl := twin.Sum
		if on {
			impl = bad.Sum
		}
		return prove.Funcs(prove.Func{Value: refchk.Sum},
			prove.Func{Pkg: batteryPkg, Name: factory, Factory: true, Args: func() []any { return []any{on} }},
			prove.Sizes(prove.Upto(3, 3, 3)), prove.Spare(1), confirmCall(refchk.Sum, impl))
	}
}

// spareHelper proves a checksum helper of the contract battery, with
// spare capacity.
func spareHelper(name string, ref any, factory string, spare int) func(bool) equiv.Method {
	return func(on bool) equiv.Method {
		bad, twin, _ := battery.ChecksumImpls(name)
		impl := twin
		if on {
			impl = bad
		}
		return prove.Funcs(prove.Func{Value: ref},
			prove.Func{Pkg: batteryPkg, Name: factory, Factory: true, Args: func() []any { return []any{on} }},
			prove.Sizes(prove.Upto(3, 3, 3)), prove.Spare(spare), confirmCall(ref, impl.Put))
	}
}

// quicContract proves a varint function of the QUIC contract battery,
// whose last parameter is the bug switch, with 8 octets of spare
// capacity.
func quicContract(bug string, ref any, fn string) func(bool) equiv.Method {
	return func(on bool) equiv.Method {
		bad, twin, _ := battery.QUICContractImpls(bug)
		impl := twin
		if on {
			impl = bad
		}
		compiled := map[string]any{"loadVarint": impl.ParseVarint, "wordAppend": impl.AppendVarint}[fn]
		n := reflect.TypeOf(ref).NumIn()
		args := func() []any {
			a := make([]any, n+1)
			for i := range n {
				a[i] = prove.Free
			}
			a[n] = bugName(bug, on)
			return a
		}
		return prove.Funcs(prove.Func{Value: ref}, prove.Func{Pkg: batteryPkg, Name: fn, Args: args},
			prove.Sizes(prove.Upto(3, 3, 3)), prove.Spare(8), confirmCall(ref, compiled))
	}
}
