package functest

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"reflect"

	fuzz "github.com/AdaLogics/go-fuzz-headers"
)

// The fuzz target of a derived suite takes one []byte, from which an
// octet of alignment and the function's arguments are read in order with
// go-fuzz-headers' ConsumeFuzzer, so that the fuzzer's mutations reach
// every parameter and any input decodes (a value the data runs out before
// is its zero). Each kind reads:
//
//   - []byte, string: a big-endian uint32 length n, then n octets (n
//     modulo the octets left, plus one);
//   - bool: an octet, true if even (go-fuzz-headers' GetBool);
//   - an integer of 8 bits: an octet; of 16: two octets and an octet whose
//     evenness selects little-endian; of 32: four octets, big-endian; of
//     64: eight octets and the order octet;
//   - netip.Addr: an octet of family (0 the zero Addr, 1 IPv4, 2 IPv6, 3
//     IPv6 with a zone), the address's octets, and the zone as a string;
//   - an io.Reader: its content as a []byte, then the kind and offset
//     octets; an io.Writer: the kind and offset octets;
//   - an array or struct: its elements or fields in order.
//
// encode writes the exact inverse, so that a counterexample replays as a
// "go test fuzz v1" file of its encoding.

// source reads a fuzz input with go-fuzz-headers' ConsumeFuzzer, keeping
// count of the octets left (which the consumer does not export), so that
// a length is never more than what remains.
type source struct {
	c    *fuzz.ConsumeFuzzer
	left int
}

func (s *source) byte() (byte, bool) {
	v, err := s.c.GetByte()
	s.left = max(s.left-1, 0)
	return v, err == nil
}

func (s *source) bytes(n int) ([]byte, bool) {
	v, err := s.c.GetNBytes(n)
	s.left = max(s.left-n, 0)
	return v, err == nil
}

func (s *source) bool() bool {
	v, _ := s.c.GetBool()
	s.left = max(s.left-1, 0)
	return v
}

func (s *source) uint32() (uint32, bool) {
	v, err := s.c.GetUint32()
	s.left = max(s.left-4, 0)
	return v, err == nil
}

// decode reads one value of p's type from c.
func (p *param) decode(c *source) reflect.Value {
	switch p.kind {
	case kBytes, kString:
		return p.fromBytes(getBytes(c))
	case kBool:
		return reflect.ValueOf(c.bool()).Convert(p.t)
	case kInt, kUint:
		return p.fromBits(getUint(c, p.bits))
	case kAddr:
		return reflect.ValueOf(decodeAddr(c))
	case kReader:
		data := getBytes(c)
		k, _ := c.byte()
		at, _ := c.byte()
		return reflect.ValueOf(readerArg{Data: data, Kind: int(k) % len(readerKinds), At: int(at)})
	case kWriter:
		k, _ := c.byte()
		at, _ := c.byte()
		return reflect.ValueOf(writerArg{Kind: int(k) % numWriterKinds, At: int(at)})
	}
	v := reflect.New(p.t).Elem()
	for i, q := range p.parts() {
		p.part(v, i).Set(q.decode(c))
	}
	return v
}

// encode appends v, of p's type, to b as decode reads it.
func (p *param) encode(b []byte, v reflect.Value) []byte {
	switch p.kind {
	case kBytes:
		return putBytes(b, v.Bytes())
	case kString:
		return putBytes(b, []byte(v.String()))
	case kBool:
		if v.Bool() {
			return append(b, 0)
		}
		return append(b, 1)
	case kInt:
		return putUint(b, uint64(v.Int()), p.bits)
	case kUint:
		return putUint(b, v.Uint(), p.bits)
	case kAddr:
		return encodeAddr(b, v.Interface().(netip.Addr))
	case kReader:
		a := v.Interface().(readerArg)
		return append(putBytes(b, a.Data), byte(a.Kind), byte(a.At))
	case kWriter:
		a := v.Interface().(writerArg)
		return append(b, byte(a.Kind), byte(a.At))
	}
	for i, q := range p.parts() {
		b = q.encode(b, p.part(v, i))
	}
	return b
}

// getBytes reads a length-prefixed string of octets: nil when the data
// runs out, and never more octets than are left.
func getBytes(c *source) []byte {
	n, ok := c.uint32()
	if !ok || n == 0 {
		return []byte{}
	}
	n %= uint32(c.left + 1)
	if n == 0 {
		return []byte{}
	}
	b, ok := c.bytes(int(n))
	if !ok {
		return []byte{}
	}
	return b
}

func putBytes(b, data []byte) []byte {
	return append(binary.BigEndian.AppendUint32(b, uint32(len(data))), data...)
}

// getUint reads an integer of bits bits as go-fuzz-headers does.
func getUint(c *source, bits int) uint64 {
	switch bits {
	case 8:
		v, _ := c.byte()
		return uint64(v)
	case 16:
		v, _ := c.c.GetUint16()
		c.left = max(c.left-3, 0)
		return uint64(v)
	case 32:
		v, _ := c.uint32()
		return uint64(v)
	}
	v, _ := c.c.GetUint64()
	c.left = max(c.left-9, 0)
	return v
}

// putUint appends u as getUint reads it (big-endian, the order octet odd).
func putUint(b []byte, u uint64, bits int) []byte {
	switch bits {
	case 8:
		return append(b, byte(u))
	case 16:
		return append(binary.BigEndian.AppendUint16(b, uint16(u)), 1)
	case 32:
		return binary.BigEndian.AppendUint32(b, uint32(u))
	}
	return append(binary.BigEndian.AppendUint64(b, u), 1)
}

func decodeAddr(c *source) netip.Addr {
	fam, ok := c.byte()
	if !ok {
		return netip.Addr{}
	}
	switch fam % 4 {
	case 1:
		b, ok := c.bytes(4)
		if !ok {
			return netip.Addr{}
		}
		return netip.AddrFrom4([4]byte(b))
	case 2, 3:
		b, ok := c.bytes(16)
		if !ok {
			return netip.Addr{}
		}
		a := netip.AddrFrom16([16]byte(b))
		if fam%4 == 3 {
			if z := string(getBytes(c)); z != "" && !a.Is4In6() {
				a = a.WithZone(z)
			}
		}
		return a
	}
	return netip.Addr{}
}

func encodeAddr(b []byte, a netip.Addr) []byte {
	switch {
	case !a.IsValid():
		return append(b, 0)
	case a.Is4():
		v := a.As4()
		return append(append(b, 1), v[:]...)
	case a.Zone() != "":
		v := a.As16()
		return putBytes(append(append(b, 3), v[:]...), []byte(a.Zone()))
	}
	v := a.As16()
	return append(append(b, 2), v[:]...)
}

// decodeArgs reads every argument from data, after the octet whose low
// six bits are the alignment of the implementation's buffers (so that a
// counterexample found at one replays at it: the harness lays a slice
// flush against a page at one alignment only).
func (s *spec) decodeArgs(data []byte) ([]reflect.Value, int) {
	c := &source{c: fuzz.NewConsumer(data), left: len(data)}
	align, _ := c.byte()
	args := make([]reflect.Value, len(s.params))
	for i, p := range s.params {
		args[i] = p.decode(c)
	}
	return args, int(align & 63)
}

// encodeArgs is the fuzz input that decodes to args at align.
func (s *spec) encodeArgs(args []reflect.Value, align int) []byte {
	b := []byte{byte(align)}
	for i, p := range s.params {
		b = p.encode(b, args[i])
	}
	return b
}

// format renders v, of p's type, for a message: octets as their length
// (the input's hex follows the message), the rest by value.
func (p *param) format(v reflect.Value) string {
	switch p.kind {
	case kBytes:
		if v.IsNil() {
			return "nil"
		}
		return fmt.Sprintf("[%d octets]", v.Len())
	case kString:
		if v.Len() <= 16 {
			return fmt.Sprintf("%q", v.String())
		}
		return fmt.Sprintf("[%d octets]", v.Len())
	case kAddr:
		a := v.Interface().(netip.Addr)
		if !a.IsValid() {
			return "(zero Addr)"
		}
		return a.String()
	case kInt:
		return fmt.Sprint(v.Int())
	case kUint:
		return fmt.Sprintf("%#x", v.Uint())
	}
	return fmt.Sprintf("%v", v.Interface())
}
