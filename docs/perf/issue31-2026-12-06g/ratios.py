import re,sys,collections
d=collections.defaultdict(list)
for line in open(sys.argv[1]):
    m=re.match(r'BenchmarkSweepUnmask/class=(\w+)/align=(\d)/size=(\d+)/impl=([\w+-]+)-2\s+\d+\s+([\d.]+) ns/op',line)
    if m: d[(m[1],int(m[2]),int(m[3]),m[4])].append(float(m[5]))
impls=sorted({k[3] for k in d if k[3].endswith('-equivcheck')})
cells=sorted({k[:3] for k in d})
def q(v,p): v=sorted(v); return v[int(p*(len(v)-1))]
import math
for P in (0.1,0.5):
  print(f"P={P}  ratios to none-mask+valid")
  print("class align size | "+" ".join(f"{i:>16}" for i in impls))
  g=collections.defaultdict(list)
  for c in cells:
    base=q(d[c+("none-mask+valid",)],P)
    row=[q(d[c+(i,)],P)/base for i in impls]
    for i,r in zip(impls,row): g[(c[0],c[1],i)].append(math.log(r))
    print(f"{c[0]:6} {c[1]} {c[2]:6} | "+" ".join(f"{r:16.3f}" for r in row))
  for k in sorted(g): print("geomean",k, round(math.exp(sum(g[k])/len(g[k])),3))
