set -o pipefail
nvcc -arch=sm_90 -O3 -o /tmp/lone .base/lone.cu && timeout 120 /tmp/lone | tee $OUT/lone.txt
