import csv,sys,re
# usage: behind.py file.csv [threshold%] -> cells where a peer is faster (p<0.05, by more than 3%)
rows=list(csv.reader(open(sys.argv[1])))
hdr=None; names=None; out=[]; total=0
for r in rows:
    if len(r)>2 and r[0]=='' and r[1] in ('B/s','B/op','allocs/op'): break
    if len(r)>2 and r[0]=='' and r[1]=='sec/op': hdr=r; continue
    if len(r)>1 and r[0]=='' and r[1]: names=r; continue
    if hdr is None or len(r)<3 or not r[0] or r[0].startswith('geomean'): continue
    total+=1
    for i,h in enumerate(hdr):
        if h=='vs base':
            if i+1>=len(r): continue
            d=r[i]; p=r[i+1]; j=i
            while j>0 and not names[j]: j-=1
            if d.endswith('%'):
                v=float(d[:-1]); pv=float(re.search(r'p=([\d.]+)',p).group(1))
                if v < -3 and pv < 0.05:
                    out.append((r[0],names[j],d,p,'%.2fn'%(float(r[1])*1e9),'%.2fn'%(float(r[i-2])*1e9)))
print(f"{total} rows; {len(out)} cells with a peer faster")
for o in out: print(*o, sep='\t')
