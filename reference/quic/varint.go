package quic

// ParseVarint decodes the variable-length integer at the start of b
// (RFC 9000 §16) and returns its value v and its encoded length n, which is
// 1, 2, 4 or 8. Bytes after the integer are ignored.
//
// Encodings longer than necessary are accepted, as §16 allows ("values do
// not need to be encoded on the minimum number of bytes"): 0x4025 is 37.
//
// If b is empty or shorter than the length its first byte announces,
// ParseVarint returns 0, 0, ErrTruncated.
func ParseVarint(b []byte) (v uint64, n int, err error) {
	// https://www.rfc-editor.org/rfc/rfc9000#section-16
	if len(b) < 1 {
		return 0, 0, ErrTruncated
	}
	// "The variable-length integer encoding reserves the two most
	// significant bits of the first byte to encode the base-2 logarithm of
	// the integer encoding length in bytes."
	//
	//	2MSB  Length  Usable Bits  Range
	//	00    1       6            0-63
	//	01    2       14           0-16383
	//	10    4       30           0-1073741823
	//	11    8       62           0-4611686018427387903
	n = 1 << (b[0] >> 6)
	if len(b) < n {
		return 0, 0, ErrTruncated
	}
	// "The integer value is encoded on the remaining bits, in network byte
	// order." (RFC 9000 Appendix A.1.)
	v = uint64(b[0] & 0x3f)
	for i := 1; i < n; i++ {
		v = v<<8 | uint64(b[i])
	}
	return v, n, nil
}

// VarintLen returns the length of the shortest encoding of v: 1, 2, 4 or 8.
// It panics if v > MaxVarint, like AppendVarint.
func VarintLen(v uint64) int {
	switch {
	case v <= 63:
		return 1
	case v <= 16383:
		return 2
	case v <= 1073741823:
		return 4
	case v <= MaxVarint:
		return 8
	}
	panic("quic: varint value exceeds 2^62-1")
}

// AppendVarint appends the shortest encoding of v (RFC 9000 §16) to b and
// returns the extended slice.
//
// It panics if v > MaxVarint (2^62-1): such a value has no encoding, and
// producing one is a programming error, as in quic-go's quicvarint.Append.
func AppendVarint(b []byte, v uint64) []byte {
	n := VarintLen(v)
	// 2MSB = log2(n): 1 → 0b00, 2 → 0b01, 4 → 0b10, 8 → 0b11.
	var prefix byte
	switch n {
	case 2:
		prefix = 0x40
	case 4:
		prefix = 0x80
	case 8:
		prefix = 0xc0
	}
	// Network byte order: most significant byte first.
	for i := n - 1; i >= 0; i-- {
		c := byte(v >> (8 * i))
		if i == n-1 {
			c |= prefix
		}
		b = append(b, c)
	}
	return b
}
