package checksum_test

import (
	"encoding/binary"
	"fmt"

	"github.com/equivcheck/equivcheck/optimized/checksum"
)

// An IPv4 header's checksum, then its RFC 1624 incremental update when a
// router decrements the TTL. The TTL shares its 16-bit word with the
// protocol (bytes 8 and 9), so Update takes that whole word, old and new.
func Example_ipv4Header() {
	hdr := []byte{
		0x45, 0x00, 0x00, 0x73, // version, IHL, DSCP; total length 115
		0x00, 0x00, 0x40, 0x00, // identification; don't fragment
		0x40, 0x11, 0x00, 0x00, // TTL 64, protocol UDP; checksum (zero while computing)
		0xc0, 0xa8, 0x00, 0x01, // source 192.168.0.1
		0xc0, 0xa8, 0x00, 0xc7, // destination 192.168.0.199
	}
	c := checksum.Checksum(hdr)
	binary.BigEndian.PutUint16(hdr[10:], c)
	fmt.Printf("checksum %#04x, header verifies: %v\n", c, checksum.Checksum(hdr) == 0)

	oldWord := binary.BigEndian.Uint16(hdr[8:]) // TTL<<8 | protocol
	hdr[8]--                                    // TTL 63
	newWord := binary.BigEndian.Uint16(hdr[8:])
	c = checksum.Update(c, oldWord, newWord)
	binary.BigEndian.PutUint16(hdr[10:], c)
	fmt.Printf("after TTL 64 -> 63: %#04x, header verifies: %v\n", c, checksum.Checksum(hdr) == 0)
	// Output:
	// checksum 0xb861, header verifies: true
	// after TTL 64 -> 63: 0xb961, header verifies: true
}

// A Digest sums data written in pieces of any length, odd ones included
// (RFC 1071 §3's byte swap is its business).
func ExampleNew() {
	d := checksum.New()
	d.Write([]byte{0x00, 0x01, 0xf2})
	d.Write([]byte{0x03, 0xf4, 0xf5, 0xf6, 0xf7})
	fmt.Printf("%#04x\n", d.Sum16())
	// Output: 0xddf2
}
