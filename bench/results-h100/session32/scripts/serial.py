import sys, numpy as np, json
from dream.bench.transfer import serial_latency
backend = sys.argv[1]; opts = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
data = np.random.default_rng(2).integers(0, 2**63, 2000 * 4096 // 8, dtype=np.uint64)
print(backend, " ".join(f"{serial_latency(backend, opts, 4096, data) / 1e3:.2f}" for _ in range(4)), "us", flush=True)
