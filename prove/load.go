package prove

import (
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/equivcheck/equivcheck/prove/internal/symex"
)

// Loading packages from source takes a few seconds, so it is done once
// per directory and tags for every package the methods made so far need:
// Funcs registers its functions' packages, and the first method to run
// loads them all.
var loads = struct {
	sync.Mutex
	want  map[string][]string // by loadKey: the packages methods need
	progs map[string]*loaded
}{want: map[string][]string{}, progs: map[string]*loaded{}}

type loaded struct {
	pkgs []string
	prog *symex.Program
	err  error
}

func loadKey(dir string, tags []string) string { return dir + "\x00" + strings.Join(tags, ",") }

// register records that a method will need pkgs from dir.
func register(dir string, tags []string, pkgs ...string) {
	loads.Lock()
	defer loads.Unlock()
	k := loadKey(dir, tags)
	for _, p := range pkgs {
		if p != "" && !slices.Contains(loads.want[k], p) {
			loads.want[k] = append(loads.want[k], p)
		}
	}
}

// program returns the loaded program holding pkgs, loading (again, with
// every package registered) if a package is missing.
func program(dir string, tags []string, pkgs ...string) (*symex.Program, error) {
	register(dir, tags, pkgs...)
	loads.Lock()
	defer loads.Unlock()
	k := loadKey(dir, tags)
	if l, ok := loads.progs[k]; ok && containsAll(l.pkgs, pkgs) {
		return l.prog, l.err
	}
	want := slices.Clone(loads.want[k])
	prog, err := symex.Load(dir, tags, want...)
	loads.progs[k] = &loaded{pkgs: want, prog: prog, err: err}
	return prog, err
}

func containsAll(have, want []string) bool {
	for _, p := range want {
		if p != "" && !slices.Contains(have, p) {
			return false
		}
	}
	return true
}

// pkgPath is the package path of the function the runtime names full.
func pkgPath(full string) string {
	slash := strings.LastIndex(full, "/")
	dot := strings.Index(full[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	return full[:slash+1+dot]
}

func workingDir(dir string) string {
	if dir != "" {
		return dir
	}
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return wd
}
