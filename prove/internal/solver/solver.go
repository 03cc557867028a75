// Package solver runs SMT solvers (z3 and cvc5, as Debian packages them)
// as subprocesses over SMT-LIB 2 text: no cgo, no library, nothing but a
// binary on PATH. Every call is bounded in time (the solver's own limit
// and a deadline after which the process is killed) and in memory (the
// address space the process may map, and z3's own limit).
package solver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/equivcheck/equivcheck/prove/internal/term"
)

// Solver is one SMT solver binary.
type Solver struct {
	Name string // "z3" or "cvc5"
	Path string
}

// Names are the solvers this package drives, in the order Find prefers
// them: z3 proved the byte-moving kernels faster than cvc5 in every
// measurement of docs/equivalence.md.
var Names = []string{"z3", "cvc5"}

// Find returns the solvers found on PATH, in the order of Names.
func Find() []Solver {
	var out []Solver
	for _, name := range Names {
		if p, err := exec.LookPath(name); err == nil {
			out = append(out, Solver{Name: name, Path: p})
		}
	}
	return out
}

// Version returns the solver's version line.
func (s Solver) Version() string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, s.Path, "--version").Output()
	if err != nil {
		return s.Name + " (version unknown)"
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}

// Limits bound one solver call.
type Limits struct {
	Timeout  time.Duration // the solver's own time limit; the process is killed a little after
	MemoryMB int           // the address space the process may use
}

// Status is a solver's verdict.
type Status int

const (
	Unknown Status = iota // no verdict: a limit was reached, or the solver gave up
	Sat
	Unsat
)

func (s Status) String() string { return [...]string{"unknown", "sat", "unsat"}[s] }

// Result is what one call found.
type Result struct {
	Status  Status
	Values  []uint64 // with Sat: the values asked for, in order (Bool: 0 or 1)
	Reason  string   // with Unknown: why ("timeout", "memory", the solver's words)
	Elapsed time.Duration
	CPU     time.Duration // the solver process's user and system time
	Script  int           // the script's size in bytes
}

// ErrSolver is wrapped by the errors of a solver that did not speak
// SMT-LIB as expected (not a limit reached: that is Unknown).
var ErrSolver = errors.New("solver failed")

// Check asks whether the conjunction of asserts is satisfiable and, if it
// is, for the values of values in a model.
func (s Solver) Check(ctx context.Context, asserts, values []*term.Term, lim Limits) (Result, error) {
	var script bytes.Buffer
	if err := term.Script(&script, asserts, values); err != nil {
		return Result{}, err
	}
	return s.Run(ctx, script.Bytes(), len(values), lim)
}

// Run runs a script made by term.Script that asks for n values.
func (s Solver) Run(ctx context.Context, script []byte, n int, lim Limits) (Result, error) {
	if lim.Timeout <= 0 {
		lim.Timeout = time.Minute
	}
	if lim.MemoryMB <= 0 {
		lim.MemoryMB = 4096
	}
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout+2*time.Second)
	defer cancel()
	cmd := s.command(ctx, lim)
	cmd.Stdin = bytes.NewReader(script)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Run()
	res := Result{Elapsed: time.Since(start), Script: len(script)}
	if ps := cmd.ProcessState; ps != nil {
		res.CPU = ps.UserTime() + ps.SystemTime()
	}
	out := stdout.String()
	verdict, rest, _ := strings.Cut(strings.TrimLeft(out, " \r\n"), "\n")
	switch strings.TrimSpace(verdict) {
	case "sat":
		vals, perr := parseValues(rest, n)
		if perr != nil {
			return res, fmt.Errorf("%w: %s: reading the model: %v", ErrSolver, s.Name, perr)
		}
		res.Status, res.Values = Sat, vals
		return res, nil
	case "unsat":
		res.Status = Unsat
		return res, nil
	}
	res.Reason = unknownReason(ctx, out, stderr.String(), err, lim)
	if res.Reason == "the solver answered unknown" && res.Elapsed >= lim.Timeout*9/10 {
		res.Reason = fmt.Sprintf("timeout (%v)", lim.Timeout) // z3's -t gives up with a plain unknown
	}
	if res.Reason == "" {
		return res, fmt.Errorf("%w: %s: %v: %s", ErrSolver, s.Name, err, firstLine(out+stderr.String()))
	}
	return res, nil
}

// command is the solver's command line under lim: its own limits, and the
// address space bounded with ulimit -v by the shell that execs it.
func (s Solver) command(ctx context.Context, lim Limits) *exec.Cmd {
	ms := lim.Timeout.Milliseconds()
	var args []string
	switch s.Name {
	case "z3":
		args = []string{"-smt2", "-in", "-t:" + strconv.FormatInt(ms, 10),
			"-T:" + strconv.FormatInt(ms/1000+1, 10), "-memory:" + strconv.Itoa(lim.MemoryMB)}
	case "cvc5":
		args = []string{"--lang=smt2", "--tlimit=" + strconv.FormatInt(ms, 10)}
	}
	if _, err := os.Stat("/bin/sh"); err == nil {
		// The solver's own memory limit (z3's) is advisory; the
		// address-space limit is not. z3 and cvc5 map more than they
		// touch, hence twice the budget.
		kb := strconv.Itoa(2 * lim.MemoryMB * 1024)
		return exec.CommandContext(ctx, "/bin/sh", append([]string{"-c", `ulimit -v "$0" 2>/dev/null; exec "$@"`, kb, s.Path}, args...)...)
	}
	return exec.CommandContext(ctx, s.Path, args...)
}

// unknownReason says why a solver gave no verdict, or "" if it failed in
// a way no limit explains.
func unknownReason(ctx context.Context, out, errOut string, err error, lim Limits) string {
	all := strings.ToLower(out + errOut)
	switch {
	case ctx.Err() != nil:
		return fmt.Sprintf("timeout (killed after %v)", lim.Timeout)
	case strings.Contains(all, "timeout") || strings.Contains(all, "interrupted by timeout") || strings.Contains(all, "resourceout"):
		return fmt.Sprintf("timeout (%v)", lim.Timeout)
	case strings.Contains(all, "memory") || strings.Contains(all, "bad_alloc") || strings.Contains(all, "out of memory"):
		return fmt.Sprintf("memory (%d MB)", lim.MemoryMB)
	case strings.HasPrefix(strings.TrimSpace(out), "unknown"):
		return "the solver answered unknown"
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ProcessState != nil && !ee.ProcessState.Exited() {
		return "killed: " + ee.ProcessState.String() + " (a memory limit is the likely cause)"
	}
	return ""
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
