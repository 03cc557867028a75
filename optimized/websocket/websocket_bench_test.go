package websocket

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/equivcheck/equivcheck/reference/websocket"
)

var benchSizes = []int{2, 16, 125, 1024, 16384, 1048576}

// alignedBuf returns n octets starting align octets past a 64-octet
// boundary.
func alignedBuf(n, align int) []byte {
	buf := make([]byte, n+64+align)
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(buf))) & 63)
	return buf[off+align : off+align+n : off+align+n]
}

type benchImpl struct {
	name     string
	mask     func(b []byte, key [4]byte, pos int) int
	maskCopy func(dst, src []byte, key [4]byte, pos int) int
}

// benchImpls lists the available variants, the dispatcher and the reference.
func benchImpls() []benchImpl {
	var list []benchImpl
	for _, im := range Impls() {
		if im.Available {
			list = append(list, benchImpl{im.Name, im.Mask, im.MaskCopy})
		}
	}
	return append(list,
		benchImpl{"dispatch", Mask, MaskCopy},
		benchImpl{"reference", websocket.Mask, websocket.MaskCopy},
	)
}

func BenchmarkMask(b *testing.B) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	for _, n := range benchSizes {
		for _, align := range []int{0, 1} {
			for _, im := range benchImpls() {
				b.Run(fmt.Sprintf("size=%d/align=%d/impl=%s", n, align, im.name), func(b *testing.B) {
					buf := alignedBuf(n, align)
					b.SetBytes(int64(n))
					b.ReportAllocs()
					pos := 0
					for b.Loop() {
						pos = im.mask(buf, key, pos)
					}
				})
			}
		}
	}
}

// BenchmarkMaskCopy compares MaskCopy with impl=copy+mask, copy() followed
// by Mask, which is what a caller without MaskCopy would write.
func BenchmarkMaskCopy(b *testing.B) {
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	impls := append(benchImpls(), benchImpl{"copy+mask", nil, func(dst, src []byte, key [4]byte, pos int) int {
		copy(dst, src)
		return Mask(dst[:len(src)], key, pos)
	}})
	for _, n := range benchSizes {
		for _, align := range []int{0, 1} {
			for _, im := range impls {
				b.Run(fmt.Sprintf("size=%d/align=%d/impl=%s", n, align, im.name), func(b *testing.B) {
					src := alignedBuf(n, align)
					dst := alignedBuf(n, align)
					b.SetBytes(int64(n))
					b.ReportAllocs()
					pos := 0
					for b.Loop() {
						pos = im.maskCopy(dst, src, key, pos)
					}
				})
			}
		}
	}
}
