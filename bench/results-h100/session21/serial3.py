import sys, numpy as np
from dream.bench.transfer import serial_latency
data = np.random.default_rng(3).integers(0, 2**63, (64 << 20) // 8, dtype=np.uint64)
print(sys.argv[1], "serial_us", [round(serial_latency("direct", {}, 4096, data) / 1e3, 2) for _ in range(4)], flush=True)
