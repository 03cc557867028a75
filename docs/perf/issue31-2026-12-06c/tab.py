# usage: tab.py file.txt[.gz] impl,impl,... lo-hi,lo-hi,...
# 10th percentiles of each (class, start, size) cell, geometric means over
# both starts and the sizes of each range, ns.
import re,sys,collections,math,gzip
d=collections.defaultdict(list)
op=gzip.open if sys.argv[1].endswith('.gz') else open
for line in op(sys.argv[1],'rt'):
    if not line.startswith('Benchmark'): continue
    x=line.split(); m=re.search(r'class=(\w+)/align=(\d)/size=(\d+)/impl=([\w+]+)',x[0])
    if m: d[(m.group(1),m.group(2),int(m.group(3)),m.group(4))].append(float(x[2]))
def q10(v): v=sorted(v); return v[len(v)//10]
ranges=[tuple(map(int,r.split('-'))) if '-' in r else (int(r),int(r)) for r in sys.argv[3].split(',')]
impls=sys.argv[2].split(',')
print('| class | octets | '+' | '.join(impls)+' |')
print('|---|---|'+'---|'*len(impls))
for c in ['ascii','latin','cjk','emoji','mixed']:
    for lo,hi in ranges:
        row=[]
        for i in impls:
            vals=[q10(d[(c,a,n,i)]) for a in '01' for n in range(lo,hi+1) if d.get((c,a,n,i))]
            row.append(math.exp(sum(map(math.log,vals))/len(vals)) if vals else float('nan'))
        if all(math.isnan(r) for r in row): continue
        print('| %s | %s | '%(c, '%d'%lo if lo==hi else '%d-%d'%(lo,hi))+' | '.join('%.2f'%r for r in row)+' |')
