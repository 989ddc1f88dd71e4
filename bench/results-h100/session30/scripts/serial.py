import sys, numpy as np
from dream.bench.transfer import serial_latency
n = 2000
data = np.random.default_rng(2).integers(0, 2**63, n * 4096 // 8, dtype=np.uint64)
print(sys.argv[1], " ".join(f"{serial_latency('direct', {}, 4096, data) / 1e3:.2f}" for _ in range(5)), "us", flush=True)
