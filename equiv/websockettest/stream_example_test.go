package websockettest_test

import (
	"fmt"
	"io"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/websockettest"
	ref "github.com/equivcheck/equivcheck/reference/websocket"
)

// forgetful unmasks each Read from key octet 0: right when every Read
// returns a multiple of 4 octets, wrong after a short read.
type forgetful struct {
	r   io.Reader
	key [4]byte
}

func (f *forgetful) Reset(r io.Reader, key [4]byte) { f.r, f.key = r, key }

func (f *forgetful) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	ref.Mask(p[:max(0, min(n, len(p)))], f.key, 0)
	return n, err
}

// The streamers are optional Impl fields. A MaskReader that does not carry
// the key position across Reads is caught on RFC 6455 §5.7's "Hello" read
// one octet at a time, minimized to two octets.
func ExampleImpl_streamers() {
	impl := websockettest.Impl{
		Mask: ref.Mask,
		NewMaskReader: func(r io.Reader, key [4]byte) websockettest.MaskReader {
			return &forgetful{r: r, key: key}
		},
	}
	err := websockettest.Check(impl, equiv.WithMethods(func(m string) bool { return m == equiv.MethodVectors }))
	ce := equiv.Counterexamples(err)[0]
	fmt.Printf("%s(% x, %s):\n got  %s\n want %s\n", ce.Func, ce.Input, ce.Args, ce.Got, ce.Want)
	// Output:
	// MaskReader(00 00, key=37fa213d over "bytes.Reader" calls ending at [1 2] align=0):
	//  got  call 2 Read(1) = 1, <nil>; p[:n] = 37
	//  want call 2 Read(1) = 1, <nil>; p[:n] = fa
}
