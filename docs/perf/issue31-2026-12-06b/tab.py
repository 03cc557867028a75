import re,sys,collections,math
d=collections.defaultdict(list)
for line in open(sys.argv[1]):
    if not line.startswith('Benchmark'): continue
    x=line.split(); m=re.search(r'class=(\w+)/align=(\d)/size=(\d+)/impl=(\w+)',x[0])
    if m: d[(m.group(1),m.group(2),int(m.group(3)),m.group(4))].append(float(x[2]))
def q10(v): v=sorted(v); return v[len(v)//10]
def med(v): v=sorted(v); return v[len(v)//2]
ranges=[(1,1),(2,3),(4,4),(5,15),(16,17)]
impls=sys.argv[2].split(',')
print('| class | octets | '+' | '.join(impls)+' |')
for c in ['ascii','latin','cjk','emoji','mixed']:
    for lo,hi in ranges:
        row=[]
        for i in impls:
            vals=[q10(d[(c,a,n,i)]) for a in '01' for n in range(lo,hi+1) if d.get((c,a,n,i))]
            row.append(math.exp(sum(map(math.log,vals))/len(vals)) if vals else float('nan'))
        print('| %s | %s | '%(c, '%d'%lo if lo==hi else '%d-%d'%(lo,hi))+' | '.join('%.2f'%r for r in row)+' |')
