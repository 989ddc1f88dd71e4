"""The copy kernel on a GPU (dma="copy-kernel", the soft engines' default
for 4 KiB pages; runtime/copier.py): it runs for the launches that may fault and for flushes,
not for launches whose arrays are all at home; dma="copy-engines" runs
without it; an engine thread count it cannot hold is refused. The shared
suite (test_core_gpu.py) runs both soft engines on it under pressure."""
import numpy as np
import pytest

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
    kw.setdefault("gpu_memory", "64MiB")
    return dream.Runtime(backend=backend, page_size="4KiB", **kw)


@pytest.mark.parametrize("backend", ["softrnic", "nvme"])
def test_runs_only_for_launches_that_may_fault(backend, tmp_path):
    h = np.arange(1 << 20, dtype=np.float32)
    with runtime(backend, tmp_path) as rt:
        cp = rt._backend.copier
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
        assert rt._backend.copier is None and rt.describe()["dma"] == "copy-engines"
        a = rt.array(h)
        rt.kernel(SCALE, "scale")(64, 256, (a, np.uint64(h.size)))
        np.testing.assert_array_equal(a.to_numpy(), 2 * h)


@pytest.mark.parametrize("backend", ["softrnic", "nvme"])
def test_larger_pages_keep_the_copy_engines(backend, tmp_path):
    kw = {"directory": str(tmp_path)} if backend == "nvme" else {}
    with dream.Runtime(backend=backend, page_size="64KiB", gpu_memory="4MiB", **kw) as rt:
        assert rt._backend.copier is None and rt.describe()["dma"] == "copy-engines"


def test_more_engine_threads_than_it_can_hold_are_refused(tmp_path):
    import cupy
    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    with pytest.raises(dream.ConfigError, match="takes an SM per engine thread"):
        runtime("softrnic", tmp_path, engine_threads=sms // 4 + 1)
