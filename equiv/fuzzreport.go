package equiv

import (
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
)

// FuzzReporter reports what a pair's FuzzAll finds, in the one message
// format of every pair's Check, Test and Fuzz: the implementation's label
// (see Label), then the Counterexample ("pair/fuzz: Func(len=N …) = got,
// want want; input hex (no seed: the fuzz input reproduces it)"), at the
// file:line of the fuzz target that called the pair's Fuzz or FuzzAll. (A
// fuzz function runs on a goroutine of its own, called through reflect,
// where t.Helper cannot reach that line: the reporter finds it when it is
// made and writes it itself.)
type FuzzReporter struct {
	at    string // file:line of the first caller outside this module's equiv packages
	names []string
}

// NewFuzzReporter returns the reporter of a FuzzAll over impls, named by
// name (the Impl's Name field). The pair's FuzzAll calls it, so that the
// location it reports is the fuzz target's.
func NewFuzzReporter[I any](impls []I, name func(I) string) *FuzzReporter {
	fr := &FuzzReporter{at: callerOutside()}
	for _, impl := range impls {
		fr.names = append(fr.names, name(impl))
	}
	return fr
}

// Label names implementation i in messages: its name; unnamed, "impls[i]"
// among several, and "" when it is the only one.
func (fr *FuzzReporter) Label(i int) string {
	switch {
	case fr.names[i] != "":
		return fr.names[i]
	case len(fr.names) == 1:
		return ""
	}
	return fmt.Sprintf("impls[%d]", i)
}

// Message is err of implementation i as Report prints it: its label, if
// any, and err.
func (fr *FuzzReporter) Message(i int, err error) string {
	if l := fr.Label(i); l != "" {
		return l + ": " + err.Error()
	}
	return err.Error()
}

// Report reports that implementation i disagreed on a fuzz input, with
// err (its Counterexample), at the fuzz target's line: through
// t.Output and t.Fail on a *testing.T, else with Errorf, the location in
// the message.
func (fr *FuzzReporter) Report(t Reporter, i int, err error) {
	t.Helper()
	msg := fr.Message(i, err)
	if o, ok := t.(interface {
		Output() io.Writer
		Fail()
	}); ok && fr.at != "" {
		fmt.Fprintf(o.Output(), "%s: %s\n", fr.at, msg)
		o.Fail()
		return
	}
	if fr.at != "" {
		msg = fr.at + ": " + msg
	}
	t.Errorf("%s", msg)
}

// equivPkg is this package's import path; its subpackages (the pairs'
// checking packages) share the prefix.
var equivPkg = reflect.TypeFor[FuzzReporter]().PkgPath()

// callerOutside returns file:line (the file's base name, as the testing
// package prints it) of the first caller that is not in this package or
// one of its subpackages, or "".
func callerOutside() string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, equivPkg+".") && !strings.HasPrefix(f.Function, equivPkg+"/") && f.File != "" {
			return fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line)
		}
		if !more {
			return ""
		}
	}
}
