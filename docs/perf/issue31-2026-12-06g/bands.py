import re,sys,collections,math
d=collections.defaultdict(list)
for line in open(sys.argv[1]):
    m=re.match(r'BenchmarkSweepUnmask/class=(\w+)/align=(\d)/size=(\d+)/impl=([\w+-]+)-2\s+\d+\s+([\d.]+) ns/op',line)
    if m: d[(m[1],int(m[2]),int(m[3]),m[4])].append(float(m[5]))
def q(v,p): v=sorted(v); return v[int(p*(len(v)-1))]
bands=eval(sys.argv[2])
for side in sys.argv[3:]:
  g=collections.defaultdict(list)
  for k in d:
    if k[3]==side+'-equivcheck':
        b=d[k[:3]+('before-equivcheck',)]
        band=[nm for lo,hi,nm in bands if lo<=k[2]<=hi][0]
        g[(k[0],k[1],band)].append(math.log(q(d[k],.1)/q(b,.1)))
  print(side, ' '.join(f"{k[0][:3]}{k[1]}:{k[2]}={math.exp(sum(v)/len(v)):.3f}" for k,v in sorted(g.items())))
