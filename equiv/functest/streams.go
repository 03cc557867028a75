package functest

import (
	"bytes"
	"fmt"
	"io"

	"github.com/equivcheck/equivcheck/equiv/internal/iosource"
)

// readerKinds are the readers an io.Reader parameter is given, by
// ReaderArg.Kind: every behaviour io.Reader's contract allows (testing/
// iotest's, an error with the last octets or partway, a 0, nil once), and
// none that breaks it.
var readerKinds = []iosource.Kind{iosource.Plain, iosource.OneByte, iosource.Half, iosource.DataErr,
	iosource.Timeout, iosource.Fails, iosource.Zero}

// reader returns a fresh reader for a: the reference and the
// implementation each read their own, alike.
func (a readerArg) reader() io.Reader {
	k := readerKinds[a.Kind%len(readerKinds)]
	// An offset past the data acts at its end: a reader that fails
	// there must not first hand out 0, nil for ever.
	return iosource.New(k, min(a.At, len(a.Data)), a.Data, errBroken)
}

func (a readerArg) String() string {
	return fmt.Sprintf("%s over %d octets", readerKinds[a.Kind%len(readerKinds)].Name(a.At), len(a.Data))
}

// The writers an io.Writer parameter is given, by WriterArg.Kind: a
// bytes.Buffer; one that writes at most At octets a call and says
// io.ErrShortWrite; one that fails once At octets are written; one that
// takes everything and returns (len(p), err) once At octets are written
// (as a network writer that buffered the octets and then lost the
// connection does).
const (
	writerBuffer = iota
	writerShort
	writerFails
	writerFullErr
	numWriterKinds
)

var writerNames = [numWriterKinds]string{"bytes.Buffer", "short writes of %d", "fails at %d", "(len(p), err) at %d"}

func (a writerArg) String() string {
	k := a.Kind % numWriterKinds
	if k == writerBuffer {
		return writerNames[k]
	}
	return fmt.Sprintf(writerNames[k], a.At)
}

// writer returns a fresh writer for a, which records what it accepted.
func (a writerArg) writer() *recorder { return &recorder{kind: a.Kind % numWriterKinds, at: a.At} }

// recorder is a writer of one of the kinds, which records what it
// accepted. It has Write alone (no WriteString, no ReadFrom), so that
// every octet a function writes goes through the kind's behaviour.
type recorder struct {
	buf      bytes.Buffer
	kind, at int
	failed   bool
}

// Bytes is what the writer accepted.
func (w *recorder) Bytes() []byte { return w.buf.Bytes() }

func (w *recorder) Write(p []byte) (int, error) {
	switch w.kind {
	case writerShort:
		n := min(len(p), max(w.at, 1))
		w.buf.Write(p[:n])
		if n < len(p) {
			return n, io.ErrShortWrite
		}
		return n, nil
	case writerFails:
		if w.failed {
			return 0, errBroken
		}
		if room := w.at - w.buf.Len(); room < len(p) {
			w.buf.Write(p[:max(room, 0)])
			w.failed = true
			return max(room, 0), errBroken
		}
	case writerFullErr:
		w.buf.Write(p)
		if !w.failed && w.buf.Len() >= w.at {
			w.failed = true
			return len(p), errBroken
		}
		return len(p), nil
	}
	return w.buf.Write(p)
}
