import re,sys,collections
d=collections.defaultdict(list)
for line in open(sys.argv[1]):
    if not line.startswith('Benchmark'): continue
    x=line.split(); m=re.search(r'/(class=\w+/align=\d/size=\d+)/impl=(\w+)',x[0])
    if m: d[(m.group(1),m.group(2))].append(float(x[2]))
a,b=sys.argv[2],sys.argv[3]
import math
rows=[]
for (c,i),v in sorted(d.items()):
    if i!=a: continue
    w=d.get((c,b))
    if not w: continue
    v=sorted(v); w=sorted(w)
    qa=v[len(v)//10]; qb=w[len(w)//10]
    rows.append((c,qa,qb,100*(qb/qa-1)))
for r in rows:
    if len(sys.argv)<5 or abs(r[3])>float(sys.argv[4]): print('%-40s %6.2f %6.2f %+6.1f%%'%r)
g=math.exp(sum(math.log(r[2]/r[1]) for r in rows)/len(rows)); print('geomean q10 ratio %.4f over %d cells'%(g,len(rows)))
