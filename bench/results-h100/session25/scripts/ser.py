import sys, numpy as np
from dream.bench.transfer import serial_latency
from dream.runtime.pinned import PinnedBuffer
p = PinnedBuffer(64 << 20)
data = p.view(np.uint64); data[:] = np.arange(data.size, dtype=np.uint64)
print(sys.argv[1], "direct serial_us", [round(serial_latency("direct", {}, 4096, data) / 1e3, 2) for _ in range(4)], flush=True)
