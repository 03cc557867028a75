package battery

import (
	"bytes"
	"iter"
	"unsafe"

	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// The quic pair's known-bad implementations are one small QUIC header
// parser written the usual way (a cursor over the input, one check per
// field), independent of both trees, with a switch for each bug. With bug
// "" it is correct: it is every bug's twin.

// miniParse is ParseHeader with bug switched on.
func miniParse(b []byte, sdl int, bug string) (quic.Header, error) {
	return miniParseWith(b, sdl, 0, bug)
}

// miniParseWith is miniParse with options: with GreaseQUICBit the Fixed
// Bit is not checked (RFC 9287), except where a bug says otherwise:
// "grease-ignored" takes the option and checks the bit anyway;
// "grease-long-only" skips the check in long headers only, as where a
// demultiplexer sharing the port with other protocols tells QUIC short
// headers by the 0x40 bit (RFC 9443); "options-unknown-ignored" lets
// undefined option bits through; "sdl-uint8" range-checks a shortDCIDLen
// stored in a byte, so 264 passes as 8; "header/nil-first-byte" refuses a
// nil datagram; and "header/unprotects-in-place" clears the header
// protection bits of b[0] for the parse and puts them back (unprotect).
func miniParseWith(b []byte, sdl int, opts quic.Options, bug string) (quic.Header, error) {
	if bug == "sdl-uint8" {
		sdl = int(uint8(sdl))
	}
	if sdl < 0 || sdl > quic.MaxCIDLen || (opts&^quic.GreaseQUICBit != 0 && bug != "options-unknown-ignored") {
		return quic.Header{}, quic.ErrInvalidArgument
	}
	grease := opts&quic.GreaseQUICBit != 0 && bug != "grease-ignored"
	switch {
	case bug == "header/nil-first-byte" && b == nil:
		// nil taken for "no datagram" and refused as an argument, as a
		// C parser refuses a NULL buffer before looking at its length.
		return quic.Header{}, quic.ErrInvalidArgument
	case len(b) == 0:
		return quic.Header{}, quic.ErrTruncated
	case bug == "header/unprotects-in-place":
		defer unprotect(b)()
	}
	if b[0]&0x80 == 0 {
		return miniShort(b, sdl, grease && bug != "grease-long-only", bug)
	}
	return miniLong(b, grease, bug)
}

// miniShort parses a 1-RTT packet. With bug "datagram-uint16" the room
// left for the sample is computed from the datagram's length kept in 16
// bits, as a receive path sized for UDP payloads keeps it.
func miniShort(b []byte, sdl int, grease bool, bug string) (quic.Header, error) {
	first := b[0]
	if first&0x40 == 0 && !grease {
		return quic.Header{}, quic.ErrFixedBitClear
	}
	if len(b) < 1+sdl {
		return quic.Header{}, quic.ErrTruncated
	}
	h := quic.NewHeader(b[:len(b):len(b)], quic.Type1RTT, first&0x20 != 0, sdl, 0, 1+sdl)
	n := len(b)
	if bug == "datagram-uint16" {
		n = int(uint16(n))
	}
	if n-1-sdl < 4+quic.SampleLen {
		return h, quic.ErrPacketTooShort
	}
	return h, nil
}

// miniLong parses a long header: Version and Connection IDs, then the
// rest by version and type. Bugs: "v2-with-v1-types" (version 2 read with
// version 1's type bits), "fixed-bit-0rtt" (the Fixed Bit checked in
// every version 1 type but 0-RTT), "vn-uint8-count" (the Supported
// Version list counted in a byte: 256 versions read as none) and
// "retry-tag-15" (a 15-byte Retry Integrity Tag).
func miniLong(b []byte, grease bool, bug string) (quic.Header, error) {
	if len(b) < 5 {
		return quic.Header{}, quic.ErrTruncated
	}
	first := b[0]
	version := uint32(b[1])<<24 | uint32(b[2])<<16 | uint32(b[3])<<8 | uint32(b[4])
	known := version == quic.Version1 || version == quic.Version2
	skip := bug == "fixed-bit-0rtt" && version == quic.Version1 && first>>4&3 == 1
	if known && first&0x40 == 0 && !grease && !skip {
		return quic.Header{}, quic.ErrFixedBitClear
	}
	dcidLen, scidLen, off, err := miniCIDs(b, version, bug)
	if err != nil {
		return quic.Header{}, err
	}
	switch {
	case version == quic.VersionNegotiation:
		list := len(b) - off
		count := list / 4
		if bug == "vn-uint8-count" {
			count = int(uint8(count))
		}
		if count == 0 || list%4 != 0 {
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
	tag := quic.RetryIntegrityTagLen
	if bug == "retry-tag-15" {
		tag--
	}
	if len(b)-off < tag {
		return quic.Header{}, quic.ErrTruncated
	}
	if len(b)-off == tag {
		return quic.Header{}, quic.ErrEmptyRetryToken
	}
	return quic.NewHeader(b[:len(b):len(b)], quic.TypeRetry, false, dcidLen, scidLen, 0), nil
}

// miniCIDs reads the Connection ID lengths (at most 20 bytes in a known
// version) and returns the offset after the SCID. Bugs:
// "scid-checks-dcid" (golang/go#78703: the SCID Length check tests the
// DCID's) and "cid21-v2" (version 2's limit written as 21).
func miniCIDs(b []byte, version uint32, bug string) (dcidLen, scidLen, off int, err error) {
	maxCID := 255
	switch {
	case version == quic.Version2 && bug == "cid21-v2":
		maxCID = quic.MaxCIDLen + 1
	case version == quic.Version1 || version == quic.Version2:
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
// an Initial's Token, then the Length. Bugs: "token-length-trusted" (the
// Token Length checked against the datagram, not against what is left of
// it), "token-len-uint16" (the Token Length kept in 16 bits),
// "length-uint16" and "length-uint32" (the Length kept in 16 or 32 bits),
// and "header/bounds-by-cap" (the Length checked against the capacity).
func miniLengthed(b []byte, typ quic.PacketType, off, dcidLen, scidLen int, bug string) (quic.Header, error) {
	if typ == quic.TypeInitial {
		tokenLen, n, err := miniVarint(b[off:])
		if err != nil {
			return quic.Header{}, err
		}
		if bug == "token-len-uint16" {
			tokenLen = uint64(uint16(tokenLen))
		}
		off += n
		limit := uint64(len(b) - off)
		if bug == "token-length-trusted" {
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
	switch bug {
	case "length-uint16":
		length = uint64(uint16(length))
	case "length-uint32":
		length = uint64(uint32(length))
	}
	off += n
	room := len(b) - off
	if bug == "header/bounds-by-cap" {
		room = cap(b) - off // the bytes the slice can reach
	}
	if length > uint64(room) {
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

// miniAppendVarint appends the shortest encoding of v. With bug
// "append-2^62" the range check lets 2^62 through, and its prefix bits
// hide it: it goes out as 0 on 8 bytes.
func miniAppendVarint(b []byte, v uint64, bug string) []byte {
	limit := uint64(quic.MaxVarint)
	if bug == "append-2^62" {
		limit++
	}
	switch {
	case v < 1<<6:
		return append(b, byte(v))
	case v < 1<<14:
		return append(b, 0x40|byte(v>>8), byte(v))
	case v < 1<<30:
		return append(b, 0x80|byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	case v <= limit:
		v |= 0xc0 << 56
		return append(b, byte(v>>56), byte(v>>48), byte(v>>40), byte(v>>32), byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	}
	panic("quic: varint value exceeds 2^62-1")
}

// miniPackets walks a datagram with parse as RFC 9000 §12.2 and §14.1
// say. Bugs: "ignores-break" keeps yielding after the range loop stopped,
// and "packets/ignores-break" does after a packet yielded with an error
// (ErrPacketTooShort, ErrDCIDMismatch), whose yield's result it drops;
// "packets/one-shot" keeps its walk in the sequence, not in one range of
// it, so that ranging the sequence again yields nothing;
// "dcid-first-8" compares the DCIDs' lengths and first 8 bytes only (a
// fixed 8-byte compare sized for the common Connection ID length);
// "coalesced-uint8" counts packets in a byte, so the 257th is taken for a
// first packet; and the bugs of miniTrailing mistake padding.
func miniPackets(parse func([]byte, int) (quic.Header, error), bug string) func([]byte, int) iter.Seq2[quic.Header, error] {
	return func(d []byte, sdl int) iter.Seq2[quic.Header, error] {
		seqWalk := &walk{rest: d}
		return func(yield func(quic.Header, error) bool) {
			w := &walk{rest: d}
			if bug == "packets/one-shot" {
				w = seqWalk // the sequence's: a second range goes on from the end
			}
			for ; w.i == 0 || len(w.rest) > 0; w.i++ {
				first := w.i == 0
				if bug == "coalesced-uint8" {
					first = uint8(w.i) == 0
				}
				h, err := parse(w.rest, sdl)
				if ok, terr := miniTrailing(w.rest, first, err, bug); ok {
					yield(miniTrailer(w.rest, bug), terr)
					w.rest = nil
					return
				}
				if err != nil && err != quic.ErrPacketTooShort {
					yield(quic.Header{}, err)
					w.rest = nil
					return
				}
				if first {
					w.firstDCID = h.DCID()
				} else if !sameDCID(h.DCID(), w.firstDCID, bug) {
					err = quic.ErrDCIDMismatch
				}
				w.rest = w.rest[len(h.Packet()):]
				if !yield(h, err) && bug != "ignores-break" && (err == nil || bug != "packets/ignores-break") {
					return
				}
			}
		}
	}
}

// walk is where a walk of a datagram is: the bytes left, the packets
// read, the first packet's DCID.
type walk struct {
	rest      []byte
	i         int
	firstDCID []byte
}

// sameDCID compares two Destination Connection IDs.
func sameDCID(a, b []byte, bug string) bool {
	if bug == "dcid-first-8" && len(a) == len(b) {
		return bytes.Equal(a[:min(len(a), 8)], b[:min(len(b), 8)])
	}
	return bytes.Equal(a, b)
}
