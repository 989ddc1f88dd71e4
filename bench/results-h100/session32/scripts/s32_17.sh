# session 32 final: GPU suite (not nvme) and the transfer benchmark (direct) on the final commit
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
timeout 330 python3 -P -m pytest -m gpu --timeout 120 -q -p no:cacheprovider -rf -k "not nvme" > $OUT/gpu_rest_final.txt 2>&1; echo rc=$?; tail -3 $OUT/gpu_rest_final.txt
timeout 100 python3 -P -m dream bench transfer --data 256MiB --page 4KiB,64KiB --runs 2 --backend direct --out $OUT/transfer > /tmp/t.log 2>&1; echo rc=$?; grep -a "direct\|bulk\|serial" /tmp/t.log | tr '\r' '\n' | grep -v "transfer:" | head -8
