#!/usr/bin/env python3
"""usage: parts.py run.txt[.gz] [lo-hi,...]

Reads raw `go test -bench 'SweepUnmaskParts$'` output (rounds appended)
and prints, per class and size range, the 10th percentile of each cell's
samples in ns, as geometric means over both starts and the sizes of the
range: F the fused Unmask (impl=equivcheck), P Mask then Valid, W a
Validator's Write alone (Reset, then the checks and state Unmask keeps,
without unmasking), MW Mask then Write, V Valid and M Mask alone. Then
W/P (above 1: the Validator's checks alone cost more than both passes,
so no fused path with those checks can be level) and F/P, F/MW."""
import collections, gzip, math, re, sys

LINE = re.compile(r'^BenchmarkSweepUnmaskParts/class=(\w+)/align=(\d)/size=(\d+)/impl=([\w+]+)-\d+\s+\d+\s+([\d.]+) ns/op')
IMPLS = [('F', 'equivcheck'), ('P', 'mask+valid'), ('W', 'write'), ('MW', 'mask+write'), ('V', 'valid'), ('M', 'mask')]


def main():
    path = sys.argv[1]
    opener = gzip.open if path.endswith('.gz') else open
    d = collections.defaultdict(list)
    for line in opener(path, 'rt'):
        m = LINE.match(line)
        if m:
            d[(m[1], m[2], int(m[3]), m[4])].append(float(m[5]))
    q10 = lambda v: sorted(v)[len(v) // 10]
    sizes = sorted({k[2] for k in d})
    if len(sys.argv) > 2:
        ranges = [tuple(map(int, r.split('-'))) if '-' in r else (int(r), int(r)) for r in sys.argv[2].split(',')]
    else:
        ranges = [(n, n) for n in sizes]
    print('| class | octets | ' + ' | '.join(k for k, _ in IMPLS) + ' | W/P | F/P | F/MW |')
    print('|---|---|' + '---|' * (len(IMPLS) + 3))
    for c in sorted({k[0] for k in d}):
        for lo, hi in ranges:
            g = {}
            for key, impl in IMPLS:
                vals = [q10(d[(c, a, n, impl)]) for a in '01' for n in range(lo, hi + 1) if d.get((c, a, n, impl))]
                g[key] = math.exp(sum(map(math.log, vals)) / len(vals)) if vals else float('nan')
            octets = str(lo) if lo == hi else f'{lo}-{hi}'
            print(f'| {c} | {octets} | ' + ' | '.join(f'{g[k]:.2f}' for k, _ in IMPLS) +
                  f" | {g['W'] / g['P']:.2f} | {g['F'] / g['P']:.2f} | {g['F'] / g['MW']:.2f} |")


main()
