package constructs

import (
	"fmt"
	"reflect"
	"unsafe"
)

// The functions below use what the executor does not run: each must stop
// it with the construct and the line named.

// UsesMap uses a map.
func UsesMap(k uint8) int {
	m := map[uint8]int{1: 2}
	return m[k]
}

// UsesDefer defers a call.
func UsesDefer(n int) (r int) {
	defer func() { r++ }()
	return n
}

// UsesGoroutine starts a goroutine and waits on a channel.
func UsesGoroutine(n int) int {
	c := make(chan int)
	go func() { c <- n }()
	return <-c
}

// UsesFloat computes in floating point.
func UsesFloat(n int) int { return int(float64(n) * 1.5) }

// UsesUnsafe reads an address.
func UsesUnsafe(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// UsesReflect uses reflect.
func UsesReflect(b []byte) uintptr { return reflect.ValueOf(b).Pointer() }

// UsesFmt formats, which reflect and interfaces of unknown type do.
func UsesFmt(n int) string { return fmt.Sprint(n) }

// UsesStringConversion converts bytes to a string.
func UsesStringConversion(b []byte) int { return len(string(b)) }

// NeverMap uses a map only for inputs that do not exist (no square is 2
// modulo 256): the executor meets it, and a proof must not stop on it.
func NeverMap(n uint8) int {
	if n*n == 2 {
		return UsesMap(n)
	}
	return int(n)
}
