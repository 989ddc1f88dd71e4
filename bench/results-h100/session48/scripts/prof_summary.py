"""Session 48: per function of a profiled launch (`ncu --page source --csv
--print-source sass`): instructions executed, stall samples and their
reasons, and the instructions with the most samples (argv[2]: how many)."""
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
num = lambda r, k: int(r.get(k) or 0)
total = sum(num(r, "Warp Stall Sampling (All Samples)") for rs in secs.values() for r in rs)
print(f"stall samples: {total}")
for name, rs in secs.items():
    n = sum(num(r, "Instructions Executed") for r in rs)
    s = sum(num(r, "Warp Stall Sampling (All Samples)") for r in rs)
    if not s:
        continue
    why = collections.Counter()
    for r in rs:
        for h in stalls:
            why[h[6:]] += num(r, h)
    print(f"\n{name[:100]}\n  {n} warp instructions, {s} samples ({100 * s / total:.0f} %)")
    print("  stalls:", ", ".join(f"{k} {v}" for k, v in why.most_common(6)))
    for r in sorted(rs, key=lambda r: -num(r, "Warp Stall Sampling (All Samples)"))[:int(sys.argv[2])]:
        top = max(stalls, key=lambda h: num(r, h))
        print(f"    {r['Address']} {num(r, 'Warp Stall Sampling (All Samples)'):6d} {top[6:]:14s} x{num(r, 'Instructions Executed'):<9d} {r['Source'].strip()[:80]}")
