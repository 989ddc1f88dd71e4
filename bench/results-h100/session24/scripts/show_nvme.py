import json,sys
for f in sys.argv[1:]:
    d=json.load(open(f))
    if d['failed']: print(f,'FAILED',json.dumps(d['failed'])[:800])
    base=d['nvme_cpu_baseline']['rand_warm']['gbps']
    for bk,pts in d['dream'].items():
        for p in pts:
            g=p['gather']; s=p['stream']
            t=g['stats']['transport']
            print(f, bk.ljust(50), 'gather %.2f GB/s %.2fx'%(g['GBps'], g.get('vs_cpu_pread',0)), ' stream %.2f (%.2f)'%(s['GBps'], s.get('vs_cpu_pread',0)), 'cached', t.get('cached_reads'), 'serial %.1f us'%(d['serial_latency_ns'].get(bk.replace(';',':')+' 4KiB',0)/1000), 'base %.1f'%base)
