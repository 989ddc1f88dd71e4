"""rt.stats(): the device counters (summed over shards) and the transport's
host-side counters."""
from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

from . import abi


@dataclass
class Stats:
    faults: int = 0        # warp-group accesses that found their page absent (accesses
                           # that find it resident are not counted: it would cost more
                           # than the access)
    pages_in: int = 0      # pages loaded into frames
    evictions: int = 0     # resident pages dropped from their frame
    writebacks: int = 0    # dirty frames written to the backing store
    bytes_in: int = 0
    bytes_out: int = 0
    wait_ns: int = 0       # summed time warp groups spent resolving faults
    doorbells: int = 0     # doorbell writes by GPU threads (queue backends)
    requests: int = 0      # transport requests posted
    frame_skips: int = 0   # pinned, locked or young frames the ring cursor passed over
    coalesced: int = 0     # faults served by another warp's load
    retries: int = 0       # optimistic reads whose page left its frame under them
    verify_owner: int = 0  # -DDREAM_VERIFY: accesses whose frame held another page after them
    verify_pin: int = 0    # -DDREAM_VERIFY: accesses whose frame was not pinned after them
    ahead: int = 0         # pages read ahead of a fault (in pages_in too)
    gathered: int = 0      # pages a fault loaded for other lanes of its warp's access (in pages_in too)
    whole: int = 0         # accesses that found their array whole at home mid-launch (a dream_ptr copy goes home)
    transport: dict = field(default_factory=dict)  # the backend's host-side counters

    @classmethod
    def from_counters(cls, shards: np.ndarray, transport: dict) -> "Stats":
        total = shards.reshape(abi.COUNTER_SHARDS, abi.NCOUNTERS).sum(axis=0, dtype=np.uint64)
        return cls(**{name: int(total[i]) for i, name in enumerate(abi.COUNTERS)},
                   transport=dict(transport))

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __str__(self) -> str:
        core = ", ".join(f"{f.name}={getattr(self, f.name):,}" for f in fields(self)
                         if f.name != "transport")
        extra = ", ".join(f"{k}={v:,}" if isinstance(v, int) else f"{k}={v}"
                          for k, v in self.transport.items())
        return f"Stats({core}{'; transport: ' + extra if extra else ''})"
