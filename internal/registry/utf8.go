package registry

import (
	"io"

	"github.com/equivcheck/equivcheck/equiv/utf8validtest"
	"github.com/equivcheck/equivcheck/optimized/utf8valid"
)

// UTF8 returns every variant of optimized/utf8valid, each with its own Valid
// and a Validator that runs its own kernel (so does the Reader built on
// it), and, last, "dispatch": the exported API with the zero Validator.
func UTF8() []Variant[utf8validtest.Impl] {
	var vs []Variant[utf8validtest.Impl]
	for _, impl := range utf8valid.Impls() {
		newV := impl.NewValidator
		vs = append(vs, Variant[utf8validtest.Impl]{Name: impl.Name, Available: impl.Available, Impl: utf8validtest.Impl{
			Name:         impl.Name,
			Valid:        impl.Valid,
			NewValidator: func() utf8validtest.Validator { return newV() },
			NewReader:    newUTF8Reader,
		}})
	}
	return append(vs, Variant[utf8validtest.Impl]{Name: "dispatch", Available: true, Impl: utf8validtest.Impl{
		Name:         "dispatch",
		Valid:        utf8valid.Valid,
		NewValidator: func() utf8validtest.Validator { return new(utf8valid.Validator) },
		NewReader:    newUTF8Reader,
	}})
}

// newUTF8Reader is a Reader over one of the variant's Validators, which
// the suite hands back as it got them from NewValidator.
func newUTF8Reader(r io.Reader, key [4]byte, v utf8validtest.Validator) utf8validtest.Reader {
	return utf8valid.NewReader(r, key, v.(*utf8valid.Validator))
}
