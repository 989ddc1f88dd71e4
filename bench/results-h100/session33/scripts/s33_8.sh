# session 33 call 8: after the review commit: the served build's tests on every backend, serial fault, polybench x = 0
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
T tests
timeout 230 python3 -P -m pytest -m gpu --timeout 60 -q -p no:cacheprovider -rf tests/test_core_gpu.py -k "served or no_eviction or streaming or at_home or column or thread_per_element or out_of_bounds or element_type or span" > $OUT/t.txt 2>&1; echo rc=$?; tail -4 $OUT/t.txt
T serial
timeout 30 python3 -P .b33/serial2.py 264
T poly
timeout 80 python3 -P -m dream bench polybench --backend direct --oversubscription 0 --runs 2 --systems dream,in_memory,uvm --out $OUT/poly > /tmp/p.log 2>&1; echo rc=$?; cat $OUT/poly/polybench.md
T end
