import re,sys,collections
d=collections.defaultdict(list)
for line in open(sys.argv[1]):
    m=re.match(r'BenchmarkSweepUnmask/class=(\w+)/align=(\d)/size=(\d+)/impl=([\w+-]+)-2\s+\d+\s+([\d.]+) ns/op',line)
    if m: d[(m[1],int(m[2]),int(m[3]),m[4])].append(float(m[5]))
def q(v,p): v=sorted(v); return v[int(p*(len(v)-1))]
a,b=sys.argv[2],sys.argv[3]
for c in sorted({k[:3] for k in d}):
    if c[1]!=1: continue
    x,y=d.get(c+(a,)),d.get(c+(b,))
    if x and y: print(c, f"q10 {q(x,.1):.1f} vs {q(y,.1):.1f} ({q(x,.1)/q(y,.1)-1:+.1%})  med {q(x,.5):.1f} vs {q(y,.5):.1f} ({q(x,.5)/q(y,.5)-1:+.1%})")
