package battery

import (
	"encoding/binary"
	"slices"

	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	ref "github.com/equivcheck/equivcheck/reference/checksum"
)

// The Digest's contract bugs: hash.Hash beyond the sum (Write's count,
// Sum appending and leaving the state alone, Sum(nil) the caller's, Reset,
// BlockSize), what Write may do to p and keep of it, and the wide path
// after an odd prefix. Two Digests of the shapes shipped ones take carry
// them: chunkDigest (checksum.go: each write summed alone and swapped at
// an odd offset) and pairDigest (an odd byte kept until the next write
// pairs it).

func digestContractBugs() []checksumBug {
	return []checksumBug{
		{"digest/odd-prefix-wide", "libpnet#769 and openthread/openthread#5414 (the sum of a chunk after an odd number of bytes not swapped), here on the wide path alone, the one aws-checksums#88 found different from the narrow one",
			"size gates: a Digest write of more than 256 bytes after an odd number of bytes", digestImpl("wide")},
		{"digest/write-swaps-p", "dominikh/go-tools#24 and NebulousLabs/writeaheadlog#52 (io.Writer's Write must not modify p, \"even temporarily\"): at an odd offset the pairs of p swapped in place so that the even-offset kernel sums them, and swapped back",
			"read-only pages: a Digest write of 2 bytes or more after an odd number of bytes", digestImpl("swaps-p")},
		{"digest/keeps-odd-view", "golang/go#58446 (net/http's HTTP/2 ResponseWriter read p after Write returned), soheilhy/cmux#17 and tailscale/tailscale#11617 (Writes that retained p): the odd last byte kept as a view of p, not a copy",
			"poison: a Digest write ending on an odd byte, then another write", pairDigestImpl("keeps-odd-view")},
		{"digest/write-count-zero", "rust-bitcoin/bitcoin_hashes#21 (a hash engine's io::Write reporting what it consumed, less than given) and usbarmory/tamago#79 (a one-byte Write returning 0, nil): the byte a write only keeps is not counted",
			"interface contract: a Digest write of an odd length at an even offset (a one-byte write returns 0)", pairDigestImpl("write-count-zero")},
		{"digest/sum-overwrites-b", "blainsmith/seahash#9 (Sum(b) did not append to b) and golang/go#21070 (hash.Hash's Sum taken for a destination buffer): the checksum written over b's bytes (b[:0]) instead of after them",
			"interface contract: Sum of a non-empty b", pairDigestImpl("sum-overwrites-b")},
		{"digest/sum-folds-state", "codahale/blake2#2 (Sum finalized the state it was called on): the pending odd byte padded into the running sum by Sum, so that a write after Sum starts at the wrong parity",
			"interface contract: Sum after an odd number of bytes, then a write", pairDigestImpl("sum-folds-state")},
		{"digest/sum-internal-array", "raysan5/raylib#5756, dmitrii-eremin/jfes#12 and trezor/trezor-crypto#136 (results returned in storage the next call overwrites): Sum(nil) returns the Digest's own 2-byte array, to save an allocation",
			"kept results: a Sum(nil) kept while the Digest goes on", pairDigestImpl("sum-internal-array")},
		{"digest/reset-keeps-odd", "apache/nuttx#20010 (the odd-byte flag carried over from one checksum() call into the next): here Reset clears the sum and leaves a pending odd byte, which the next write pairs",
			"interface contract: Reset after an odd number of bytes", pairDigestImpl("reset-keeps-odd")},
		{"digest/blocksize-zero", "zeebo/blake3#19 (BlockSize wrong) and tailscale/tailscale#5351 (a wrapper computing len%h.BlockSize(), which panics on 0): BlockSize left at 0 by a port whose sum has no blocks",
			"interface contract: BlockSize", pairDigestImpl("blocksize-zero")},
	}
}

// pairDigestImpl wires a pairDigest with the named bug (none for the twin)
// and the reference's Sum.
func pairDigestImpl(kind string) func(bool) checksumtest.Impl {
	return func(bug bool) checksumtest.Impl {
		k := kind
		if !bug {
			k = ""
		}
		return checksumtest.Impl{Sum: ref.Sum, New: func() checksumtest.Digest { return &pairDigest{bug: k} }}
	}
}

// pairDigest sums whole words as they come and keeps an odd last byte
// until the next write's first byte pairs it (RFC 1071 §3: the sum does
// not depend on how the data is cut).
type pairDigest struct {
	sum     uint64  // the words so far, unfolded (2^48 words before it wraps)
	writes  int     // "lazy-after-512-writes": how many Writes so far
	lazy    uint32  // "lazy-after-512-writes": the words after the 512th, in 32 bits
	pending []byte  // the odd byte awaiting its pair: nil or one byte
	hold    [1]byte // where pending is kept
	out     [2]byte // "sum-internal-array": what Sum(nil) returns
	bug     string
}

func (d *pairDigest) Write(p []byte) (int, error) {
	n := len(p)
	if d.writes++; d.bug == "lazy-after-512-writes" && d.writes > 512 {
		return d.writeLazy(p), nil
	}
	if len(d.pending) == 1 && len(p) > 0 {
		d.sum += uint64(d.pending[0])<<8 | uint64(p[0])
		d.pending, p = nil, p[1:]
	}
	d.sum += beWords(p[:len(p)&^1], 0)
	if len(p)%2 == 0 {
		return n, nil
	}
	last := p[len(p)-1:]
	if d.bug == "keeps-odd-view" {
		d.pending = last // a view of p, read by the next write
	} else {
		d.hold[0] = last[0]
		d.pending = d.hold[:]
	}
	if d.bug == "write-count-zero" {
		return n - 1, nil // what was added to the sum
	}
	return n, nil
}

// writeLazy is Write past the 512th in the "lazy-after-512-writes" bug:
// the words go into a 32-bit sum, whose carries out are lost.
func (d *pairDigest) writeLazy(p []byte) int {
	n := len(p)
	if len(d.pending) == 1 && len(p) > 0 {
		d.lazy += uint32(d.pending[0])<<8 | uint32(p[0])
		d.pending, p = nil, p[1:]
	}
	for ; len(p) > 1; p = p[2:] {
		d.lazy += uint32(binary.BigEndian.Uint16(p))
	}
	if len(p) == 1 {
		d.hold[0] = p[0]
		d.pending = d.hold[:]
	}
	return n
}

// Sum16 is the running sum, a pending byte padded on the right.
func (d *pairDigest) Sum16() uint16 {
	s := d.sum + uint64(d.lazy)
	if len(d.pending) == 1 {
		s += uint64(d.pending[0]) << 8
	}
	return fold(s)
}

func (d *pairDigest) Sum(b []byte) []byte {
	if d.bug == "sum-folds-state" && len(d.pending) == 1 {
		d.sum += uint64(d.pending[0]) << 8 // finalized in place
		d.pending = nil
	}
	c := ^d.Sum16()
	switch {
	case d.bug == "sum-overwrites-b":
		return binary.BigEndian.AppendUint16(b[:0], c)
	case d.bug == "sum-internal-array" && b == nil:
		binary.BigEndian.PutUint16(d.out[:], c)
		return d.out[:]
	case d.bug == "sum-word-store" && cap(b)-len(b) >= 8:
		w := b[len(b) : len(b)+8]
		binary.BigEndian.PutUint64(w, binary.BigEndian.Uint64(w)&(1<<48-1)|uint64(c)<<48)
		return b[:len(b)+2]
	case d.bug == "sum-room-off-by-two" && cap(b)-len(b) < 4:
		return binary.BigEndian.AppendUint16(slices.Clip(b), c)
	}
	return binary.BigEndian.AppendUint16(b, c)
}

func (d *pairDigest) Reset() {
	d.sum, d.lazy, d.writes = 0, 0, 0
	if d.bug != "reset-keeps-odd" {
		d.pending = nil
	}
}

func (d *pairDigest) Size() int { return 2 }

func (d *pairDigest) BlockSize() int {
	if d.bug == "blocksize-zero" {
		return 0
	}
	return 2
}
