// Package quic parses QUIC packet headers (RFC 9000 §17, RFC 8999,
// RFC 9369) and variable-length integers (RFC 9000 §16), fast.
//
// Its API, results and errors are those of the reference package
// github.com/equivcheck/equivcheck/reference/quic: the types and sentinel
// errors are aliases of the reference's, and for every input each function
// here returns what the reference returns, field by field (slices by
// content and by position in the input), error by identity, panic for
// panic. No parsing code is shared; equiv/ checks the equivalence. The
// rules are written down in docs/quic.md.
//
// # Contract every variant keeps
//
//   - ParseHeader returns the reference's Header and error for every
//     input and every shortDCIDLen, including which error wins when an
//     input has several problems (the first in wire order), and a complete
//     Header with ErrPacketTooShort, the zero Header with any other error.
//   - Slices in a Header alias the input with capacity equal to length;
//     nothing is copied, nothing is allocated, nothing is retained.
//   - Inputs are only read; any length, including nil, is safe.
//   - ParseVarint accepts non-minimal encodings and reports ErrTruncated
//     with 0, 0 for short input; AppendVarint and VarintLen panic above
//     MaxVarint; DecodePacketNumber panics for pnLen outside 1..4 and for
//     largest in [2^62, 2^64-2].
//   - ParseHeaderWith and PacketsWith reject undefined option bits with
//     ErrInvalidArgument and with GreaseQUICBit skip only the Fixed Bit
//     check; Packets and PacketsWith yield bytes after at least one packet
//     that do not parse, or are all zero, once as ErrTrailingBytes with a
//     TypeNone Header spanning them.
//   - ReadVarint makes the reference's ReadByte calls and PeekVarint its
//     Peek calls, no more, and leave the stream as the reference does;
//     AppendVarintWithLen writes exactly n bytes, in place when the
//     capacity allows, and panics as the reference does. None allocates.
//
// # Why it is fast
//
// Most packets of a connection are 1-RTT packets, so ParseHeader tests the
// two top bits of the first byte once and, for a short header long enough
// to be valid, builds the Header without any other branch: one bounds
// check covers the DCID, the packet number and the sample. The Header is
// four words (a slice and a packed word), so (Header, error) comes back in
// six registers; a Header of exported slice fields (176 bytes) came back
// through memory and cost the caller about 12 ns of store-forwarding stalls
// per call on the development machine, four times the whole parse.
// Long headers read the Version with one 32-bit load and resolve the packet
// type from a table indexed by version and type bits. Variable-length
// integers are read, when 8 bytes remain, with one big-endian 64-bit load,
// the length taken from the two top bits and the value from one shift,
// with no branch on the length, and ParseVarint is inlined into callers.
// Rare cases (errors, short input, short datagram tails) go to out-of-line
// code. BenchmarkParseHeader and BenchmarkParseVarint in
// quic_bench_test.go compare the paths with the reference; bench/quic_test.go
// compares them with quic-go and with copying 20 bytes; docs/quic.md has
// the numbers.
package quic

import (
	"encoding/binary"
	"io"
	"iter"

	ref "github.com/equivcheck/equivcheck/reference/quic"
)

// Header is the parsed header of one QUIC packet; its methods report the
// fields. See the reference package.
type Header = ref.Header

// PacketType says which packet a Header describes.
type PacketType = ref.PacketType

// Packet types.
const (
	TypeNone               = ref.TypeNone
	TypeInitial            = ref.TypeInitial
	Type0RTT               = ref.Type0RTT
	TypeHandshake          = ref.TypeHandshake
	TypeRetry              = ref.TypeRetry
	TypeVersionNegotiation = ref.TypeVersionNegotiation
	TypeUnsupportedVersion = ref.TypeUnsupportedVersion
	Type1RTT               = ref.Type1RTT
)

// Versions with a known packet layout.
const (
	VersionNegotiation = ref.VersionNegotiation
	Version1           = ref.Version1
	Version2           = ref.Version2
)

// Size limits.
const (
	MaxCIDLen            = ref.MaxCIDLen
	RetryIntegrityTagLen = ref.RetryIntegrityTagLen
	SampleLen            = ref.SampleLen
	MaxVarint            = ref.MaxVarint
	MaxInputLen          = ref.MaxInputLen
)

// Errors, identical to the reference's.
var (
	ErrInvalidArgument       = ref.ErrInvalidArgument
	ErrTruncated             = ref.ErrTruncated
	ErrFixedBitClear         = ref.ErrFixedBitClear
	ErrCIDTooLong            = ref.ErrCIDTooLong
	ErrEmptyRetryToken       = ref.ErrEmptyRetryToken
	ErrBadVersionList        = ref.ErrBadVersionList
	ErrLengthExceedsDatagram = ref.ErrLengthExceedsDatagram
	ErrPacketTooShort        = ref.ErrPacketTooShort
	ErrDCIDMismatch          = ref.ErrDCIDMismatch
	ErrTrailingBytes         = ref.ErrTrailingBytes
)

// Impl is one variant of the package's parsing functions.
type Impl struct {
	// Name identifies the variant in test and benchmark names.
	Name string
	// Available reports whether the variant can run on this machine.
	Available bool

	ParseVarint        func([]byte) (uint64, int, error)
	AppendVarint       func([]byte, uint64) []byte
	DecodePacketNumber func(uint64, uint64, int) uint64
	ParseHeader        func([]byte, int) (Header, error)
	Packets            func([]byte, int) iter.Seq2[Header, error]

	ParseHeaderWith     func([]byte, int, Options) (Header, error)
	PacketsWith         func([]byte, int, Options) iter.Seq2[Header, error]
	ReadVarint          func(io.ByteReader) (uint64, int, error)
	PeekVarint          func(Peeker) (uint64, int, error)
	AppendVarintWithLen func([]byte, uint64, int) []byte
}

// Impls returns every variant of the package, available or not, so that
// tests and benchmarks can call each one directly rather than through
// dispatch. There is one: "generic", portable Go. No assembly variant
// exists because none beats it: the work is a few dependent loads and
// compares per header, with nothing to vectorize.
func Impls() []Impl {
	return []Impl{{
		Name:               "generic",
		Available:          true,
		ParseVarint:        parseVarintGeneric,
		AppendVarint:       appendVarintGeneric,
		DecodePacketNumber: decodePacketNumberGeneric,
		ParseHeader:        parseHeaderGeneric,
		Packets:            packetsGeneric,

		ParseHeaderWith:     parseHeaderWithGeneric,
		PacketsWith:         packetsWithGeneric,
		ReadVarint:          readVarintGeneric,
		PeekVarint:          peekVarintGeneric,
		AppendVarintWithLen: appendVarintWithLenGeneric,
	}}
}

// ParseVarint decodes the variable-length integer at the start of b
// (RFC 9000 §16) and returns its value and encoded length (1, 2, 4 or 8).
// Non-minimal encodings are accepted. Short input gives 0, 0, ErrTruncated.
func ParseVarint(b []byte) (v uint64, n int, err error) {
	// The first bytes of b go to the top of a big-endian word v: all 8
	// with one load when 8 remain; else the first 4 with one 32-bit load
	// when 4 to 7 remain (enough for every encoding that can fit); else
	// the first 2 with one 16-bit load when 2 or 3 remain, or the only
	// one (a 1- or 2-byte encoding needs no more; a longer one fails the
	// length check). The two top bits of v, v>>62, are log2 of the length
	// n, and the value is v with those bits shifted out, then shifted
	// right by 64 - 8n (56, 48, 32 or 0): no branch depends on the length.
	// An empty b reads as a 1-byte encoding and fails the length check
	// like any other short input.
	//
	// No loop and no byte-by-byte gathering: a varint near the end of a
	// packet (the last frame's length) costs about what one in the middle
	// does. Gathering 4 to 7 bytes one by one took up to 3.9 ns for a
	// 4-byte varint at the end of its buffer against quicvarint's 1.7, and
	// 1 to 3 bytes 1.8 to 2.6 ns against its 1.5 (issue 12;
	// BenchmarkSweepVarint in bench/sweep_test.go measures every distance
	// from the end). With 2 or 3 left, the 16-bit load in place of two
	// byte loads, b[0] and b[len(b)/2], takes 1.28-1.30 ns against
	// 1.45-1.46 with the caller's loop at the start of a 64-byte line, and
	// 1.43-1.50 against 1.77-1.80 in the default link; a lone byte, 1.37
	// (+-29%) against 1.47 at the start of a line, is level in the default
	// link (1.82 against 1.79); 4 or more left are level, or up to 8%
	// faster with 8 left at the start of a line (ten and twelve
	// interleaved runs; 3ec66d7 had measured the 16-bit load level when 8
	// or more was tested first). Testing for 4 or more first, and
	// for 8 inside that test, leaves the compiled code one taken jump
	// fewer with 1 to 7 bytes left than testing for 8 first: at the start
	// of a line, 1.40 against 1.67 ns (1 to 3 left) and 1.15 against 1.40
	// (4 to 7), 8 or more unchanged at 1.13; 32 bytes into one, 1.6-1.8
	// against 1.95 and 1.40 against 1.67, but 1.38 against 1.12 with 8 or
	// more (SweepVarint, interleaved runs; docs/performance.md).
	//
	// This body is the generic variant's code, written here rather than
	// called, because being inlined into the caller is most of its speed
	// against quicvarint.Parse (not inlinable, cost 115): it costs 76 of
	// the inliner's budget of 80, and a wrapper around it would not fit.
	// TestInlined (inline_test.go) checks that it and the header parser's
	// calls to it are inlined.
	if len(b) > 3 {
		if len(b) >= 8 {
			v = binary.BigEndian.Uint64(b)
		} else {
			v = uint64(binary.BigEndian.Uint32(b)) << 32
		}
	} else if len(b) >= 2 {
		v = uint64(binary.BigEndian.Uint16(b)) << 48
	} else if len(b) != 0 {
		v = uint64(b[0]) << 56
	}
	n = 1 << (v >> 62)
	if len(b) < n {
		return 0, 0, ErrTruncated
	}
	// Shift the two length bits out, then the bytes after the encoding.
	v <<= 2
	v >>= 66 - 8*n
	return
}

// AppendVarint appends the shortest encoding of v to b. It panics if
// v > MaxVarint.
func AppendVarint(b []byte, v uint64) []byte {
	return appendVarintGeneric(b, v)
}

// VarintLen returns the length of the shortest encoding of v: 1, 2, 4 or
// 8. It panics if v > MaxVarint.
func VarintLen(v uint64) int {
	return varintLenGeneric(v)
}

// DecodePacketNumber recovers a full packet number from its pnLen-byte
// truncation, given the largest packet number processed in the space
// (RFC 9000 Appendix A.3); largest = math.MaxUint64 means none yet. Only
// the low 8*pnLen bits of truncated are used. It panics if pnLen is not in
// 1..4 or largest is in [2^62, 2^64-2].
func DecodePacketNumber(largest, truncated uint64, pnLen int) uint64 {
	return decodePacketNumberGeneric(largest, truncated, pnLen)
}

// ParseHeader parses the header of the first QUIC packet in the datagram
// b; shortDCIDLen (0..MaxCIDLen) is the DCID length of short headers. It
// neither allocates nor copies. See the reference package for the rules.
func ParseHeader(b []byte, shortDCIDLen int) (Header, error) {
	return parseHeaderGeneric(b, shortDCIDLen)
}

// Packets returns an iterator over the packets coalesced in a datagram
// (RFC 9000 §12.2). It continues after ErrPacketTooShort and
// ErrDCIDMismatch, which come with a complete Header; bytes after at least
// one packet that cannot start a packet (padding or junk, RFC 9000 §14.1)
// end it with ErrTrailingBytes and a Header whose Packet spans them; any
// other error, in the first packet, ends it with the zero Header. See the
// reference package for the rules.
func Packets(datagram []byte, shortDCIDLen int) iter.Seq2[Header, error] {
	return packetsGeneric(datagram, shortDCIDLen)
}
