module github.com/equivcheck/equivcheck

go 1.26.0

require (
	github.com/AdaLogics/go-fuzz-headers v0.0.0-20240806141605-e8a1dd7889d6
	github.com/leanovate/gopter v0.2.11
	golang.org/x/sys v0.50.0
	pgregory.net/rapid v1.3.0
)

tool github.com/equivcheck/equivcheck/cmd/equivcheck
