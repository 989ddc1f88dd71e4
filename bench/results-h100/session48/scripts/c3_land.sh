# Session 48, call 3: main with wip/whole-test merged (O8's switches counted,
# the stronger whole-at-home test). The whole `pytest -m gpu -k "not nvme"`
# (about 250 s on an H200), the nvme tests the change touches, then BFS and
# CC exact at scale 22 with the new counter in the bench row.
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T installed
timeout 330 python3 -P -m pytest -m gpu -k "not nvme" --timeout 60 -q -p no:cacheprovider -rf tests > $OUT/gpu_not_nvme.txt 2>&1; echo rc=$?
tail -4 $OUT/gpu_not_nvme.txt
T "gpu not nvme"
timeout 120 python3 -P -m pytest -m gpu -k "nvme and (whole_at_home or no_eviction or at_home or stats or counters)" --timeout 60 \
  -q -p no:cacheprovider -rf tests > $OUT/gpu_nvme.txt 2>&1; echo rc=$?
tail -4 $OUT/gpu_nvme.txt
T "gpu nvme subset"
(cd /tmp && timeout 100 python3 -P -m dream bench graph --graph kron --scale 22 --kernels bfs,cc --layouts csr --backend direct \
   --oversubscription 0 --runs 1 --systems dream --out /tmp/g > /tmp/g.log 2>&1; echo rc=$?; grep -E "^\| " /tmp/g/*.md | cut -c1-150 | head -8;
 python3 -c "import json; [print(r.get('kernel'), r.get('exact'), r.get('whole'), r.get('faults')) for r in json.load(open('/tmp/g/graph.json'))['rows']]" 2>&1 | tail -4)
T "graph check"
