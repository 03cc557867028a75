package quic

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"testing"
	"testing/iotest"
)

// byteReader serves data, then err; it counts its calls.
type byteReader struct {
	data  []byte
	err   error
	calls int
}

func (r *byteReader) ReadByte() (byte, error) {
	r.calls++
	if len(r.data) == 0 {
		return 0, r.err
	}
	c := r.data[0]
	r.data = r.data[1:]
	return c, nil
}

var errReader = errors.New("reader failed")

func TestReadVarintVectors(t *testing.T) {
	for _, v := range varintVectors {
		b, _ := hex.DecodeString(v.hex)
		r := &byteReader{data: append(bytes.Clone(b), 0xff), err: io.EOF}
		got, n, err := ReadVarint(r)
		if got != v.value || n != v.n || err != nil || r.calls != v.n {
			t.Errorf("ReadVarint(%s) = %d, %d, %v after %d calls; want %d, %d, nil after %d", v.hex, got, n, err, r.calls, v.value, v.n, v.n)
		}
		// Ending (or failing) after every number of bytes.
		for k := range len(b) {
			for _, end := range []error{io.EOF, errReader} {
				want := end
				if k > 0 && end == io.EOF {
					want = io.ErrUnexpectedEOF
				}
				r := &byteReader{data: bytes.Clone(b[:k]), err: end}
				got, n, err := ReadVarint(r)
				if got != 0 || n != k || err != want || r.calls != k+1 {
					t.Errorf("ReadVarint(%x then %v) = %d, %d, %v after %d calls; want 0, %d, %v after %d", b[:k], end, got, n, err, r.calls, k, want, k+1)
				}
			}
		}
	}
}

// shortPeeker returns at most limit bytes, then err.
type shortPeeker struct {
	data  []byte
	limit int
	err   error
	asked []int
}

func (p *shortPeeker) Peek(n int) ([]byte, error) {
	p.asked = append(p.asked, n)
	if m := min(len(p.data), p.limit); m < n {
		return p.data[:m], p.err
	}
	return p.data[:n], nil
}

func TestPeekVarint(t *testing.T) {
	for _, v := range varintVectors {
		b, _ := hex.DecodeString(v.hex)
		br := bufio.NewReader(bytes.NewReader(append(bytes.Clone(b), 0xee)))
		got, n, err := PeekVarint(br)
		if got != v.value || n != v.n || err != nil {
			t.Errorf("PeekVarint(%s) = %d, %d, %v; want %d, %d, nil", v.hex, got, n, err, v.value, v.n)
		}
		if rest, _ := io.ReadAll(br); !bytes.Equal(rest, append(bytes.Clone(b), 0xee)) {
			t.Errorf("PeekVarint(%s) consumed bytes: %x left", v.hex, rest)
		}
		for k := range len(b) {
			for _, end := range []error{io.EOF, errReader, nil} {
				p := &shortPeeker{data: b, limit: k, err: end}
				got, n, err := PeekVarint(p)
				wantN, want := v.n, end
				switch {
				case k == 0:
					wantN = 0
				case end == io.EOF:
					want = io.ErrUnexpectedEOF
				}
				if end == nil {
					want = io.ErrNoProgress
				}
				if got != 0 || n != wantN || err != want {
					t.Errorf("PeekVarint(%x, %d bytes then %v) = %d, %d, %v; want 0, %d, %v", b, k, end, got, n, err, wantN, want)
				}
			}
		}
	}
	// Only Peek(1) and Peek(n): a stream that blocks after the integer
	// is not waited on.
	p := &shortPeeker{data: []byte{0x9d, 0x7f, 0x3e, 0x7d}, limit: 4}
	if _, _, err := PeekVarint(p); err != nil || len(p.asked) != 2 || p.asked[0] != 1 || p.asked[1] != 4 {
		t.Errorf("PeekVarint asked %v (%v), want [1 4]", p.asked, err)
	}
	if _, _, err := PeekVarint(bufio.NewReader(iotest.ErrReader(errReader))); err != errReader {
		t.Errorf("PeekVarint on a failing reader: %v, want %v", err, errReader)
	}
}

func TestAppendVarintWithLen(t *testing.T) {
	for _, v := range varintVectors {
		if got := hex.EncodeToString(AppendVarintWithLen([]byte{0xaa}, v.value, v.n)); got != "aa"+v.hex {
			t.Errorf("AppendVarintWithLen(aa, %d, %d) = %s, want aa%s", v.value, v.n, got, v.hex)
		}
	}
	for _, w := range []int{1, 2, 4, 8} {
		for _, v := range varintBoundaries {
			fits := v < 1<<(8*w-2)
			var got []byte
			panicked := catch(func() { got = AppendVarintWithLen(nil, v, w) })
			if panicked != !fits {
				t.Errorf("AppendVarintWithLen(nil, %d, %d): panicked %v, want %v", v, w, panicked, !fits)
				continue
			}
			if fits {
				if pv, pn, err := ParseVarint(got); pv != v || pn != w || err != nil {
					t.Errorf("AppendVarintWithLen(nil, %d, %d) = %x, parses as %d, %d, %v", v, w, got, pv, pn, err)
				}
			}
		}
	}
	for _, w := range []int{-1, 0, 3, 5, 16} {
		if !catch(func() { AppendVarintWithLen(nil, 0, w) }) {
			t.Errorf("AppendVarintWithLen(nil, 0, %d) did not panic", w)
		}
	}
	// Filling a reserved field writes in place and nothing after it.
	b := []byte{0xe0, 0, 0, 0xaa, 0xbb}
	AppendVarintWithLen(b[:1], 37, 2)
	if hex.EncodeToString(b) != "e04025aabb" {
		t.Errorf("fill in place: %x, want e04025aabb", b)
	}
}

// summary renders every method of h, slices by content.
func summary(h Header) string {
	f := fieldsOf(h)
	return fmt.Sprintf("%v %#x dcid=%x scid=%x token=%x len=%d pn=%d vers=%x tag=%x spin=%v packet=%d",
		f.Type, f.Version, f.DCID, f.SCID, f.Token, f.Length, f.PNOffset, f.SupportedVersions, f.IntegrityTag, f.Spin, len(f.Packet))
}

func catch(f func()) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	f()
	return false
}

func TestParseHeaderWith(t *testing.T) {
	for _, v := range rfcPackets {
		b := v.bytes()
		want, wantErr := ParseHeader(b, v.shortDCIDLen)
		got, err := ParseHeaderWith(b, v.shortDCIDLen, 0)
		if summary(got) != summary(want) || err != wantErr {
			t.Errorf("%s: ParseHeaderWith(0) = %s, %v; ParseHeader = %s, %v", v.name, summary(got), err, summary(want), wantErr)
		}
		// Cleared Fixed Bit: rejected, or accepted with the option and
		// parsed as with the bit set.
		cleared := bytes.Clone(b)
		cleared[0] &^= 0x40
		set := bytes.Clone(b)
		set[0] |= 0x40
		h, err := ParseHeaderWith(cleared, v.shortDCIDLen, GreaseQUICBit)
		hs, errs := ParseHeader(set, v.shortDCIDLen)
		if err != errs || summary(h) != summary(hs) {
			t.Errorf("%s: greased = %s, %v; with the bit set = %s, %v", v.name, summary(h), err, summary(hs), errs)
		}
		if _, err := ParseHeader(cleared, v.shortDCIDLen); err != ErrFixedBitClear && hs.Type() != TypeVersionNegotiation && hs.Type() != TypeUnsupportedVersion {
			t.Errorf("%s: cleared without the option: %v, want ErrFixedBitClear", v.name, err)
		}
		for _, opts := range []Options{2, 1 << 31, ^Options(0)} {
			if h, err := ParseHeaderWith(b, v.shortDCIDLen, opts); err != ErrInvalidArgument || !isZero(h) {
				t.Errorf("%s: ParseHeaderWith(%#x) = %v, want ErrInvalidArgument", v.name, uint32(opts), err)
			}
		}
	}
}

func TestPacketsWithGrease(t *testing.T) {
	dcid := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	initial := longHeader(0x80, Version1, dcid, nil, append([]byte{0, 20}, make([]byte, 20)...)...) // greased
	type step struct {
		typ PacketType
		n   int
		err error
	}
	for _, tc := range []struct {
		name string
		in   []byte
		want []step
	}{
		{"zeros", append(bytes.Clone(initial), 0, 0, 0), []step{{TypeInitial, len(initial), nil}, {TypeNone, 3, ErrTrailingBytes}}},
		{"zero-then-junk", append(bytes.Clone(initial), append([]byte{0}, bytes.Repeat([]byte{0xee}, 28)...)...),
			[]step{{TypeInitial, len(initial), nil}, {Type1RTT, 29, ErrDCIDMismatch}}},
		{"zero-too-short-for-dcid", append(bytes.Clone(initial), 0, 1), []step{{TypeInitial, len(initial), nil}, {TypeNone, 2, ErrTrailingBytes}}},
	} {
		var got []step
		for h, err := range PacketsWith(tc.in, 8, GreaseQUICBit) {
			got = append(got, step{h.Type(), len(h.Packet()), err})
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: PacketsWith yielded %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: packet %d = %v, want %v", tc.name, i, got[i], tc.want[i])
			}
		}
	}
}
