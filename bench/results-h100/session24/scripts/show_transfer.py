import json,sys
for f in sys.argv[1:]:
    d=json.load(open(f))
    if d['failed']: print(f,'FAILED',json.dumps(d['failed'])[:800])
    b=d['baselines']
    for bk,pts in d['dream'].items():
        for p in pts:
            if 'stream' not in p: continue
            g=p['gather']; s=p['stream']
            print(f, bk.ljust(30), p['page_size']//1024,'K', 'stream %.1f GB/s %.2fx bulk'%(s['GBps'], s['GBps']/b['bulk_h2d']['GBps']), ' gather %.2f (%.2fx batched)'%(g['GBps'], g['GBps']/b['batched_copy_4k']['GBps']), 'skips', s['stats'].get('frame_skips'))
    print(f, 'serial', {k:round(v/1000,1) for k,v in d['serial_latency_ns'].items()}, 'bulk %.1f'%b['bulk_h2d']['GBps'])
