"""The software NVMe controller over host memory (no GPU): commands built the
way nvme.cuh writes them, posted through a host queue (SQ tail / CQ head
doorbells in a BAR0 stand-in), served over a real backing file; data, CQE
fields, phase tags, wraparound, CQ flow control and every status code the
controller returns are checked."""
import os
import re
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

from dream import _softnvme
from dream.nvme import wire
from dream.nvme.controller import Bar, HostQueue

LBA = 512
PAGE = 4096
SC = wire.SC


def aligned(nbytes, align=PAGE):
    """Zeroed bytes starting on a controller page, as frames do."""
    raw = np.zeros(nbytes + align, dtype=np.uint8)
    off = -raw.ctypes.data % align
    return raw[off:off + nbytes]


class Setup:
    """A controller with one namespace over a file of random bytes, a host
    buffer of `pages` frames it may DMA into, and host queue 1."""

    def __init__(self, tmp_path, pages=8, file_pages=16, entries=8, writable=True, cold=True,
                 lba=LBA, mdts=64 << 10, queues=1, **engine_kw):
        self.bar = Bar(queues + 1, gpu=False)
        self.eng = _softnvme.Engine(gpu=False, bar=self.bar.host_ptr, bar_size=self.bar.size,
                                    lba_size=lba, mdts=mdts, **engine_kw)
        self.lba = lba
        rng = np.random.default_rng(1)
        self.data = rng.integers(0, 256, file_pages * PAGE, dtype=np.uint8)
        self.path = tmp_path / "ns.bin"
        self.data.tofile(self.path)
        self.nsid = self.eng.add_namespace(str(self.path), writable, cold)
        self.frames = aligned(pages * PAGE)
        self.eng.map_dma(self.frames.ctypes.data, self.frames.nbytes)
        self.qs = [HostQueue(self.eng, self.bar, i + 1, entries) for i in range(queues)]
        self.q = self.qs[0]

    def addr(self, frame, off=0):
        return self.frames.ctypes.data + frame * PAGE + off

    def frame(self, f, n=1):
        return self.frames[f * PAGE:(f + n) * PAGE]

    def file(self):
        return np.fromfile(self.path, dtype=np.uint8)

    def read(self, fpage, frame, q=None, **kw):
        kw.setdefault("slba", fpage * PAGE // self.lba)
        kw.setdefault("nblocks", PAGE // self.lba)
        kw.setdefault("prp1", self.addr(frame))
        return (q or self.q).post(wire.OPC_READ, kw.pop("nsid", self.nsid), **kw)

    def write(self, frame, fpage, q=None, **kw):
        kw.setdefault("slba", fpage * PAGE // self.lba)
        kw.setdefault("nblocks", PAGE // self.lba)
        kw.setdefault("prp1", self.addr(frame))
        return (q or self.q).post(wire.OPC_WRITE, kw.pop("nsid", self.nsid), **kw)

    def run(self, q=None):
        """Rings, serves, returns {cid: CQE}."""
        q = q or self.q
        q.ring()
        self.eng.poll()
        return {int(e["cid"]): e for e in q.reap()}


def status(e):
    return wire.cqe_status(int(e["status"]))


def ok(e):
    return status(e) & wire.SF_CODE_MASK == SC["SUCCESS"]


def test_cap_and_doorbells_are_published(tmp_path):
    s = Setup(tmp_path)
    assert wire.cap_dstrd(s.bar.cap) == 0
    assert wire.cap_mqes(s.bar.cap) == 65535
    s.read(3, 1)
    assert s.eng.queue_info(1)["sq_head"] == 0  # not rung: nothing fetched
    s.eng.poll()
    assert s.eng.queue_info(1)["sq_head"] == 0
    s.q.ring()
    assert s.bar.u32(wire.sq_tail_doorbell(1, 0))[0] == 1
    assert s.eng.poll() >= 1


def test_read_lands_the_page_and_completes(tmp_path):
    s = Setup(tmp_path)
    cid = s.read(3, 1)
    got = s.run()
    e = got[cid]
    assert ok(e) and wire.cqe_phase(int(e["status"])) == 1
    assert int(e["sq_id"]) == 1 and int(e["sq_head"]) == 1
    assert np.array_equal(s.frame(1), s.data[3 * PAGE:4 * PAGE])
    assert not s.frame(0).any() and not s.frame(2).any()
    c = s.eng.counters()
    assert (c["doorbells"], c["commands"], c["reads"], c["bytes_read"], c["cqes"],
            c["errors"]) == (1, 1, 1, PAGE, 1, 0)
    assert s.eng.queue_info(1)["cq_head"] == 0  # the host's doorbell is read on the next pass
    s.eng.poll()
    assert s.eng.queue_info(1)["cq_head"] == 1
    assert s.eng.counters()["cq_doorbells"] == 1


def test_write_reaches_the_file(tmp_path):
    s = Setup(tmp_path)
    s.frame(2)[:] = 7
    cid = s.write(2, 5)
    assert ok(s.run()[cid])
    f = s.file()
    assert (f[5 * PAGE:6 * PAGE] == 7).all()
    assert np.array_equal(f[:5 * PAGE], s.data[:5 * PAGE])
    assert np.array_equal(f[6 * PAGE:], s.data[6 * PAGE:])
    c = s.eng.counters()
    assert (c["writes"], c["bytes_written"]) == (1, PAGE)


def test_flush_completes(tmp_path):
    s = Setup(tmp_path)
    s.frame(0)[:] = 3
    w = s.write(0, 0)
    f = s.q.post(wire.OPC_FLUSH, s.nsid)
    got = s.run()
    assert ok(got[w]) and ok(got[f])
    assert s.eng.counters()["flushes"] == 1
    assert (s.file()[:PAGE] == 3).all()


@pytest.mark.parametrize("nbytes", [512, 1536, 8192, 16384, 40960])
def test_transfers_of_several_controller_pages(tmp_path, nbytes):
    """PRP1 alone, PRP1 + PRP2, and a PRP list naming scattered pages."""
    s = Setup(tmp_path, pages=16)
    npg = -(-nbytes // PAGE)
    frames = [(7 * k + 3) % 16 for k in range(npg)]  # scattered
    # page-aligned: a PRP list runs to the end of its page and its last entry
    # there chains on, so a list NumPy put across a page boundary chained
    # (a rare CI failure)
    lst = aligned(PAGE).view("<u8")[:16]
    s.eng.map_dma(lst.ctypes.data, lst.nbytes)
    prp2 = 0
    if npg == 2:
        prp2 = s.addr(frames[1])
    elif npg > 2:
        lst[:npg - 1] = [s.addr(f) for f in frames[1:]]
        prp2 = lst.ctypes.data
    cid = s.read(1, frames[0], nblocks=nbytes // LBA, prp2=prp2)
    assert ok(s.run()[cid])
    got = np.concatenate([s.frame(f) for f in frames])[:nbytes]
    assert np.array_equal(got, s.data[PAGE:PAGE + nbytes])
    # and back: write the same pages to another place in the file
    cid = s.write(frames[0], 6, nblocks=nbytes // LBA, prp2=prp2)
    assert ok(s.run()[cid])
    assert np.array_equal(s.file()[6 * PAGE:6 * PAGE + nbytes], s.data[PAGE:PAGE + nbytes])


def test_chained_prp_list(tmp_path):
    """A 4 MiB transfer needs 1023 list entries: two list pages, chained."""
    from dream.nvme.controller import prp_layout
    size = 4 << 20
    s = Setup(tmp_path, pages=size // PAGE, file_pages=2 * size // PAGE, lba=4096, mdts=size)
    n, stride = prp_layout(size)
    lst = aligned(stride).view("<u8")
    base = lst.ctypes.data
    wire.fill_prp_list(lst, base, s.addr(0), size // PAGE)
    s.eng.map_dma(base, stride)
    cid = s.read(size // PAGE, 0, nblocks=size // 4096, slba=size // 4096, prp2=base)
    assert ok(s.run()[cid])
    assert np.array_equal(s.frames, s.data[size:])


def test_wraparound_and_phase_flips(tmp_path):
    """40 commands through a 4-entry queue pair, up to 3 at a time: SQ and CQ
    wrap many times and the phase tag flips on every pass over the CQ."""
    s = Setup(tmp_path, entries=4)
    phases, heads = [], []
    rng = np.random.default_rng(2)
    done = 0
    while done < 40:
        batch = int(rng.integers(1, 4))
        want = {}
        for k in range(batch):
            p = (done + k) % 16
            want[s.read(p, (done + k) % 8)] = p
        got = s.run()
        assert set(got) == set(want)
        for cid, e in got.items():  # CQ order (completions come in any order)
            assert ok(e)
            p = want[cid]
            assert np.array_equal(s.frame(cid % 8), s.data[p * PAGE:(p + 1) * PAGE])
            phases.append(wire.cqe_phase(int(e["status"])))
            heads.append(int(e["sq_head"]))
        done += batch
    # CQE n sits in slot n % 4 with phase 1 on even passes, 0 on odd ones
    assert phases == [1 - (n // 4) % 2 for n in range(len(phases))]
    assert s.eng.queue_info(1)["sq_head"] == done % 4
    assert all(0 <= h < 4 for h in heads)


def test_cq_full_holds_completions_until_the_head_doorbell(tmp_path):
    s = Setup(tmp_path, entries=4)
    first = [s.read(k, k) for k in range(3)]
    s.q.ring()
    s.eng.poll()                       # 3 CQEs: the CQ (4 entries) is full
    second = [s.read(k + 3, k + 3) for k in range(3)]
    s.q.ring()
    s.eng.poll()
    assert s.eng.queue_info(1)["held"] == 3
    assert s.eng.counters()["cq_full"] >= 1
    got = s.q.reap()                   # consume, ring the CQ head doorbell
    assert sorted(int(e["cid"]) for e in got) == first  # any completion order
    assert all(wire.cqe_phase(int(e["status"])) == 1 for e in got)
    s.eng.poll()
    assert s.eng.queue_info(1)["held"] == 0
    got = s.q.reap()
    assert sorted(int(e["cid"]) for e in got) == second
    # slots 3, 0, 1: the last two after the wrap carry phase 0
    assert [wire.cqe_phase(int(e["status"])) for e in got] == [1, 0, 0]
    for k in range(6):
        assert np.array_equal(s.frame(k), s.data[k * PAGE:(k + 1) * PAGE])


def _expect(s, cid, name, got=None):
    got = got or s.run()
    st = status(got[cid])
    assert st & wire.SF_CODE_MASK == SC[name], wire.describe_status(st)
    assert st & wire.SF_DNR
    return got


def test_error_statuses(tmp_path):
    s = Setup(tmp_path, entries=32)
    far = aligned(PAGE)  # never mapped for DMA
    cases = {
        s.q.post(0x7F, s.nsid): "INVALID_OPCODE",
        s.read(0, 0, flags=0x01): "INVALID_FIELD",                      # fused
        s.read(0, 0, flags=0x40): "INVALID_FIELD",                      # SGL
        s.read(0, 0, nblocks=(128 << 10) // LBA): "INVALID_FIELD",      # > MDTS (64 KiB)
        s.read(0, 0, nsid=9): "INVALID_NS",
        s.read(0, 0, nsid=0): "INVALID_NS",
        s.read(0, 0, slba=16 * PAGE // LBA): "LBA_RANGE",               # at the end
        s.read(15, 0, nblocks=PAGE // LBA + 1): "LBA_RANGE",            # runs past it
        s.read(0, 0, slba=(1 << 64) - 1): "LBA_RANGE",                  # would wrap
        s.read(0, 0, prp1=s.addr(0, 2)): "PRP_OFFSET",                  # not dword aligned
        s.read(0, 0, nblocks=16, prp2=s.addr(1, 8)): "PRP_OFFSET",      # 2nd page not aligned
        s.read(0, 0, prp1=far.ctypes.data): "DATA_TRANSFER",            # outside every window
        s.read(0, 0, prp1=s.addr(7, 512)): "DATA_TRANSFER",             # runs out of the window
    }
    good = s.read(4, 3)
    got = s.run()
    for cid, name in cases.items():
        _expect(s, cid, name, got)
    assert ok(got[good])
    assert np.array_equal(s.frame(3), s.data[4 * PAGE:5 * PAGE])
    assert not np.delete(s.frames.reshape(8, PAGE), 3, axis=0).any()  # nothing else touched
    assert not far.any()
    assert s.eng.counters()["errors"] == len(cases)


def test_write_to_read_only_namespace(tmp_path):
    s = Setup(tmp_path, writable=False)
    s.frame(0)[:] = 9
    cid = s.write(0, 0)
    _expect(s, cid, "WRITE_PROTECTED")
    assert np.array_equal(s.file(), s.data)
    cid = s.read(1, 1)
    assert ok(s.run()[cid])


def test_read_error_when_the_file_shrank(tmp_path):
    s = Setup(tmp_path)
    os.truncate(s.path, 8 * PAGE)  # namespace still says 16 pages
    cid = s.read(12, 0)
    _expect(s, cid, "READ_ERROR")
    assert not s.frames.any()
    cid = s.read(2, 0)
    assert ok(s.run()[cid])


def test_write_fault_when_the_file_write_fails(tmp_path):
    """The kernel refuses writes past RLIMIT_FSIZE (EFBIG): a Write Fault,
    in a child process so the limit stays there."""
    script = textwrap.dedent(f"""
        import resource, signal, sys
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from pathlib import Path
        import numpy as np
        from test_softnvme_controller import Setup, status, ok
        from dream.nvme import wire
        s = Setup(Path({str(tmp_path)!r}))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (8 * 4096, resource.RLIM_INFINITY))
        bad, good = s.write(0, 12), s.write(1, 2)
        got = s.run()
        print(status(got[bad]) & wire.SF_CODE_MASK, ok(got[good]))
    """)
    # cwd away from the checkout: the installed package (with its extension) is imported
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=60, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    code, good = r.stdout.split()
    assert int(code) == SC["WRITE_FAULT"] and good == "True"


def test_out_of_range_doorbell_is_ignored(tmp_path):
    s = Setup(tmp_path, entries=4)
    cid = s.read(1, 1)
    s.q.ring(tail=9)
    assert s.eng.poll() == 0
    assert s.eng.counters()["bad_doorbells"] == 1
    assert "queue 1: invalid SQ tail doorbell write 9" in s.eng.error
    assert s.q.reap() == []
    got = s.run()  # the right tail
    assert ok(got[cid])


@pytest.mark.parametrize("head", [2, 3])
def test_cq_head_past_the_posted_cqes_is_rejected(tmp_path, head):
    """One CQE posted (slot 0): a CQ head doorbell of 2 or 3 would hand the
    host slots the controller never wrote; it is ignored and reported, and
    the right head (1) is then taken."""
    s = Setup(tmp_path, entries=4)
    cid = s.read(1, 1)
    got = s.run()
    assert ok(got[cid])
    s.q.cq_db[0] = head
    s.eng.poll()
    assert s.eng.counters()["bad_doorbells"] == 1
    assert f"queue 1: invalid CQ head doorbell write {head}" in s.eng.error
    assert s.eng.queue_info(1)["cq_head"] == 0
    s.q.cq_db[0] = 1
    s.eng.poll()
    assert s.eng.queue_info(1)["cq_head"] == 1


@pytest.mark.parametrize("tail", [1, 3])
def test_sq_tail_past_the_free_slots_is_rejected(tmp_path, tail):
    """A 4-entry SQ whose head the host last saw at 3, with 3 entries fetched
    since (their CQEs wait for CQ room): the host may have filled no slot, so
    a tail moved back (1) or on (3) is an invalid doorbell write. Served, it
    would fetch old entries again: the write of frame 1 ran a second time
    with the frame's new bytes."""
    from dream.runtime.errors import TransportError
    s = Setup(tmp_path, entries=4)
    s.frame(1)[:] = 7
    for k in range(3):               # slots 0-2
        s.read(k, 2)
    s.q.ring()
    s.eng.poll()                     # 3 CQEs: the CQ is full
    second = [s.write(1, 6), s.read(3, 3), s.read(4, 3)]  # slots 3, 0, 1
    s.q.ring()
    s.eng.poll()                     # fetched and served; the CQEs are held
    assert s.eng.queue_info(1)["held"] == 3 and s.eng.error is None
    c = s.eng.counters()
    s.frame(1)[:] = 9                # the write completed: its frame is reused
    s.q.ring(tail=tail)
    s.eng.poll()
    after = s.eng.counters()
    assert (after["commands"], after["writes"]) == (c["commands"], c["writes"])
    assert (s.file()[6 * PAGE:7 * PAGE] == 7).all()
    assert after["bad_doorbells"] == 1
    assert f"queue 1: invalid SQ tail doorbell write {tail}" in s.eng.error
    t0 = time.monotonic()
    with pytest.raises(TransportError, match="software NVMe controller failed .*invalid SQ tail"):
        s.q.wait(second, timeout=5, serve=s.eng.poll)
    assert time.monotonic() - t0 < 1


def test_namespace_checks(tmp_path):
    s = Setup(tmp_path)
    odd = tmp_path / "odd.bin"
    odd.write_bytes(b"x" * 1000)
    with pytest.raises(ValueError, match="multiple of the LBA size"):
        s.eng.add_namespace(str(odd), False, True)
    with pytest.raises(RuntimeError, match="No such file"):
        s.eng.add_namespace(str(tmp_path / "missing"), False, True)
    info = s.eng.namespace_info(s.nsid)
    assert info["blocks"] == 16 * PAGE // LBA and info["direct"]  # ext4/xfs take O_DIRECT
    second = tmp_path / "b.bin"
    second.write_bytes(bytes(range(256)) * 32)
    n2 = s.eng.add_namespace(str(second), False, False)
    assert n2 != s.nsid and not s.eng.namespace_info(n2)["direct"]
    cid = s.read(1, 0, nsid=n2)
    assert ok(s.run()[cid])
    assert np.array_equal(s.frame(0), np.frombuffer(second.read_bytes()[PAGE:], dtype=np.uint8))
    assert s.eng.counters()["cached_reads"] + s.eng.counters()["buffered_ios"] == 1
    s.eng.remove_namespace(n2)
    cid = s.read(1, 0, nsid=n2)
    _expect(s, cid, "INVALID_NS")


def _page_cached(path, page):
    """Whether the page cache holds page `page` (4 KiB) of `path`, by
    mincore(2), which starts no read (a probe by read would start one)."""
    import ctypes
    import mmap
    libc = ctypes.CDLL(None, use_errno=True)
    with open(path, "rb") as f:
        m = mmap.mmap(f.fileno(), PAGE, offset=page * PAGE, access=mmap.ACCESS_COPY)
    try:
        ref = ctypes.c_char.from_buffer(m)
        vec = (ctypes.c_ubyte * 1)()
        rc = libc.mincore(ctypes.c_void_p(ctypes.addressof(ref)), ctypes.c_size_t(PAGE), vec)
        del ref
        assert rc == 0, os.strerror(ctypes.get_errno())
        return bool(vec[0] & 1)
    finally:
        m.close()


def test_warm_reads_the_cache_holds_are_made_by_the_engine(tmp_path):
    """A warm namespace: a read whose blocks are cached is made by the engine
    thread itself (cached_reads); one whose blocks are not goes to the file
    I/O threads (buffered_ios), never blocking the engine on the storage.
    Both land the right bytes."""
    s = Setup(tmp_path, cold=False)
    assert not s.eng.namespace_info(s.nsid)["direct"]
    fd = os.open(s.path, os.O_RDONLY)
    os.fsync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)  # the file out of the cache
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)  # no read-ahead past page 2:
    os.pread(fd, PAGE, 2 * PAGE)  # page 2 alone cached now
    os.close(fd)
    assert _page_cached(s.path, 2)
    cid = s.read(2, 0)
    assert ok(s.run()[cid]) and np.array_equal(s.frame(0), s.data[2 * PAGE:3 * PAGE])
    c = s.eng.counters()
    assert (c["cached_reads"], c["buffered_ios"], c["direct_ios"]) == (1, 0, 0)
    # page 5 out of the cache: a read-ahead still in flight (the engine's
    # descriptor has one) may bring it in after a first drop (fresh-clone CI,
    # session 51: the engine found it cached), so it is dropped until it stays out
    for _ in range(50):
        fd = os.open(s.path, os.O_RDONLY)
        os.posix_fadvise(fd, 5 * PAGE, PAGE, os.POSIX_FADV_DONTNEED)
        os.close(fd)
        time.sleep(0.01)
        if not _page_cached(s.path, 5):
            break
    else:
        pytest.skip("this file system keeps a clean page cached after POSIX_FADV_DONTNEED (tmpfs)")
    cid = s.read(5, 1)
    assert ok(s.run()[cid]) and np.array_equal(s.frame(1), s.data[5 * PAGE:6 * PAGE])
    c = s.eng.counters()
    assert (c["cached_reads"], c["buffered_ios"], c["reads"]) == (1, 1, 2)


def test_unaligned_direct_read_is_served(tmp_path):
    """One 512-byte block at an odd LBA: O_DIRECT on a 4K-sector device
    refuses it, and the controller serves it through the page cache."""
    s = Setup(tmp_path)
    cid = s.read(0, 0, slba=3, nblocks=1)
    assert ok(s.run()[cid])
    assert np.array_equal(s.frames[:LBA], s.data[3 * LBA:4 * LBA])
    c = s.eng.counters()
    assert c["direct_ios"] + c["buffered_ios"] == 1


def test_engine_threads_serve_many_queues(tmp_path):
    s = Setup(tmp_path, pages=32, file_pages=64, entries=16, queues=3, threads=2, io_threads=4)
    s.eng.start()
    try:
        rng = np.random.default_rng(3)
        plan = {}
        for f in range(32):
            q = s.qs[f % 3]
            p = int(rng.integers(0, 64))
            plan[(q.qid, s.read(p, f, q=q))] = (f, p)
            if f % 5 == 4 or f == 31:
                for qq in s.qs:
                    qq.ring()
        for q in s.qs:
            got = q.wait([cid for (qid, cid) in plan if qid == q.qid], timeout=20)
            assert all(ok(e) for e in got.values())
    finally:
        s.eng.stop()
    for f, p in plan.values():
        assert np.array_equal(s.frame(f), s.data[p * PAGE:(p + 1) * PAGE])
    assert s.eng.error is None


def test_a_failed_fetch_gives_back_what_its_pass_took(tmp_path):
    """A pass whose SQE fetch fails midway (queue 2's, through the test seam)
    gives back what it took: queue 1's entries, fetched and made commands in
    that pass, are fetched again by the next one, as are queue 2's, and every
    staging buffer is free again (six buffers serve six reads at once)."""
    s = Setup(tmp_path, queues=2, staging=6 * (64 << 10))
    a = [s.read(k, k, q=s.qs[0]) for k in range(3)]
    b = [s.read(3 + k, 3 + k, q=s.qs[1]) for k in range(3)]
    for q in s.qs:
        q.ring()
    s.eng._fail_step(2)  # queue 1's fetch is the first step, queue 2's the second
    with pytest.raises(RuntimeError, match=r"queue 2: fetch failed \(test\)"):
        s.eng.poll()
    assert s.eng.counters()["commands"] == 0
    assert s.eng._poller_spare_buffers() == 6  # none lost, none given back twice
    s.eng.poll()
    assert s.eng._poller_spare_buffers() == 6
    got = {**{("a", int(e["cid"])): e for e in s.qs[0].reap()},
           **{("b", int(e["cid"])): e for e in s.qs[1].reap()}}
    assert sorted(got) == sorted([("a", c) for c in a] + [("b", c) for c in b])
    assert all(ok(e) for e in got.values())
    assert np.array_equal(s.frame(0, 6), s.data[:6 * PAGE])
    assert s.eng.counters()["commands"] == 6


@pytest.mark.parametrize("cold", [False, True], ids=["cached", "cold"])
def test_a_failed_step_anywhere_in_a_pass_loses_no_command(tmp_path, cold):
    """Every step of a pass that may fail (test seam: the k-th throws, as a
    failed DMA or allocation would), failed in turn: the next passes complete
    every command exactly once, with its data, and every staging buffer is
    free again. Reads (from the page cache or, cold, the file I/O threads),
    writes, a flush and an invalid command, on two queues."""
    k = 0
    while True:
        k += 1
        d = tmp_path / str(k)
        d.mkdir()
        s = Setup(d, pages=8, queues=2, cold=cold, staging=8 * (64 << 10))
        for f in (4, 5):
            s.frame(f)[:] = f
        plan = {(1, s.read(2, 0, q=s.qs[0])): "r2", (1, s.read(7, 1, q=s.qs[0])): "r7",
                (1, s.write(4, 9, q=s.qs[0])): "w", (2, s.read(3, 2, q=s.qs[1])): "r3",
                (2, s.write(5, 11, q=s.qs[1])): "w", (2, s.qs[1].post(wire.OPC_FLUSH, s.nsid)): "f",
                (2, s.read(0, 3, q=s.qs[1], nsid=9)): "bad"}
        for q in s.qs:
            q.ring()
        s.eng._fail_step(k)
        try:
            s.eng.poll()
        except RuntimeError as ex:
            assert re.search(r"(fetch|placement|copy|completion|CQE|cooling|write) failed \(test\)", str(ex))
            failed = True
        else:
            failed = False
        s.eng._fail_step(0)
        s.eng.poll()
        got = {}
        for q in s.qs:
            for e in q.reap():
                key = (q.qid, int(e["cid"]))
                assert key not in got, f"step {k}: command {key} completed twice"
                got[key] = e
        assert sorted(got) == sorted(plan), f"step {k}: completions {sorted(got)}"
        for key, what in plan.items():
            want = SC["INVALID_NS"] if what == "bad" else SC["SUCCESS"]
            assert status(got[key]) & wire.SF_CODE_MASK == want, (k, what)
        for f, p in ((0, 2), (1, 7), (2, 3)):
            assert np.array_equal(s.frame(f), s.data[p * PAGE:(p + 1) * PAGE]), (k, f)
        file = s.file()
        assert (file[9 * PAGE:10 * PAGE] == 4).all() and (file[11 * PAGE:12 * PAGE] == 5).all(), k
        assert s.eng._poller_spare_buffers() == 8, k
        c = s.eng.counters()
        assert (c["commands"], c["reads"], c["writes"], c["flushes"], c["cqes"]) == (7, 3, 2, 1, 7), (k, c)
        if not failed:
            break
    assert k > 30  # every step of the passes was failed once


def test_engine_thread_failure_stops_the_engine_and_fails_waits(tmp_path):
    """An engine thread that dies (here std::bad_alloc: the address space
    capped while it fetches 16,000 commands; one malloc arena so that the
    cap binds) records why, the engine stops running, and a host wait raises
    TransportError at once instead of timing out. The heap is drained before
    the commands are rung, so that no allocation can succeed: the thread's
    first throw must not need one (glibc aborts the process where a thread's
    block of libstdc++'s exception state cannot be allocated; engine.h
    allocates it as the thread starts)."""
    script = textwrap.dedent(f"""
        import ctypes, resource, sys, time
        import numpy as np
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from pathlib import Path
        from test_softnvme_controller import Setup
        s = Setup(Path({str(tmp_path)!r}), entries=32768, mdts=4096)
        s.eng.start()
        cid = s.read(0, 0)
        s.q.ring()
        s.q.wait([cid], timeout=10)  # the engine thread's allocations made
        cids = [s.read(k % 16, k % 8) for k in range(16000)]
        libc = ctypes.CDLL(None)
        libc.malloc.restype = ctypes.c_void_p
        libc.free.argtypes = [ctypes.c_void_p]
        held, n = np.zeros(1 << 22, np.uint64), 0
        vm = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0]) << 10
        resource.setrlimit(resource.RLIMIT_AS, (vm, resource.RLIM_INFINITY))
        for size in (4096, 1024, 256, 64, 16):  # the heap drained
            while n < held.size and (p := libc.malloc(size)):
                held[n], n = p, n + 1
        s.q.ring()
        t0 = time.monotonic()
        while s.eng.error is None and time.monotonic() - t0 < 10:
            time.sleep(0.01)
        resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY,) * 2)
        for p in held[:n]:
            libc.free(int(p))
        time.sleep(0.1)
        t0 = time.monotonic()
        try:
            s.q.wait(cids, timeout=5)
            what = "completed"
        except Exception as e:
            what = f"{{type(e).__name__}}: {{e}}"[:300]
        print(s.eng.running, round(time.monotonic() - t0, 3))
        print(what)
        s.eng.stop()
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                       cwd=tmp_path, env={**os.environ, "MALLOC_ARENA_MAX": "1"})
    assert r.returncode == 0, r.stderr
    state, what = r.stdout.splitlines()
    running, took = state.split()
    assert re.match(r"TransportError: NVMe queue 1: the software NVMe controller failed "
                    r"\(engine thread 0, (queue 1: )?std::bad_alloc\)", what), what
    assert running == "False" and float(took) < 1


def test_stop_with_commands_pending(tmp_path):
    """Stopped, the controller fetches nothing: the submitter's wait times out
    (no hang), and the commands are served once it runs again."""
    s = Setup(tmp_path)
    s.eng.start()
    t0 = time.monotonic()
    s.eng.stop()
    assert time.monotonic() - t0 < 5 and not s.eng.running
    cids = [s.read(k, k) for k in range(4)]
    s.q.ring()
    time.sleep(0.05)
    with pytest.raises(TimeoutError, match="no completion"):
        s.q.wait(cids, timeout=0.2)
    s.eng.start()
    try:
        got = s.q.wait(cids, timeout=10)
    finally:
        s.eng.stop()
    assert all(ok(e) for e in got.values())
    for k in range(4):
        assert np.array_equal(s.frame(k), s.data[k * PAGE:(k + 1) * PAGE])


def test_stop_while_io_runs(tmp_path):
    """stop() right after ringing many commands returns with every fetched
    command completed and the rest left in the SQ."""
    s = Setup(tmp_path, entries=64, pages=8, io_threads=2)
    s.eng.start()
    cids = [s.read(k % 16, k % 8) for k in range(60)]
    s.q.ring()
    s.eng.stop()
    got = {int(e["cid"]): e for e in s.q.reap()}
    fetched = s.eng.counters()["commands"]
    assert len(got) == fetched and all(ok(e) for e in got.values())
    s.eng.poll()
    got.update({int(e["cid"]): e for e in s.q.reap()})
    assert set(got) == set(cids)


def _held_read(s):
    """One read fetched by the running engine while file I/O is held (as a
    pread that does not return); returns its cid."""
    s.eng._hold_io(True)
    cid = s.read(0, 0)
    s.q.ring()
    t0 = time.monotonic()
    while s.eng.counters()["commands"] < 1:
        assert time.monotonic() - t0 < 5, "the engine did not fetch the command"
        time.sleep(0.005)
    return cid


def test_stop_reports_a_thread_that_does_not_end(tmp_path):
    """An engine thread held up by a file I/O that does not return: stop()
    gives up after its timeout and names what still runs; once the I/O
    returns, the next stop() joins the thread and the command completes."""
    s = Setup(tmp_path, stop_timeout=60)
    s.eng.start()
    cid = _held_read(s)
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match=r"engine threads: 1 of 1 still running after 0\.3 s"):
        s.eng.stop(timeout=0.3)
    assert time.monotonic() - t0 < 2
    s.eng._hold_io(False)
    s.eng.stop(timeout=10)
    got = {int(e["cid"]): e for e in s.q.reap()}
    assert ok(got[cid]) and np.array_equal(s.frame(0), s.data[:PAGE])
    with pytest.raises(ValueError, match="positive"):
        s.eng.stop(timeout=0)


def test_start_refuses_while_a_stopped_thread_still_runs(tmp_path):
    """After a stop() that gave up on a thread, start() refuses at once (not
    after stop_timeout) while that thread runs, and starts once it ended."""
    s = Setup(tmp_path, stop_timeout=60)
    s.eng.start()
    cid = _held_read(s)
    with pytest.raises(RuntimeError, match="still running after"):
        s.eng.stop(timeout=0.3)
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match=r"engine threads: 1 of 1 still running from an earlier stop; "
                                           r"not started"):
        s.eng.start()
    assert time.monotonic() - t0 < 2
    s.eng._hold_io(False)
    s.eng.stop(timeout=10)
    s.eng.start()
    s.eng.stop()
    got = {int(e["cid"]): e for e in s.q.reap()}
    assert ok(got[cid]) and np.array_equal(s.frame(0), s.data[:PAGE])


def test_remove_namespace_sync_is_bounded(tmp_path):
    """remove_namespace's fsync runs on an I/O thread and is waited for at
    most its timeout (here the I/O threads are held)."""
    s = Setup(tmp_path)
    s.eng._hold_io(True)
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match=r"fsync of .*ns\.bin did not finish within 0\.2 s"):
        s.eng.remove_namespace(s.nsid, timeout=0.2)
    assert time.monotonic() - t0 < 2
    s.eng._hold_io(False)
    s.eng.stop()


def test_stop_engine_keeps_a_stuck_engine_and_its_memory(tmp_path):
    """What a backend's close() does with an engine that does not stop:
    EngineStuckError (a TransportError) naming it and the threads, the engine
    and the memory its queues live in kept for the rest of the process."""
    from dream.runtime import engines
    from dream.runtime.errors import EngineStuckError
    s = Setup(tmp_path, stop_timeout=60)
    s.eng.start()
    _held_read(s)
    qmem = object()
    with pytest.raises(EngineStuckError, match=r"the software NVMe controller did not stop "
                                             r"\(engine threads: 1 of 1 still running after 0\.3 s\)"):
        engines.stop_engine(s.eng, "the software NVMe controller", qmem, timeout=0.3)
    assert engines._kept[-1] == (s.eng, qmem)
    with pytest.raises(RuntimeError, match="poll: the engine threads are running"):
        s.eng.poll()  # a thread still serves the queues
    s.eng._hold_io(False)
    s.eng.stop()


def test_engine_whose_thread_does_not_end_is_kept_not_freed(tmp_path):
    """Dropping an engine whose thread is held up does not wait past its
    stop_timeout: the engine is left in memory for that thread, and said so
    (freeing it would pull the memory from under the thread)."""
    script = textwrap.dedent(f"""
        import os, sys, time
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from pathlib import Path
        from test_softnvme_controller import Setup, _held_read
        s = Setup(Path({str(tmp_path)!r}), stop_timeout=0.3)
        s.eng.start()
        _held_read(s)
        t0 = time.monotonic()
        del s.eng, s
        print(round(time.monotonic() - t0, 3), flush=True)
        os._exit(0)  # the held thread never returns
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                       cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert float(r.stdout.split()[0]) < 2
    assert "dream: an engine is left in memory: engine threads: 1 of 1 still running after 0.3 s" \
        in r.stderr


@pytest.mark.parametrize("lba,cold", [(512, True), (4096, True), (512, False)])
def test_paging_through_many_queues_keeps_every_byte(tmp_path, lba, cold):
    """The pager's traffic, as GPU leaders make it, against the running engine:
    submitters on their own queues page an array (its last page short) in
    and out of their frames; a page leaves a submitter only after its
    write-back completed and is then read back through another queue. Each
    read must see the last write, whatever queue or I/O thread served it."""
    nbytes = 37 * PAGE - 1234
    subs, frames_each, steps = 3, 4, 400
    s = Setup(tmp_path, pages=subs * frames_each, file_pages=38, entries=16, queues=subs,
              lba=lba, cold=cold, threads=2, io_threads=4)
    want = s.data[:nbytes].copy()  # the array's content; a resident page's is in its frame
    owner, lock, errors = {}, threading.Lock(), []

    def length(page):  # the array's bytes in `page`
        return min(PAGE, nbytes - page * PAGE)

    def blocks(page):  # as nvme.cuh: the short last page moves whole blocks only
        return -(-length(page) // lba)

    def io(q, write, page, frame):
        where = dict(q=q, slba=page * PAGE // lba, nblocks=blocks(page))
        cid = s.write(frame, page, **where) if write else s.read(page, frame, **where)
        q.ring()
        e = q.wait([cid], timeout=30)[cid]
        assert ok(e), wire.describe_status(status(e))

    def submitter(k):
        q, rng = s.qs[k], np.random.default_rng(10 + k)
        mine = list(range(k * frames_each, (k + 1) * frames_each))
        held = {f: None for f in mine}  # frame: (page, dirty)
        try:
            for step in range(steps):
                page = int(rng.integers(0, 37))
                with lock:
                    if owner.get(page, k) != k:
                        continue
                    owner[page] = k
                f = next((f for f, h in held.items() if h and h[0] == page), None)
                if f is None:
                    f = mine[step % frames_each]  # FIFO victim
                    if held[f] is not None:
                        victim, dirty = held[f]
                        if dirty:
                            io(q, True, victim, f)
                        with lock:
                            del owner[victim]
                    io(q, False, page, f)
                    n = length(page)
                    assert np.array_equal(s.frame(f)[:n], want[page * PAGE:page * PAGE + n]), \
                        f"page {page} read through queue {q.qid} is not its last write"
                    held[f] = (page, False)
                if rng.random() < 0.6:  # write some bytes of the page
                    at = rng.integers(0, length(page), 64)
                    v = rng.integers(0, 256, 64, dtype=np.uint8)
                    s.frame(f)[at] = v
                    want[page * PAGE + at] = v
                    held[f] = (page, True)
            for f, h in held.items():  # evict everything
                if h and h[1]:
                    io(q, True, h[0], f)
        except BaseException as e:  # reported by the main thread
            errors.append(e)

    s.eng.start()
    try:
        ts = [threading.Thread(target=submitter, args=(k,)) for k in range(subs)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(120)
        assert not any(t.is_alive() for t in ts), "a submitter did not finish in 120 s"
    finally:
        s.eng.stop()
    assert not errors, errors[0]
    assert s.eng.error is None
    assert np.array_equal(s.file()[:nbytes], want)
    c = s.eng.counters()
    assert c["writes"] > 50 and c["reads"] > 100 and c["errors"] == 0


def test_frame_ring_must_start_a_controller_page(tmp_path):
    """A ring 512 bytes off a 4 KiB boundary (what cudaMalloc gave a small ring
    after a small allocation): the device's one PRP per controller page would
    leave 512 bytes of every page to a PRP2 of 0, so every full page failed
    with a Data Transfer Error. The controller refuses such a ring; the
    runtime aligns it (dream/runtime/runtime.py FRAME_ALIGN)."""
    from dream.nvme.controller import check_frames_aligned
    from dream.runtime.errors import DeviceError
    from dream.runtime.runtime import FRAME_ALIGN
    check_frames_aligned(0x7f0000000000)
    with pytest.raises(DeviceError, match="not aligned to the 4096-byte"):
        check_frames_aligned(0x7f0000000200)
    assert FRAME_ALIGN % wire.CTRL_PAGE == 0
    # the mechanism, on the soft controller: a full page read into a frame
    # 512 bytes off the boundary, as the device wrote it (PRP2 = 0), fails;
    # a read that fits before the boundary succeeds
    s = Setup(tmp_path, pages=4)
    full = s.read(0, 1, prp1=s.addr(1, 512))
    part = s.read(0, 2, prp1=s.addr(2, 512), nblocks=1)
    got = s.run()
    assert status(got[full]) & wire.SF_CODE_MASK == SC["DATA_TRANSFER"]
    assert ok(got[part])
