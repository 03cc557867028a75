package checksumtest

import "net/netip"

// family is a class of netip.Addr that PseudoHeaderSum and VerifyUDP must
// tell apart: the reference chooses the pseudo-header's layout, or refuses,
// by the pair of families, once it has unmapped IPv4-mapped addresses
// (RFC 4291 §2.5.5.2). famMapped is a family of its own here so that every
// pair of notations is enumerated: mapped with mapped, mapped with plain
// IPv4 (one family after unmapping) and mapped with true IPv6 (none).
type family uint8

const (
	famInvalid family = iota // the zero netip.Addr: no family
	famIPv4                  // Is4: the 12-byte pseudo-header
	famIPv6                  // Is6, not IPv4-mapped: the 40-byte one
	famMapped                // IPv4-mapped IPv6 (::ffff:a.b.c.d): IPv4, as Unmap makes it
	famZoned                 // IPv6 with the zone "eth0", which is not on the wire
	numFamilies
)

var familyNames = [numFamilies]string{"invalid", "ipv4", "ipv6", "ipv4-mapped", "ipv6-zoned"}

func (f family) String() string { return familyNames[f%numFamilies] }

// zone is the one zone the suite gives addresses of famZoned.
const zone = "eth0"

// addrOf returns the address of family f made from b's 16 bytes: an IPv4
// address takes b[0:4], an IPv4-mapped one b[12:16] after the ::ffff:
// prefix, the IPv6 ones all of b.
func addrOf(f family, b [16]byte) netip.Addr {
	switch f % numFamilies {
	case famIPv4:
		return netip.AddrFrom4([4]byte(b[:4]))
	case famIPv6:
		return netip.AddrFrom16(b)
	case famMapped:
		return netip.AddrFrom16(netip.AddrFrom4([4]byte(b[12:])).As16())
	case famZoned:
		return netip.AddrFrom16(b).WithZone(zone)
	}
	return netip.Addr{}
}

// familyOf is the family of a, and the bytes addrOf makes it from (a zone
// other than "eth0" is not kept).
func familyOf(a netip.Addr) (family, [16]byte) {
	var b [16]byte
	switch {
	case !a.IsValid():
		return famInvalid, b
	case a.Is4():
		v4 := a.As4()
		copy(b[:], v4[:])
		return famIPv4, b
	case a.Zone() != "":
		return famZoned, a.As16()
	case a.Is4In6():
		return famMapped, a.As16()
	}
	return famIPv6, a.As16()
}

// otherNotation is the family of an IPv4 address written the other way
// (plain for mapped, mapped for plain), which is the same family once
// unmapped; the other families have one notation.
func otherNotation(f family) family {
	switch f {
	case famIPv4:
		return famMapped
	case famMapped:
		return famIPv4
	}
	return f
}

// unspecified is the address of a's family whose bytes are all zero.
func unspecified(a netip.Addr) netip.Addr {
	f, _ := familyOf(a)
	return addrOf(f, [16]byte{})
}
