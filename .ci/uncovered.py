#!/usr/bin/env python3
"""Runs by hand the mutants gremlins reports NOT COVERED (docs/mutation.md,
"Mutants gremlins does not cover").

usage: .ci/uncovered.py out/mutation/<pkg>.json <pkg> [go test flags...]

For each distinct NOT COVERED mutant of the JSON (file, line, column and
the token the mutator writes), it applies the mutant to a detached
worktree of HEAD, as gremlins' mutator would write it, runs
`go test -count=1 [flags] ./<pkg>` there (timeout 600 s), and restores the
file. It prints one markdown row per mutant: the mutant, and "killed by"
the failing tests, "LIVED", "timed out" or "uncompilable" (the build or
go vet failed). The worktree is removed at the end. Needs git and Go."""
import json
import os
import re
import subprocess
import sys
import tempfile

# What gremlins v0.6.0's mutators write for each token (its mutator
# tables, as internal/cmd/mutationreport/mutant.go has them).
WRITES = {
    'CONDITIONALS_BOUNDARY': {'<': '<=', '<=': '<', '>': '>=', '>=': '>'},
    'CONDITIONALS_NEGATION': {'==': '!=', '!=': '==', '<': '>=', '<=': '>', '>': '<=', '>=': '<'},
    'ARITHMETIC_BASE': {'+': '-', '-': '+', '*': '/', '/': '*', '%': '*'},
    'INVERT_NEGATIVES': {'-': '+'},
    'INCREMENT_DECREMENT': {'++': '--', '--': '++'},
}
TWO = ('<=', '>=', '==', '!=', '++', '--', '<<', '>>', '&&', '||', '&^')


def token_at(line, col):
    """The operator at 1-based byte column col of line."""
    b = line.encode()
    two = b[col - 1:col + 1].decode(errors='replace')
    return two if two in TWO else b[col - 1:col].decode(errors='replace')


def main():
    path, pkg, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
    report = json.load(open(path))
    wt = tempfile.mkdtemp(prefix='uncovered-')
    subprocess.run(['git', 'worktree', 'add', '--detach', '-f', wt, 'HEAD'], check=True, capture_output=True)
    try:
        seen = set()
        print('| mutant | with `go test -count=1 %s./%s` |' % (' '.join(flags) + ' ' if flags else '', pkg))
        print('|---|---|')
        for f in report.get('files', []):
            for m in f['mutations']:
                if m['status'] != 'NOT COVERED':
                    continue
                src = os.path.join(wt, pkg, os.path.basename(f['file_name']))
                lines = open(src).read().split('\n')
                text = lines[m['line'] - 1]
                tok = token_at(text, m['column'])
                new = WRITES.get(m['type'], {}).get(tok)
                key = (f['file_name'], m['line'], m['column'], new)
                name = '%s:%d:%d %s `%s`' % (os.path.basename(f['file_name']), m['line'], m['column'], m['type'], text.strip())
                if new is None:
                    print('| %s | not applied: no %s mutant of `%s` |' % (name, m['type'], tok))
                    continue
                if key in seen:
                    print('| %s | the same program as the row before |' % name)
                    continue
                seen.add(key)
                print('| %s | %s |' % (name, run(wt, pkg, flags, src, lines, m, tok, new)), flush=True)
    finally:
        subprocess.run(['git', 'worktree', 'remove', '--force', wt], capture_output=True)


def run(wt, pkg, flags, src, lines, m, tok, new):
    """Applies the mutant to src, runs the package's tests, restores src."""
    orig = '\n'.join(lines)
    b = lines[m['line'] - 1].encode()
    c = m['column'] - 1
    lines = list(lines)
    lines[m['line'] - 1] = (b[:c] + new.encode() + b[c + len(tok.encode()):]).decode()
    open(src, 'w').write('\n'.join(lines))
    try:
        p = subprocess.run(['go', 'test', '-count=1', *flags, './' + pkg], cwd=wt, capture_output=True,
                           text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return 'timed out (600 s)'
    finally:
        open(src, 'w').write(orig)
    out = p.stdout + p.stderr
    if p.returncode == 0:
        return '**LIVED**'
    failed = sorted(set(re.findall(r'^--- FAIL: (\w+)', out, re.M)))
    if failed:
        return 'killed by ' + ', '.join(failed)
    if 'build failed' in out or 'vet' in out or '[setup failed]' in out:
        return 'uncompilable: ' + next((l for l in out.split('\n') if '.go:' in l), out.strip().split('\n')[0])[:120]
    return 'killed (go test failed: %s)' % out.strip().split('\n')[-1][:100]


main()
