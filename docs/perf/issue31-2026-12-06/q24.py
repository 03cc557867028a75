import re,collections,sys
# q24.py ba-file [other-impl]: per class, the 10th percentile of before>after (|other impl, from the after binary's rounds) at each size
f=sys.argv[1]; other=sys.argv[2] if len(sys.argv)>2 else None
d=collections.defaultdict(list)
side=None
for line in open(f):
    if 'impl=before' in line: side='b'
    if 'impl=after' in line: side='a'
    if not line.startswith('Benchmark'): continue
    x=line.split(); m=re.search(r'class=(\w+)/align=(\d)/size=(\d+)/impl=([\w+]+)',x[0])
    if m:
        imp=m.group(4)
        if imp==other: imp=other+'@'+(side or '?')
        d[(m.group(1),m.group(2),int(m.group(3)),imp)].append(float(x[2]))
q=lambda v: sorted(v)[len(v)//10] if v else float('nan')
classes=sorted({k[0] for k in d})
for c in classes:
    out=[]
    for n in range(1,25):
        s='%d:%.1f>%.1f'%(n,q(d[(c,'0',n,'before')]),q(d[(c,'0',n,'after')]))
        if other: s+='|%.1f'%q(d[(c,'0',n,other+'@a')])
        out.append(s)
    print(c,' '.join(out))
