"""The nvme backend on a GPU: persistence across runtime restarts, rt.open
modes and their errors, NVMe error statuses reaching the user as
TransportError with the other pages intact, queue placements, LBA formats
and pages that need PRP lists. (The shared suite in test_core_gpu.py runs on
nvme too.)"""
import os
import threading
import time

import numpy as np
import pytest

import dream
from test_softrnic_gpu import INC

pytestmark = pytest.mark.gpu

BLOCK = 128

SCALE = r'''
extern "C" __global__ void scale(dream_ptr<float> a, unsigned long long n, float m, float k) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x)
        a[i] = __fadd_rn(__fmul_rn(a[i], m), k);   // two roundings, as NumPy's (no FMA contraction)
}'''

COPY = r'''
extern "C" __global__ void copy(dream_ptr<float> src, dream_ptr<float> dst,
                                unsigned long long first, unsigned long long n) {
    for (unsigned long long i = first + blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x)
        dst[i] = src[i];
}'''


def runtime(tmp_path, **kw):
    kw.setdefault("page_size", "4KiB")
    kw.setdefault("gpu_memory", "4MiB")
    return dream.Runtime(backend="nvme", directory=str(tmp_path), **kw)


def grid(rt, n):
    return max(1, min(-(-n // BLOCK), rt.nframes // BLOCK))


def scale(rt, arr, m, k):
    n = arr.size
    rt.kernel(SCALE, "scale")(grid(rt, n), BLOCK, (arr, np.uint64(n), np.float32(m), np.float32(k)))


@pytest.mark.parametrize("qmem", ["split", "gpu", "host"])
def test_controller_stopped_mid_kernel_times_out_and_a_new_runtime_serves(tmp_path, qmem):
    """The controller stopped under a kernel that pages forever: the launch
    ends in DreamTimeoutError within the runtime's timeout, close() returns,
    and a new runtime (new queues) in the same process serves at once."""
    n = 16 << 20  # 64 MiB through a 4 MiB ring, 1000 times: never finished
    rt = runtime(tmp_path, queue_memory=qmem, timeout="2s")
    try:
        a = rt.zeros(n, np.float32)
        stopper = threading.Timer(0.5, rt._backend.ctrl.engine.stop)
        stopper.start()
        t0 = time.monotonic()
        with pytest.raises(dream.DreamTimeoutError):
            rt.kernel(INC, "inc")(rt.nframes // BLOCK, BLOCK, (a, np.uint64(n), np.int32(1000)))
        stopper.join()
        assert time.monotonic() - t0 < 60
    finally:
        rt.close()
    with runtime(tmp_path, queue_memory=qmem) as rt:
        h = np.arange(1 << 20, dtype=np.float32)
        a = rt.array(h)
        rt.kernel(INC, "inc")(grid(rt, h.size), BLOCK, (a, np.uint64(h.size), np.int32(1)))
        np.testing.assert_array_equal(a.to_numpy(), h + 1)


def test_info_names_the_software_controller(tmp_path):
    with runtime(tmp_path) as rt:
        d = rt.describe()
    assert "software NVMe controller" in d["transport"]
    assert "software NVMe controller over files" in d["device"]
    if not os.path.isdir("/sys/class/nvme") or not os.listdir("/sys/class/nvme"):
        assert "no NVMe device present" in d["device"]


def test_data_persists_across_runtimes(tmp_path):
    """Write in a kernel (8x oversubscribed: write-backs during the kernel),
    flush, close, reopen in a new runtime: the data is there."""
    path = tmp_path / "persist.f32"
    n = 2_000_000
    host = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    with runtime(tmp_path, gpu_memory="1MiB") as rt:
        a = rt.array(host, path=path)
        scale(rt, a, 2.0, 1.0)
        a.flush()
        assert rt.stats().writebacks > 0
    want = host * np.float32(2) + np.float32(1)
    np.testing.assert_array_equal(np.fromfile(path, dtype=np.float32, count=n), want)
    with runtime(tmp_path, gpu_memory="1MiB") as rt:
        b = rt.open(path, np.float32, n, mode="r+")
        scale(rt, b, 1.0, -1.0)
        np.testing.assert_array_equal(b.to_numpy(), want - np.float32(1))
    np.testing.assert_array_equal(np.fromfile(path, dtype=np.float32, count=n),
                                  want - np.float32(1))


def test_open_w_plus_then_r(tmp_path):
    path = tmp_path / "new.f32"
    n = 600 * 512  # whole LBAs: the file is exactly the array
    with runtime(tmp_path) as rt:
        a = rt.open(path, np.float32, (600, 512), mode="w+")
        scale(rt, a, 0.0, 5.0)
        a.flush()
    assert path.stat().st_size == n * 4
    with runtime(tmp_path) as rt:
        r = rt.open(path, np.float32, (600, 512), mode="r")
        out = rt.zeros(n, np.float32)
        rt.kernel(COPY, "copy")(grid(rt, n), BLOCK, (r, out, np.uint64(0), np.uint64(n)))
        assert (out.to_numpy() == 5).all()
        assert r.to_numpy().shape == (600, 512)


def test_open_errors(tmp_path):
    short = tmp_path / "short.bin"
    short.write_bytes(bytes(4096))
    odd = tmp_path / "odd.bin"
    odd.write_bytes(bytes(5000))
    ro = tmp_path / "ro.bin"
    ro.write_bytes(bytes(8192))
    ro.chmod(0o444)
    with runtime(tmp_path) as rt:
        with pytest.raises(dream.ConfigError, match="shorter than the array"):
            rt.open(short, np.float32, 2048)
        with pytest.raises(dream.ConfigError, match="not a multiple of the LBA size"):
            rt.open(odd, np.uint8, 4096)
        with pytest.raises(dream.ConfigError, match="no such file"):
            rt.open(tmp_path / "missing.bin", np.float32, 10)
        if os.geteuid() != 0:  # root may write anything
            with pytest.raises(dream.ConfigError, match="read-only"):
                rt.open(ro, np.float32, 2048, mode="r+")
        r = rt.open(ro, np.float32, 2048, mode="r")
        with pytest.raises(dream.ConfigError, match="read-only"):
            r.copy_from(np.ones(2048, np.float32))


def test_write_to_read_only_mapping_is_a_transport_error(tmp_path):
    path = tmp_path / "ro.f32"
    host = np.arange(4096, dtype=np.float32)
    host.tofile(path)
    with runtime(tmp_path) as rt:
        a = rt.open(path, np.float32, 4096, mode="r")
        scale(rt, a, 2.0, 0.0)
        with pytest.raises(dream.TransportError, match="Write Protected"):
            a.flush()
    np.testing.assert_array_equal(np.fromfile(path, dtype=np.float32), host)


def test_lba_out_of_range_fails_only_those_pages(tmp_path):
    """The namespace under an array shrinks to its first half (a namespace
    resized behind the runtime): faults on the second half complete with LBA
    Out of Range, raise TransportError, and leave every other page intact."""
    n = 64 * 1024  # 64 pages of float32
    host = np.arange(n, dtype=np.float32)
    half = tmp_path / "half.f32"
    host[:n // 2].tofile(half)
    with runtime(tmp_path, gpu_memory="1MiB") as rt:
        a = rt.array(host)
        other = rt.array(host[::-1].copy())
        be = rt._backend
        nsid = be._files[a.slot][0]
        be.ctrl.remove_namespace(nsid)
        assert be.ctrl.add_namespace(str(half), True, True) == nsid
        out = rt.zeros(n, np.float32)
        cp = rt.kernel(COPY, "copy")
        with pytest.raises(dream.TransportError, match="LBA Out of Range"):
            cp(grid(rt, n), BLOCK, (a, out, np.uint64(0), np.uint64(n)))
        cp(grid(rt, n // 2), BLOCK, (a, out, np.uint64(0), np.uint64(n // 2)))
        got = out.to_numpy()
        np.testing.assert_array_equal(got[:n // 2], host[:n // 2])
        o2 = rt.zeros(n, np.float32)
        cp(grid(rt, n), BLOCK, (other, o2, np.uint64(0), np.uint64(n)))
        np.testing.assert_array_equal(o2.to_numpy(), host[::-1])


def test_read_error_is_a_transport_error(tmp_path):
    path = tmp_path / "trunc.f32"
    n = 32 * 1024
    host = np.arange(n, dtype=np.float32)
    with runtime(tmp_path) as rt:
        a = rt.array(host, path=path)
        os.truncate(path, n * 2)  # half the file gone under the namespace
        out = rt.zeros(n, np.float32)
        with pytest.raises(dream.TransportError, match="Unrecovered Read Error"):
            rt.kernel(COPY, "copy")(grid(rt, n), BLOCK, (a, out, np.uint64(0), np.uint64(n)))


@pytest.mark.parametrize("queue_memory", ["split", "gpu", "host"])
@pytest.mark.parametrize("cache", ["cold", "warm"])
@pytest.mark.parametrize("lba_size", [512, 4096])
def test_placements_and_formats(tmp_path, queue_memory, cache, lba_size):
    n = 1_000_003  # last page short
    host = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    with runtime(tmp_path, gpu_memory="1MiB", queue_memory=queue_memory, cache=cache,
                 lba_size=lba_size, queues=8, queue_depth=16) as rt:
        a = rt.array(host)
        scale(rt, a, 3.0, 0.5)
        np.testing.assert_array_equal(a.to_numpy(), host * np.float32(3) + np.float32(0.5))
        s = rt.stats()
        assert s.doorbells > 0 and s.requests >= s.pages_in
        t = s.transport
        assert t["reads"] >= a.n_pages and t["writes"] > 0 and t["errors"] == 0
        be = rt._backend
        info = be.ctrl.engine.queue_info(1)  # where the controller found the queues
        assert (info["sq_on_device"], info["cq_on_device"]) == \
            {"split": (False, True), "gpu": (True, True), "host": (False, False)}[queue_memory]
        direct = be.ctrl.engine.namespace_info(be._files[a.slot][0])["direct"]
        assert (t["direct_ios"] > 0) == direct  # O_DIRECT where the filesystem takes it
        assert cache == "cold" or not direct


@pytest.mark.parametrize("page", ["64KiB", "2MiB", "4MiB"])
def test_pages_with_prp_lists(tmp_path, page):
    """Pages of 16, 512 and 1024 controller pages: PRP lists, chained for
    4 MiB. One warp on a 32-frame ring, 48 pages of data: evictions."""
    from dream.runtime.sizes import parse_size
    p = parse_size(page)
    n = 48 * p // 4 + 999
    host = np.random.default_rng(2).standard_normal(n).astype(np.float32)
    with runtime(tmp_path, page_size=page, gpu_memory=32 * p, staging=4 * p) as rt:
        a = rt.array(host)
        rt.kernel(SCALE, "scale")(1, 32, (a, np.uint64(n), np.float32(-1), np.float32(2)))
        np.testing.assert_array_equal(a.to_numpy(), host * np.float32(-1) + np.float32(2))
        assert rt.stats().evictions > 0


def test_small_ring_after_a_small_allocation(tmp_path):
    """A small ring allocated after a small CuPy array landed 512 bytes off a
    4 KiB boundary, and every full page then failed with a Data Transfer
    Error (the device's PRP names whole controller pages). The runtime now
    starts the ring on a 4 KiB boundary whatever was allocated before."""
    import cupy
    keep = [cupy.zeros(1, np.int32) for _ in range(3)]  # noqa: F841 (held during the test)
    data = np.arange(3 * 1024 + 5, dtype=np.float32)
    with runtime(tmp_path, gpu_memory="304KiB") as rt:
        assert rt.frames_ptr % 4096 == 0
        a = rt.array(data)
        scale(rt, a, 2, 1)
        assert np.array_equal(a.to_numpy(), data * 2 + 1)
