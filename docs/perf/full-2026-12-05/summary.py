#!/usr/bin/env python3
"""Summarize a benchstat -col /impl table: the cells where a peer is
significantly faster than equivcheck (p < 0.05, by more than 3%), and,
with --monotone, the sizes up to 256 whose median cost exceeds 1.1x that
of a larger size (per the row's other keys). With --both, a column
significantly slower by more than 3% counts too (as "<col> slower"): for
the a/b control of aa.sh, where either way is chance."""
import re, sys, collections
floors = {'copy'}
args = [a for a in sys.argv[1:] if not a.startswith('--')]
mono = '--monotone' in sys.argv
both = '--both' in sys.argv
for path in args:
    lines = open(path).read().splitlines()
    header = None; rows = []
    for ln in lines:
        if ln.startswith('│') or ln.startswith(' ') and '│' in ln and 'sec/op' not in ln and header is None:
            pass
        m = re.match(r'^\s+│\s+(.*)$', ln)
        if m and 'sec/op' not in ln and 'vs base' not in ln and header is None:
            header = [c.strip() for c in ln.split('│')[1:] if c.strip()]
            continue
        if header and re.match(r'^Sweep\S+\s', ln):
            rows.append(ln)
        if ln.startswith('geomean'):
            break
    cells = 0; wins = collections.defaultdict(list); med = {}
    for ln in rows:
        name = ln.split()[0]
        cells += 1
        base = re.search(r'^\S+\s+([\d.]+)([nµm]?)\s', ln)
        unit = {'n': 1, 'µ': 1e3, 'm': 1e6, '': 1e9}
        if base:
            med[name] = float(base.group(1)) * unit[base.group(2)]
        rest = ln[len(name):]
        parts = re.findall(r'([\d.]+[nµm]?)\s+±\s*\S+\s+(~|[+-][\d.]+%)\s+\(p=([\d.]+) n=\d+\)', rest)
        for col, (v, delta, p) in zip(header[1:], parts):
            if col in floors or delta == '~':
                continue
            d = float(delta.rstrip('%'))
            if float(p) < 0.05 and d < -3:
                wins[col].append(name.split('/', 1)[1].rsplit('-', 1)[0])
            elif both and float(p) < 0.05 and d > 3:
                wins[col + ' slower'].append(name.split('/', 1)[1].rsplit('-', 1)[0])
    print(f"{path}: {cells} cells; " + ", ".join(f"{k}: {len(v)}" for k, v in wins.items()) or "none")
    for k, v in wins.items():
        print(f"    {k}: {', '.join(v)}")
    if mono:
        groups = collections.defaultdict(dict)
        for name, ns in med.items():
            m = re.match(r'^(.*)/size=(\d+)-\d+$', name)
            if m and int(m.group(2)) <= 256:
                groups[m.group(1)][int(m.group(2))] = ns
        for g, by in sorted(groups.items()):
            sizes = sorted(by)
            bad = []
            for i, s in enumerate(sizes):
                larger = [by[t] for t in sizes[i+1:]]
                if larger and by[s] > 1.1 * min(larger):
                    t = min(sizes[i+1:], key=lambda t: by[t])
                    bad.append(f"{s} ({by[s]:.2f} ns > 1.1 x {by[t]:.2f} at {t})")
            print(f"    monotone {g}: " + ("ok" if not bad else "; ".join(bad)))
