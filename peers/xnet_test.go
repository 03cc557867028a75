package peers

import (
	"encoding/binary"
	"testing"

	"golang.org/x/net/icmp"
	"golang.org/x/net/ipv4"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
)

// peers:begin xneticmp
// xnetICMPImpl is golang.org/x/net/icmp as a checksumtest.Impl. Its
// checksum function is unexported; Message.Marshal puts it in the
// checksum field of the message it returns. An Echo Reply (type 0, code
// 0) whose ID is initial, whose Seq is 0 and whose data is b has the
// checksum ^Sum(b, initial).
var xnetICMPImpl = checksumtest.Impl{
	Name:     "x/net/icmp",
	Sum:      func(b []byte, initial uint16) uint16 { return ^xnetICMP(b, initial) },
	Checksum: func(b []byte) uint16 { return xnetICMP(b, 0) },
}

// xnetICMP marshals the Echo Reply (for IPv4: no pseudo-header) and
// returns its checksum field.
func xnetICMP(b []byte, id uint16) uint16 {
	m := icmp.Message{Type: ipv4.ICMPTypeEchoReply, Body: &icmp.Echo{ID: int(id), Data: b}}
	w, err := m.Marshal(nil)
	if err != nil {
		panic(err)
	}
	return binary.BigEndian.Uint16(w[2:4])
}

// xnetICMPOptions leave out the inputs on which Marshal's 32-bit
// accumulator overflows (finding xnet-1): more than 2^17 bytes with the
// 8-byte ICMP header.
var xnetICMPOptions = []equiv.Option{longSums}

func TestPeerXnetICMP(t *testing.T) {
	t.Parallel()
	checksumtest.Test(t, xnetICMPImpl, append(xnetICMPOptions, quick)...)
}

// peers:end xneticmp

// TestDivergeXnetICMP: what xnetICMPOptions leave out, as the suite
// reports it without them (docs/peers.md).
func TestDivergeXnetICMP(t *testing.T) {
	t.Parallel()
	long := make([]byte, 1<<17+1)
	for i := range long {
		long[i] = 0xff
	}
	assertDivergence(t, "x/net/icmp: 32-bit accumulator",
		checksumtest.CheckInput(xnetICMPImpl, long, 0xffff, nil),
		`Sum(len=131073 initial=0xffff`, `= 0xfe00, want 0xff00`)
}
