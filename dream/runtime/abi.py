"""Python mirror of dream/cuda/include/dream/abi.h (checked field by field
against the compiler's offsets by tests/test_abi.py)."""
import numpy as np

ARRAY_DESC = np.dtype([
    ("pte", "<u8"), ("n_elems", "<u8"), ("n_pages", "<u8"), ("backing", "<u8"),
    ("key", "<u4"), ("elem_size", "<u4"), ("slot", "<u4"), ("flags", "<u4"),
    ("at_home", "<u8"), ("home_frame", "<u4"), ("pad", "<u4"),
])
ARRAY_HOME = 1

ERROR = np.dtype([
    ("code", "<u4"), ("count", "<u4"), ("slot", "<u4"), ("where", "<u4"),
    ("index", "<u8"), ("page", "<u8"),
    ("block", "<u4", (3,)), ("thread", "<u4", (3,)), ("detail", "<u4", (4,)),
])

RESIDENT_FAIL = np.dtype([("index", "<u8"), ("where", "<u8")])
RESIDENT_FAIL_SYMBOL = "dream_resident_failure"  # fault.cuh: the variable of a resident build's module
RFAIL_THREAD_SHIFT, RFAIL_BLOCK_SHIFT, RFAIL_BLOCK_MAX = 23, 33, 0x7FFFFFFE


def resident_failure(raw: bytes, grid, block):
    """What a resident build recorded (RESIDENT_FAIL bytes) in a launch of
    `grid` x `block`: None; (ERR_TYPE, slot, sizeof(T)), where the block
    field is zero; or (ERR_BOUNDS, slot, index, block, thread), block and
    thread as (x, y, z), block None where it lies at or past RFAIL_BLOCK_MAX."""
    r = np.frombuffer(raw, dtype=RESIDENT_FAIL)[0]
    i, w = int(r["index"]), int(r["where"])
    slot = w & ((1 << RFAIL_THREAD_SHIFT) - 1)
    blk = (w >> RFAIL_BLOCK_SHIFT) - 1
    if blk < 0:
        return (ERR_TYPE, slot, i) if i or w else None
    thread = w >> RFAIL_THREAD_SHIFT & ((1 << (RFAIL_BLOCK_SHIFT - RFAIL_THREAD_SHIFT)) - 1)
    return (ERR_BOUNDS, slot, i,
            None if blk == RFAIL_BLOCK_MAX else (blk % grid[0], blk // grid[0] % grid[1], blk // (grid[0] * grid[1])),
            (thread % block[0], thread // block[0] % block[1], thread // (block[0] * block[1])))


RT_STATE = np.dtype([
    ("frames", "<u8"), ("ref", "<u8"), ("owner", "<u8"), ("dirty", "<u8"), ("loaded", "<u8"),
    ("arrays", "<u8"), ("counters", "<u8"), ("error", "<u8"), ("transport", "<u8"),
    ("nframes", "<u8"), ("timeout_ns", "<u8"), ("head", "<u8"),
    ("page_shift", "<u4"), ("abort", "<u4"), ("n_slots", "<u4"), ("pad", "<u4"),
])

PTR = np.dtype([
    ("rt", "<u8"), ("pte", "<u8"), ("n", "<u8"),
    ("page_shift", "<u4"), ("slot", "<u4"), ("elem_size", "<u4"), ("flags", "<u4"),
    ("home", "<u8"), ("home_dirty", "<u8"), ("frames", "<u8"), ("backing", "<u8"), ("at_home", "<u8"),
])
PTR_NO_EVICT = 1
PTR_AT_HOME = 2       # with PTR_NO_EVICT: every page of the array at home (home, home_dirty set)
PTR_AHEAD_SHIFT, PTR_AHEAD_MASK = 16, 0x1F  # the launch's read-ahead depth in flags
AHEAD_MAX, AHEAD_STRIDE = 31, 64   # most pages a fault loads besides its own (read ahead or gathered), largest stride followed

HINT = np.dtype([("lo", "<u8"), ("span", "<u8"), ("base", "<u8"), ("dirty", "<u8")])
PTR_ARG = np.dtype([("abi", PTR), ("hint", HINT)])

PTE_INVALID, PTE_LOADING, PTE_VALID, PTE_EVICTING = 0, 1, 2, 3
PTE_STATE_MASK = 3
PTE_FRAME_SHIFT = 2
PTE_GEN_SHIFT = 32
FRAME_NONE = (1 << 29) - 1
PTE_MARK = 1 << 31
MAX_FRAMES = FRAME_NONE
REF_LOCKED = -0x40000000
OWNER_NONE = 0xFFFFFFFFFFFFFFFF
OWNER_PAGE_BITS = 40
MAX_SLOTS = 1 << 23

ERR_NONE, ERR_BOUNDS, ERR_TYPE, ERR_TIMEOUT, ERR_TRANSPORT, ERR_PROTOCOL = 0, 1, 2, 3, 4, 5
WAIT_NONE, WAIT_PAGE, WAIT_FRAME, WAIT_QUEUE, WAIT_COMPLETION = 0, 1, 2, 3, 4
WAIT_NAMES = {WAIT_NONE: "-", WAIT_PAGE: "another warp's load of the page (or its wait for a frame)",
              WAIT_FRAME: "a free frame in the ring", WAIT_QUEUE: "a free queue slot",
              WAIT_COMPLETION: "the completion of a transport request"}

# Counter indices (DREAM_C_*), in the order of the Stats fields.
COUNTERS = ("faults", "pages_in", "evictions", "writebacks", "bytes_in",
            "bytes_out", "wait_ns", "doorbells", "requests", "frame_skips", "coalesced",
            "retries", "verify_owner", "verify_pin", "ahead", "gathered", "whole")
NCOUNTERS = 17
COUNTER_SHARDS = 256
DIRECT_LOCKS = 16384  # the direct backend's device state: uint32 locks (direct.cuh)

ALL_SLOTS = 0xFFFFFFFF  # dream_flush: every array (maintenance.cuh)


def constants() -> dict:
    """The mirrored constants under their C names, for the mirror test."""
    c = {
        "DREAM_PTE_INVALID": PTE_INVALID, "DREAM_PTE_LOADING": PTE_LOADING,
        "DREAM_PTE_VALID": PTE_VALID, "DREAM_PTE_EVICTING": PTE_EVICTING,
        "DREAM_FRAME_NONE": FRAME_NONE, "DREAM_PTE_STATE_MASK": PTE_STATE_MASK,
        "DREAM_PTE_FRAME_SHIFT": PTE_FRAME_SHIFT, "DREAM_PTE_MARK": PTE_MARK,
        "DREAM_PTE_GEN_SHIFT": PTE_GEN_SHIFT, "DREAM_MAX_FRAMES": MAX_FRAMES,
        "DREAM_REF_LOCKED": REF_LOCKED, "DREAM_OWNER_NONE": OWNER_NONE,
        "DREAM_PTR_NO_EVICT": PTR_NO_EVICT, "DREAM_PTR_AT_HOME": PTR_AT_HOME, "DREAM_ARRAY_HOME": ARRAY_HOME,
        "DREAM_PTR_AHEAD_SHIFT": PTR_AHEAD_SHIFT, "DREAM_PTR_AHEAD_MASK": PTR_AHEAD_MASK,
        "DREAM_AHEAD_MAX": AHEAD_MAX, "DREAM_AHEAD_STRIDE": AHEAD_STRIDE,
        "DREAM_OWNER_PAGE_BITS": OWNER_PAGE_BITS, "DREAM_MAX_SLOTS": MAX_SLOTS,
        "DREAM_ERR_NONE": ERR_NONE, "DREAM_ERR_BOUNDS": ERR_BOUNDS, "DREAM_ERR_TYPE": ERR_TYPE,
        "DREAM_ERR_TIMEOUT": ERR_TIMEOUT, "DREAM_ERR_TRANSPORT": ERR_TRANSPORT,
        "DREAM_ERR_PROTOCOL": ERR_PROTOCOL, "DREAM_RFAIL_THREAD_SHIFT": RFAIL_THREAD_SHIFT,
        "DREAM_RFAIL_BLOCK_SHIFT": RFAIL_BLOCK_SHIFT, "DREAM_RFAIL_BLOCK_MAX": RFAIL_BLOCK_MAX,
        "DREAM_WAIT_NONE": WAIT_NONE, "DREAM_WAIT_PAGE": WAIT_PAGE,
        "DREAM_WAIT_FRAME": WAIT_FRAME, "DREAM_WAIT_QUEUE": WAIT_QUEUE,
        "DREAM_WAIT_COMPLETION": WAIT_COMPLETION,
        "DREAM_NCOUNTERS": NCOUNTERS, "DREAM_COUNTER_SHARDS": COUNTER_SHARDS,
        "DREAM_DIRECT_LOCKS": DIRECT_LOCKS,
    }
    for i, name in enumerate(COUNTERS):
        c["DREAM_C_" + name.upper()] = i
    return c
