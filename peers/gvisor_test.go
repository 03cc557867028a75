package peers

import (
	"encoding/binary"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	gvisorchecksum "gvisor.dev/gvisor/pkg/tcpip/checksum"
)

// peers:begin gvisor
// gvisorImpl is gVisor's tcpip/checksum as a checksumtest.Impl. Its
// Checksum is the un-complemented one's-complement sum, Sum here; its
// Checksumer, wrapped, is the Digest.
var gvisorImpl = checksumtest.Impl{
	Name:     "gvisor",
	Sum:      gvisorchecksum.Checksum,
	Checksum: func(b []byte) uint16 { return ^gvisorchecksum.Checksum(b, 0) },
	New:      func() checksumtest.Digest { return new(gvisorDigest) },
	Combine:  func(sum, next uint16, _ int) uint16 { return gvisorchecksum.Combine(sum, next) },
	Put:      func(b []byte, c uint16) bool { gvisorchecksum.Put(b, c); return true },
}

// gvisorOptions leave out what gVisor's API does not take: Combine has no
// offset and wants its first sum "computed on an even number of bytes",
// and Put has no result to refuse a short buffer with (it panics).
var gvisorOptions = []equiv.Option{
	checksumtest.Exclude("Combine at an odd offset", func(in checksumtest.Input) bool {
		return in.Func == "Combine" && in.Offset%2 != 0
	}),
	checksumtest.Exclude("Put into fewer than 2 bytes", func(in checksumtest.Input) bool {
		return in.Func == "Put" && len(in.Data) < gvisorchecksum.Size
	}),
}

// gvisorDigest is gVisor's Checksumer as a checksumtest.Digest.
type gvisorDigest struct{ c gvisorchecksum.Checksumer }

func (d *gvisorDigest) Write(p []byte) (int, error) {
	d.c.Add(p)
	return len(p), nil
}

func (d *gvisorDigest) Sum16() uint16 { return d.c.Checksum() }

func (d *gvisorDigest) Sum(in []byte) []byte {
	return binary.BigEndian.AppendUint16(in, ^d.c.Checksum())
}

func (d *gvisorDigest) Reset()         { d.c = gvisorchecksum.Checksumer{} }
func (d *gvisorDigest) Size() int      { return gvisorchecksum.Size }
func (d *gvisorDigest) BlockSize() int { return gvisorchecksum.Size }

func TestPeerGvisor(t *testing.T) {
	t.Parallel()
	checksumtest.Test(t, gvisorImpl, append(gvisorOptions, quick)...)
}

// peers:end gvisor

// TestDivergeGvisor: what gvisorOptions leave out, as the suite reports it
// without them (docs/peers.md).
func TestDivergeGvisor(t *testing.T) {
	t.Parallel()
	assertDivergence(t, "gvisor: Put into 1 byte panics",
		checksumtest.Check(checksumtest.Impl{Sum: gvisorImpl.Sum, Put: gvisorImpl.Put}, vectorsOnly),
		`Put(len=0 c=0x220d`, `= panic(runtime error: index out of range [1] with length 0), want false, b = ;`)
	assertDivergence(t, "gvisor: Combine ignores an odd offset",
		checksumtest.Check(checksumtest.Impl{Sum: gvisorImpl.Sum, Combine: gvisorImpl.Combine}, vectorsOnly),
		`Combine(len=0 sum=0x0000 next=0xf2dd offset=1`, `= 0xf2dd, want 0xddf2;`)
}
