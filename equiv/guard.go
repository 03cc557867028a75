package equiv

// Guarded is a read-write region of memory between two unmapped pages, so
// that an access just before or just after it faults. Run.Guarded maps one
// for a method; the method's Func then runs with faults turned into panics
// (runtime/debug.SetPanicOnFault) inside Run.Guarded's callback, which the
// suites recover and report as counterexamples.
type Guarded struct {
	mem    []byte // the whole mapping, guards included
	data   []byte // the accessible middle
	free   func()
	guards []*region // the unmapped pages, so that a fault there is named
}

// registerGuards records g's unmapped pages, so that a fault in one is
// reported as an access before or past the buffer.
func (g *Guarded) registerGuards() {
	lo, mid := AddrOf(g.mem), AddrOf(g.data)
	end := mid + uintptr(len(g.data))
	g.guards = []*region{{lo: lo, hi: mid, kind: guardBefore}, {lo: end, hi: lo + uintptr(len(g.mem)), kind: guardAfter}}
	for _, x := range g.guards {
		register(x)
	}
}

// Tail returns the last n accessible bytes: the byte after them is unmapped.
func (g *Guarded) Tail(n int) []byte { return g.data[len(g.data)-n:] }

// Head returns the first n accessible bytes: the byte before them is
// unmapped.
func (g *Guarded) Head(n int) []byte { return g.data[:n:n] }

// Guarded maps, for each of sizes, a region of at least that many
// accessible bytes between guard pages, runs f with them and with memory
// faults turned into recoverable panics on this goroutine, and unmaps them.
// Where guard pages are not implemented (GuardSkip is not ""), it returns
// an error without calling f; suites mark their guard method with
// Method.Skip = GuardSkip() so that it is reported skipped instead.
func (r *Run) Guarded(f func(g []*Guarded) error, sizes ...int) error {
	var gs []*Guarded
	defer func() {
		for _, g := range gs {
			for _, x := range g.guards {
				unregister(x)
			}
			g.free()
		}
	}()
	for _, n := range sizes {
		g, err := newGuarded(n)
		if err != nil {
			return r.Errorf("guard pages: %v", err)
		}
		g.registerGuards()
		gs = append(gs, g)
	}
	return withFaultPanics(func() error { return f(gs) })
}
