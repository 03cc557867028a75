// Package iosource builds the readers the conformance suites put under a
// streamer of the implementation's (websockettest's MaskReader,
// utf8validtest's Reader): testing/iotest's behaviours, and readers that
// fail, or break io.Reader's count contract, once at a stream offset.
// Each suite keeps its own numbering of the kinds it uses (its fuzz inputs
// and random draws name them by number) and maps it onto Kind.
package iosource

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"testing/iotest"
)

// Kind is how a reader hands out its octets.
type Kind int

// The first five kinds act alone; the others act once, at the offset the
// case names.
const (
	Plain    Kind = iota // bytes.Reader: as much as p holds, then 0, io.EOF
	OneByte              // iotest.OneByteReader
	Half                 // iotest.HalfReader
	DataErr              // iotest.DataErrReader: io.EOF with the last octets
	Timeout              // iotest.TimeoutReader: 0, ErrTimeout on the second Read
	Fails                // the octets up to the offset, the last with the broken error; then 0, that error
	Zero                 // 0, nil once, from the first Read at or past the offset
	Negative             // -1, nil once, likewise
	TooMany              // fills p and returns len(p)+1, nil once, likewise
	// DataTimeout: the octets up to the offset with
	// os.ErrDeadlineExceeded, once, from the first Read that reaches it
	// (a socket's Read whose deadline expired after some data arrived,
	// which a caller retries); then the rest as Plain.
	DataTimeout
)

// AtOffset reports whether k acts at an offset (and its name gives it).
func (k Kind) AtOffset() bool { return k >= Fails }

// Name names k acting at offset at, for messages and Input.Underlying.
func (k Kind) Name(at int) string {
	names := [...]string{"bytes.Reader", "iotest.OneByteReader", "iotest.HalfReader",
		"iotest.DataErrReader", "iotest.TimeoutReader", "fails at %d", "0, nil at %d",
		"count -1 at %d", "count len(p)+1 at %d", "data with a deadline error at %d"}
	if !k.AtOffset() {
		return names[k]
	}
	return fmt.Sprintf(names[k], at)
}

// New returns a reader of kind k over data acting at offset at; broken is
// the error of a Fails reader.
func New(k Kind, at int, data []byte, broken error) io.Reader {
	r := bytes.NewReader(data)
	switch k {
	case Plain:
		return r
	case OneByte:
		return iotest.OneByteReader(r)
	case Half:
		return iotest.HalfReader(r)
	case DataErr:
		return emptyReads{iotest.DataErrReader(r)}
	case Timeout:
		return iotest.TimeoutReader(r)
	}
	return &faulty{r: r, kind: k, at: at, broken: broken}
}

// emptyReads answers a Read of an empty p itself with 0, nil: the
// reader it wraps would loop forever on one (iotest.DataErrReader reads
// until it has data to copy or an error).
type emptyReads struct{ r io.Reader }

func (e emptyReads) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	return e.r.Read(p)
}

// faulty is a reader of one of the kinds that act at an offset.
type faulty struct {
	r      *bytes.Reader
	kind   Kind
	at     int
	off    int // octets handed out
	fired  bool
	broken error
}

func (f *faulty) Read(p []byte) (int, error) {
	if f.kind == Fails {
		if f.off >= f.at {
			return 0, f.broken
		}
		n, _ := f.r.Read(p[:min(len(p), f.at-f.off)])
		if f.off += n; f.off == f.at {
			return n, f.broken
		}
		return n, nil
	}
	if f.kind == DataTimeout && !f.fired && f.off+len(p) >= f.at {
		f.fired = true
		n, _ := f.r.Read(p[:f.at-f.off])
		f.off += n
		return n, os.ErrDeadlineExceeded
	}
	if !f.fired && f.off >= f.at {
		f.fired = true
		switch f.kind {
		case Zero:
			return 0, nil
		case Negative:
			return -1, nil
		case TooMany:
			n, err := f.r.Read(p)
			f.off += n
			return len(p) + 1, err
		}
	}
	n, err := f.r.Read(p)
	f.off += n
	return n, err
}
