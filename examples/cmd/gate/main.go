// Command gate is a user's release gate: equivcheck's gate over this
// module's own implementations, with equivcheck's flags, table, JSON and
// exit codes (0 agree, 1 disagree, 2 unusable flags or corpus or nothing
// compared, 130 interrupted).
package main

import (
	"errors"
	"io"

	"example.com/equivuser/mymask"
	"example.com/equivuser/mysum"
	"example.com/equivuser/myvarint"
	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/equiv/gate"
	"github.com/equivcheck/equivcheck/equiv/quictest"
	"github.com/equivcheck/equivcheck/equiv/websockettest"
	"github.com/equivcheck/equivcheck/reference/quic"
)

func main() { gate.Main(Variants()...) }

// Variants are the implementations the gate checks.
func Variants() []gate.Variant {
	return []gate.Variant{
		{Name: "mysum", Suite: checksumtest.NewSuite(checksumtest.Impl{Sum: mysum.Sum, Checksum: mysum.Checksum})},
		{Name: "mymask", Suite: websockettest.NewSuite(websockettest.Impl{Mask: mymask.Mask}),
			Options: []equiv.Option{websockettest.NonNegativePos()}},
		{Name: "myvarint", Suite: quictest.NewSuite(quictest.Impl{ParseVarint: myvarint.Parse}),
			Options: []equiv.Option{MapErrors}},
	}
}

// MapErrors maps myvarint's errors onto the reference's classes.
var MapErrors = equiv.MapErrors(func(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return quic.ErrTruncated
	}
	return err
})
