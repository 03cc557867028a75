package quic_test

import (
	"reflect"
	"testing"

	"github.com/equivcheck/equivcheck/optimized/quic"
)

// TestVariantsOwnFunctions checks that no variant hands a function to the
// dispatching API: each variant's functions are its own symbols, so that
// testing a variant tests its code and not the dispatcher's choice (the
// conformance suite runs each variant through these values).
func TestVariantsOwnFunctions(t *testing.T) {
	exported := map[string]any{
		"ParseVarint": quic.ParseVarint, "AppendVarint": quic.AppendVarint, "DecodePacketNumber": quic.DecodePacketNumber,
		"ParseHeader": quic.ParseHeader, "Packets": quic.Packets, "ParseHeaderWith": quic.ParseHeaderWith,
		"PacketsWith": quic.PacketsWith, "ReadVarint": quic.ReadVarint, "PeekVarint": quic.PeekVarint,
		"AppendVarintWithLen": quic.AppendVarintWithLen,
	}
	for _, impl := range quic.Impls() {
		v := reflect.ValueOf(impl)
		for name, fn := range exported {
			f := v.FieldByName(name)
			if !f.IsValid() || f.IsNil() {
				t.Errorf("variant %s: %s is not set", impl.Name, name)
				continue
			}
			if f.Pointer() == reflect.ValueOf(fn).Pointer() {
				t.Errorf("variant %s: %s is the exported dispatcher, not the variant's own function", impl.Name, name)
			}
		}
	}
}
