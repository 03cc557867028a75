package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// vetChecks are the go vet analyzers `go test` runs before it runs a test
// binary (go help test); a mutant they reject never reached a test either.
var vetChecks = []string{"-atomic", "-bool", "-buildtags", "-directive", "-errorsas",
	"-ifaceassert", "-nilfunc", "-printf", "-stringintconv", "-tests"}

// builder answers whether a mutated package still builds, in a private copy
// of the module.
type builder struct {
	dir string
}

// newBuilder copies the module at src (everything but .git) to a temporary
// directory and checks that the unmutated packages build there, so that a
// broken environment is not mistaken for uncompilable mutants.
func newBuilder(src string, pkgs []string) (*builder, error) {
	dir, err := os.MkdirTemp("", "mutationreport-")
	if err != nil {
		return nil, err
	}
	b := &builder{dir: dir}
	if err := copyTree(src, dir); err != nil {
		b.close()
		return nil, err
	}
	for _, pkg := range pkgs {
		if msg := b.check(pkg); msg != "" {
			b.close()
			return nil, fmt.Errorf("%s does not build unmutated: %s", pkg, msg)
		}
	}
	return b, nil
}

func (b *builder) close() { os.RemoveAll(b.dir) }

// check builds and vets the package in module directory pkg as go test
// would before running its tests; it returns the first error line, or "".
func (b *builder) check(pkg string) string {
	for _, args := range [][]string{
		{"build", "./" + pkg},
		append(append([]string{"vet"}, vetChecks...), "./"+pkg),
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir = b.dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			return firstError(out, err)
		}
	}
	return ""
}

// unbuilt applies m to the copy, checks its package, and restores the file.
func (b *builder) unbuilt(pkg string, m *mutant) (string, error) {
	file := filepath.Join(b.dir, filepath.FromSlash(m.File))
	orig, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	if !bytes.HasPrefix(orig[m.Offset:], []byte(m.From.String())) {
		return "", fmt.Errorf("%s: %q is not at offset %d", m.Pos(), m.From, m.Offset)
	}
	if err := os.WriteFile(file, m.mutate(orig), 0o644); err != nil {
		return "", err
	}
	msg := b.check(pkg)
	return msg, os.WriteFile(file, orig, 0o644)
}

// firstError picks the first line of go's output that reports an error
// (compiler and vet diagnostics look like "file.go:12:3: ...").
func firstError(out []byte, err error) string {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return err.Error()
	}
	for _, line := range strings.Split(string(out), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			return strings.TrimSpace(line)
		}
	}
	return exit.Error()
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
