package quic_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/equivcheck/equivcheck/optimized/quic"
	ref "github.com/equivcheck/equivcheck/reference/quic"
)

// impls is every available variant, plus the exported dispatching API as
// "dispatch", so both are tested.
func impls(t testing.TB) []quic.Impl {
	var out []quic.Impl
	for _, impl := range quic.Impls() {
		if !impl.Available {
			t.Logf("variant %s not available on this machine", impl.Name)
			continue
		}
		out = append(out, impl)
	}
	return append(out, quic.Impl{
		Name:               "dispatch",
		Available:          true,
		ParseVarint:        quic.ParseVarint,
		AppendVarint:       quic.AppendVarint,
		DecodePacketNumber: quic.DecodePacketNumber,
		ParseHeader:        quic.ParseHeader,
	})
}

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

const (
	dcid8 = "1122334455667788"
	scid8 = "aabbccddeeff0011"
)

// vectors are the packets of RFC 9001 Appendix A and RFC 9369 Appendix A
// (unprotected headers padded to their Length, and protected packets) and
// hand-built packets of every type, each with the shortDCIDLen it needs.
// equiv/internal/quicvectors has the same packets with expected fields;
// here only the bytes matter, since the reference is the oracle.
var vectors = []struct {
	name         string
	datagram     []byte
	shortDCIDLen int
}{
	{"v1-client-initial (RFC 9001 §A.2)", pad(unhex("c300000001088394c8f03e5157080000449e00000002"), 1178), 0},
	{"v1-server-initial (RFC 9001 §A.3)", pad(unhex("c1000000010008f067a5502a4262b50040750001"), 115), 0},
	{"v1-server-initial-protected (RFC 9001 §A.3)", unhex("cf000000010008f067a5502a4262b5004075c0d95a482cd0991cd25b0aac406a" +
		"5816b6394100f37a1c69797554780bb38cc5a99f5ede4cf73c3ec2493a1839b3dbcba3f6ea46c5b7684df3548e7ddeb9" +
		"c3bf9c73cc3f3bded74b562bfb19fb84022f8ef4cdd93795d77d06edbb7aaf2f58891850abbdca3d20398c276456cbc4" +
		"2158407dd074ee"), 0},
	{"v1-retry (RFC 9001 §A.4)", unhex("ff000000010008f067a5502a4262b5746f6b656e04a265ba2eff4d829058fb3f0f2496ba"), 0},
	{"v1-chacha20-short (RFC 9001 §A.5)", unhex("4200bff4655e5cd55c41f69080575d7999c25a5bfb"), 0},
	{"v1-chacha20-short-protected (RFC 9001 §A.5)", unhex("4cfe4189655e5cd55c41f69080575d7999c25a5bfb"), 0},
	{"v2-client-initial (RFC 9369 §A.2)", pad(unhex("d36b3343cf088394c8f03e5157080000449e00000002"), 1178), 0},
	{"v2-server-initial (RFC 9369 §A.3)", pad(unhex("d16b3343cf0008f067a5502a4262b50040750001"), 115), 0},
	{"v2-server-initial-protected (RFC 9369 §A.3)", unhex("dc6b3343cf0008f067a5502a4262b5004075d92faaf16f05d8a4398c47089698" +
		"baeea26b91eb761d9b89237bbf87263017915358230035f7fd3945d88965cf17f9af6e16886c61bfc703106fbaf3cb4c" +
		"fa52382dd16a393e42757507698075b2c984c707f0a0812d8cd5a6881eaf21ceda98f4bd23f6fe1a3e2c43edd9ce7ca8" +
		"4bed8521e2e140"), 0},
	{"v2-retry (RFC 9369 §A.4)", unhex("cf6b3343cf0008f067a5502a4262b5746f6b656ec8646ce8bfe33952d955543665dcc7b6"), 0},
	{"v2-chacha20-short (RFC 9369 §A.5)", unhex("4200bff40ae7b6b932bc27d786f4bc2bb20f2162ba"), 0},
	{"v2-chacha20-short-protected (RFC 9369 §A.5)", unhex("5558b1c60ae7b6b932bc27d786f4bc2bb20f2162ba"), 0},
	{"short-dcid8 (RFC 9000 §17.3.1)", pad(unhex("61"+dcid8), 24), 8},
	{"short-dcid20 (RFC 9000 §17.3.1)", pad(unhex("5f"+dcid8+dcid8+"01020304"), 20), 20},
	{"v1-0rtt (RFC 9000 §17.2.3)", pad(unhex("d300000001"+"08"+dcid8+"08"+scid8+"14"), 20), 0},
	{"v1-handshake (RFC 9000 §17.2.4)", pad(unhex("e000000001"+"08"+dcid8+"08"+scid8+"4018"), 24), 0},
	{"v1-initial-token (RFC 9000 §17.2.2)", pad(unhex("c000000001"+"14"+dcid8+dcid8+"01020304"+"14"+scid8+scid8+"05060708"+"28"+strings.Repeat("7e", 40)+"4020"), 32), 0},
	{"v2-0rtt (RFC 9369 §3.2)", pad(unhex("e26b3343cf"+"00"+"08"+scid8+"18"), 24), 0},
	{"v2-handshake (RFC 9369 §3.2)", pad(unhex("f16b3343cf"+"08"+dcid8+"00"+"4020"), 32), 0},
	{"version-negotiation (RFC 8999 §6)", unhex("8000000000" + "08" + dcid8 + "08" + scid8 + "000000016b3343cf0a1a2a3aff00001d"), 0},
	{"unsupported-version (RFC 8999 §5.1)", unhex("801a2a3a4a" + "19" + strings.Repeat("ab", 25) + "00" + "deadbeef"), 0},
	{"coalesced (RFC 9000 §12.2)", unhex("c000000001" + "08" + dcid8 + "00" + "00" + "4014" + strings.Repeat("00", 20) +
		"e000000001" + "08" + dcid8 + "00" + "14" + strings.Repeat("00", 20) + "40" + dcid8 + strings.Repeat("00", 20)), 8},
}

func pad(b []byte, n int) []byte { return append(b, make([]byte, n)...) }

// diffHeader compares got with want, both parsed from the same input,
// field by field through the methods. Slices must agree in nil-ness,
// content, capacity and, when non-empty, position in the input. It returns
// "" when they agree.
func diffHeader(got, want quic.Header) string {
	var d []string
	if got.Type() != want.Type() {
		d = append(d, fmt.Sprintf("Type %v, want %v", got.Type(), want.Type()))
	}
	if got.Version() != want.Version() {
		d = append(d, fmt.Sprintf("Version %#x, want %#x", got.Version(), want.Version()))
	}
	if got.Length() != want.Length() {
		d = append(d, fmt.Sprintf("Length %d, want %d", got.Length(), want.Length()))
	}
	if got.PNOffset() != want.PNOffset() {
		d = append(d, fmt.Sprintf("PNOffset %d, want %d", got.PNOffset(), want.PNOffset()))
	}
	if got.Spin() != want.Spin() {
		d = append(d, fmt.Sprintf("Spin %v, want %v", got.Spin(), want.Spin()))
	}
	for _, f := range []struct {
		name      string
		got, want []byte
	}{
		{"DCID", got.DCID(), want.DCID()},
		{"SCID", got.SCID(), want.SCID()},
		{"Token", got.Token(), want.Token()},
		{"SupportedVersions", got.SupportedVersions(), want.SupportedVersions()},
		{"IntegrityTag", got.IntegrityTag(), want.IntegrityTag()},
		{"Packet", got.Packet(), want.Packet()},
	} {
		switch {
		case (f.got == nil) != (f.want == nil):
			d = append(d, fmt.Sprintf("%s nil=%v, want nil=%v", f.name, f.got == nil, f.want == nil))
		case !bytes.Equal(f.got, f.want):
			d = append(d, fmt.Sprintf("%s %x, want %x", f.name, f.got, f.want))
		case cap(f.got) != cap(f.want):
			d = append(d, fmt.Sprintf("cap(%s) %d, want %d", f.name, cap(f.got), cap(f.want)))
		case len(f.got) > 0 && &f.got[0] != &f.want[0]:
			d = append(d, fmt.Sprintf("%s is at a different offset in the input", f.name))
		}
	}
	return strings.Join(d, "; ")
}

// checkParse compares impl.ParseHeader with the reference on b.
func checkParse(t *testing.T, impl quic.Impl, ctx string, b []byte, n int) {
	t.Helper()
	want, wantErr := ref.ParseHeader(b, n)
	got, err := impl.ParseHeader(b, n)
	if err != wantErr {
		t.Fatalf("%s: ParseHeader(%x, %d) error = %v, want %v", ctx, b, n, err, wantErr)
	}
	if d := diffHeader(got, want); d != "" {
		t.Fatalf("%s: ParseHeader(%x, %d) error %v: %s", ctx, b, n, err, d)
	}
}

// TestParseHeaderVectors runs every vector as is, with trailing junk, at
// every truncation, and with every shortDCIDLen from -1 to 21.
func TestParseHeaderVectors(t *testing.T) {
	junk := unhex("0123456789abcdef0123456789abcdef")
	for _, impl := range impls(t) {
		t.Run("impl="+impl.Name, func(t *testing.T) {
			for _, v := range vectors {
				b := v.datagram
				checkParse(t, impl, v.name, b, v.shortDCIDLen)
				checkParse(t, impl, v.name+" + junk", append(bytes.Clone(b), junk...), v.shortDCIDLen)
				for i := range len(b) {
					checkParse(t, impl, fmt.Sprintf("%s truncated to %d", v.name, i), b[:i:i], v.shortDCIDLen)
				}
				for n := -1; n <= quic.MaxCIDLen+1; n++ {
					checkParse(t, impl, fmt.Sprintf("%s shortDCIDLen=%d", v.name, n), b, n)
				}
			}
			checkParse(t, impl, "nil", nil, 0)
			checkParse(t, impl, "nil, shortDCIDLen=-5", nil, -5)
		})
	}
}

// mutate returns a random variation of b: bytes set to values that sit on
// the parser's boundaries, bits flipped, bytes cut, inserted or appended.
func mutate(r *rand.Rand, b []byte) []byte {
	b = bytes.Clone(b)
	interesting := []byte{0x00, 0x01, 0x04, 0x08, 0x13, 0x14, 0x15, 0x3f, 0x40, 0x41, 0x7f, 0x80, 0x81, 0xbf, 0xc0, 0xff, 0x6b, 0x33, 0x43, 0xcf}
	for range 1 + r.IntN(3) {
		if len(b) == 0 {
			b = append(b, byte(r.Uint32()))
			continue
		}
		i := r.IntN(len(b))
		if r.IntN(2) == 0 {
			i = r.IntN(min(len(b), 48)) // mostly the header
		}
		switch r.IntN(8) {
		case 0, 1:
			b[i] = interesting[r.IntN(len(interesting))]
		case 2, 3:
			b[i] ^= 1 << r.IntN(8)
		case 4:
			b[i] = byte(r.Uint32())
		case 5:
			b = b[:i]
		case 6:
			b = append(b[:i], append([]byte{interesting[r.IntN(len(interesting))]}, b[i:]...)...)
		case 7:
			b = append(b, make([]byte, r.IntN(24))...)
		}
	}
	if r.IntN(4) == 0 {
		// Swap the version for another one, known or not.
		if len(b) >= 5 && b[0]&0x80 != 0 {
			versions := []uint32{0, 1, 0x6b3343cf, 0x1a2a3a4a, 0xff00001d}
			v := versions[r.IntN(len(versions))]
			b[1], b[2], b[3], b[4] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
		}
	}
	return b
}

// TestMutations compares the variants with the reference on random
// mutations of the vectors, both ParseHeader and Packets. The seed is
// fixed so that failures reproduce.
func TestMutations(t *testing.T) {
	iterations := 200000
	if testing.Short() {
		iterations = 20000
	}
	for _, impl := range impls(t) {
		t.Run("impl="+impl.Name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(0x9000, 0x9369))
			for i := range iterations {
				v := vectors[r.IntN(len(vectors))]
				b := mutate(r, v.datagram)
				n := v.shortDCIDLen
				if r.IntN(16) == 0 {
					n = r.IntN(24) - 1
				}
				checkParse(t, impl, fmt.Sprintf("iteration %d from %s", i, v.name), b, n)
			}
		})
	}
	t.Run("Packets", func(t *testing.T) {
		r := rand.New(rand.NewPCG(0x1222, 0x9001))
		for i := range iterations / 4 {
			var d []byte
			for range 1 + r.IntN(3) {
				d = append(d, mutate(r, vectors[r.IntN(len(vectors))].datagram)...)
			}
			n := []int{0, 8}[r.IntN(2)]
			checkPackets(t, fmt.Sprintf("iteration %d", i), d, n)
		}
		for _, v := range vectors {
			checkPackets(t, v.name, v.datagram, v.shortDCIDLen)
		}
	})
}

type yielded struct {
	h   quic.Header
	err error
}

func collect(seq func(func(quic.Header, error) bool)) []yielded {
	var out []yielded
	for h, err := range seq {
		out = append(out, yielded{h, err})
	}
	return out
}

func checkPackets(t *testing.T, ctx string, d []byte, n int) {
	t.Helper()
	want := collect(ref.Packets(d, n))
	got := collect(quic.Packets(d, n))
	if len(got) != len(want) {
		t.Fatalf("%s: Packets(%x, %d) yielded %d packets, want %d", ctx, d, n, len(got), len(want))
	}
	for i := range got {
		if got[i].err != want[i].err {
			t.Fatalf("%s: Packets(%x, %d) packet %d error = %v, want %v", ctx, d, n, i, got[i].err, want[i].err)
		}
		if diff := diffHeader(got[i].h, want[i].h); diff != "" {
			t.Fatalf("%s: Packets(%x, %d) packet %d: %s", ctx, d, n, i, diff)
		}
	}
}

// FuzzParseHeader is differential: every variant against the reference,
// Header and error, and the Packets iterators. It never returns early.
func FuzzParseHeader(f *testing.F) {
	for _, v := range vectors {
		f.Add(v.datagram, v.shortDCIDLen)
	}
	f.Fuzz(func(t *testing.T, b []byte, n int) {
		for _, impl := range impls(t) {
			checkParse(t, impl, "impl="+impl.Name, b, n)
		}
		checkPackets(t, "fuzz", b, n)
	})
}

// TestParseVarint compares every 1- and 2-byte input, alone and followed
// by more bytes (which takes the 8-byte load path), and every length of a
// few longer encodings.
func TestParseVarint(t *testing.T) {
	tail := unhex("c2197c5eff14e88c9d7f3e7d")
	for _, impl := range impls(t) {
		t.Run("impl="+impl.Name, func(t *testing.T) {
			check := func(b []byte) {
				t.Helper()
				v, n, err := impl.ParseVarint(b)
				wv, wn, werr := ref.ParseVarint(b)
				if v != wv || n != wn || err != werr {
					t.Fatalf("ParseVarint(%x) = %d, %d, %v; want %d, %d, %v", b, v, n, err, wv, wn, werr)
				}
			}
			check(nil)
			for x := range 1 << 16 {
				check([]byte{byte(x)})
				b := []byte{byte(x >> 8), byte(x)}
				check(b)
				check(append(b, tail...))
			}
			for _, s := range []string{"c2197c5eff14e88c", "9d7f3e7d", "7bbd", "25", "4025", "ffffffffffffffff", "bfffffff", "7fff", "c000000000000000"} {
				b := append(unhex(s), tail...)
				for i := range len(b) + 1 {
					check(b[:i])
				}
			}
			r := rand.New(rand.NewPCG(16, 62))
			for range 100000 {
				b := make([]byte, r.IntN(12))
				for i := range b {
					b[i] = byte(r.Uint32())
				}
				check(b)
			}
		})
	}
}

func TestAppendVarint(t *testing.T) {
	values := []uint64{0, 1, 63, 64, 16383, 16384, 1<<30 - 1, 1 << 30, 1<<62 - 1}
	r := rand.New(rand.NewPCG(62, 16))
	for range 10000 {
		values = append(values, r.Uint64N(1<<62)>>r.UintN(62))
	}
	for _, impl := range impls(t) {
		t.Run("impl="+impl.Name, func(t *testing.T) {
			for _, v := range values {
				got := impl.AppendVarint([]byte{0xaa}, v)
				want := ref.AppendVarint([]byte{0xaa}, v)
				if !bytes.Equal(got, want) {
					t.Fatalf("AppendVarint(aa, %d) = %x, want %x", v, got, want)
				}
				if quic.VarintLen(v) != ref.VarintLen(v) {
					t.Fatalf("VarintLen(%d) = %d, want %d", v, quic.VarintLen(v), ref.VarintLen(v))
				}
			}
			for _, v := range []uint64{1 << 62, math.MaxUint64} {
				if !panics(func() { impl.AppendVarint(nil, v) }) || !panics(func() { quic.VarintLen(v) }) {
					t.Errorf("AppendVarint or VarintLen(%d) did not panic", v)
				}
			}
		})
	}
}

func panics(f func()) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	f()
	return false
}

func TestDecodePacketNumber(t *testing.T) {
	for _, impl := range impls(t) {
		t.Run("impl="+impl.Name, func(t *testing.T) {
			check := func(largest, truncated uint64, pnLen int) {
				t.Helper()
				var got, want uint64
				gotPanic := panics(func() { got = impl.DecodePacketNumber(largest, truncated, pnLen) })
				wantPanic := panics(func() { want = ref.DecodePacketNumber(largest, truncated, pnLen) })
				if gotPanic != wantPanic || got != want {
					t.Fatalf("DecodePacketNumber(%#x, %#x, %d) = %#x (panic %v), want %#x (panic %v)",
						largest, truncated, pnLen, got, gotPanic, want, wantPanic)
				}
			}
			for _, v := range []struct {
				largest, truncated uint64
				pnLen              int
			}{
				{0xa82f30ea, 0x9b32, 2}, {10, 0xff, 1}, {1<<62 - 129, 0, 1}, {math.MaxUint64, 7, 3},
				{0, 0, 0}, {0, 0, 5}, {0, 0, -1}, {1 << 62, 0, 1}, {math.MaxUint64 - 1, 0, 2}, {1<<62 - 1, 0xffffffff, 4},
			} {
				check(v.largest, v.truncated, v.pnLen)
			}
			for pnLen := 1; pnLen <= 4; pnLen++ {
				for largest := range uint64(600) {
					for _, tr := range []uint64{0, 1, 0x7f, 0x80, 0x81, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0xffffff, 0xffffffff} {
						check(largest, tr, pnLen)
						check(1<<62-1-largest, tr, pnLen)
					}
				}
			}
			r := rand.New(rand.NewPCG(17, 1))
			for range 100000 {
				pnLen := 1 + r.IntN(4)
				check(r.Uint64N(1<<62)>>r.UintN(62), r.Uint64N(1<<(8*pnLen)), pnLen)
			}
		})
	}
}

func TestAllocs(t *testing.T) {
	for _, impl := range impls(t) {
		for _, v := range vectors {
			if n := testing.AllocsPerRun(50, func() { impl.ParseHeader(v.datagram, v.shortDCIDLen) }); n != 0 {
				t.Errorf("impl=%s %s: ParseHeader allocates %v times", impl.Name, v.name, n)
			}
		}
		for _, s := range []string{"25", "7bbd", "9d7f3e7d", "c2197c5eff14e88c", "c2197c5eff14e88c00"} {
			b := unhex(s)
			if n := testing.AllocsPerRun(50, func() { impl.ParseVarint(b) }); n != 0 {
				t.Errorf("impl=%s: ParseVarint(%s) allocates %v times", impl.Name, s, n)
			}
		}
	}
}

func TestPacketsBreak(t *testing.T) {
	d := vectors[len(vectors)-1].datagram // three coalesced packets
	n := 0
	for range quic.Packets(d, 8) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("break after one packet: %d iterations", n)
	}
}
