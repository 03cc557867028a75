// Package corpus embeds the shared seed corpus of the fuzz targets in package
// fuzz: one directory per pair (checksum/, websocket/, quic/, utf8/) of files in the
// "go test fuzz v1" format, each holding the arguments of that pair's target.
//
// "go test" loads only a package's own testdata/fuzz/FuzzX directory, so the
// fuzz targets and the release gate read this corpus through
// equiv.LoadCorpus.
package corpus

import "embed"

// FS holds the corpus files, as pair/name.
//
//go:embed */*
var FS embed.FS
