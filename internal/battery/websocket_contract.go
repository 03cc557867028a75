package battery

import (
	"errors"
	"io"

	"github.com/equivcheck/equivcheck/equiv/websockettest"
)

// The websocket pair's contract bugs (docs/equivalence.md, "The
// contract"): the model masker and streamers of websocket.go with one
// switch on, breaking a clause of websockettest.Impl's contract rather
// than masking a wrong octet: what Mask may write past len(b), what
// MaskCopy and a MaskWriter may do to their input, what a streamer may
// keep and share, what Reset, io.Reader and io.Writer promise, and which
// of MaskCopy's panics comes first. Each Impl has Mask (required) and only
// the function its bug is in, so that each twin's quick run skips the
// rest.
func websocketContractBugs() []Bug {
	var bugs []Bug
	for _, b := range wsContractBugs {
		bugs = append(bugs, Bug{Name: "websocket/" + b.name, Record: b.record, Axis: b.axis,
			Bad: websockettest.NewSuite(wsContractImpl(b.name, b.fn)), Twin: websockettest.NewSuite(wsContractImpl("", b.fn)), TwinKey: "websocket/contract/" + b.fn})
	}
	return bugs
}

// wsContractBugs are the bugs, by the switch's name, and the function
// each is in ("MaskCopy", "MaskReader", "MaskWriter", or "" for Mask
// alone).
var wsContractBugs = []struct{ name, fn, record, axis string }{
	{"mask/tail-store-to-cap", "",
		"uNetworking/uWebSockets#1867 and fast-pack/streamvbyte#44 (wide loads and stores past the data, \"safe\" with padding after it): the in-place tail masked as one more 8-octet word whenever b's capacity has room",
		"spare capacity: Mask of a length not a multiple of 8 with 8 octets of room after the last word"},
	{"maskcopy/src-round-trip", "MaskCopy",
		"warmcat/libwebsockets#1548 and #3366 (lws_write masks the caller's buffer in place): here MaskCopy masks src in place with the in-place kernel, copies it out and unmasks it back, so src is as it was when MaskCopy returns",
		"read-only pages: MaskCopy between distinct buffers, any length ≥ 1"},
	{"maskcopy/overlap-checked-first", "MaskCopy",
		"golang-fips/openssl#123 (a short-output panic added to an XORKeyStream) and aegis-aead/go-libaegis#3 (an overlap panic added to Seal and Open): preconditions added one at a time, here in the other order than crypto/cipher's XORKeyStream and the reference, which check the short dst first",
		"double preconditions: a dst both shorter than src and overlapping it"},
	{"maskcopy/shared-scratch", "MaskCopy",
		"Atmosphere/atmosphere#1961 (a WebSocket's transform shared one buffer: concurrent writes corrupted each other): src copied to a package-level buffer, masked there, copied to dst",
		"concurrent caller: any MaskCopy, while another goroutine masks"},
	{"maskwriter/masks-p-and-restores", "MaskWriter",
		"warmcat/libwebsockets#1548 (the caller's buffer masked in place) and NebulousLabs/writeaheadlog#52 (a Write that scrambled p, noted as io.Writer's \"not even temporarily\"): each piece masked in place, copied out and unmasked back before the underlying Write, so that the underlying writer never sees p changed",
		"read-only pages: any Write of 1 octet or more"},
	{"maskwriter/defers-tail-view", "MaskWriter",
		"openssl/openssl#5299 and pistacheio/pistache#996 (after a partial SSL_write, OpenSSL keeps the pending buffer and takes the next call to be the retry, with the same bytes at the same address): after a short write the rest of p is kept as a view and written in place of the next Write's first octets",
		"the next placement: a short write with an error the stream survives (EAGAIN, a short count), then the retry placed afresh"},
	{"maskwriter/package-buffer", "MaskWriter",
		"Atmosphere/atmosphere#1961 and CrowCpp/Crow#1160 (a shared write buffer corrupted by a second writer): the pieces masked into one package-level buffer, which a writer called from inside the underlying Write overwrites",
		"nested calls: a MaskWriter whose writer writes through a MaskWriter of the same implementation"},
	{"maskwriter/reset-same-ignored", "MaskWriter",
		"the class of a Reset that short-circuits when handed what it already has (a fast path to keep buffers); amazon-ion/ion-go#196 specialises Reset for being handed the same input again, and cryptix/wav#16 fixed a Reset that reset nothing: the key and position are kept",
		"reuse: Reset with the writer the MaskWriter already has, after a warm-up"},
	{"maskwriter/full-count-with-error", "MaskWriter",
		"pion/dtls#1055 (Write returned len(payload) whether it succeeded or failed) and golang/go#56533 (io.Writer's count on error): a failed underlying write reported as all of b taken",
		"interface contract: a Write whose underlying writer fails or writes short"},
	{"maskreader/package-position", "MaskReader",
		"ofiwg/libfabric#9797 (strtok's static state destroyed by a nested call) and avrdudes/avr-libc#326: the key position kept in a package-level variable, as a C port's static index, so a MaskReader read from inside another's Read moves it",
		"nested calls: a MaskReader whose reader is a MaskReader of the same implementation"},
	{"maskreader/reset-same-ignored", "MaskReader",
		"the class of a Reset that short-circuits when handed what it already has (amazon-ion/ion-go#196 specialises Reset for the same input; cryptix/wav#16 fixed a Reset that reset nothing): the key and position are kept",
		"reuse: Reset with the reader the MaskReader already has, after a warm-up"},
	{"maskreader/seek-keeps-position", "MaskReader",
		"spf13/afero#182 (a Seek/ReadAt that broke io's contract, found by a TestReader-style test): a MaskReader that offers Seek when its source can and moves the source but not the key position",
		"interface contract (testing/iotest.TestReader): Seek, then Read"},
	{"maskreader/drops-data-with-error", "MaskReader",
		"blackhat-go/bhg#25, philhofer/fwd#14 and codingsince1985/checksum#7 (the n > 0 bytes returned with an error dropped): Read returns 0 and the error when the reader gives data with one",
		"interface contract: a reader returning data with io.EOF or an error (iotest.DataErrReader, a failing reader)"},
}

// wsContractImpl is the model masker with bug switched on ("" for none)
// and, if fn names one, that function of the Impl.
func wsContractImpl(bug, fn string) websockettest.Impl {
	m := maskModel{bug: bug}
	impl := websockettest.Impl{Name: "model " + bug, Mask: m.Mask}
	switch fn {
	case "MaskCopy":
		impl.MaskCopy = m.MaskCopy
	case "MaskReader":
		impl.NewMaskReader = func(r io.Reader, key [4]byte) websockettest.MaskReader {
			rd := &readerModel{maskModel: m}
			rd.Reset(r, key)
			return seekReader{rd}
		}
	case "MaskWriter":
		impl.NewMaskWriter = func(w io.Writer, key [4]byte) websockettest.MaskWriter {
			return &writerModel{maskModel: m, w: w, key: key}
		}
	}
	return impl
}

// sameStart reports whether a and b are non-empty and start at the same
// octet (MaskCopy in place, or Mask).
func sameStart(a, b []byte) bool {
	return len(a) > 0 && len(b) > 0 && &a[0] == &b[0]
}

// tailWord masks b from i, in place, as one 8-octet word: the octets past
// len(b), up to i+8, lie in b's capacity and are masked too.
func (m maskModel) tailWord(b []byte, key [4]byte, p, i int) {
	w := b[i : i+8]
	xorWord(w, w, m.keyWord(key, p+i))
}

// roundTrip masks src in place, copies it to dst and unmasks it back.
func (m maskModel) roundTrip(dst, src []byte, key [4]byte, pos int) int {
	next := m.xor(src, src, key, pos)
	copy(dst, src)
	m.xor(src, src, key, pos)
	return next
}

// maskScratch is the package-level buffer MaskCopy masks through with bug
// "maskcopy/shared-scratch": one for every caller. A fixed array, so that
// the race is on its octets only.
var maskScratch [16 << 10]byte

// throughScratch copies src to maskScratch a piece at a time, masks it in
// place there and copies it to dst: the whole piece is masked in the
// shared buffer, where a concurrent caller's copy lands.
func (m maskModel) throughScratch(dst, src []byte, key [4]byte, pos int) int {
	for done := 0; done < len(src); {
		k := copy(maskScratch[:], src[done:])
		m.xor(maskScratch[:k], maskScratch[:k], key, pos+done)
		copy(dst[done:], maskScratch[:k])
		done += k
	}
	return (pos + len(src)) & 3
}

// wsPieceBuf is the package-level buffer every MaskWriter with bug
// "maskwriter/package-buffer" masks its pieces into.
var wsPieceBuf [4096]byte

// maskPiece masks piece at the writer's position into its buffer and
// returns the masked octets; the bugs mask into the package's buffer, or
// mask piece in place, copy it and unmask it back.
func (m *writerModel) maskPiece(piece []byte) []byte {
	buf := m.buf[:len(piece)]
	if m.bug == "maskwriter/word-load-past-p" {
		loadPastPiece(piece)
	}
	switch m.bug {
	case "maskwriter/package-buffer":
		buf = wsPieceBuf[:len(piece)]
	case "maskwriter/masks-p-and-restores":
		m.Mask(piece, m.key, m.pos)
		copy(buf, piece)
		m.Mask(piece, m.key, m.pos)
		return buf
	}
	m.MaskCopy(buf, piece, m.key, m.pos)
	return buf
}

// retried returns the octets Write masks for b: b, or after a short write
// with bug "maskwriter/defers-tail-view", the kept rest of the last p in
// place of b's first octets, as OpenSSL writes its pending buffer on the
// call it takes for the retry.
func (m *writerModel) retried(b []byte) []byte {
	kept := m.pending
	m.pending = nil
	if len(kept) == 0 {
		return b
	}
	k := min(len(kept), len(b))
	return append(kept[:k:k], b[k:]...)
}

// wsReadPos is the key position every MaskReader with bug
// "maskreader/package-position" shares.
var wsReadPos int

// position is where the reader keeps its key position.
func (m *readerModel) position() *int {
	if m.bug == "maskreader/package-position" {
		return &wsReadPos
	}
	return &m.pos
}

// seekReader is a readerModel that can Seek when its reader can: the
// payload's first octet is the reader's offset 0, so that the key
// position after a Seek to offset at is at&3. With bug
// "maskreader/seek-keeps-position" the position is not moved.
type seekReader struct{ *readerModel }

func (s seekReader) Seek(offset int64, whence int) (int64, error) {
	sk, ok := s.r.(io.Seeker)
	if !ok {
		return 0, errors.New("battery: the MaskReader's reader cannot seek")
	}
	at, err := sk.Seek(offset, whence)
	if err == nil && s.bug != "maskreader/seek-keeps-position" {
		*s.position() = int(at & 3)
	}
	return at, err
}
