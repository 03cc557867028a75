package bench

// The Go peers of the benchmarks, checked by this module's conformance
// suites at the quick level: gVisor's tcpip/checksum through
// checksumtest.Test, gobwas/ws's Cipher and wsutil cipher streams through
// websockettest.Test, quic-go's quicvarint through quictest.Test. Each
// peer's adapter and options stand between "// peers:begin NAME" and
// "// peers:end NAME" below, and in docs/peers.md after
// "<!-- peers:NAME -->": TestPeersDoc keeps the two byte for byte the
// same, so the documented adapter is the one that passes. TestPeerQuirks
// pins what each option leaves out: the peer's behaviour on those inputs,
// as docs/peers.md describes it.

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
	"github.com/quic-go/quic-go/quicvarint"
	gvisorchecksum "gvisor.dev/gvisor/pkg/tcpip/checksum"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/equiv/quictest"
	"github.com/equivcheck/equivcheck/equiv/websockettest"
	quic "github.com/equivcheck/equivcheck/reference/quic"
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
	checksumtest.Test(t, gvisorImpl, append(gvisorOptions, equiv.WithLevel(equiv.Quick))...)
}

// peers:end gvisor

// peers:begin gobwas
// gobwasImpl is gobwas/ws as a websockettest.Impl. Cipher(b, key, offset)
// returns nothing, so the adapter returns the next key position;
// wsutil's CipherReader and CipherWriter have Reset(r, key) already.
var gobwasImpl = websockettest.Impl{
	Name: "gobwas",
	Mask: func(b []byte, key [4]byte, pos int) int {
		ws.Cipher(b, key, pos)
		return (pos + len(b)) & 3
	},
	NewMaskReader: func(r io.Reader, key [4]byte) websockettest.MaskReader {
		return wsutil.NewCipherReader(r, key)
	},
	NewMaskWriter: func(w io.Writer, key [4]byte) websockettest.MaskWriter {
		return wsutil.NewCipherWriter(w, key)
	},
}

// gobwasOptions: Cipher takes pos as a stream offset, which it adds to
// each octet's index in an int; the cipher streams trust the counts of
// the reader or writer under them.
var gobwasOptions = []equiv.Option{websockettest.StreamOffsetPos(), websockettest.ValidUnderlyingCounts()}

func TestPeerGobwas(t *testing.T) {
	websockettest.Test(t, gobwasImpl, append(gobwasOptions, equiv.WithLevel(equiv.Quick))...)
}

// peers:end gobwas

// peers:begin quicvarint
// quicvarintImpl is quic-go's quicvarint as a quictest.Impl: Parse,
// Append and AppendWithLen have the reference's signatures.
var quicvarintImpl = quictest.Impl{
	Name:                "quicvarint",
	ParseVarint:         quicvarint.Parse,
	AppendVarint:        quicvarint.Append,
	AppendVarintWithLen: quicvarint.AppendWithLen,
}

// quicvarintOptions: Parse reports a short input as io.EOF (empty) or
// io.ErrUnexpectedEOF where the reference says ErrTruncated, and Append
// and AppendWithLen panic with values of their own where the reference
// panics.
var quicvarintOptions = []equiv.Option{
	equiv.MapErrors(func(err error) error {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return quic.ErrTruncated
		}
		return err
	}),
	equiv.AnyPanic(),
}

// quicvarintRead is quicvarint.Read as a quictest.Impl's ReadVarint,
// which also returns the number of bytes consumed: Read returns none, so
// the adapter counts them. Where the stream ends inside an integer, Read
// returns io.EOF, as at a clean end before one; the adapter tells the two
// apart by the count, marking the first with errEOFInInteger for
// quicvarintReadOptions to map. It is an Impl of its own because the
// MapErrors above would map Read's io.EOF, which the reference returns as
// it is. (quicvarint.NewReader makes the io.ByteReader Read takes from an
// io.Reader; ReadVarint is given an io.ByteReader already.)
var quicvarintRead = quictest.Impl{
	Name: "quicvarint.Read",
	ReadVarint: func(r io.ByteReader) (uint64, int, error) {
		c := &countingByteReader{r: r}
		v, err := quicvarint.Read(c)
		if err == io.EOF && c.n > 0 {
			err = errEOFInInteger
		}
		return v, c.n, err
	},
}

// errEOFInInteger is Read's io.EOF after some bytes of an integer.
var errEOFInInteger = errors.New("quicvarint.Read: io.EOF inside an integer")

// quicvarintReadOptions: the reference says io.ErrUnexpectedEOF where
// Read's io.EOF comes inside an integer.
var quicvarintReadOptions = []equiv.Option{
	equiv.MapErrors(func(err error) error {
		if err == errEOFInInteger {
			return io.ErrUnexpectedEOF
		}
		return err
	}),
}

// countingByteReader counts the bytes read from r.
type countingByteReader struct {
	r io.ByteReader
	n int
}

func (c *countingByteReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

func TestPeerQuicvarint(t *testing.T) {
	t.Run("Parse,Append,AppendWithLen", func(t *testing.T) {
		quictest.Test(t, quicvarintImpl, append(quicvarintOptions, equiv.WithLevel(equiv.Quick))...)
	})
	t.Run("Read", func(t *testing.T) {
		quictest.Test(t, quicvarintRead, append(quicvarintReadOptions, equiv.WithLevel(equiv.Quick))...)
	})
}

// peers:end quicvarint

// TestPeersDoc: every adapter in this file is in docs/peers.md, byte for
// byte, and the document has no other.
func TestPeersDoc(t *testing.T) {
	src, err := os.ReadFile("peers_test.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../docs/peers.md")
	if err != nil {
		t.Fatal(err)
	}
	code := regionsOf(t, string(src), regexp.MustCompile(`(?ms)^// peers:begin (\w+)\n(.*?)^// peers:end (\w+)\n`))
	text := regionsOf(t, string(doc), regexp.MustCompile("(?ms)^<!-- peers:(\\w+) -->\n```go\n(.*?)^```\n"))
	if len(code) != 3 {
		t.Errorf("peers_test.go has %d adapters, want 3 (gvisor, gobwas, quicvarint)", len(code))
	}
	for name, c := range code {
		d, ok := text[name]
		switch {
		case !ok:
			t.Errorf("docs/peers.md has no snippet %q (<!-- peers:%s --> before a ```go block)", name, name)
		case d != c:
			t.Errorf("docs/peers.md's snippet %q differs from peers_test.go's:\n--- doc\n%s--- test\n%s", name, d, c)
		}
	}
	for name := range text {
		if _, ok := code[name]; !ok {
			t.Errorf("docs/peers.md has a snippet %q that peers_test.go does not run", name)
		}
	}
}

// regionsOf returns the named regions re finds in s: the name is its first
// group, the text its second, and a third group, if any, must repeat the
// name.
func regionsOf(t *testing.T, s string, re *regexp.Regexp) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		if len(m) > 3 && m[3] != m[1] {
			t.Errorf("region %q ends as %q", m[1], m[3])
		}
		if _, dup := out[m[1]]; dup {
			t.Errorf("region %q twice", m[1])
		}
		out[m[1]] = m[2]
	}
	return out
}

// TestPeerQuirks pins, for each option above that leaves inputs out, what
// the peer does on them (docs/peers.md says the same): without the
// option, the suite reports exactly that. If a peer changes, this fails,
// and the option and the document are to be revisited.
func TestPeerQuirks(t *testing.T) {
	vectors := equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors })
	for _, q := range []struct {
		name string
		err  error
		want []string // in the counterexample, in this order
	}{
		{"gvisor: Put into 1 byte panics", checksumtest.Check(checksumtest.Impl{Sum: gvisorImpl.Sum, Put: gvisorImpl.Put}, vectors),
			[]string{`Put(len=0 c=0x220d`, `= panic(runtime error: index out of range [1] with length 0), want false, b = ;`}},
		{"gvisor: Combine ignores an odd offset", checksumtest.Check(checksumtest.Impl{Sum: gvisorImpl.Sum, Combine: gvisorImpl.Combine}, vectors),
			[]string{`Combine(len=0 sum=0x0000 next=0xf2dd offset=1`, `= 0xf2dd, want 0xddf2;`}},
		{"gobwas: Cipher at pos=MaxInt", websockettest.CheckInput(websockettest.Impl{Mask: gobwasImpl.Mask}, make([]byte, 3), 0x37fa213d, math.MaxInt, nil),
			[]string{`Mask(len=3 key=37fa213d pos=9223372036854775807`, `= panic(runtime error: index out of range [-3])`}},
		{"gobwas: CipherReader over a count of -1", websockettest.Check(websockettest.Impl{Mask: gobwasImpl.Mask, NewMaskReader: gobwasImpl.NewMaskReader}, vectors),
			[]string{`MaskReader(len=0 key=37fa213d over "count -1 at 0"`, `panic(runtime error: slice bounds out of range [:-1])`}},
		{"gobwas: CipherWriter passes a short count on", websockettest.Check(websockettest.Impl{Mask: gobwasImpl.Mask, NewMaskWriter: gobwasImpl.NewMaskWriter}, vectors),
			[]string{`MaskWriter(len=1 key=37fa213d over "short count once at 0"`, `= call 1 Write(1) = 0, <nil>;`, `want call 1 Write(1) = 0, short write;`}},
		{"quicvarint: Read's io.EOF inside an integer", quictest.Check(quictest.Impl{ReadVarint: func(r io.ByteReader) (uint64, int, error) {
			c := &countingByteReader{r: r}
			v, err := quicvarint.Read(c)
			return v, c.n, err
		}}, vectors),
			[]string{`ReadVarint(len=1 stream=byte-reader end=io.EOF`, `= (0, 1, io.EOF)`, `want (0, 1, io.ErrUnexpectedEOF)`}},
	} {
		ces := equiv.Counterexamples(q.err)
		if len(ces) != 1 {
			t.Errorf("%s: got %v, want one counterexample", q.name, q.err)
			continue
		}
		s, at := ces[0].Error(), 0
		for _, w := range q.want {
			i := strings.Index(s[at:], w)
			if i < 0 {
				t.Errorf("%s: counterexample %q lacks %q (after offset %d)", q.name, s, w, at)
				break
			}
			at += i + len(w)
		}
	}
}
