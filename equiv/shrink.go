package equiv

import "bytes"

// shrinkBudget bounds the calls a minimization makes.
const shrinkBudget = 4000

// shrinkBytes returns a smaller input on which fails still holds: it removes
// ever smaller chunks (halves, quarters, … single bytes), then zeroes the
// bytes that remain, keeping each change only if the input still fails. The
// input is not modified; fails must not retain its argument.
func shrinkBytes(data []byte, fails func([]byte) bool) []byte {
	d := bytes.Clone(data)
	budget := shrinkBudget
	try := func(c []byte) bool {
		if budget <= 0 {
			return false
		}
		budget--
		return fails(c)
	}
	for chunk := len(d) / 2; chunk >= 1; chunk /= 2 {
		for i := 0; i+chunk <= len(d); {
			c := append(append([]byte(nil), d[:i]...), d[i+chunk:]...)
			if try(c) {
				d = c
			} else {
				i += chunk
			}
		}
	}
	for i := range d {
		if d[i] == 0 {
			continue
		}
		c := bytes.Clone(d)
		c[i] = 0
		if try(c) {
			d = c
		}
	}
	return d
}
