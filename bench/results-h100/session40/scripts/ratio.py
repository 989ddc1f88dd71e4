"""Serial fault against a zero-copy load of the same pinned pages, one process, direct, 4 KiB pages."""
import numpy as np
from dream.bench.transfer import serial_latency, zero_copy_latency
from dream.bench.harness import raw_runtime
from dream.runtime.pinned import PinnedBuffer
import cupy
page, count = 4096, 2000
pinned = PinnedBuffer(count * page)
data = pinned.view(np.uint64)
data[:] = np.arange(data.size, dtype=np.uint64)
print(cupy.cuda.runtime.getDeviceProperties(0)["name"].decode())
for r in range(3):
    with raw_runtime(0) as rt_raw:
        zc = zero_copy_latency(rt_raw, pinned, page, count)
    d = serial_latency("direct", {}, page, data.copy(), count)
    print(f"run {r}: dream serial fault {d / 1e3:.2f} us, zero-copy load {zc / 1e3:.2f} us, ratio {d / zc:.2f}", flush=True)
