package battery

import (
	"io"
	"iter"

	"github.com/equivcheck/equivcheck/equiv/quictest"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// quicBugs lists the quic pair's known-bad implementations: the mini
// parser (quic_mini.go), its walk, stream and fixed-width helpers
// (quic_helpers.go) and packet number decoder (quic_pn.go), each with one
// bug switched on; the twin is the same code with bug "".
func quicBugs() []Bug {
	var bugs []Bug
	for _, b := range quicRecords {
		bugs = append(bugs, Bug{
			Name:   "quic/" + b.bug,
			Record: b.record,
			Axis:   b.axis,
			Bad:    quictest.NewSuite(QUICImpl(b.bug)),
			Twin:   quictest.NewSuite(QUICImpl("")), TwinKey: "quic/mini",
		})
	}
	return bugs
}

// quicRecords are the bugs, the public record each is modelled on and
// the axis where it shows.
var quicRecords = []struct{ bug, record, axis string }{
	// The header grammar.
	{"scid-checks-dcid", "golang.org/x/net/quic checked the DCID length where it meant the SCID's (golang/go#78703)",
		"SCID Length 21..255 with a DCID Length <= 20, version 1 or 2"},
	{"v2-with-v1-types", "RFC 9369 §3.2 reassigns the Long Packet Type bits; stacks adding version 2 by its number kept version 1's table (msquic#890 found v2 CID rules taken from v1 the same way)",
		"version 2 × Long Packet Type bits"},
	{"fixed-bit-0rtt", "a receive path that validates header bits per packet type and misses some types: xquic#655 checked the reserved bits of 0-RTT and short headers only",
		"version 1 0-RTT first bytes with the Fixed Bit 0"},
	{"cid21-v2", "version 2's Connection ID limit written apart from version 1's: msquic#890 (v2 CID requirements taken from v1's)",
		"CID Length exactly 21, version 2 only"},
	{"retry-tag-15", "a Retry Integrity Tag length mixed into the token's: openssl/openssl#28831",
		"Retry packets with 15 or 16 bytes after the SCID"},
	{"vn-uint8-count", "Version Negotiation has no version count limit but the MTU (quicwg/base-drafts#754); a byte-wide count reads 256 versions as none",
		"Version Negotiation lists of exactly 256·k versions"},
	{"token-length-trusted", "a huge Initial Token Length read past the buffer: ngtcp2/ngtcp2#274, CESNET/ipfixprobe#181",
		"Token Length between the bytes left and the datagram length"},
	{"token-len-uint16", "Initial token lengths narrowed before they are validated: Kludex/zttp#233, 7etsuo/tetsuo-pulse#847",
		"Token Length >= 2^16 (2^16 ± a few)"},
	{"length-uint16", "QUIC length fields narrowed before they are validated: 7etsuo/tetsuo-pulse#847 (uint64 to size_t casts), Kludex/zttp#233",
		"Length field >= 2^16 (2^16 + a few) in a short datagram"},
	{"length-uint32", "lengths that overflow 32 bits in a QUIC dissector: the-tcpdump-group/tcpdump#1072, 7etsuo/tetsuo-pulse#847 on 32-bit",
		"Length field >= 2^32 (2^32 + a few) in a short datagram"},
	{"datagram-uint16", "datagram lengths past 2^16 (IPv6 jumbograms, GRO buffers) in a QUIC parser: the-tcpdump-group/tcpdump#1072",
		"1-RTT datagrams of 2^16 .. 2^16+24 bytes"},
	{"sdl-uint8", "integer arguments narrowed before their range check: 7etsuo/tetsuo-pulse#847",
		"shortDCIDLen 256..276 (and every int ≡ 0..20 mod 256)"},
	// Coalesced packets and padding.
	{"ignores-break", "a Go iterator that yields after yield returned false (the range-over-func contract; the runtime panics)",
		"a range loop stopped before the last packet"},
	{"dcid-first-8", "coalesced packets' DCID compared with the first packet's (picoquic#275/#276, xquic#581), here on a fixed 8-byte prefix sized for the usual CID",
		"coalesced packets whose 9..20-byte DCIDs differ after byte 8"},
	{"coalesced-uint8", "a fixed-size per-datagram packet batch indexed by a narrow counter (h2o/h2o#2349 groups packets in an array)",
		"datagrams of 256 or more coalesced packets"},
	{"padding-as-error", "padding after the packets taken for a packet that failed: aiortc/aioquic#332, mitmproxy/mitmproxy#7869",
		"zero padding after the last packet"},
	{"zeros-only-padding", "random datagram padding (picoquic#1996) read as a bad packet by receivers that know zero padding only",
		"random padding after the last packet"},
	{"trailing-at-first", "a datagram that is not QUIC at all taken for a padded one (quicwg/base-drafts#3333 on padding outside packets)",
		"junk with no packet before it"},
	{"trailing-zero-header", "padding reported without its extent, so the caller cannot skip it (mitmproxy/mitmproxy#7869)",
		"padding after the last packet: the Header of the trailing bytes"},
	{"single-zero-padding", "zero padding detected as a run of zeros (aiortc/aioquic#332 logs zero padding as header errors)",
		"exactly one zero byte after a packet, with GreaseQUICBit and shortDCIDLen 0"},
	{"greased-zero-padding", "greasing turned on without the zero rule: lsquic#450 and picoquic#1394 skip the Fixed Bit check by default",
		"zero padding parsed with GreaseQUICBit"},
	{"grease-ignored", "the greasing option accepted and the Fixed Bit checked anyway (lsquic#450 discussion)",
		"Fixed Bit 0 with GreaseQUICBit"},
	{"grease-long-only", "the Fixed Bit check applied to one header form only: quinn-rs/quinn#1404",
		"short headers with the Fixed Bit 0 and GreaseQUICBit"},
	{"options-unknown-ignored", "undefined option bits accepted, so a later option changes old callers' results (lsquic#450 made greasing a default)",
		"Options with bits other than GreaseQUICBit"},
	// Varints and packet numbers.
	{"varint-over-read", "a word-at-a-time varint load past the end of the buffer (the-tcpdump-group/tcpdump#1072 class of over-read)",
		"varints in the last 1..7 bytes before an unmapped page"},
	{"append-2^62", "varint encoders that let 2^62 and above through and truncate them: firedancer-io/firedancer#3437, apple/swift-nio#3628",
		"AppendVarint(2^62): exactly the first value with no encoding"},
	{"no-fit-check", "a fixed-width varint encoder whose range check is an assert compiled out: ngtcp2/nghttp3#471",
		"AppendVarintWithLen values that do not fit n bytes"},
	{"clobbers-spare", "a fixed 8-byte store that writes past the n bytes reserved for a length",
		"AppendVarintWithLen into a buffer with spare capacity"},
	{"quicvarint-read", "quic-go quicvarint.Read returns io.EOF met inside an integer as is",
		"streams that end inside a varint"},
	{"quicvarint-peek", "quic-go quicvarint.Peek pads a short peek with zeros",
		"peekers that return fewer bytes than asked without an error"},
	{"bytes-reader-overread", "a word-at-a-time read from *bytes.Reader that consumes up to 8 bytes",
		"*bytes.Reader streams with bytes after a 1..4-byte varint"},
	{"peek-8", "a Peek(8) that waits for bytes after the integer",
		"peekers ending within 8 bytes of a varint's start"},
	{"pn-underflow", "RFC 9000 Appendix A.3 ported literally to unsigned arithmetic (quicwg/base-drafts#3187/#3188, alibaba/xquic#654)",
		"largest+1 < pn_hwin: the first packets of a space"},
	{"pn-edge-lower-3", "half-window edge off by one (TimonPost/laminar#230 skipped exactly the half-window value); Tencent/tquic#414 fixed a truncated pn length",
		"pnLen 3, candidate exactly expected - pn_hwin"},
	{"pn-edge-upper-4", "packet number decoding wrong past 2^16 and 2^31 (h2o/quicly#79, cloudflare/quiche#1743): the wide windows are the untested ones",
		"pnLen 4, candidate exactly expected + pn_hwin"},
	{"pn-limit-62", "the 2^62 guard of Appendix A.3 (quicwg/base-drafts#3188; alibaba/xquic#654, cloudflare/quiche#2650)",
		"pnLen 3 or 4, candidate exactly 2^62 - pn_win"},
}

// QUICImpl is the mini implementation of every function of quictest.Impl
// with bug (the name of a quic bug without "quic/") switched on, or none
// with bug "": for the suites' own tests of what they catch.
func QUICImpl(bug string) quictest.Impl {
	parse := func(b []byte, sdl int) (quic.Header, error) { return miniParse(b, sdl, bug) }
	impl := quictest.Impl{
		Name:               "mini " + bug,
		ParseVarint:        miniVarint,
		AppendVarint:       func(b []byte, v uint64) []byte { return miniAppendVarint(b, v, bug) },
		DecodePacketNumber: func(l, t uint64, n int) uint64 { return miniPN(l, t, n, bug) },
		ParseHeader:        parse,
		Packets:            miniPackets(parse, bug),
		ParseHeaderWith: func(b []byte, sdl int, opts quic.Options) (quic.Header, error) {
			return miniParseWith(b, sdl, opts, bug)
		},
		PacketsWith: func(d []byte, sdl int, opts quic.Options) iter.Seq2[quic.Header, error] {
			parse := func(b []byte, sdl int) (quic.Header, error) { return miniParseWith(b, sdl, opts, bug) }
			return miniPackets(parse, bug)(d, sdl)
		},
		ReadVarint:          func(r io.ByteReader) (uint64, int, error) { return miniReadVarint(r, bug) },
		PeekVarint:          func(p quic.Peeker) (uint64, int, error) { return miniPeekVarint(p, bug) },
		AppendVarintWithLen: func(b []byte, v uint64, n int) []byte { return miniAppendWithLen(b, v, n, bug) },
	}
	if bug == "varint-over-read" {
		impl.ParseVarint = overReadVarint
	}
	return impl
}
