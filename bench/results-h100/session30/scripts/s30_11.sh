set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
cp $INC/fault.cuh /tmp/fault_final.cuh
for v in vq vr; do T $v; cp .b30/fault_$v.cuh $INC/fault.cuh; VARIANT=$v timeout 60 python3 -P .b30/hook.py dream 2 2>&1 | tail -2; done
cp /tmp/fault_final.cuh $INC/fault.cuh
for f in cc_vq cc_vr; do cuobjdump -sass .b30/$f.cubin > $OUT/$f.sass; done
T nvme-rest
timeout 250 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf "tests/test_stress_gpu.py::test_stress_heavy_eviction[nvme-hostq]" "tests/test_stress_gpu.py::test_stress_with_the_ring_holding_every_page[nvme]" "tests/test_stress_gpu.py::test_stress_with_the_ring_holding_every_page[nvme-hostq]" "tests/test_stress_gpu.py::test_stress_gathering_while_evicting[nvme]" "tests/test_stress_gpu.py::test_stress_gathering_while_evicting[nvme-hostq]" > $OUT/gpu_nvme_rest.log 2>&1; echo rc=$?; tail -2 $OUT/gpu_nvme_rest.log
T end
