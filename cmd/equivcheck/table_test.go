package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// checkTable checks the table of the whole gate's run (out, its stdout):
// every line from the header to the summary fits 100 columns, and the
// websocket kernels' streamers, left to dispatch, are explained once
// under the table rather than on each of their rows.
func checkTable(t *testing.T, out string) {
	t.Helper()
	in := false
	for _, l := range strings.Split(out, "\n") {
		in = in || strings.HasPrefix(l, "PAIR ")
		if in && strings.Contains(l, " passed, ") {
			break
		}
		if n := utf8.RuneCountInString(l); in && n > 100 {
			t.Errorf("a line of the table of %d columns:\n%s", n, l)
		}
	}
	if n := strings.Count(out, "NewMaskReader, NewMaskWriter: checked under dispatch"); n != 1 {
		t.Errorf("the streamers' note appears %d times, want once:\n%s", n, out)
	}
}
