package quicvectors_test

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/equivcheck/equivcheck/equiv/internal/quicvectors"
	"github.com/equivcheck/equivcheck/reference/quic"
)

// errs names the sentinel errors the vectors refer to.
var errs = map[string]error{
	"":                         nil,
	"ErrInvalidArgument":       quic.ErrInvalidArgument,
	"ErrTruncated":             quic.ErrTruncated,
	"ErrFixedBitClear":         quic.ErrFixedBitClear,
	"ErrCIDTooLong":            quic.ErrCIDTooLong,
	"ErrEmptyRetryToken":       quic.ErrEmptyRetryToken,
	"ErrBadVersionList":        quic.ErrBadVersionList,
	"ErrLengthExceedsDatagram": quic.ErrLengthExceedsDatagram,
	"ErrPacketTooShort":        quic.ErrPacketTooShort,
	"ErrDCIDMismatch":          quic.ErrDCIDMismatch,
	"ErrTrailingBytes":         quic.ErrTrailingBytes,
}

func sentinel(t *testing.T, name string) error {
	t.Helper()
	err, ok := errs[name]
	if !ok {
		t.Fatalf("unknown error name %q", name)
	}
	return err
}

// The vectors are data for other suites; these tests keep them honest by
// checking them against the reference implementation.

func TestVarints(t *testing.T) {
	for _, v := range quicvectors.Varints {
		b, _ := hex.DecodeString(v.Hex)
		got, n, err := quic.ParseVarint(b)
		if got != v.Value || n != v.Len || err != nil {
			t.Errorf("%s: ParseVarint(%s) = %d, %d, %v; want %d, %d, nil", v.Source, v.Hex, got, n, err, v.Value, v.Len)
		}
	}
}

func TestPacketNumbers(t *testing.T) {
	for _, v := range quicvectors.PacketNumbers {
		if got := quic.DecodePacketNumber(v.Largest, v.Truncated, v.PNLen); got != v.Want {
			t.Errorf("%s: DecodePacketNumber(%#x, %#x, %d) = %#x, want %#x", v.Source, v.Largest, v.Truncated, v.PNLen, got, v.Want)
		}
	}
}

func hexOf(b []byte) string { return hex.EncodeToString(b) }

func TestPackets(t *testing.T) {
	for _, v := range quicvectors.Packets {
		b := v.Bytes()
		h, err := quic.ParseHeader(b, v.ShortDCIDLen)
		if v.Grease {
			if err != quic.ErrFixedBitClear {
				t.Errorf("%s (%s): ParseHeader without GreaseQUICBit: %v, want ErrFixedBitClear", v.Name, v.Source, err)
			}
			h, err = quic.ParseHeaderWith(b, v.ShortDCIDLen, quic.GreaseQUICBit)
		}
		if err != nil {
			t.Errorf("%s (%s): ParseHeader: %v", v.Name, v.Source, err)
			continue
		}
		check := func(field string, got, want any) {
			if got != want {
				t.Errorf("%s (%s): %s = %v, want %v", v.Name, v.Source, field, got, want)
			}
		}
		check("Type", h.Type().String(), v.Type)
		check("Version", h.Version(), v.Version)
		check("DCID", hexOf(h.DCID()), v.DCID)
		check("SCID", hexOf(h.SCID()), v.SCID)
		check("Token", hexOf(h.Token()), v.Token)
		check("Length", h.Length(), v.Length)
		check("PNOffset", h.PNOffset(), v.PNOffset)
		check("len(Packet)", len(h.Packet()), v.PacketLen)
		check("SupportedVersions", hexOf(h.SupportedVersions()), v.SupportedVersions)
		check("IntegrityTag", hexOf(h.IntegrityTag()), v.IntegrityTag)
		check("Spin", h.Spin(), v.Spin)
		check("Packet aliases the datagram", &h.Packet()[0] == &b[0], true)
	}
}

func TestBadPackets(t *testing.T) {
	for _, v := range quicvectors.BadPackets {
		want := sentinel(t, v.Err)
		if _, err := quic.ParseHeader(v.Bytes(), v.ShortDCIDLen); err != want {
			t.Errorf("%s (%s): ParseHeader error = %v, want %v", v.Name, v.Source, err, want)
		}
	}
}

func TestDatagrams(t *testing.T) {
	for _, d := range quicvectors.Datagrams {
		b := d.Bytes()
		var got []quicvectors.CoalescedPacket
		off := 0
		var opts quic.Options
		if d.Grease {
			opts = quic.GreaseQUICBit
		}
		for h, err := range quic.PacketsWith(b, d.ShortDCIDLen, opts) {
			name := ""
			for n, e := range errs {
				if e == err {
					name = n
				}
			}
			if err != nil && name == "" {
				t.Fatalf("%s: unknown error %v", d.Name, err)
			}
			typ := ""
			p := h.Packet()
			if h.Type() != quic.TypeNone {
				typ = h.Type().String()
			}
			if len(p) > 0 {
				if !bytes.Equal(p, b[off:off+len(p)]) || &p[0] != &b[off] {
					t.Errorf("%s: packet %d does not alias datagram[%d:]", d.Name, len(got), off)
				}
				off += len(p)
			}
			got = append(got, quicvectors.CoalescedPacket{Type: typ, PacketLen: len(p), Err: name})
		}
		if len(got) != len(d.Want) {
			t.Errorf("%s (%s): Packets yielded %v, want %v", d.Name, d.Source, got, d.Want)
			continue
		}
		for i := range got {
			if got[i] != d.Want[i] {
				t.Errorf("%s (%s): packet %d = %v, want %v", d.Name, d.Source, i, got[i], d.Want[i])
			}
		}
	}
}

// TestPadding pins Padding's output, which the datagram vectors' expected
// results depend on.
func TestPadding(t *testing.T) {
	if got := hexOf(quicvectors.Padding(3, 8)); got != "1db39c1237a222e3" {
		t.Errorf("Padding(3, 8) = %s, want 1db39c1237a222e3", got)
	}
}
