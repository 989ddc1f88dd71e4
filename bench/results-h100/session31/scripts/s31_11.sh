# session 31: one 16-byte store (bounds) + one 8-byte store (type) in the resident failure path, against main and session 30's 8-byte store
export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
cp $INC/abi.h /tmp/abi_main.h
for v in v8 main v1 v8 main; do
  if [ $v = main ]; then cp .b31/fault_main.cuh $INC/fault.cuh; cp /tmp/abi_main.h $INC/abi.h; else cp .b31/fault_$v.cuh $INC/fault.cuh; cp .b31/abi_new.h $INC/abi.h; fi
  VARIANT=$v timeout 100 python3 -P .b30/hook.py dream 2 2>&1 | tail -1
done
