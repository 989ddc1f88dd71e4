"""Host setup of the rnic backend on a real ConnectX, through pyverbs and
mlx5dv DevX: device context and PD, memory regions for the pinned host
backing stores and for the GPU frame ring (dmabuf), per queue an RC QP and
its CQ whose rings and doorbell records are DevX umems in GPU memory (or
pinned host memory), brought to RTS connected to itself, and the UAR
doorbell page mapped into the GPU. What the GPU needs of each queue is
collected in a QueueHandoff.

Nothing here has run on hardware: these machines have no RDMA NIC.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ..runtime.errors import BackendUnavailableError, ConfigError
from . import devx, mlx5, prm
from .pyverbs_shim import SYS_INFINIBAND, import_pyverbs, infiniband_devices, mlx5_devices

HOST_PAGE = 4096
DBR_STRIDE = 16      # per queue: QP doorbell record at +0, CQ doorbell record at +8
IBV_LINK_LAYER_ETHERNET = 2


def align_up(n: int, a: int) -> int:
    return -(-n // a) * a


@dataclass(frozen=True)
class QueueHandoff:
    """One queue as the GPU uses it: device-visible addresses, ids, keys."""
    qpn: int
    cqn: int
    depth: int           # WQE slots (64-byte basic blocks) == CQEs
    sq: int              # WQE ring
    cq: int              # CQE ring
    qp_dbr: int          # QP doorbell record: big-endian receive counter, send counter at +4
    uar_db: int          # 8-byte UAR doorbell register, mapped into the GPU
    lkey: int            # key of the frame ring (at its GPU virtual addresses)


@dataclass(frozen=True)
class QueueLayout:
    """Where each queue's rings and doorbell records lie in one region of
    queue memory; every ring starts on a host page (each is its own umem,
    exported from its own page-aligned start)."""
    queues: int
    depth: int

    @property
    def ring_bytes(self) -> int:
        return align_up(self.depth * max(mlx5.SEND_WQE_BB, mlx5.CQE_SIZE), HOST_PAGE)

    def sq(self, q: int) -> int:
        return 2 * q * self.ring_bytes

    def cq(self, q: int) -> int:
        return (2 * q + 1) * self.ring_bytes

    @property
    def dbr(self) -> int:
        return 2 * self.queues * self.ring_bytes

    def qp_dbr(self, q: int) -> int:
        return self.dbr + q * DBR_STRIDE

    def cq_dbr(self, q: int) -> int:
        return self.dbr + q * DBR_STRIDE + 8

    @property
    def dbr_bytes(self) -> int:
        return align_up(self.queues * DBR_STRIDE, HOST_PAGE)

    @property
    def total(self) -> int:
        return self.dbr + self.dbr_bytes


def initial_cq(depth: int) -> bytes:
    """A fresh CQE ring as mlx5.h specifies: op_own = invalid, owner 0."""
    ring = np.zeros(depth, dtype=mlx5.CQE64)
    ring["op_own"] = mlx5.CQE_INIT_OP_OWN
    return ring.tobytes()


def queue_records(queues: list[QueueHandoff], seq: list[int]) -> np.ndarray:
    """The dream_rnic_queue descriptors (mlx5.h) of `queues`; seq[i] is the
    device address of queue i's slot sequence array (queue.h)."""
    if len(seq) != len(queues):
        raise ValueError(f"{len(queues)} queues but {len(seq)} sequence arrays")
    recs = np.zeros(len(queues), dtype=mlx5.RNIC_QUEUE)  # ticket = rung = lock = 0
    recs["q"]["depth"] = [h.depth for h in queues]
    recs["q"]["seq"] = seq
    for field, attr in (("qpn", "qpn"), ("lkey", "lkey"), ("sq", "sq"), ("cq", "cq"),
                        ("dbr", "qp_dbr"), ("uar", "uar_db")):
        recs[field] = [getattr(h, attr) for h in queues]
    return recs


def page_span(ptr: int, nbytes: int) -> tuple[int, int]:
    """(start, length): the host-page-aligned range covering [ptr, ptr +
    nbytes), as cuMemGetHandleForAddressRange exports only whole pages."""
    start = ptr & ~(HOST_PAGE - 1)
    return start, align_up(ptr + nbytes - start, HOST_PAGE)


def dmabuf_fd(ptr: int, nbytes: int) -> int:
    """A dma-buf fd for GPU memory [ptr, ptr + nbytes), both page aligned."""
    from cuda.bindings import driver
    from ..runtime.cuda import check
    if ptr % HOST_PAGE or nbytes % HOST_PAGE:
        raise ValueError(f"dma-buf export of {ptr:#x}+{nbytes:#x}: not host-page aligned")
    return int(check(driver.cuMemGetHandleForAddressRange(
        ptr, nbytes, driver.CUmemRangeHandleType.CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0),
        "cuMemGetHandleForAddressRange(DMA_BUF_FD)"))


def gpu_dmabuf_supported(device: int) -> bool:
    from cuda.bindings import driver
    from ..runtime.cuda import check
    dev = check(driver.cuDeviceGet(device), "cuDeviceGet")
    return bool(check(driver.cuDeviceGetAttribute(
        driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, dev),
        "cuDeviceGetAttribute(DMA_BUF_SUPPORTED)"))


def map_io_page(base: int, nbytes: int = HOST_PAGE) -> int:
    """Device address of an MMIO mapping (the UAR page): registered with
    cuMemHostRegister(IOMEMORY) so GPU stores reach the NIC's BAR."""
    from cuda.bindings import driver
    from ..runtime.cuda import check
    flags = (driver.CU_MEMHOSTREGISTER_IOMEMORY | driver.CU_MEMHOSTREGISTER_DEVICEMAP
             | driver.CU_MEMHOSTREGISTER_PORTABLE)
    check(driver.cuMemHostRegister(base, nbytes, flags), "cuMemHostRegister(UAR, IOMEMORY)")
    return int(check(driver.cuMemHostGetDevicePointer(base, 0), "cuMemHostGetDevicePointer(UAR)"))


def unmap_io_page(base: int):
    from cuda.bindings import driver
    driver.cuMemHostUnregister(base)


def roce_gid_index(dev: str, port: int) -> int:
    """The first RoCE v2 GID of the port (sysfs gid_attrs/types)."""
    types = os.path.join(SYS_INFINIBAND, dev, "ports", str(port), "gid_attrs", "types")
    found = {}
    for entry in os.listdir(types):
        try:
            with open(os.path.join(types, entry)) as f:
                found[int(entry)] = f.read().strip()
        except OSError:  # unpopulated entries read as EINVAL
            continue
    return pick_gid_index(found)


def pick_gid_index(types: dict[int, str]) -> int:
    v2 = sorted(i for i, t in types.items() if t.lower() == "roce v2")
    if not v2:
        raise BackendUnavailableError(f"no RoCE v2 GID on this port (types: {types})")
    return v2[0]


def port_mac(dev: str, port: int, gid_index: int) -> bytes:
    ndev = os.path.join(SYS_INFINIBAND, dev, "ports", str(port), "gid_attrs", "ndevs",
                        str(gid_index))
    with open(ndev) as f:
        netdev = f.read().strip()
    with open(f"/sys/class/net/{netdev}/address") as f:
        return bytes.fromhex(f.read().strip().replace(":", ""))


def gid_bytes(gid: str) -> bytes:
    return bytes.fromhex(gid.replace(":", ""))


class RnicDevice:
    """An mlx5 device set up for DREAM: `queues` loopback RC QPs of `depth`
    slots with rings in `queue_memory` ("gpu" or "host"), on CUDA device
    `cuda_device`. Raises BackendUnavailableError naming the step that
    failed; close() releases everything in reverse order."""

    def __init__(self, *, queues: int, depth: int, queue_memory: str = "gpu",
                 name: str | None = None, port: int = 1, cuda_device: int = 0):
        if queue_memory not in ("gpu", "host"):
            raise ConfigError(f"queue_memory={queue_memory!r}: 'gpu' or 'host'")
        devx.ilog2(depth)
        self.queues_n, self.depth, self.port = queues, depth, port
        self.queue_memory, self.cuda_device = queue_memory, cuda_device
        self.name = name or "the mlx5 device"
        self._undo: list = []
        self._backing: dict[int, object] = {}
        self.queues: list[QueueHandoff] = []
        self.lkey = None
        self.loopback = None
        try:
            self._open(name)
            self._alloc_queue_memory()
        except BaseException:
            self.close()
            raise

    # -- setup steps ----------------------------------------------------------

    def _step(self, what, fn, *args, **kw):
        try:
            return fn(*args, **kw)
        except (BackendUnavailableError, ConfigError):
            raise
        except Exception as e:
            raise BackendUnavailableError(f"rnic setup on {self.name}: {what} failed: "
                                          f"{type(e).__name__}: {e}") from e

    def _open(self, name):
        import_pyverbs()
        from pyverbs.pd import PD
        from pyverbs.providers.mlx5 import mlx5_enums as dve
        from pyverbs.providers.mlx5.mlx5dv import Mlx5Context, Mlx5DVContextAttr
        from pyverbs.providers.mlx5.mlx5dv_objects import Mlx5DvObj
        found = mlx5_devices(infiniband_devices())
        if name is None:
            if not found:
                raise BackendUnavailableError("no RDMA device: no mlx5 device in "
                                              f"{SYS_INFINIBAND}")
            name = found[0]
        self.name = name
        self.ctx = self._step("opening the device with DevX", Mlx5Context,
                              Mlx5DVContextAttr(dve.MLX5DV_CONTEXT_FLAGS_DEVX), name=name)
        self._undo.append(self.ctx.close)
        self.port_attr = self._step(f"query_port({self.port})", self.ctx.query_port, self.port)
        dev_attr = self._step("query_device", self.ctx.query_device)
        self.max_rd_atomic = max(1, min(dev_attr.max_qp_rd_atom, dev_attr.max_qp_init_rd_atom))
        self.pd = self._step("allocating a PD", PD, self.ctx)
        self._undo.append(self.pd.close)
        self.pdn = self._step("mlx5dv_init_obj(PD)",
                              lambda: Mlx5DvObj(dve.MLX5DV_OBJ_PD, pd=self.pd).dvpd.pdn)
        self.eqn = self._step("devx_query_eqn(0)", self.ctx.devx_query_eqn, 0)

    def _alloc_queue_memory(self):
        self.layout = QueueLayout(self.queues_n, self.depth)
        n = self.layout.total
        if self.queue_memory == "gpu":
            import cupy
            from cuda.bindings import driver
            from ..runtime.cuda import check
            if not gpu_dmabuf_supported(self.cuda_device):
                raise BackendUnavailableError(
                    f"GPU {self.cuda_device} cannot export dma-bufs "
                    "(CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED=0): queue_memory='gpu' needs it")
            raw = self._step("cudaMalloc(queue memory)", cupy.cuda.runtime.malloc, n + HOST_PAGE)
            self._undo.append(lambda: cupy.cuda.runtime.free(raw))
            self.qmem = align_up(raw, HOST_PAGE)
            # as IBGDA and UCX do: CUDA memory operations on NIC-shared memory stay synchronous
            check(driver.cuPointerSetAttribute(1, driver.CUpointer_attribute
                                               .CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, self.qmem),
                  "cuPointerSetAttribute(SYNC_MEMOPS)")
            self.qmem_device = self.qmem
        else:
            from ..runtime.pinned import PinnedBuffer
            buf = self._step("pinned host queue memory", PinnedBuffer, n + HOST_PAGE)
            self._undo.append(buf.free)
            self.qmem = align_up(buf.host_ptr, HOST_PAGE)
            self.qmem_device = buf.device_ptr + (self.qmem - buf.host_ptr)
        self._fill(self.qmem, 0, n)

    def _fill(self, addr: int, value: int, nbytes: int):
        if self.queue_memory == "gpu":
            import cupy
            cupy.cuda.runtime.memset(addr, value, nbytes)
        else:
            import ctypes
            ctypes.memset(addr, value, nbytes)

    def _write(self, addr: int, data: bytes):
        if self.queue_memory == "gpu":
            import cupy
            src = np.frombuffer(data, dtype=np.uint8)
            cupy.cuda.runtime.memcpy(addr, src.ctypes.data, len(data),
                                     cupy.cuda.runtime.memcpyHostToDevice)
        else:
            import ctypes
            ctypes.memmove(addr, data, len(data))

    def _dmabuf_umem(self, what: str, ptr: int, nbytes: int, access: int):
        """A umem over GPU memory [ptr, ptr + nbytes), exported as a dma-buf
        (4 KiB pages; with a dma-buf, umem addr is the offset into it)."""
        from pyverbs.providers.mlx5 import mlx5_enums as dve
        from pyverbs.providers.mlx5.mlx5dv import Mlx5UMEM
        fd = self._step(f"{what}: dma-buf export", dmabuf_fd, ptr, nbytes)
        try:
            umem = self._step(f"{what}: umem", Mlx5UMEM, self.ctx, nbytes, addr=0,
                              access=access, pgsz_bitmap=HOST_PAGE,
                              comp_mask=dve.MLX5DV_UMEM_MASK_DMABUF, dmabuf_fd=fd)
        finally:
            os.close(fd)  # the kernel holds its own reference to the dma-buf
        self._undo.append(umem.close)
        return umem

    def _queue_umem(self, offset: int, nbytes: int):
        """A umem over queue memory [offset, offset + nbytes)."""
        what = f"queue memory +{offset:#x} ({nbytes} B)"
        if self.queue_memory == "gpu":
            return self._dmabuf_umem(what, self.qmem + offset, nbytes, devx.QUEUE_ACCESS)
        from pyverbs.providers.mlx5.mlx5dv import Mlx5UMEM
        umem = self._step(f"{what}: umem", Mlx5UMEM, self.ctx, nbytes,
                          addr=self.qmem + offset, access=devx.QUEUE_ACCESS)
        self._undo.append(umem.close)
        return umem

    def register_frames(self, frames_ptr: int, nbytes: int) -> int:
        """The GPU frame ring as a dma-buf umem and a DevX memory key over it
        at its GPU virtual addresses; returns the lkey WQEs carry."""
        from pyverbs.providers.mlx5.mlx5dv import Mlx5DevxObj
        start, length = page_span(frames_ptr, nbytes)
        umem = self._dmabuf_umem("frame ring", start, length, devx.FRAMES_ACCESS)
        mkey = self._step("frame ring: CREATE_MKEY", Mlx5DevxObj, self.ctx, devx.create_mkey_in(
            pdn=self.pdn, start_addr=start, length=length, umem_id=umem.umem_id,
            access=devx.FRAMES_ACCESS), prm.CREATE_MKEY_OUT.nbytes)
        self._undo.append(mkey.close)
        out = devx.check_out(prm.CREATE_MKEY_OUT, mkey.out_view, "frame ring: CREATE_MKEY")
        self.lkey = devx.mkey_to_lkey(prm.CREATE_MKEY_OUT.get(out, "mkey_index"))
        return self.lkey

    def create_queues(self):
        """Every queue: UAR, CQ, QP, loopback to RTS, doorbell mapped."""
        if self.lkey is None:
            raise RuntimeError("register_frames() before create_queues()")
        lay = self.layout
        dbr = self._queue_umem(lay.dbr, lay.dbr_bytes)
        for q in range(self.queues_n):
            self.queues.append(self._create_queue(q, dbr))

    def _create_queue(self, q: int, dbr) -> QueueHandoff:
        from pyverbs.providers.mlx5 import mlx5_enums as dve
        from pyverbs.providers.mlx5.mlx5dv import Mlx5DevxObj, Mlx5UAR
        lay = self.layout
        # Non-cached UAR: a GPU cannot do the write-combining BlueFlame needs.
        uar = self._step(f"queue {q}: allocating a UAR", Mlx5UAR, self.ctx,
                         dve._MLX5DV_UAR_ALLOC_TYPE_NC)
        self._undo.append(uar.close)
        page = uar.base_addr & ~(HOST_PAGE - 1)
        gpu_page = self._step(f"queue {q}: mapping the UAR into the GPU", map_io_page, page)
        self._undo.append(lambda: unmap_io_page(page))
        self._write(self.qmem + lay.cq(q), initial_cq(self.depth))
        cq_umem = self._queue_umem(lay.cq(q), lay.ring_bytes)
        sq_umem = self._queue_umem(lay.sq(q), lay.ring_bytes)
        cq = self._step(f"queue {q}: CREATE_CQ", Mlx5DevxObj, self.ctx, devx.create_cq_in(
            depth=self.depth, uar_page=uar.page_id, eqn=self.eqn, cq_umem_id=cq_umem.umem_id,
            dbr_umem_id=dbr.umem_id, dbr_offset=lay.cq_dbr(q) - lay.dbr),
            prm.CREATE_CQ_OUT.nbytes)
        self._undo.append(cq.close)
        cqn = prm.CREATE_CQ_OUT.get(devx.check_out(prm.CREATE_CQ_OUT, cq.out_view,
                                                   f"queue {q}: CREATE_CQ"), "cqn")
        qp = self._step(f"queue {q}: CREATE_QP", Mlx5DevxObj, self.ctx, devx.create_qp_in(
            depth=self.depth, pdn=self.pdn, uar_page=uar.page_id, cqn=cqn,
            wq_umem_id=sq_umem.umem_id, dbr_umem_id=dbr.umem_id,
            dbr_offset=lay.qp_dbr(q) - lay.dbr, user_index=q), prm.CREATE_QP_OUT.nbytes)
        self._undo.append(qp.close)
        qpn = prm.CREATE_QP_OUT.get(devx.check_out(prm.CREATE_QP_OUT, qp.out_view,
                                                   f"queue {q}: CREATE_QP"), "qpn")
        self._to_rts(q, qp, qpn)
        base = self.qmem_device
        return QueueHandoff(
            qpn=qpn, cqn=cqn, depth=self.depth, sq=base + lay.sq(q), cq=base + lay.cq(q),
            qp_dbr=base + lay.qp_dbr(q),
            uar_db=gpu_page + (uar.reg_addr - page), lkey=self.lkey)

    def _addressed_path(self) -> devx.LoopbackPath:
        """The port's own address: LID (InfiniBand), or RoCE v2 GID and MAC."""
        if self.port_attr.link_layer != IBV_LINK_LAYER_ETHERNET:
            return devx.LoopbackPath(port=self.port, force=False, lid=self.port_attr.lid)
        idx = roce_gid_index(self.name, self.port)
        return devx.LoopbackPath(port=self.port, force=False, gid_index=idx,
                                 gid=gid_bytes(self.ctx.query_gid(self.port, idx).gid),
                                 mac=port_mac(self.name, self.port, idx))

    def _to_rts(self, q: int, qp, qpn: int):
        """RST -> INIT -> RTR -> RTS connected to itself. RTR tries forced
        loopback (no link needed), then the port's address; later queues
        use whichever worked for the first."""
        where = f"rnic setup on {self.name}: queue {q} (QP {qpn:#x})"

        def modify(what: str, cmd: bytes):
            try:
                devx.check_out(prm.MODIFY_QP_OUT, qp.modify(cmd, prm.MODIFY_QP_OUT.nbytes), what)
            except Exception as e:
                raise BackendUnavailableError(f"{where}: {what} failed: {e}") from e

        mtu, rd = self.port_attr.active_mtu, self.max_rd_atomic
        modify("RST2INIT", devx.rst2init_qp_in(qpn=qpn, port=self.port))
        candidates = []
        if self.loopback != "addressed":
            candidates.append(("forced", lambda: devx.LoopbackPath(port=self.port)))
        if self.loopback != "forced":
            candidates.append(("addressed", self._addressed_path))
        errors = []
        for kind, path in candidates:
            try:  # a failed INIT2RTR leaves the QP in INIT, so the next may follow
                modify("INIT2RTR", devx.init2rtr_qp_in(qpn=qpn, remote_qpn=qpn, path=path(),
                                                       mtu=mtu, max_rd_atomic=rd))
            except BackendUnavailableError as e:
                errors.append(f"{kind} loopback: {e}")
                continue
            self.loopback = kind
            break
        else:
            raise BackendUnavailableError(f"{where}: cannot reach RTR: {'; '.join(errors)}")
        modify("RTR2RTS", devx.rtr2rts_qp_in(qpn=qpn, port=self.port, max_rd_atomic=rd))

    # -- backing stores -------------------------------------------------------

    def register_backing(self, key: int, host_ptr: int, nbytes: int) -> int:
        """Registers an array's pinned backing store; returns its rkey."""
        from pyverbs.mr import MR
        mr = self._step(f"registering backing store {key} ({nbytes} B)", MR, self.pd,
                        nbytes, devx.BACKING_ACCESS, address=host_ptr)
        self._backing[key] = mr
        return mr.rkey

    def deregister_backing(self, key: int):
        self._backing.pop(key).close()

    def close(self):
        for mr in self._backing.values():
            mr.close()
        self._backing.clear()
        while self._undo:
            self._undo.pop()()
        self.queues = []
