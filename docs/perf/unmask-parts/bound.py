#!/usr/bin/env python3
"""Reads raw `go test -bench BenchmarkSweepUnmaskParts` output (several
rounds appended) and prints, per class and start, what a fused Unmask can
gain over Mask then Valid.

For each cell (class, align, size) it takes the median ns/op of each impl:
F = the fused path (equivcheck), P = mask+valid, V = valid, M = mask,
W = a Validator's Write. A fused path does at least Write's work (the same
checks, the same bookkeeping), so P/W bounds its speed-up over the two
passes; P/F is the speed-up it has. The issue's target is P/F >= 1.1."""
import math, re, statistics, sys
from collections import defaultdict

LINE = re.compile(r'^BenchmarkSweepUnmaskParts/class=(\w+)/align=(\d)/size=(\d+)/impl=([\w+]+)-\d+\s+\d+\s+([\d.]+) ns/op')

def medians(paths):
    samples = defaultdict(list)
    for path in paths:
        for ln in open(path):
            m = LINE.match(ln)
            if m:
                c, a, n, impl, ns = m.groups()
                samples[(c, int(a), int(n), impl)].append(float(ns))
    cells = defaultdict(dict)
    for (c, a, n, impl), v in samples.items():
        cells[(c, a, n)][impl] = statistics.median(v)
    return cells

def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float('nan')

def main(paths):
    cells = medians(paths)
    groups = defaultdict(list)
    for (c, a, n), m in sorted(cells.items()):
        if all(k in m for k in ('equivcheck', 'mask+valid', 'valid', 'mask', 'write')):
            groups[(c, a)].append((n, m))
    print('class  align  cells  P/W<1.1  P/W (min median max)  P/F (min median max)  P/F>=1.1  geomean: F  P  W  V  M (ns)')
    for (c, a), rows in sorted(groups.items()):
        pw = [m['mask+valid'] / m['write'] for _, m in rows]
        pf = [m['mask+valid'] / m['equivcheck'] for _, m in rows]
        g = [geomean([m[k] for _, m in rows]) for k in ('equivcheck', 'mask+valid', 'write', 'valid', 'mask')]
        print(f'{c:6} {a:5}  {len(rows):5}  {sum(x < 1.1 for x in pw):7}  '
              f'{min(pw):.2f} {statistics.median(pw):.2f} {max(pw):.2f}       '
              f'{min(pf):.2f} {statistics.median(pf):.2f} {max(pf):.2f}       '
              f'{sum(x >= 1.1 for x in pf):8}  ' + '  '.join(f'{x:.1f}' for x in g))
    if '-v' in sys.argv:
        for (c, a), rows in sorted(groups.items()):
            for n, m in rows:
                print(c, a, n, ' '.join(f'{k}={m[k]:.1f}' for k in ('equivcheck', 'mask+valid', 'write', 'valid', 'mask')),
                      f"P/W={m['mask+valid'] / m['write']:.2f} P/F={m['mask+valid'] / m['equivcheck']:.2f}")

if __name__ == '__main__':
    main([p for p in sys.argv[1:] if p != '-v'])
