package gate

import "testing"

// TestVersionLine: -version names the revision only when the build stamped
// one, and this module's version when the gate is a user's.
func TestVersionLine(t *testing.T) {
	if libModule != "github.com/equivcheck/equivcheck" {
		t.Fatalf("libModule = %q", libModule)
	}
	base := toolInfo{Module: "github.com/equivcheck/equivcheck", Version: "(devel)", Go: "go1.26.8"}
	stamped := base
	stamped.VCSRevision, stamped.VCSModified = "2e1e084", true
	user := toolInfo{Module: "example.com/equivuser", Version: "v1.2.0", Go: "go1.26.8"}
	for _, tc := range []struct {
		t    toolInfo
		lib  string
		want string
	}{
		{base, "", "equivcheck github.com/equivcheck/equivcheck (devel) go1.26.8"},
		{stamped, "", "equivcheck github.com/equivcheck/equivcheck (devel) (revision 2e1e084, modified) go1.26.8"},
		{user, "v0.4.0", "equivcheck example.com/equivuser v1.2.0, github.com/equivcheck/equivcheck v0.4.0 go1.26.8"},
		{user, "v0.0.0-00010101000000-000000000000 => ../", "equivcheck example.com/equivuser v1.2.0, github.com/equivcheck/equivcheck v0.0.0-00010101000000-000000000000 => ../ go1.26.8"},
	} {
		if got := versionLine("equivcheck", tc.t, tc.lib); got != tc.want {
			t.Errorf("versionLine = %q, want %q", got, tc.want)
		}
	}
}
