package peers

// Standalone reproducers of every finding in docs/peers.md: plain calls of
// each peer's exported API, no suite, each asserting the divergence as the
// peer shows it today. If a peer changes, its reproducer fails, and the
// finding (and the options that leave it out of the peer's passing run)
// are to be revisited. Each names the finding it reproduces.

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"net"
	"testing"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
	gopacketv1 "github.com/google/gopacket"
	layersv1 "github.com/google/gopacket/layers"
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/quic-go/quic-go/quicvarint"
	"golang.org/x/net/icmp"
	"golang.org/x/net/ipv4"
	"gvisor.dev/gvisor/pkg/tcpip"
	gvisorchecksum "gvisor.dev/gvisor/pkg/tcpip/checksum"
	"gvisor.dev/gvisor/pkg/tcpip/header"

	refsum "github.com/equivcheck/equivcheck/reference/checksum"
)

// ones returns n octets of 0xFF.
func ones(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 0xff
	}
	return b
}

// Finding gopacket-2: UDP.VerifyChecksum reports a zero checksum field as
// valid over IPv6, where RFC 8200 §8.1 says receivers must discard it.
func TestReproduceGopacketIPv6ZeroChecksum(t *testing.T) {
	seg := []byte{0x04, 0xd2, 0x16, 0x2e, 0x00, 0x09, 0x00, 0x00, 0x61}
	var udp layers.UDP
	if err := udp.DecodeFromBytes(seg, gopacket.NilDecodeFeedback); err != nil {
		t.Fatal(err)
	}
	ip6 := &layers.IPv6{SrcIP: net.ParseIP("2001:db8::1"), DstIP: net.ParseIP("2001:db8::2"), NextHeader: layers.IPProtocolUDP}
	if err := udp.SetNetworkLayerForChecksum(ip6); err != nil {
		t.Fatal(err)
	}
	if err, res := udp.VerifyChecksum(); err != nil || !res.Valid {
		t.Errorf("VerifyChecksum = %v, %+v; finding gopacket-2 is fixed (a zero field over IPv6 is invalid): update docs/peers.md", err, res)
	}
}

// Findings gopacket-3 and xnet-1: the checksum of an ICMP message longer
// than 2^17 octets, computed in a 32-bit accumulator that overflows, is
// wrong (gopacket/gopacket sums in 64 bits since v1.7.6).
func TestReproduceICMPLongChecksum(t *testing.T) {
	data := ones(1<<17 + 1)
	// The Echo Reply's header words: type 0 and code 0, the checksum
	// field (0), ID 0xFFFF, sequence 0; then data.
	want := refsum.Checksum(append([]byte{0, 0, 0, 0, 0xff, 0xff, 0, 0}, data...))

	m := icmp.Message{Type: ipv4.ICMPTypeEchoReply, Body: &icmp.Echo{ID: 0xffff, Data: data}}
	w, err := m.Marshal(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := binary.BigEndian.Uint16(w[2:4]); got == want {
		t.Errorf("x/net/icmp: Marshal's checksum is right (%#04x): finding xnet-1 is fixed; update docs/peers.md", got)
	}

	buf := gopacketv1.NewSerializeBuffer()
	l := &layersv1.ICMPv4{TypeCode: layersv1.CreateICMPv4TypeCode(0, 0), Id: 0xffff}
	if err := gopacketv1.SerializeLayers(buf, gopacketv1.SerializeOptions{ComputeChecksums: true}, l, gopacketv1.Payload(data)); err != nil {
		t.Fatal(err)
	}
	if got := binary.BigEndian.Uint16(buf.Bytes()[2:4]); got == want {
		t.Errorf("google/gopacket: the ICMPv4 checksum is right (%#04x): finding gopacket-3 is fixed; update docs/peers.md", got)
	}
	// The fork sums in 64 bits.
	if got := gopacket.FoldChecksum(gopacket.ComputeChecksum(append([]byte{0, 0, 0, 0, 0xff, 0xff, 0, 0}, data...), 0)); got != want {
		t.Errorf("gopacket/gopacket: ComputeChecksum gives %#04x, want %#04x", got, want)
	}
}

// gVisor's documented differences: Put has no result and panics on a
// short buffer; Combine has no offset (its first sum "must have been
// computed on an even number of bytes"); header.PseudoHeaderChecksum
// takes a 16-bit length and sums addresses of any two lengths.
func TestReproduceGvisorAPI(t *testing.T) {
	func() {
		defer func() {
			if recover() == nil {
				t.Error("checksum.Put into 1 byte did not panic")
			}
		}()
		gvisorchecksum.Put(make([]byte, 1), 0x1234)
	}()
	// RFC 1071 §3's example 00 01 f2 03 f4 f5 f6 f7, split after its
	// first octet: the whole sums to 0xddf2.
	data := []byte{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}
	if got := gvisorchecksum.Combine(gvisorchecksum.Checksum(data[:1], 0), gvisorchecksum.Checksum(data[1:], 0)); got == 0xddf2 {
		t.Error("checksum.Combine got an odd split right")
	}
	// The length is a uint16 in the signature: a jumbogram's cannot be
	// passed. Mixed families are summed, not refused: the sum is that of
	// the 4 and 16 octets, the length and the protocol.
	v4 := tcpip.AddrFrom4([4]byte{192, 0, 2, 1})
	v6 := tcpip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 15: 1})
	mixed := append(append(v4.AsSlice(), v6.AsSlice()...), 0, 8, 0, byte(header.UDPProtocolNumber))
	if got, want := header.PseudoHeaderChecksum(header.UDPProtocolNumber, v4, v6, 8), refsum.Sum(mixed, 0); got != want {
		t.Errorf("PseudoHeaderChecksum(IPv4, IPv6) = %#04x, want the plain sum %#04x", got, want)
	}
}

// gVisor's header setters keep the checksum field when the value does not
// change (RFC 1624 errata 4782), where Eqn. 3 turns a field of 0xFFFF into
// 0x0000: checksumtest accepts either since issue 32.
func TestReproduceGvisorNoOpUpdate(t *testing.T) {
	tcp := header.TCP(make([]byte, header.TCPMinimumSize))
	tcp.SetChecksum(0xffff)
	tcp.SetSourcePortWithChecksumUpdate(0)
	if got := tcp.Checksum(); got != 0xffff {
		t.Errorf("SetSourcePortWithChecksumUpdate(0) over port 0 made the field %#04x, want 0xffff kept", got)
	}
}

// gobwas/ws's documented differences: Cipher adds its offset to each
// octet's index in an int (so an offset near math.MaxInt overflows), and
// wsutil.UTF8Reader returns 0, nil from a Read of nothing after it failed.
func TestReproduceGobwas(t *testing.T) {
	func() {
		defer func() {
			if recover() == nil {
				t.Error("ws.Cipher at offset math.MaxInt did not panic")
			}
		}()
		ws.Cipher(make([]byte, 3), [4]byte{1, 2, 3, 4}, math.MaxInt)
	}()
	r := wsutil.NewUTF8Reader(&oneByte{c: 0x80})
	if n, err := r.Read(make([]byte, 1)); n != 0 || err != wsutil.ErrInvalidUTF8 {
		t.Fatalf("UTF8Reader.Read(0x80) = %d, %v", n, err)
	}
	r.Source = &oneByte{done: true}
	if n, err := r.Read(make([]byte, 1)); n != 0 || err != nil {
		t.Errorf("UTF8Reader.Read of nothing after a failure = %d, %v; want 0, nil (utf8-empty-write-fails)", n, err)
	}
}

// quic-go's quicvarint.Read returns io.EOF where the stream ends inside
// an integer, as at a clean end before one.
func TestReproduceQuicvarintReadEOF(t *testing.T) {
	if _, err := quicvarint.Read(bytes.NewReader([]byte{0x40})); err != io.EOF {
		t.Errorf("quicvarint.Read(40 then EOF) = %v, want io.EOF as today", err)
	}
}
