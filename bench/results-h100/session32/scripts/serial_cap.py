import sys, numpy as np
import dream.runtime.compile as c
c.FAULT_REGISTERS = int(sys.argv[1])
from dream.bench.transfer import serial_latency
data = np.random.default_rng(2).integers(0, 2**63, 2000 * 4096 // 8, dtype=np.uint64)
print(f"cap {sys.argv[1]}:", " ".join(f"{serial_latency('direct', {}, 4096, data) / 1e3:.2f}" for _ in range(4)), "us", flush=True)
