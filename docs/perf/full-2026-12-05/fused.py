import re,sys
for path in sys.argv[1:]:
    tot=ok=0; bad=[]
    for ln in open(path):
        if ln.startswith('geomean'):
            break  # the sec/op table ends here; the B/s table follows
        m=re.match(r'^SweepUnmask(?:Copy)?/class=(latin|mixed)/align=(\d)/size=(\d+)-2\s.*?(~|[+-][\d.]+%) \(p=([\d.]+)',ln)
        if not m or 'sec/op' in ln: continue
        if int(m.group(3))<16: continue
        tot+=1
        d=m.group(4)
        if d!='~' and float(d.rstrip('%'))>=10 and float(m.group(5))<0.05: ok+=1
        else: bad.append(f"{m.group(1)}/{m.group(2)}/{m.group(3)}:{d}")
    print(path, "cells", tot, "fused >=1.1x faster (p<0.05):", ok, "not:", len(bad))
    print("   ", " ".join(bad[:40]))
