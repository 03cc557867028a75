package peers

import (
	"bytes"
	"io"
	"reflect"
	"testing"

	"github.com/lucas-clemente/quic-go/quicvarint"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/quictest"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// peers:begin lucasclemente
// lucasImpl is quicvarint from github.com/lucas-clemente/quic-go v0.26.0,
// quic-go's module path before it moved to github.com/quic-go/quic-go,
// as a quictest.Impl. It has Read from an io.ByteReader and Write and
// WriteWithLen to a Writer, no Parse or Append: ParseVarint reads from a
// bytes.Reader over b and counts what it consumed (0 on an error, as
// reference/quic's ParseVarint does), the appends write to a
// bytes.Buffer over b, which appends in place when b has room.
// WriteWithLen's length is of an internal type, protocol.ByteCount,
// which only reflect can convert an int to.
var lucasImpl = quictest.Impl{
	Name: "lucas-clemente/quicvarint",
	ParseVarint: func(b []byte) (uint64, int, error) {
		r := bytes.NewReader(b)
		v, err := quicvarint.Read(r)
		if err != nil {
			return 0, 0, err
		}
		return v, len(b) - r.Len(), nil
	},
	AppendVarint: func(b []byte, v uint64) []byte {
		w := bytes.NewBuffer(b)
		quicvarint.Write(w, v)
		return w.Bytes()
	},
	AppendVarintWithLen: func(b []byte, v uint64, n int) []byte {
		w := bytes.NewBuffer(b)
		writeWithLen.Call([]reflect.Value{reflect.ValueOf(w), reflect.ValueOf(v), reflect.ValueOf(n).Convert(writeWithLen.Type().In(2))})
		return w.Bytes()
	},
}

var writeWithLen = reflect.ValueOf(quicvarint.WriteWithLen)

// lucasOptions: Read reports a short input as io.EOF, and the writes
// panic with values of their own where the reference panics.
var lucasOptions = []equiv.Option{
	equiv.MapErrors(func(err error) error {
		if err == io.EOF {
			return quic.ErrTruncated
		}
		return err
	}),
	equiv.AnyPanic(),
}

// lucasRead is Read as a ReadVarint, counted and marked as
// quicvarintRead is (quic-go's Read is its descendant).
var lucasRead = quictest.Impl{
	Name: "lucas-clemente/quicvarint.Read",
	ReadVarint: func(r io.ByteReader) (uint64, int, error) {
		c := &countingByteReader{r: r}
		v, err := quicvarint.Read(c)
		if err == io.EOF && c.n > 0 {
			err = errEOFInInteger
		}
		return v, c.n, err
	},
}

func TestPeerLucasClemente(t *testing.T) {
	t.Parallel()
	t.Run("Read as Parse,Write,WriteWithLen", func(t *testing.T) {
		quictest.Test(t, lucasImpl, append(lucasOptions, quick)...)
	})
	t.Run("Read", func(t *testing.T) {
		quictest.Test(t, lucasRead, append(quicvarintReadOptions, quick)...)
	})
}

// peers:end lucasclemente
