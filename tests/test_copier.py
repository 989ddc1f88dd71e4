"""The copy kernel's rings (dream/cuda/include/dream/copier.h): the Python
mirror against the compiler's layout, and the engine's side of the protocol
over host memory (dma.h, copy_ring.h). Here a CPU thread, StandIn, makes
the rings' copies the way copier.cuh does on the GPU (a test double for the
kernel, which tests/test_softrnic_gpu.py and test_nvme_gpu.py run)."""
import ctypes
import threading
import time

import numpy as np
import pytest

from dream import _abi
from dream.runtime import copier
from mirrors import assert_constants_mirror, assert_struct_mirrors
from test_softrnic_engine import PAGE, Setup

MIRRORS = {"dream_copy_desc": copier.COPY_DESC, "dream_copy_ring": copier.COPY_RING,
           "dream_copier_ctl": copier.COPIER_CTL}


@pytest.mark.parametrize("cname", sorted(MIRRORS))
def test_struct_mirror(cname):
    assert_struct_mirrors(cname, _abi.layouts[cname], MIRRORS[cname])


def test_constants_mirror():
    assert_constants_mirror(copier.constants(), _abi.copier_constants)


class StandIn(threading.Thread):
    """Serves `n` rings in `mem` as a copier block does (a batch is posted once
    its ends entry passes the end before it): one batch at a time, its
    copies in reverse order (a batch's copies may run in any order), a
    pause before each batch's end is published. Records the largest batch."""

    def __init__(self, mem, n, pause=0.0):
        super().__init__(daemon=True)
        self.rings = mem[copier.COPIER_CTL.itemsize:].view(copier.COPY_RING)[:n]
        self.pause = pause
        self.batch = [int(r["posted"]) for r in self.rings]
        self.next = [int(r["ends"][(b - 1) % copier.BATCHES]) if b else 0
                     for r, b in zip(self.rings, self.batch)]
        self.halt = threading.Event()
        self.largest = 0

    def run(self):
        while not self.halt.is_set():
            idle = True
            for k, r in enumerate(self.rings):
                end = int(r["ends"][self.batch[k] % copier.BATCHES])
                if end <= self.next[k]:  # not posted: the entry's last batch's end
                    continue
                idle = False
                self.largest = max(self.largest, end - self.next[k])
                for i in reversed(range(self.next[k], end)):
                    d = r["desc"][i % copier.SLOTS]
                    assert 0 < int(d["len"]) <= copier.CHUNK
                    ctypes.memmove(int(d["dst"]), int(d["src"]), int(d["len"]))
                time.sleep(self.pause)
                r["consumed"] = end
                self.next[k] = end
                self.batch[k] += 1
            if idle:
                time.sleep(1e-4)


def rings_for(eng, n):
    mem = np.zeros(copier.COPIER_CTL.itemsize + n * copier.COPY_RING.itemsize, dtype=np.uint8)
    eng.set_copier(mem.ctypes.data + copier.COPIER_CTL.itemsize, n)
    return mem


def test_copies_through_the_rings_land_before_their_completions():
    """Reads of 256 KiB pieces, adjacent, so that each round joins into one
    copy of 16 MiB: 4,096 descriptors, posted as two batches of half a ring,
    the second only once the ring has room. Every CQE, when first seen, finds
    its data in place: the engine writes a host CQE only once the ring says
    its batch has landed."""
    pieces, piece = 64, 64 * PAGE
    s = Setup(pages=pieces * 64, depth=64, threads=2)
    mem = rings_for(s.eng, 2)
    helper = StandIn(mem, 2, pause=2e-3)
    helper.start()
    s.eng.start()
    try:
        s.eng.use_copier(True, 5.0)
        c = 0
        for r in range(3):
            s.local[:] = 0
            s.remote[:] = np.random.default_rng(r).integers(0, 256, s.remote.size, dtype=np.uint8)
            for p in range(pieces):
                s.read(p * 64, p * 64, length=piece)
            s.qp.ring()
            for p in range(pieces):
                e = s.qp.wait_cqe(c)
                assert int(e["byte_cnt"]) == piece
                lo = p * piece
                assert np.array_equal(s.local[lo:lo + piece], s.remote[lo:lo + piece]), (r, p)
                c += 1
        s.eng.use_copier(False, 5.0)
        # off the copy kernel: the same engine copies by itself again
        s.read(5, 0)
        s.qp.ring()
        s.qp.wait_cqe(c)
        assert np.array_equal(s.lpage(0), s.rpage(5))
    finally:
        s.eng.stop()
        helper.halt.set()
        helper.join()
    assert helper.largest == copier.SLOTS // 2


def test_a_copy_kernel_that_does_not_serve_is_reported_not_waited_for():
    s = Setup(pages=4, depth=8, threads=1)
    mem = rings_for(s.eng, 1)
    s.eng.start()
    helper = StandIn(mem, 1)
    try:
        s.eng.use_copier(True, 5.0)
        s.read(1, 2)
        s.qp.ring()
        time.sleep(0.05)
        assert s.qp.cqe(0) is None  # posted to a ring nobody serves
        with pytest.raises(RuntimeError, match="did not move their copies off the copy kernel"):
            s.eng.use_copier(False, 0.2)
        helper.start()  # now the batch lands, and the thread can move off
        s.eng.use_copier(False, 5.0)
        s.qp.wait_cqe(0)
        assert np.array_equal(s.lpage(2), s.rpage(1))
    finally:
        s.eng.stop()
        helper.halt.set()
        if helper.is_alive():
            helper.join()


def test_set_copier_checks_its_arguments():
    s = Setup(threads=2)
    with pytest.raises(ValueError, match="1 rings for 2 engine threads"):
        rings_for(s.eng, 1)
    with pytest.raises(RuntimeError, match="no copy kernel rings"):
        s.eng.use_copier(True, 1.0)
    s.eng.start()
    try:
        with pytest.raises(RuntimeError, match="stop the engine first"):
            rings_for(s.eng, 2)
    finally:
        s.eng.stop()


def test_dma_option_is_checked():
    from dream.runtime.errors import ConfigError
    with pytest.raises(ConfigError, match="dma='dma': one of 'copy-engines', 'copy-kernel'"):
        copier.check_dma("dma", 4096)
    assert copier.check_dma(None, 4096) == "copy-kernel"
    assert copier.check_dma(None, 65536) == "copy-engines"
    assert copier.check_dma("copy-engines", 4096) == "copy-engines"
