# session 30: a serial fault step by step (clock64 stamps in dream_fault)
set -o pipefail; export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
cp $INC/fault.cuh /tmp/fault_final.cuh
python3 -P .b30/stamp.py > /tmp/plain.txt 2>&1; grep -v STAMP /tmp/plain.txt
cp .b30/fault_stamp.cuh $INC/fault.cuh
python3 -P .b30/stamp.py > $OUT/stamps.txt 2>&1; grep -v STAMP $OUT/stamps.txt
cp /tmp/fault_final.cuh $INC/fault.cuh
python3 - <<'P'
import os, numpy as np
L = [l.split()[1:] for l in open(os.environ["OUT"] + "/stamps.txt") if l.startswith("STAMP")]
a = np.array(L, dtype=float)
ghz = float([l.split()[2] for l in open(os.environ["OUT"] + "/stamps.txt") if l.startswith("SM clock")][0])
names = ["enter -> ahead_page done", "-> claim CAS", "-> frame taken (home CAS, owner)", "-> before transport (owner, LOADING entry)",
         "-> transport done (copy, fence)", "-> published, unlocked", "-> counters, return"]
print(len(a), "faults stamped; median us:")
for i, n in enumerate(names):
    print(f"  {n:45s} {np.median(a[:, i]) / ghz / 1e3:.2f}")
print(f"  {'sum':45s} {np.median(a.sum(1)) / ghz / 1e3:.2f}")
P
