"""What the two RNIC backends (softrnic, rnic) share on the host: each
array's backing store is a pinned host buffer (runtime/pinned.py), which the
backend registers with its NIC under the array's slot."""
from __future__ import annotations

from ..runtime.pinned import PinnedStore

DEFAULT_DEPTH = 64  # DREAM: 64-entry queues


class RegisteredBacking:
    """Backend methods over `self.store` (a PinnedStore) and `self.nic`
    (register_backing / deregister_backing by slot). `nic_address(buf)` is
    the address the NIC knows a buffer by: the soft RNIC's copy engines take
    the buffer's device mapping, a real NIC its host address (ibv_reg_mr)."""

    def nic_address(self, buf) -> int:
        raise NotImplementedError

    def open_store(self, page_size: int):
        self.store = PinnedStore(page_size)

    def attach(self, arr, data):
        buf = self.store.attach(arr, data)
        try:
            addr = self.nic_address(buf)
            return addr, self.nic.register_backing(arr.slot, addr, buf.nbytes)
        except BaseException:
            self.store.detach(arr)
            raise

    def detach(self, arr):
        self.nic.deregister_backing(arr.slot)
        self.store.detach(arr)

    def read(self, arr):
        return self.store.read(arr)

    def write(self, arr, data):
        self.store.write(arr, data)
