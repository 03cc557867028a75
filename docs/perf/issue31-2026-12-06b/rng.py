import re,sys,collections,math
d=collections.defaultdict(list)
for line in open(sys.argv[1]):
    if not line.startswith('Benchmark'): continue
    x=line.split(); m=re.search(r'class=(\w+)/align=(\d)/size=(\d+)/impl=(\w+)',x[0])
    if m: d[(m.group(1),m.group(2),int(m.group(3)),m.group(4))].append(float(x[2]))
def q(v,f): v=sorted(v); return v[int(len(v)*f)]
def gm(x): return math.exp(sum(map(math.log,x))/len(x))
for c in ['ascii','latin','cjk','emoji','mixed']:
    for lo,hi in [(16,31),(32,63),(64,127),(128,257)]:
        out=[]
        for f in (0.0,0.1,0.5):
            b=[q(d[(c,a,n,'before')],f) for a in '01' for n in range(lo,hi+1) if d.get((c,a,n,'before'))]
            a_=[q(d[(c,a,n,'after')],f) for a in '01' for n in range(lo,hi+1) if d.get((c,a,n,'after'))]
            out.append('%s %.2f->%.2f (%+.1f%%)'%({0.0:'min',0.1:'q10',0.5:'med'}[f],gm(b),gm(a_),100*(gm(a_)/gm(b)-1)))
        print('%-6s %3d-%-3d  %s'%(c,lo,hi,'  '.join(out)))
