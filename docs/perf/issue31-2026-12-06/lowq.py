import sys,re,collections
# lowq.py file: per benchmark (impl stripped), the 10th and 25th percentile and min per impl
d=collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    if not line.startswith('Benchmark'): continue
    f=line.split()
    name=f[0]; m=re.search(r'/impl=([^/-]+)',name)
    if not m: continue
    key=name.replace('/impl='+m.group(1),'')
    d[key][m.group(1)].append(float(f[2]))
def q(v,p):
    v=sorted(v); return v[int(p*(len(v)-1))]
impls=None
for k,v in d.items():
    impls=impls or list(v)
    s=k
    for i in impls:
        s+='\t%s min %.2f q10 %.2f q25 %.2f'%(i[:6],min(v[i]),q(v[i],.1),q(v[i],.25))
    print(s)
