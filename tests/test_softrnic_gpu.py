"""softrnic on a GPU, beyond the shared correctness suite: queue shapes that
force slot reuse and wraparound, the GPU's and the engine's counts agreeing,
error completions (bad key, address outside the region) reaching the user as
TransportError with other pages intact, and an engine stopped mid-kernel
giving DreamTimeoutError instead of a hang; each on both engines, host
threads and GPU warps (engine="gpu")."""
import threading
import time

import numpy as np
import pytest

import dream
from dream.runtime import abi

pytestmark = pytest.mark.gpu

BLOCK = 128

COPY = r'''
extern "C" __global__ void copy(dream_ptr<float> src, dream_ptr<float> dst, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x)
        dst[i] = src[i];
}'''

INC = r'''
extern "C" __global__ void inc(dream_ptr<float> a, unsigned long long n, int reps) {
    for (int r = 0; r < reps; r++)
        for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
             i < n; i += (unsigned long long)gridDim.x * blockDim.x)
            a[i] += 1.0f;
}'''


def softrnic(**kw):
    kw.setdefault("timeout", "5s")
    kw.setdefault("host_timeout", "120s")
    return dream.Runtime(backend="softrnic", **kw)


def desc_field(rt, arr, name):
    off = arr.slot * abi.ARRAY_DESC.itemsize + abi.ARRAY_DESC.fields[name][1]
    size = abi.ARRAY_DESC.fields[name][0].itemsize
    return int(rt._descs[off:off + size].get().view(f"<u{size}")[0])


def set_desc_field(rt, arr, name, value):
    """Fault injection: the descriptor the GPU reads for `arr`."""
    off = abi.ARRAY_DESC.fields[name][1] + arr.slot * abi.ARRAY_DESC.itemsize
    size = abi.ARRAY_DESC.fields[name][0].itemsize
    rt._descs[off:off + size].set(np.array([value], dtype=f"<u{size}").view(np.uint8))


ENGINES = ["host", "gpu"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("qmem", ["split", "gpu", "host"])
@pytest.mark.parametrize("queues,depth", [(1, 1), (1, 4), (3, 8), (None, 64)])
def test_queue_shapes_under_eviction(qmem, queues, depth, engine):
    n = 1 << 20  # 4 MiB of floats through a 1 MiB ring: evictions and write-backs
    h = np.arange(n, dtype=np.float32)
    with softrnic(queue_memory=qmem, queues=queues, queue_depth=depth, page_size="4KiB",
                  gpu_memory="1MiB", engine=engine) as rt:
        a = rt.array(h)
        rt.kernel(INC, "inc")(rt.nframes // BLOCK, BLOCK, (a, np.uint64(n), np.int32(2)))
        np.testing.assert_array_equal(a.to_numpy(), h + 2)
        s = rt.stats()
        t = s.transport
        assert s.evictions > 0 and s.writebacks > 0
        # every WQE the GPU posted was served, and one doorbell covered many
        assert t["wqes"] == s.requests == t["reads"] + t["writes"]
        if engine == "host":
            info = rt._backend.nic.engine.qp_info(0)  # where the engine found the queues
            assert (info["sq_on_device"], info["cq_on_device"]) == \
                {"split": (False, True), "gpu": (True, True), "host": (False, False)}[qmem]
        assert t["errors"] == t["flushed"] == t["bad_doorbells"] == 0
        assert 0 < t["doorbells"] <= s.doorbells <= s.requests
        if depth > 1:
            assert s.doorbells < s.requests


@pytest.mark.parametrize("qmem,engine", [("split", "host"), ("gpu", "host"), ("host", "host"),
                                         ("gpu", "gpu")])
def test_every_sm_full_of_faulting_warps(qmem, engine):
    # 4 blocks of 128 threads on every SM stream 256 MiB through a ring of a
    # quarter of it, read-ahead on, 40 launches: the engine's copy batches at
    # their largest. Whole batches in one cudaMemcpyBatchAsync call corrupted
    # the copy channel here within a few launches (dma.h, kBatchCopies).
    import cupy
    from dream.bench.transfer import grid_stream, xor_words
    from dream.bench.transfer_kernels import STREAM, dream_source
    nbytes = 256 << 20
    data = np.arange(nbytes // 8, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    expect = xor_words(data.view(np.uint32))
    with softrnic(queue_memory=qmem, page_size="4KiB", gpu_memory=nbytes // 4, timeout="10s",
                  engine=engine) as rt:
        a = rt.array(data.view(np.complex128))
        k = rt.kernel(dream_source(STREAM), "stream")
        grid, block, n16 = rt.gpu.sms * 4, 128, nbytes // 16
        per_warp = np.uint64(grid_stream(n16, grid * block // 32))
        sink = cupy.zeros(1, np.uint64)
        for _ in range(40):
            rt.evict()
            sink.fill(0)
            k(grid, block, (a, np.uint64(n16), per_warp, sink))
            assert int(sink.get()[0]) == expect
        assert rt.stats().ahead > 0


def test_more_warps_than_frames_keep_their_pages():
    # 16 warps per SM stream 256 MiB of 64 KiB pages through a ring of 1,024
    # frames: twice as many warps as frames, each reading two pages. A frame
    # taken again as soon as its loader's first access unpinned it (before
    # the ring's young frames, fault.cuh dream_ring_take) loaded each page
    # 15 times (H200); now 3.5
    import cupy
    from dream.bench.transfer import grid_stream, xor_words
    from dream.bench.transfer_kernels import STREAM, dream_source
    nbytes, page = 256 << 20, 64 << 10
    data = np.arange(nbytes // 8, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    expect = xor_words(data.view(np.uint32))
    with softrnic(page_size=page, gpu_memory=nbytes // 4, timeout="10s") as rt:
        a = rt.array(data.view(np.complex128))
        k = rt.kernel(dream_source(STREAM), "stream")
        grid, block, n16 = rt.gpu.sms * 2, 256, nbytes // 16
        assert grid * block // 32 >= 2 * rt.nframes
        sink = cupy.zeros(1, np.uint64)
        k(grid, block, (a, np.uint64(n16), np.uint64(grid_stream(n16, grid * block // 32)), sink))
        assert int(sink.get()[0]) == expect
        assert rt.stats().pages_in <= 8 * (nbytes // page), rt.stats()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("qmem", ["split", "gpu", "host"])
@pytest.mark.parametrize("fault", ["bad key", "outside the region"])
def test_error_completion_is_a_transport_error(qmem, fault, engine):
    n = 1 << 18
    hg = np.arange(n, dtype=np.float32)
    hb = -np.arange(n, dtype=np.float32)
    with softrnic(queue_memory=qmem, page_size="4KiB", gpu_memory="8MiB", engine=engine) as rt:
        good, bad, out = rt.array(hg), rt.array(hb), rt.zeros(n, np.float32)
        grid = rt.nframes // BLOCK
        rt.kernel(INC, "inc")(grid, BLOCK, (good, np.uint64(n), np.int32(1)))  # resident, dirty
        copy = rt.kernel(COPY, "copy")
        field = "key" if fault == "bad key" else "backing"
        saved = desc_field(rt, bad, field)
        set_desc_field(rt, bad, field, saved ^ 0x80 if fault == "bad key"
                       else saved + bad.n_pages * rt.page_size)
        why = "key of no registered region" if fault == "bad key" else "outside the region"
        with pytest.raises(dream.TransportError, match=f"REMOTE_ACCESS_ERR.*{why}"):
            copy(grid, BLOCK, (bad, out, np.uint64(n)))
        set_desc_field(rt, bad, field, saved)
        assert rt.stats().transport["errors"] >= 1
        # the resident dirty pages of another array and the backing stores are intact
        np.testing.assert_array_equal(good.to_numpy(), hg + 1)
        np.testing.assert_array_equal(bad.to_numpy(), hb)
        # the queues that failed were reset: the runtime goes on
        copy(grid, BLOCK, (bad, out, np.uint64(n)))
        np.testing.assert_array_equal(out.to_numpy(), hb)


@pytest.mark.parametrize("qmem,engine", [("split", "host"), ("gpu", "host"), ("host", "host"),
                                         ("gpu", "gpu")])
def test_engine_stopped_mid_kernel_times_out(qmem, engine):
    n = 16 << 20  # 64 MiB through a 4 MiB ring, 1000 times: minutes of work, never finished
    rt = softrnic(queue_memory=qmem, page_size="4KiB", gpu_memory="4MiB", timeout="2s", engine=engine)
    try:
        a = rt.zeros(n, np.float32)
        inc = rt.kernel(INC, "inc")
        nic = rt._backend.nic
        # the GPU engine's warps leave once told to (between their WQEs)
        stop = nic.engine.stop if engine == "host" else lambda: nic.gpu.kernel.ctl.set(stop=1)
        stopper = threading.Timer(0.5, stop)
        stopper.start()
        t0 = time.monotonic()
        with pytest.raises(dream.DreamTimeoutError,
                           match="completion of a transport request|a free queue slot|"
                                 "another warp's load of the page"):
            inc(rt.nframes // BLOCK, BLOCK, (a, np.uint64(n), np.int32(1000)))
        stopper.join()
        assert time.monotonic() - t0 < 60
        assert not (nic.engine.running if engine == "host" else nic.gpu.running)
    finally:
        rt.close()
    # a timeout ends its runtime, not the transport: a new one (new queues) serves
    with softrnic(queue_memory=qmem, page_size="4KiB", gpu_memory="4MiB", engine=engine) as rt:
        h = np.arange(1 << 20, dtype=np.float32)
        a = rt.array(h)
        rt.kernel(INC, "inc")(rt.nframes // BLOCK, BLOCK, (a, np.uint64(h.size), np.int32(1)))
        np.testing.assert_array_equal(a.to_numpy(), h + 1)


def test_options_are_checked():
    with pytest.raises(dream.ConfigError, match="queue_memory"):
        softrnic(queue_memory="disk")
    with pytest.raises(dream.ConfigError, match="queue_depth"):
        softrnic(queue_depth=48)
    with pytest.raises(dream.ConfigError, match="queues"):
        softrnic(queues=0)
    with pytest.raises(dream.ConfigError, match="no option"):
        softrnic(depth=64)
    with pytest.raises(dream.ConfigError, match="engine='nic'"):
        softrnic(engine="nic")
    with pytest.raises(dream.ConfigError, match="takes no dma"):
        softrnic(engine="gpu", dma="copy-kernel")


@pytest.mark.parametrize("engine", ENGINES)
def test_describe_names_the_queues(engine):
    with softrnic(queues=7, queue_depth=16, queue_memory="host", gpu_memory="1MiB", engine=engine) as rt:
        d = rt.describe()
        assert (d["backend"], d["queues"], d["queue_depth"], d["queue_memory"], d["engine"]) == \
            ("softrnic", 7, 16, "host", engine)
