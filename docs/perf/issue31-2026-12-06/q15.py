import re,collections,sys
def load(f):
    d=collections.defaultdict(list)
    for line in open(f):
        if not line.startswith('Benchmark'): continue
        x=line.split(); m=re.search(r'class=(\w+)/align=(\d)/size=(\d+)/impl=([\w+]+)',x[0])
        if m: d[(m.group(1),m.group(2),int(m.group(3)),m.group(4))].append(float(x[2]))
    return d
b=load(sys.argv[1]); a=load(sys.argv[2])
q=lambda v: sorted(v)[len(v)//10]
import statistics
for c in ['ascii','latin','mixed']:
  for al in '01':
    ns=range(1,16)
    print(c,al,' '.join('%d:%.1f>%.1f|%.1f'%(n,q(b[(c,al,n,'equivcheck')]),q(a[(c,al,n,'equivcheck')]),q(a[(c,al,n,'mask+valid')])) for n in ns))
    print('   geomean q10 before %.2f after %.2f (%+.1f%%)'%(statistics.geometric_mean([q(b[(c,al,n,'equivcheck')]) for n in range(2,16)]),statistics.geometric_mean([q(a[(c,al,n,'equivcheck')]) for n in range(2,16)]), 100*(statistics.geometric_mean([q(a[(c,al,n,'equivcheck')]) for n in range(2,16)])/statistics.geometric_mean([q(b[(c,al,n,'equivcheck')]) for n in range(2,16)])-1)))
