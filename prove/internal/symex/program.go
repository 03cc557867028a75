package symex

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Program is Go source loaded for execution: the packages named and
// everything they import, type-checked, in SSA form (built package by
// package as the executor reaches them).
type Program struct {
	SSA   *ssa.Program
	Fset  *token.FileSet
	pkgs  map[string]*ssa.Package
	sizes types.Sizes
	root  string // the directory positions are shown relative to

	mu     sync.Mutex
	built  map[*ssa.Package]bool
	funcs  map[*ssa.Function]*Function
	writes map[*ssa.Global][]token.Pos // stores to package variables outside their package's initializer
	scan   map[*ssa.Package]bool       // packages whose functions writes has seen
}

// Load loads the packages of patterns (import paths), from dir, with every
// dependency's source. Tags are build tags, as for go build -tags.
func Load(dir string, tags []string, patterns ...string) (*Program, error) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}
	if len(tags) > 0 {
		cfg.BuildFlags = []string{"-tags=" + strings.Join(tags, ",")}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	var errs []error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e)
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), errors.Join(errs...))
	}
	prog, _ := ssautil.AllPackages(pkgs, ssa.InstantiateGenerics)
	p := &Program{SSA: prog, Fset: prog.Fset, pkgs: map[string]*ssa.Package{},
		sizes: types.SizesFor("gc", runtime.GOARCH), root: repoRoot(dir),
		built: map[*ssa.Package]bool{}, funcs: map[*ssa.Function]*Function{},
		writes: map[*ssa.Global][]token.Pos{}, scan: map[*ssa.Package]bool{}}
	for _, sp := range prog.AllPackages() {
		p.pkgs[sp.Pkg.Path()] = sp
	}
	return p, nil
}

// Package returns the loaded package of import path path, built.
func (p *Program) Package(path string) *ssa.Package {
	sp := p.pkgs[path]
	if sp != nil {
		p.build(sp)
	}
	return sp
}

func (p *Program) build(sp *ssa.Package) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.built[sp] {
		sp.Build()
		p.built[sp] = true
	}
}

// Lookup finds the function named name in package path: a function
// ("maskGeneric"), a method ("(*Validator).Write", "Validator.Close",
// "maskModel.Mask"), or a function literal as the runtime names it
// ("newValidator.func1") or as go/ssa does ("newValidator$1").
func (p *Program) Lookup(path, name string) (*ssa.Function, error) {
	sp := p.Package(path)
	if sp == nil {
		return nil, fmt.Errorf("package %s is not loaded", path)
	}
	if base, lit, ok := literalName(name); ok {
		outer, err := p.Lookup(path, base)
		if err != nil {
			return nil, err
		}
		return anon(outer, lit, name)
	}
	if recv, meth, ok := methodName(name); ok {
		ptr := strings.HasPrefix(recv, "*")
		tn, _ := sp.Members[strings.TrimPrefix(recv, "*")].(*ssa.Type)
		if tn == nil {
			return nil, fmt.Errorf("%s has no type %s", path, strings.TrimPrefix(recv, "*"))
		}
		var t types.Type = tn.Type()
		if ptr {
			t = types.NewPointer(t)
		}
		sel := p.SSA.MethodSets.MethodSet(t).Lookup(sp.Pkg, meth)
		if sel == nil {
			return nil, fmt.Errorf("%s has no method %s", t, meth)
		}
		if fn := p.SSA.MethodValue(sel); fn != nil {
			return fn, nil
		}
		return nil, fmt.Errorf("%s.%s has no body", t, meth)
	}
	fn, _ := sp.Members[name].(*ssa.Function)
	if fn == nil {
		return nil, fmt.Errorf("%s has no function %s", path, name)
	}
	return fn, nil
}

// literalName splits "f.func2.func1" or "f$2$1" into "f" and the literal
// indices [2, 1].
func literalName(name string) (string, []int, bool) {
	sep := ".func"
	if strings.Contains(name, "$") {
		sep = "$"
	}
	parts := strings.Split(name, sep)
	if len(parts) < 2 {
		return "", nil, false
	}
	var idx []int
	for _, s := range parts[1:] {
		var n int
		if _, err := fmt.Sscanf(s, "%d", &n); err != nil || fmt.Sprint(n) != s {
			return "", nil, false
		}
		idx = append(idx, n)
	}
	return parts[0], idx, true
}

// anon returns the function literal lit (1-based indices, nested) of fn.
func anon(fn *ssa.Function, lit []int, name string) (*ssa.Function, error) {
	for _, i := range lit {
		if i < 1 || i > len(fn.AnonFuncs) {
			return nil, fmt.Errorf("no function literal %s", name)
		}
		fn = fn.AnonFuncs[i-1]
	}
	return fn, nil
}

// methodName splits "(*T).M" or "T.M" into "*T" or "T" and "M".
func methodName(name string) (string, string, bool) {
	if strings.HasPrefix(name, "(") {
		end := strings.Index(name, ").")
		if end < 0 {
			return "", "", false
		}
		return name[1:end], name[end+2:], true
	}
	recv, meth, ok := strings.Cut(name, ".")
	return recv, meth, ok && meth != "" && !strings.Contains(meth, ".")
}

// LookupRuntime finds the function the runtime names full (as
// runtime.FuncForPC reports it: "example.com/pkg.Name",
// "example.com/pkg.(*T).M", "example.com/pkg.f.func1").
func (p *Program) LookupRuntime(full string) (*ssa.Function, error) {
	if strings.HasSuffix(full, "-fm") {
		return nil, fmt.Errorf("%s is a method value, which carries its receiver: pass the method expression and the receiver as an argument", strings.TrimSuffix(full, "-fm"))
	}
	slash := strings.LastIndex(full, "/")
	dot := strings.Index(full[slash+1:], ".")
	if dot < 0 {
		return nil, fmt.Errorf("cannot read a package path in %q", full)
	}
	path, name := full[:slash+1+dot], full[slash+1+dot+1:]
	if _, lit, ok := literalName(name); ok && len(lit) > 0 {
		return nil, fmt.Errorf("%s is a function literal, whose captured variables the prover cannot read: name the function that returns it (Func.Pkg, Func.Name) and its arguments", full)
	}
	return p.Lookup(path, name)
}

// Pos renders pos as file:line: the file relative to the repository the
// loading directory is in, to GOROOT/src, or to the module cache.
func (p *Program) Pos(pos token.Pos) string {
	if !pos.IsValid() {
		return "(no position)"
	}
	at := p.Fset.Position(pos)
	file := filepath.ToSlash(at.Filename)
	if rel, err := filepath.Rel(p.root, at.Filename); err == nil && !strings.HasPrefix(rel, "..") {
		file = filepath.ToSlash(rel)
	} else if i := strings.LastIndex(file, "/pkg/mod/"); i >= 0 {
		file = file[i+len("/pkg/mod/"):]
	} else if i := strings.LastIndex(file, "/src/"); i >= 0 {
		file = file[i+len("/src/"):]
	}
	return fmt.Sprintf("%s:%d", file, at.Line)
}

// repoRoot is the outermost directory above dir (dir included) that holds
// a go.mod: the repository of nested modules.
func repoRoot(dir string) string {
	root := dir
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			root = d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return root
		}
		d = parent
	}
}

// writesTo returns where a function outside g's package initializer
// stores to package variable g (or lets its address escape), among the
// loaded packages that can name it.
func (p *Program) writesTo(g *ssa.Global) []token.Pos {
	p.scanWrites(g.Pkg)
	if g.Object() != nil && g.Object().Exported() {
		for _, sp := range p.SSA.AllPackages() {
			for _, imp := range sp.Pkg.Imports() {
				if imp == g.Pkg.Pkg {
					p.scanWrites(sp)
				}
			}
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.writes[g]
}

// scanWrites records the stores to package variables made by sp's
// functions, except its package initializer's.
func (p *Program) scanWrites(sp *ssa.Package) {
	p.build(sp)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.scan[sp] {
		return
	}
	p.scan[sp] = true
	for _, fn := range p.pkgFuncs(sp) {
		if fn.Synthetic == "package initializer" {
			continue
		}
		for _, b := range fn.Blocks {
			for _, ins := range b.Instrs {
				for _, op := range ins.Operands(nil) {
					if g, ok := (*op).(*ssa.Global); ok && writes(ins, g) {
						p.writes[g] = append(p.writes[g], ins.Pos())
					}
				}
			}
		}
	}
}

// writes reports whether ins, which uses g, may write g: everything but a
// load from it, or an address into it that is only loaded from.
func writes(ins ssa.Instruction, g ssa.Value) bool {
	switch ins := ins.(type) {
	case *ssa.UnOp:
		return ins.Op != token.MUL
	case *ssa.FieldAddr:
		return addrWritten(ins)
	case *ssa.IndexAddr:
		return ins.X == g && addrWritten(ins)
	case *ssa.DebugRef:
		return false
	}
	return true
}

// addrWritten reports whether the address v, derived from a package
// variable, is used for anything but loads.
func addrWritten(v ssa.Value) bool {
	for _, r := range *v.Referrers() {
		if writes(r, v) {
			return true
		}
	}
	return false
}

// pkgFuncs lists sp's functions: its functions and methods, and the
// function literals in them.
func (p *Program) pkgFuncs(sp *ssa.Package) []*ssa.Function {
	var out []*ssa.Function
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if fn == nil {
			return
		}
		out = append(out, fn)
		for _, a := range fn.AnonFuncs {
			add(a)
		}
	}
	for _, m := range sp.Members {
		switch m := m.(type) {
		case *ssa.Function:
			add(m)
		case *ssa.Type:
			for _, t := range []types.Type{m.Type(), types.NewPointer(m.Type())} {
				ms := p.SSA.MethodSets.MethodSet(t)
				for i := range ms.Len() {
					if fn := p.SSA.MethodValue(ms.At(i)); fn != nil && fn.Pkg == sp {
						add(fn)
					}
				}
			}
		}
	}
	return out
}
