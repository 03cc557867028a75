//go:build unix

package peers

import (
	"net"
	"os"
	"runtime/debug"
	"syscall"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// Finding gopacket-1: UDP.VerifyChecksum appends the layer's Payload to
// its Contents, which alias the decoded packet: it writes over the
// packet's payload (here with the same bytes; a packet on read-only
// memory faults, and a goroutine reading the packet meanwhile races).
func TestReproduceGopacketVerifyWrites(t *testing.T) {
	page := os.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Munmap(mem)
	// A UDP datagram, 8-byte header and 1 octet of data, checksum 0 (none).
	pkt := mem[:9]
	copy(pkt, []byte{0x04, 0xd2, 0x16, 0x2e, 0x00, 0x09, 0x00, 0x00, 0x61})
	if err := syscall.Mprotect(mem, syscall.PROT_READ); err != nil {
		t.Skip(err)
	}
	var udp layers.UDP
	if err := udp.DecodeFromBytes(pkt, gopacket.NilDecodeFeedback); err != nil {
		t.Fatal(err)
	}
	if err := udp.SetNetworkLayerForChecksum(&layers.IPv4{SrcIP: net.IPv4(192, 0, 2, 1), DstIP: net.IPv4(192, 0, 2, 2)}); err != nil {
		t.Fatal(err)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() == nil {
			t.Error("VerifyChecksum did not write its read-only packet: finding gopacket-1 is fixed; update docs/peers.md")
		}
	}()
	udp.VerifyChecksum()
}
