"""Per function of a serial fault's kernel: SASS instructions executed per fault (2,000 faults), stall samples and
their reasons, and the instructions with the most samples, from `ncu --page source --csv --print-source sass`."""
import collections, csv, sys

secs, hdr, cur = {}, None, None
for row in csv.reader(open(sys.argv[1]).read().splitlines()):
    if not row:
        continue
    if row[0] == "Kernel Name":
        cur, hdr = row[1], None
        secs[cur] = []
    elif row[0] == "Address":
        hdr = row
    elif hdr:
        secs[cur].append(dict(zip(hdr, row)))
stalls = [h for h in hdr if h.startswith("stall_") and "Not" not in h]
total = sum(int(r["Warp Stall Sampling (All Samples)"] or 0) for rs in secs.values() for r in rs)
print(f"stall samples: {total} ({total / 2000:.2f} a fault)")
for name, rs in secs.items():
    n = sum(int(r["Instructions Executed"] or 0) for r in rs) / 2000
    s = sum(int(r["Warp Stall Sampling (All Samples)"] or 0) for r in rs)
    ops = collections.Counter()
    why = collections.Counter()
    for r in rs:
        k = int(r["Instructions Executed"] or 0)
        if k:
            ops[[o for o in r["Source"].split() if not o.startswith("@")][0].split(".")[0]] += k / 2000
        for h in stalls:
            why[h[6:]] += int(r[h] or 0)
    print(f"\n{name[:90]}\n  {n:.0f} instructions a fault, {s} samples ({100 * s / total:.0f} %)")
    print("  stalls:", ", ".join(f"{k} {v}" for k, v in why.most_common(6)))
    print("  most executed:", ", ".join(f"{k} {v:.0f}" for k, v in ops.most_common(8)))
    for r in sorted(rs, key=lambda r: -int(r["Warp Stall Sampling (All Samples)"] or 0))[:6]:
        print(f"    {int(r['Warp Stall Sampling (All Samples)'] or 0):5d}  {r['Source'].strip()[:70]}")
