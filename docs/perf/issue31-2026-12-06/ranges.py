# ranges.py file.txt: for a ba.sh output of SweepUnmask or SweepUnmaskCopy
# (impl=before, impl=after), the geometric mean over each class and size
# range of each side's per-cell median and 10th percentile.
import re, sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    if not line.startswith('Benchmark'):
        continue
    x = line.split()
    m = re.search(r'class=(\w+)/align=(\d)/size=(\d+)/impl=([\w+]+)', x[0])
    if m:
        d[(m.group(1), m.group(2), int(m.group(3)), m.group(4))].append(float(x[2]))
for c in ['ascii', 'latin', 'mixed']:
    for lo, hi in [(1, 15), (16, 31), (32, 63), (64, 257)]:
        r = {}
        for side in ['before', 'after']:
            med, q10 = [], []
            for a in '01':
                for n in range(lo, hi + 1):
                    v = sorted(d.get((c, a, n, side), []))
                    if v:
                        med.append(statistics.median(v))
                        q10.append(v[len(v) // 10])
            r[side] = (statistics.geometric_mean(med), statistics.geometric_mean(q10))
        b, a = r['before'], r['after']
        print('%-6s %3d-%-3d  median %6.2f -> %6.2f (%+5.1f%%)   q10 %6.2f -> %6.2f (%+5.1f%%)' % (
            c, lo, hi, b[0], a[0], 100 * (a[0] / b[0] - 1), b[1], a[1], 100 * (a[1] / b[1] - 1)))
