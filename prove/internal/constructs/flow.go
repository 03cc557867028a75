package constructs

// IfElse branches on the input.
func IfElse(a int, b uint8) int {
	if a > 10 {
		a -= 3
	} else if b&1 == 0 {
		a *= 2
	} else {
		return int(b)
	}
	if a < 0 {
		a = -a
	}
	return a
}

// Switch is a switch on an integer, with fallthrough, and one with no
// tag.
func Switch(a uint8) (int, string) {
	n := 0
	switch a % 8 {
	case 0:
		n = 10
	case 1, 2:
		n = 20
		fallthrough
	case 3:
		n++
	default:
		n = -1
	}
	switch {
	case a > 200:
		return n, "big"
	case a > 100:
		return n, "medium"
	}
	return n, "small"
}

// Loops counts with for, while, break, continue and labels.
func Loops(n uint8) (sum, odd, pairs int) {
	for i := 0; i < int(n%20); i++ {
		if i%2 == 0 {
			continue
		}
		odd++
		if i > 15 {
			break
		}
		sum += i
	}
	j := int(n)
	for j > 3 {
		j /= 2
		sum += j
	}
outer:
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			if a+b > int(n%6) {
				continue outer
			}
			if a*b == 6 {
				break outer
			}
			pairs++
		}
	}
	return sum, odd, pairs
}

// LoopInput loops as long as the input says: the exit depends on the
// octets.
func LoopInput(b []byte) (int, int) {
	i := 0
	for i < len(b) && b[i] != 0 {
		i++
	}
	steps := 0
	x := uint32(len(b))
	for _, c := range b {
		x = x*31 + uint32(c)
	}
	for x > 1000 {
		x >>= 3
		steps++
	}
	return i, steps
}

// RangeInt ranges over an int, a slice and an array.
func RangeInt(n uint8, b []byte) (int, int, byte) {
	s := 0
	for i := range int(n % 10) {
		s += i * i
	}
	var arr [5]int
	for i := range arr {
		arr[i] = i * s
	}
	t := 0
	for _, v := range arr {
		t += v
	}
	var x byte
	for i, c := range b {
		x ^= c + byte(i)
	}
	return s, t, x
}

// Goto jumps backwards and forwards.
func Goto(n uint8) int {
	i, s := 0, 0
loop:
	if i >= int(n%7) {
		goto done
	}
	s += i
	i++
	goto loop
done:
	return s
}

// Recurse recurses to a depth the input chooses.
func Recurse(n uint8) uint64 {
	if n%12 == 0 {
		return 1
	}
	return uint64(n%12) * Recurse(n-1)
}
