//go:build !linux

package equiv

import "errors"

const guardSupported = false

type guarded struct{ data []byte }

func newGuarded(n int) (*guarded, error) {
	return nil, errors.New("guard pages are implemented on Linux only")
}

func (g *guarded) tail(n int) []byte { return g.data[len(g.data)-n:] }
func (g *guarded) head(n int) []byte { return g.data[:n:n] }
func (g *guarded) free()             {}
