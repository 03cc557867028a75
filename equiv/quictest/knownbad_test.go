package quictest_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"iter"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/quictest"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// miniParse is a small QUIC header parser written the usual way (a cursor
// over the input, one check per field), independent of both trees, with
// switches for bugs seen in real parsers. With bug "" it is correct, and
// the suite passes it (TestCatchesKnownBad).
func miniParse(b []byte, sdl int, bug string) (quic.Header, error) {
	return miniParseWith(b, sdl, 0, bug)
}

// miniParseWith is miniParse with options: with GreaseQUICBit the Fixed
// Bit is not checked (RFC 9287), except where a bug says otherwise:
// "grease-ignored" takes the option and checks the bit anyway (the state
// the issue reports); "grease-long-only" skips the check in long headers
// only, as where a demultiplexer sharing the port with other protocols
// tells QUIC short headers by the 0x40 bit (RFC 9443); and
// "options-unknown-ignored" lets undefined option bits through.
func miniParseWith(b []byte, sdl int, opts quic.Options, bug string) (quic.Header, error) {
	if sdl < 0 || sdl > quic.MaxCIDLen || (opts&^quic.GreaseQUICBit != 0 && bug != "options-unknown-ignored") {
		return quic.Header{}, quic.ErrInvalidArgument
	}
	grease := opts&quic.GreaseQUICBit != 0 && bug != "grease-ignored"
	if len(b) == 0 {
		return quic.Header{}, quic.ErrTruncated
	}
	if b[0]&0x80 == 0 {
		return miniShort(b, sdl, grease && bug != "grease-long-only")
	}
	return miniLong(b, grease, bug)
}

// miniShort parses a 1-RTT packet.
func miniShort(b []byte, sdl int, grease bool) (quic.Header, error) {
	first := b[0]
	if first&0x40 == 0 && !grease {
		return quic.Header{}, quic.ErrFixedBitClear
	}
	if len(b) < 1+sdl {
		return quic.Header{}, quic.ErrTruncated
	}
	h := quic.NewHeader(b[:len(b):len(b)], quic.Type1RTT, first&0x20 != 0, sdl, 0, 1+sdl)
	if len(b)-1-sdl < 4+quic.SampleLen {
		return h, quic.ErrPacketTooShort
	}
	return h, nil
}

// miniLong parses a long header: Version and Connection IDs, then the
// rest by version and type.
func miniLong(b []byte, grease bool, bug string) (quic.Header, error) {
	if len(b) < 5 {
		return quic.Header{}, quic.ErrTruncated
	}
	first := b[0]
	version := uint32(b[1])<<24 | uint32(b[2])<<16 | uint32(b[3])<<8 | uint32(b[4])
	known := version == quic.Version1 || version == quic.Version2
	if known && first&0x40 == 0 && !grease {
		return quic.Header{}, quic.ErrFixedBitClear
	}
	dcidLen, scidLen, off, err := miniCIDs(b, known, bug)
	if err != nil {
		return quic.Header{}, err
	}
	switch {
	case version == quic.VersionNegotiation:
		if list := len(b) - off; list == 0 || list%4 != 0 {
			return quic.Header{}, quic.ErrBadVersionList
		}
		return quic.NewHeader(b[:len(b):len(b)], quic.TypeVersionNegotiation, false, dcidLen, scidLen, 0), nil
	case !known:
		return quic.NewHeader(b[:len(b):len(b)], quic.TypeUnsupportedVersion, false, dcidLen, scidLen, 0), nil
	}
	types := [4]quic.PacketType{quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake, quic.TypeRetry}
	if version == quic.Version2 && bug != "v2-with-v1-types" {
		types = [4]quic.PacketType{quic.TypeRetry, quic.TypeInitial, quic.Type0RTT, quic.TypeHandshake}
	}
	if typ := types[first>>4&3]; typ != quic.TypeRetry {
		return miniLengthed(b, typ, off, dcidLen, scidLen, bug)
	}
	if len(b)-off < quic.RetryIntegrityTagLen {
		return quic.Header{}, quic.ErrTruncated
	}
	if len(b)-off == quic.RetryIntegrityTagLen {
		return quic.Header{}, quic.ErrEmptyRetryToken
	}
	return quic.NewHeader(b[:len(b):len(b)], quic.TypeRetry, false, dcidLen, scidLen, 0), nil
}

// miniCIDs reads the Connection ID lengths (at most 20 bytes in a known
// version) and returns the offset after the SCID.
func miniCIDs(b []byte, known bool, bug string) (dcidLen, scidLen, off int, err error) {
	maxCID := 255
	if known {
		maxCID = quic.MaxCIDLen
	}
	if len(b) < 6 {
		return 0, 0, 0, quic.ErrTruncated
	}
	dcidLen = int(b[5])
	if dcidLen > maxCID {
		return 0, 0, 0, quic.ErrCIDTooLong
	}
	off = 6 + dcidLen
	if len(b) < off+1 {
		return 0, 0, 0, quic.ErrTruncated
	}
	scidLen = int(b[off])
	checked := scidLen
	if bug == "scid-checks-dcid" {
		// golang/go#78703: the SCID Length check tests the DCID's.
		checked = dcidLen
	}
	if checked > maxCID {
		return 0, 0, 0, quic.ErrCIDTooLong
	}
	off += 1 + scidLen
	if len(b) < off {
		return 0, 0, 0, quic.ErrTruncated
	}
	return dcidLen, scidLen, off, nil
}

// miniLengthed parses the rest of an Initial, 0-RTT or Handshake packet:
// an Initial's Token, then the Length.
func miniLengthed(b []byte, typ quic.PacketType, off, dcidLen, scidLen int, bug string) (quic.Header, error) {
	if typ == quic.TypeInitial {
		tokenLen, n, err := miniVarint(b[off:])
		if err != nil {
			return quic.Header{}, err
		}
		off += n
		limit := uint64(len(b) - off)
		if bug == "token-length-trusted" {
			// The Token Length is checked against the datagram, not
			// against what is left of it: the parser then reads past the
			// end of its input.
			limit = uint64(len(b))
		}
		if tokenLen > limit {
			return quic.Header{}, quic.ErrTruncated
		}
		off += int(tokenLen)
	}
	length, n, err := miniVarint(b[off:])
	if err != nil {
		return quic.Header{}, err
	}
	off += n
	if length > uint64(len(b)-off) {
		return quic.Header{}, quic.ErrLengthExceedsDatagram
	}
	end := off + int(length)
	h := quic.NewHeader(b[:end:end], typ, false, dcidLen, scidLen, off)
	if length < 4+quic.SampleLen {
		return h, quic.ErrPacketTooShort
	}
	return h, nil
}

// miniVarint decodes an RFC 9000 §16 varint a byte at a time.
func miniVarint(b []byte) (uint64, int, error) {
	if len(b) == 0 {
		return 0, 0, quic.ErrTruncated
	}
	n := 1 << (b[0] >> 6)
	if len(b) < n {
		return 0, 0, quic.ErrTruncated
	}
	v := uint64(b[0] & 0x3f)
	for _, c := range b[1:n] {
		v = v<<8 | uint64(c)
	}
	return v, n, nil
}

// overReadVarint decodes a varint with one 8-byte load whatever the
// input's length, as an unguarded word-at-a-time parser would: it reads
// past the end of short inputs, which only a guard page shows.
func overReadVarint(b []byte) (uint64, int, error) {
	if len(b) == 0 {
		return 0, 0, quic.ErrTruncated
	}
	var x uint64
	for i := range 8 {
		x = x<<8 | uint64(*(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i)))
	}
	n := 1 << (x >> 62)
	if len(b) < n {
		return 0, 0, quic.ErrTruncated
	}
	return x & (1<<62 - 1) >> (64 - 8*n), n, nil
}

// miniPackets walks a datagram with parse as RFC 9000 §12.2 and §14.1
// say; with bug "ignores-break" it keeps yielding after the range loop
// stopped, and with the bugs of miniTrailing it mistakes padding.
func miniPackets(parse func([]byte, int) (quic.Header, error), bug string) func([]byte, int) iter.Seq2[quic.Header, error] {
	return func(d []byte, sdl int) iter.Seq2[quic.Header, error] {
		return func(yield func(quic.Header, error) bool) {
			var firstDCID []byte
			for i, rest := 0, d; i == 0 || len(rest) > 0; i++ {
				h, err := parse(rest, sdl)
				if ok, terr := miniTrailing(rest, i == 0, err, bug); ok {
					yield(miniTrailer(rest, bug), terr)
					return
				}
				if err != nil && err != quic.ErrPacketTooShort {
					yield(quic.Header{}, err)
					return
				}
				if i == 0 {
					firstDCID = h.DCID()
				} else if !bytes.Equal(h.DCID(), firstDCID) {
					err = quic.ErrDCIDMismatch
				}
				rest = rest[len(h.Packet()):]
				if !yield(h, err) && bug != "ignores-break" {
					return
				}
			}
		}
	}
}

// literalPN is RFC 9000 Appendix A.3 ported literally to uint64:
// expected_pn - pn_hwin wraps when expected_pn < pn_hwin, and largest 10,
// truncated 0xff, 1 byte decodes as 511 instead of 255.
func literalPN(largest, truncated uint64, pnLen int) uint64 {
	expected := largest + 1
	win := uint64(1) << (8 * pnLen)
	hwin := win / 2
	mask := win - 1
	candidate := expected&^mask | truncated&mask
	if candidate <= expected-hwin && candidate < 1<<62-win {
		return candidate + win
	}
	if candidate > expected+hwin && candidate >= win {
		return candidate - win
	}
	return candidate
}

func miniImpl(bug string) quictest.Impl {
	parse := func(b []byte, sdl int) (quic.Header, error) { return miniParse(b, sdl, bug) }
	impl := quictest.Impl{
		Name:               "mini " + bug,
		ParseVarint:        miniVarint,
		AppendVarint:       quic.AppendVarint,
		DecodePacketNumber: quic.DecodePacketNumber,
		ParseHeader:        parse,
		Packets:            miniPackets(parse, bug),
	}
	switch bug {
	case "pn-underflow":
		impl.DecodePacketNumber = literalPN
	case "varint-over-read":
		impl.ParseVarint = overReadVarint
	}
	return impl
}

func TestCatchesKnownBad(t *testing.T) {
	for _, tc := range []struct {
		bug    string
		method string // a method that must catch it
	}{
		{"scid-checks-dcid", equiv.MethodVectors},
		{"scid-checks-dcid", equiv.MethodExhaustive},
		{"scid-checks-dcid", equiv.MethodProperties},
		{"v2-with-v1-types", equiv.MethodVectors},
		{"v2-with-v1-types", equiv.MethodExhaustive},
		{"v2-with-v1-types", equiv.MethodProperties},
		{"token-length-trusted", equiv.MethodVectors},
		{"token-length-trusted", equiv.MethodExhaustive},
		{"token-length-trusted", equiv.MethodGuard},
		{"token-length-trusted", equiv.MethodProperties},
		{"pn-underflow", equiv.MethodVectors},
		{"pn-underflow", equiv.MethodExhaustive},
		{"pn-underflow", equiv.MethodProperties},
		{"ignores-break", equiv.MethodVectors},
		{"ignores-break", equiv.MethodExhaustive},
		{"varint-over-read", equiv.MethodGuard},
	} {
		t.Run(tc.bug+"/"+tc.method, func(t *testing.T) {
			if tc.method == equiv.MethodGuard && equiv.GuardSkip() != "" {
				t.Skip(equiv.GuardSkip())
			}
			checkCaught(t, miniImpl(tc.bug), tc.method)
		})
	}
	// The bug-free parser of the same shape passes, so the bugs above are
	// what the suite caught.
	if err := quictest.Check(miniImpl("")); err != nil {
		t.Fatalf("the bug-free mini parser failed: %v", err)
	}
}

// checkCaught checks that method catches impl's bug with a minimized
// counterexample that fails again when replayed as an input of its fuzz
// target, or with a law that does not hold.
func checkCaught(t *testing.T, impl quictest.Impl, method string) {
	t.Helper()
	var res equiv.Result
	err := quictest.Check(impl,
		equiv.WithMethods(func(m string) bool { return m == method }),
		equiv.WithReport(func(r equiv.Result) {
			if r.Method == method {
				res = r
			}
		}))
	if !errors.Is(err, equiv.ErrMismatch) {
		t.Fatalf("%s: method %s returned %v, want a mismatch", impl.Name, method, err)
	}
	ces := equiv.Counterexamples(err)
	if len(ces) == 0 {
		t.Logf("%s caught by a law after %d inputs: %v", impl.Name, res.Checked, err)
		return
	}
	ce := ces[0]
	t.Logf("%s caught after %d inputs: %v", impl.Name, res.Checked, ce)
	if ce.Pair != "quic" || ce.Method != method || ce.Seed == 0 {
		t.Errorf("counterexample coordinates = %q/%q seed %d", ce.Pair, ce.Method, ce.Seed)
	}
	if ce.Got == ce.Want {
		t.Errorf("counterexample has got == want == %s", ce.Got)
	}
	if method == equiv.MethodGuard {
		// Off the guard page, an over-read does not show.
		return
	}
	switch ce.FuzzTarget {
	case "FuzzQUICHeader":
		err = quictest.CheckInput(impl, ce.FuzzArgs[0].([]byte), ce.FuzzArgs[1].(int))
	case "FuzzQUICPacketNumber":
		err = quictest.CheckPacketNumber(impl, ce.FuzzArgs[0].(uint64), ce.FuzzArgs[1].(uint64), ce.FuzzArgs[2].(int))
	case "":
		// A stream other than CheckInput's, or a buffer with room to
		// spare: the suite reports it, no fuzz target replays it.
		t.Logf("not replayed by a fuzz target: %v", ce)
		return
	default:
		t.Fatalf("counterexample names fuzz target %q", ce.FuzzTarget)
	}
	if !errors.Is(err, equiv.ErrMismatch) {
		t.Errorf("replaying the counterexample's fuzz input: %v, want a mismatch", err)
	}
}

// TestMinimizes checks that a counterexample is shrunk: on RFC 9369
// Appendix A.2's 1200-byte client Initial, the v2 type bug shows in the
// first bytes of the header already.
func TestMinimizes(t *testing.T) {
	d, err := hex.DecodeString("d36b3343cf088394c8f03e5157080000449e00000002")
	if err != nil {
		t.Fatal(err)
	}
	d = append(d, make([]byte, 1178)...)
	err = quictest.CheckInput(miniImpl("v2-with-v1-types"), d, 0)
	ces := equiv.Counterexamples(err)
	if len(ces) != 1 {
		t.Fatalf("got %d counterexamples, want 1: %v", len(ces), err)
	}
	if n := len(ces[0].Input); n > 24 {
		t.Errorf("counterexample has %d bytes, want a minimized one of at most 24: %v", n, ces[0])
	}
	if ces[0].Pair != "quic" || ces[0].Method != "fuzz" {
		t.Errorf("counterexample coordinates = %q/%q, want quic/fuzz", ces[0].Pair, ces[0].Method)
	}
	t.Logf("minimized: %v", ces[0])
}
