#!/usr/bin/env python3
"""Issue 31's monotone target: no size from 1 to 256 octets costs more than
1.1 times a larger size, for Mask, Valid and Unmask.

Reads raw `go test -bench` output of the sweeps (ROUNDS interleaved rounds
appended, one sample per cell per round, as docs/perf/full-2026-12-05/run.sh
writes) and, for equivcheck's rows, compares every size s with every larger
size t <= 256 of the same function, class and start, round by round: the
two samples of one round were taken in one process seconds apart, so a
slow round slows both. A pair is flagged when s cost more than 1.1 times t
in at least MIN of the rounds and in the median of the per-round ratios.

How often the rule flags a pair by chance is measured on an A/A control
(--aa FILE...: docs/perf/issue31-2026-12-05b/aa.sh's raw output, the same
binary as sides a and b): the share of its cells where one side cost more
than 1.1 times the other in MIN rounds, the rate for two sizes that cost the
same. Pairs whose sizes truly cost the same are few (most larger sizes cost
more), so rate x pairs over-counts the chance flags."""
import argparse, re, statistics
from collections import defaultdict

LINE = re.compile(r'^Benchmark(Sweep\w+)/(.*?)/?size=(\d+)/impl=([\w+.-]+)-\d+\s+\d+\s+([\d.]+) ns/op')

def load(paths, impls):
    """samples[(bench, rest, impl)][size] = ns per round, in file order."""
    samples = defaultdict(lambda: defaultdict(list))
    for path in paths:
        for ln in open(path):
            m = LINE.match(ln)
            if m and m.group(4) in impls:
                bench, rest, size, impl, ns = m.groups()
                samples[(bench, rest, impl)][int(size)].append(float(ns))
    return samples

def flagged(xs, ys, ratio, need):
    """Whether xs[r] > ratio*ys[r] in need rounds and in the median ratio."""
    n = min(len(xs), len(ys))
    rs = [xs[r] / ys[r] for r in range(n)]
    return sum(q > ratio for q in rs) >= need and statistics.median(rs) > ratio, statistics.median(rs)

def chance(paths, ratio, need):
    s = load(paths, {'a', 'b'})
    cells = hits = 0
    keys = {(b, r) for (b, r, _) in s}
    for b, r in keys:
        a, bb = s.get((b, r, 'a'), {}), s.get((b, r, 'b'), {})
        for size in a.keys() & bb.keys():
            cells += 2
            hits += flagged(a[size], bb[size], ratio, need)[0] + flagged(bb[size], a[size], ratio, need)[0]
    return hits, cells

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('files', nargs='+')
    ap.add_argument('--aa', nargs='*', default=[])
    ap.add_argument('--ratio', type=float, default=1.1)
    ap.add_argument('--min', type=int, default=9, dest='need')
    ap.add_argument('--max-size', type=int, default=256)
    ap.add_argument('-v', action='store_true')
    a = ap.parse_args()
    rate = None
    if a.aa:
        hits, cells = chance(a.aa, a.ratio, a.need)
        rate = hits / cells if cells else 0
        print(f'A/A control: {hits} of {cells} comparisons flagged (rate {rate:.5f})')
    s = load(a.files, {'equivcheck'})
    print(f'rule: s < t <= {a.max_size}, s over {a.ratio} x t in >= {a.need} rounds and in the median ratio')
    tot_pairs = tot_flag = 0
    for key in sorted(s):
        bench, rest, _ = key
        by = s[key]
        sizes = sorted(x for x in by if x <= a.max_size)
        pairs, flags = 0, []
        for i, x in enumerate(sizes):
            for y in sizes[i + 1:]:
                pairs += 1
                f, med = flagged(by[x], by[y], a.ratio, a.need)
                if f:
                    flags.append((x, y, med))
        tot_pairs += pairs
        tot_flag += len(flags)
        exp = f'  chance <= {rate * pairs:.1f}' if rate is not None else ''
        print(f'{bench}/{rest}: {pairs} pairs, {len(flags)} flagged{exp}')
        if flags and a.v:
            byt = defaultdict(list)
            for x, y, med in flags:
                byt[y].append((x, med))
            for y in sorted(byt):
                xs = byt[y]
                print(f'    t={y}: s in {",".join(str(x) for x, _ in xs[:20])}{" ..." if len(xs) > 20 else ""}'
                      f' (max ratio {max(m for _, m in xs):.2f})')
    print(f'total: {tot_pairs} pairs, {tot_flag} flagged' + (f', chance <= {rate * tot_pairs:.1f}' if rate is not None else ''))

if __name__ == '__main__':
    main()
