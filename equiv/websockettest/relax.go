package websockettest

import "github.com/equivcheck/equivcheck/equiv"

// Relax relaxes, by name, clauses of this package's API contract that are
// not RFC requirements (docs/strictness.md has the table of every check
// and where its strictness comes from), so that an implementation correct
// by RFC 6455 but with another API passes without Excludes written by
// hand. Every Result names the clauses relaxed and counts the inputs each
// left out. The clause:
//
//   - "websocket-writer-no-empty-call": a MaskWriter's Write of nothing
//     (a writer that hands the underlying writer an empty Write, as
//     gobwas/ws's wsutil.CipherWriter does, meets that writer's answer to
//     it, an error included): the MaskWriter inputs with an empty Write
//     are left out.
func Relax(clauses ...string) equiv.Option {
	return equiv.Relax("websockettest", relaxable, clauses...)
}

// relaxable maps each clause Relax knows to the inputs it decides.
var relaxable = map[string]func(any) bool{
	"websocket-writer-no-empty-call": func(in any) bool {
		i, ok := in.(Input)
		return ok && i.Func == "MaskWriter" && hasEmptyCall(i)
	},
}

// hasEmptyCall reports whether one of a streamer input's calls is of no
// octets.
func hasEmptyCall(in Input) bool {
	prev := 0
	for _, end := range append(in.Splits[:len(in.Splits):len(in.Splits)], len(in.Payload)) {
		if end == prev {
			return true
		}
		prev = end
	}
	return false
}
