export PYTHONUNBUFFERED=1
exec > $OUT/log.txt 2>&1
python3 -m pip install -q --no-deps --no-build-isolation . > /tmp/i.log 2>&1 || { tail -30 /tmp/i.log; exit 1; }
INC=$(python3 -P -c "import dream,os;print(os.path.dirname(dream.__file__))")/cuda/include/dream
cp $INC/serve.cuh /tmp/serve.orig
for w in 4 264; do timeout 30 python3 -P .b33/serial2.py $w; done
sed -i 's/#define DREAM_SERVE_CHECK_EVERY 256/#define DREAM_SERVE_CHECK_EVERY (1u << 30)/' $INC/serve.cuh
echo "check every 2^30"; for w in 4 264; do timeout 30 python3 -P .b33/serial2.py $w; done
cp /tmp/serve.orig $INC/serve.cuh; sed -i 's/__nanosleep(64);/;/' $INC/serve.cuh
echo "no sleep"; for w in 4; do timeout 30 python3 -P .b33/serial2.py $w; done
