"""The copy kernel on a GPU (dma="copy-kernel", the default of the soft
engines' host threads for 4 KiB pages; runtime/copier.py): it runs for the launches that may fault and for flushes,
not for launches whose arrays are all at home; dma="copy-engines" runs
without it; an engine thread count it cannot hold is refused. The shared
suite (test_core_gpu.py) runs both soft engines on it under pressure."""
import time

import numpy as np
import pytest
from numpy.random import default_rng  # at import: its first import after the tests above hung once (H100)

import dream

pytestmark = pytest.mark.gpu

SCALE = r'''
extern "C" __global__ void scale(dream_ptr<float> a, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x)
        a[i] = 2.0f * a[i];
}'''


def runtime(backend, tmp_path, **kw):
    if backend == "nvme":
        kw.setdefault("directory", str(tmp_path))
    else:  # the soft RNIC's host threads (its GPU engine, the default, moves pages itself)
        kw.setdefault("engine", "host")
    kw.setdefault("gpu_memory", "64MiB")
    return dream.Runtime(backend=backend, page_size="4KiB", **kw)


@pytest.mark.parametrize("backend", ["softrnic", "nvme"])
def test_runs_only_for_launches_that_may_fault(backend, tmp_path):
    h = np.arange(1 << 20, dtype=np.float32)
    with runtime(backend, tmp_path) as rt:
        cp = rt._backend.resident
        assert rt.describe()["dma"] == "copy-kernel" and cp is not None
        a = rt.array(h)
        k = rt.kernel(SCALE, "scale")
        k(64, 256, (a, np.uint64(h.size)))          # loads every page: with the copy kernel
        assert cp.launches == 1 and not cp.running
        assert a.slot in rt._at_home()
        k(64, 256, (a, np.uint64(h.size)))          # the resident build: none
        assert cp.launches == 1
        np.testing.assert_array_equal(a.to_numpy(), 4 * h)   # the flush writes back through it
        assert cp.launches == 2 and not cp.running
        c = rt.stats()
        assert c.writebacks >= a.n_pages


@pytest.mark.parametrize("backend", ["softrnic", "nvme"])
def test_copy_engines_on_request(backend, tmp_path):
    h = np.arange(1 << 20, dtype=np.float32)
    with runtime(backend, tmp_path, dma="copy-engines", gpu_memory="1MiB") as rt:
        assert rt._backend.resident is None and rt.describe()["dma"] == "copy-engines"
        a = rt.array(h)
        rt.kernel(SCALE, "scale")(64, 256, (a, np.uint64(h.size)))
        np.testing.assert_array_equal(a.to_numpy(), 2 * h)


@pytest.mark.parametrize("backend", ["softrnic", "nvme"])
def test_larger_pages_keep_the_copy_engines(backend, tmp_path):
    kw = {"directory": str(tmp_path)} if backend == "nvme" else {"engine": "host"}
    with dream.Runtime(backend=backend, page_size="64KiB", gpu_memory="4MiB", **kw) as rt:
        assert rt._backend.resident is None and rt.describe()["dma"] == "copy-engines"


def test_more_engine_threads_than_it_can_hold_are_refused(tmp_path):
    import cupy
    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    with pytest.raises(dream.ConfigError, match="takes an SM per engine thread"):
        runtime("softrnic", tmp_path, engine_threads=sms // 4 + 1)


class _NoEngine:
    """Stands in for a soft engine's switch (set_copier, use_copier): here
    the test itself posts to the ring, as an engine thread would."""

    def set_copier(self, rings, n, stream):
        pass

    def use_copier(self, on, timeout):
        pass


def test_batches_land_in_order_across_stages_and_the_ring_wrap():
    """The copy kernel alone, its ring filled as copy_ring.h fills it. Each
    round posts three batches at once (the first's end written last, so one
    look finds all three): host A -> device B, then B -> device C, then C
    -> host D, 700 descriptors each: 2,100, more than a stage of
    descriptors (2,048), so the third batch crosses a stage's end. A batch
    that ran before the one before it had landed would copy zeros. Four
    rounds pass the ring's 4,096 slots twice; two copies a batch have
    lengths that are not 16-byte multiples (the kernel's byte path)."""
    import cupy
    from dream.runtime.copier import CHUNK, SLOTS, STAGE, CopyKernel
    from dream.runtime.pinned import PinnedBuffer
    n, rounds = 700, 4
    assert 3 * n > STAGE and rounds * 3 * n > 2 * SLOTS
    nbytes = n * CHUNK
    with dream.Runtime(backend="direct", gpu_memory="16MiB") as rt:
        cp = CopyKernel(rt, _NoEngine(), 1, "DREAM_BACKEND_DIRECT")
        a, d = PinnedBuffer(nbytes), PinnedBuffer(nbytes)
        b, c = cupy.zeros(nbytes, np.uint8), cupy.zeros(nbytes, np.uint8)
        ring = cp.mem.rings[0]
        cp.start()
        try:
            end, batch = 0, 0
            for rnd in range(rounds):
                a.bytes[:] = default_rng(rnd).integers(0, 256, nbytes, dtype=np.uint8)
                b.fill(0)
                c.fill(0)
                d.bytes[:] = 0
                cupy.cuda.get_current_stream().synchronize()  # not the device's: the copy kernel runs on
                lens = [CHUNK] * n
                lens[7], lens[n - 1] = 100, 4001  # a short copy, and a last one not 16-byte long
                ends = []
                for src, dst, order in ((a.device_ptr, b.data.ptr, range(n)),
                                        (b.data.ptr, c.data.ptr, range(n - 1, -1, -1)),
                                        (c.data.ptr, d.device_ptr, range(n))):
                    # the middle batch lists its chunks backwards: each is then copied by
                    # another warp than in the batches before and after it
                    for j, i in enumerate(order):
                        desc = ring["desc"][(end + j) % SLOTS]
                        desc["src"], desc["dst"], desc["len"] = src + i * CHUNK, dst + i * CHUNK, lens[i]
                    end += n
                    ends.append(end)
                for k in (2, 1, 0):  # the first batch's end last: one look finds all three
                    ring["ends"][(batch + k) % len(ring["ends"])] = ends[k]
                batch += 3
                ring["posted"] = batch
                deadline = time.monotonic() + 10
                while int(ring["consumed"]) != end:
                    assert time.monotonic() < deadline, (rnd, int(ring["consumed"]), end)
                    time.sleep(1e-4)
                want = np.concatenate([a.bytes[i * CHUNK:i * CHUNK + ln] for i, ln in enumerate(lens)])
                got = np.concatenate([d.bytes[i * CHUNK:i * CHUNK + ln] for i, ln in enumerate(lens)])
                np.testing.assert_array_equal(got, want, err_msg=f"round {rnd}")
        finally:
            cp.stop()
