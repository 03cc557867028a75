package fuzz

import (
	"testing"

	"github.com/equivcheck/equivcheck/equiv/checksumtest"
	"github.com/equivcheck/equivcheck/equiv/quictest"
	"github.com/equivcheck/equivcheck/equiv/utf8validtest"
	"github.com/equivcheck/equivcheck/equiv/websockettest"
	"github.com/equivcheck/equivcheck/internal/registry"
)

// FuzzChecksum: Sum at the plan's alignment, Checksum, a Digest fed in the
// plan's pieces and Update on the plan's triple, and, with the plan's
// helper section, Combine, FinishUDP, Put, UpdateUDP, UpdateUDP6,
// PseudoHeaderSum and VerifyUDP (checksumtest.CheckInput).
func FuzzChecksum(f *testing.F) { checksumtest.FuzzAll(f, registry.Available(registry.Checksum())) }

// FuzzMask: Mask at the plan's alignment, in the plan's chunks, MaskCopy,
// and the streaming MaskReader and MaskWriter over the plan's readers and
// writers (websockettest.CheckInput).
func FuzzMask(f *testing.F) { websockettest.FuzzAll(f, registry.Available(registry.Mask())) }

// FuzzQUICHeader: ParseHeader, Packets, ParseVarint and AppendVarint on raw
// bytes (quictest.CheckInput).
func FuzzQUICHeader(f *testing.F) { quictest.FuzzAll(f, registry.Available(registry.QUIC())) }

// FuzzQUICStructured: datagrams built from the header grammar, then mutated
// (quictest.CheckStructured).
func FuzzQUICStructured(f *testing.F) {
	quictest.FuzzStructured(f, registry.Available(registry.QUIC()))
}

// FuzzQUICPacketNumber: DecodePacketNumber (quictest.CheckPacketNumber).
func FuzzQUICPacketNumber(f *testing.F) {
	quictest.FuzzPacketNumber(f, registry.Available(registry.QUIC()))
}

// FuzzUTF8: Valid at the plan's alignment, a Validator fed the text in the
// plan's pieces, Unmask of the masked text in those pieces, and a Reader
// over the plan's underlying reader (utf8validtest.CheckInput).
func FuzzUTF8(f *testing.F) { utf8validtest.FuzzAll(f, registry.Available(registry.UTF8())) }
