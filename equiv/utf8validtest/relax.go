package utf8validtest

import (
	"github.com/equivcheck/equivcheck/equiv"
	ref "github.com/equivcheck/equivcheck/reference/utf8valid"
)

// Relax relaxes, by name, clauses of this package's API contract that are
// not RFC requirements (docs/strictness.md has the table of every check
// and where its strictness comes from), so that an implementation correct
// by RFC 3629 but with another API passes without Excludes written by
// hand. Every Result names the clauses relaxed and counts the inputs each
// left out. The clause:
//
//   - "utf8-empty-write-fails": an empty Write after the Write that failed
//     (a Validator, or a Reader over an io.Reader, that returns 0, nil
//     for a Write of nothing whatever came before, as gobwas/ws's
//     wsutil.UTF8Reader does): the Validator inputs with such a Write are
//     left out, and the law "a Validator fails at one offset however the
//     text is cut" accepts 0, nil where the cut is at the text's end.
func Relax(clauses ...string) equiv.Option {
	return equiv.Relax("utf8validtest", relaxable, clauses...)
}

// emptyWriteFails is the clause the properties method consults itself.
const emptyWriteFails = "utf8-empty-write-fails"

// relaxable maps each clause Relax knows to the inputs it decides.
var relaxable = map[string]func(any) bool{
	emptyWriteFails: func(in any) bool {
		i, ok := in.(Input)
		return ok && i.Func == "Validator" && emptyWriteAfterFailure(i)
	},
}

// emptyWriteAfterFailure reports whether one of in's Writes is empty and
// comes after the octet at which the reference fails the text.
func emptyWriteAfterFailure(in Input) bool {
	var v ref.Validator
	n, err := v.Write(in.Text)
	if err == nil {
		return false
	}
	prev := 0
	for _, end := range append(in.Splits[:len(in.Splits):len(in.Splits)], len(in.Text)) {
		if end == prev && prev > n {
			return true
		}
		prev = end
	}
	return false
}
