package quictest_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/quictest"
	quic "github.com/equivcheck/equivcheck/reference/quic"
)

// parseVarint decodes an RFC 9000 §16 variable-length integer, the way
// one might write it by hand.
func parseVarint(b []byte) (uint64, int, error) {
	if len(b) == 0 {
		return 0, 0, quic.ErrTruncated
	}
	n := 1 << (b[0] >> 6)
	if len(b) < n {
		return 0, 0, quic.ErrTruncated
	}
	v := uint64(b[0] & 0x3f)
	for _, c := range b[1:n] {
		v = v<<8 | uint64(c)
	}
	return v, n, nil
}

// sloppyVarint checks the length of 4- and 8-byte varints only, and reads
// a missing second byte as zero.
func sloppyVarint(b []byte) (uint64, int, error) {
	if len(b) == 0 {
		return 0, 0, quic.ErrTruncated
	}
	n := 1 << (b[0] >> 6)
	if n > 2 && len(b) < n {
		return 0, 0, quic.ErrTruncated
	}
	v := uint64(b[0] & 0x3f)
	for i := 1; i < n; i++ {
		v <<= 8
		if i < len(b) {
			v |= uint64(b[i])
		}
	}
	return v, n, nil
}

// A varint parser alone can be checked: the Impl sets only ParseVarint,
// and every method compares what it can.
func ExampleCheck() {
	err := quictest.Check(quictest.Impl{Name: "mine", ParseVarint: parseVarint})
	fmt.Println("agrees with the reference:", err == nil)
	// Output: agrees with the reference: true
}

// A disagreement is a minimized counterexample: here the one-byte prefix
// of a 2-byte varint, which the parser accepts instead of rejecting.
func ExampleCheck_truncated() {
	err := quictest.Check(quictest.Impl{Name: "sloppy", ParseVarint: sloppyVarint})
	ce := equiv.Counterexamples(err)[0]
	fmt.Printf("%s(%x) = %s, want %s\n", ce.Func, ce.Input, ce.Got, ce.Want)
	// Output: ParseVarint(7b) = (15104, 2, nil), want (0, 0, ErrTruncated)
}

// A parser with errors of its own is checked by mapping them onto the
// reference's.
func ExampleCheck_mapErrors() {
	eof := func(b []byte) (uint64, int, error) {
		if v, n, err := parseVarint(b); err == nil {
			return v, n, nil
		}
		return 0, 0, io.ErrUnexpectedEOF
	}
	err := quictest.Check(quictest.Impl{ParseVarint: eof}, equiv.MapErrors(func(err error) error {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return quic.ErrTruncated
		}
		return err
	}))
	fmt.Println("agrees with the reference:", err == nil)
	// Output: agrees with the reference: true
}

// In a test, Test runs each method as a subtest. A fuzz target is one line
// too:
//
//	func FuzzVarint(f *testing.F) {
//		quictest.Fuzz(f, quictest.Impl{ParseVarint: parseVarint})
//	}
func ExampleTest() {
	_ = func(t *testing.T) {
		quictest.Test(t, quictest.Impl{Name: "mine", ParseVarint: parseVarint})
	}
}
