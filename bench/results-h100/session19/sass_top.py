"""Top SASS lines of an `ncu --page source --csv --print-source sass` export (session-19 diag).

  python sass_top.py FILE.csv [N]

Prints the kernel's executed-instruction total, then its N lines with the
most warp-stall samples: samples, executions, the top stall reason, and for
global loads L1 tag requests and L2 sectors."""
import csv, sys

rows = list(csv.reader(open(sys.argv[1])))
head = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
cols, data = rows[head], rows[head + 1:]
ix = {c: i for i, c in enumerate(cols)}
num = lambda r, c: float(r[ix[c]] or 0) if r[ix[c]] not in ("-", "") else 0.0
stalls = [c for c in cols if c.startswith("stall_") and "Not Issued" not in c]
total = sum(num(r, "Instructions Executed") for r in data)
samples = sum(num(r, "Warp Stall Sampling (All Samples)") for r in data)
print(f"instructions executed {total:.3e}, stall samples {samples:.0f}")
top = sorted(data, key=lambda r: -num(r, "Warp Stall Sampling (All Samples)"))[:int(sys.argv[2]) if len(sys.argv) > 2 else 40]
for r in sorted(top, key=lambda r: int(r[0], 16)):
    s = num(r, "Warp Stall Sampling (All Samples)")
    why = max(stalls, key=lambda c: num(r, c))
    mem = f" L1req {num(r, 'L1 Tag Requests Global'):.2e} L2sec {num(r, 'L2 Theoretical Sectors Global'):.2e}" if "LDG" in r[1] or "ATOM" in r[1] else ""
    print(f"{r[0][-5:]} {s/samples*100:5.1f}% x{num(r, 'Instructions Executed'):.2e} {why[6:]:16s} {r[1].strip()[:60]}{mem}")
