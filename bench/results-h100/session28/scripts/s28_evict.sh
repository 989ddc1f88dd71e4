# session 28: the sequence of warps also in launches that evict (A: O6 only, as landed; B: any launch): vector add at x = 0, 4, 8, ATAX at 8
set -o pipefail; export PYTHONUNBUFFERED=1
t0=$(date +%s); T() { echo "== $1 [$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i1.log 2>&1 || { tail -30 /tmp/i1.log; exit 1; }
H=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream/fault.cuh
cp $H /tmp/fault.orig
for v in A B A B; do
cp /tmp/fault.orig $H
[ $v = B ] && sed -i 's/if (!(p.flags \& DREAM_PTR_NO_EVICT) || peers != 0xFFFFFFFFu || page == 0)/if (peers != 0xFFFFFFFFu || page == 0)/' $H
echo "== $v $(grep -c 'if (peers != 0xFFFFFFFFu || page == 0)' $H)"
timeout 150 python3 -P -m dream bench polybench --kernels vadd,atax --n 16384 --backend direct --runs 1 --oversubscription 4,8 --systems dream --out $OUT/pb_$v > /tmp/p.log 2>&1; grep "| dream" $OUT/pb_$v/polybench.md || tail -3 /tmp/p.log
done
T tests_B
sed -i 's/if (!(p.flags \& DREAM_PTR_NO_EVICT) || peers != 0xFFFFFFFFu || page == 0)/if (peers != 0xFFFFFFFFu || page == 0)/' $H
timeout 300 python3 -P -m pytest -m gpu --timeout 150 -q -p no:cacheprovider -rf -k "vadd_oversubscription or read_ahead or stress or per_element" 2>&1 | tail -4
T end
