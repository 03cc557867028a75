import sys
# split.py in.txt side: keep only the blocks (from one "goos:" to the next) whose equivcheck rows are that side; rename side -> equivcheck
txt=open(sys.argv[1]).read().split('goos:')
side=sys.argv[2]
out=[]
for blk in txt[1:]:
    if 'impl='+side in blk:
        out.append('goos:'+blk.replace('impl='+side,'impl=equivcheck'))
sys.stdout.write(''.join(out))
