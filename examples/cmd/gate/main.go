// Command gate is a user's release gate: equivcheck's gate over this
// module's own implementations (of three of equivcheck's pairs, and of
// three pairs of the module's own through functest), with equivcheck's
// flags, table, JSON and exit codes (0 agree, 1 disagree, 2 unusable
// flags or corpus or nothing compared, 130 interrupted).
package main

import (
	"encoding/binary"
	"errors"
	"io"

	"example.com/equivuser/mycrc"
	"example.com/equivuser/myleb128"
	"example.com/equivuser/mylower"
	"example.com/equivuser/mymask"
	"example.com/equivuser/mysum"
	"example.com/equivuser/myvarint"
	"github.com/equivcheck/equivcheck/equiv"
	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/equiv/functest"
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
		// Pairs of this module's own, each a suite functest derives from
		// a reference and the implementation.
		{Name: "mycrc", Suite: functest.New("CRC32C", mycrc.ChecksumBitwise, mycrc.Checksum)},
		{Name: "mylower", Suite: functest.New("Lower", mylower.LowerBytewise, mylower.Lower, functest.Writes(0))},
		{Name: "myleb128", Suite: functest.New("AppendUvarint", binary.AppendUvarint, myleb128.AppendUvarint,
			functest.Appends(0))},
	}
}

// MapErrors maps myvarint's errors onto the reference's classes.
var MapErrors = equiv.MapErrors(func(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return quic.ErrTruncated
	}
	return err
})
