import sys, numpy as np, json
from dream.bench.transfer import serial_latency
n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
opts = json.loads(sys.argv[1])
data = np.random.default_rng(2).integers(0, 2**63, n * 4096 // 8, dtype=np.uint64)
print(sys.argv[1], " ".join(f"{serial_latency('softrnic', opts, 4096, data) / 1e3:.2f}" for _ in range(3)), "us", flush=True)
