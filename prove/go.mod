module github.com/equivcheck/equivcheck/prove

go 1.26.0

replace github.com/equivcheck/equivcheck => ../

require (
	github.com/equivcheck/equivcheck v0.0.0-00010101000000-000000000000
	golang.org/x/tools v0.52.0
)

require (
	github.com/AdaLogics/go-fuzz-headers v0.0.0-20240806141605-e8a1dd7889d6 // indirect
	github.com/leanovate/gopter v0.2.11 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
