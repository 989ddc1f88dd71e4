set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
for v in vn vo vp main; do T $v; cp .b30/fault_$v.cuh $INC/fault.cuh; VARIANT=$v python3 -P .b30/hook.py dream 2 | tail -1; done
for f in cc_vn cc_vo cc_vp; do cuobjdump -sass .b30/$f.cubin > $OUT/$f.sass; done
T end
