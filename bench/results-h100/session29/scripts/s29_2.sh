# session 29 call 3: the entry load's L1 priority (sync.cuh dream_ld_sm variants) -> CC/BFS cold and genentry; SASS load kinds
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
D=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
cp $D/sync.cuh /tmp/sync.orig
which cuobjdump nvdisasm; (cd /tmp && python3 -P /work/main/.b29/sass.py cc_hook,bfs_step 2>&1 | tail -3) || true
for v in base el weak el; do
  if [ $v = base ]; then cp /tmp/sync.orig $D/sync.cuh; else cp .b29/sync_$v.cuh $D/sync.cuh; fi
  T $v
  timeout 200 python3 -P .b29/gdiag.py cc,bfs 1 cold,genentry 2>&1 | grep -v build
done
cp /tmp/sync.orig $D/sync.cuh
T end
