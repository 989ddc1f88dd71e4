"""The Python mirror of abi.h against the compiler's layout (dream._abi)."""
import numpy as np
import pytest

from dream import _abi
from dream.runtime import abi
from mirrors import assert_constants_mirror, assert_struct_mirrors

MIRRORS = {"dream_array_desc": abi.ARRAY_DESC, "dream_error": abi.ERROR,
           "dream_resident_fail": abi.RESIDENT_FAIL,
           "dream_rt_state": abi.RT_STATE, "dream_ptr_abi": abi.PTR,
           "dream_hint": abi.HINT, "dream_ptr_arg": abi.PTR_ARG}


@pytest.mark.parametrize("cname", sorted(MIRRORS))
def test_struct_mirror(cname):
    assert_struct_mirrors(cname, _abi.layouts[cname], MIRRORS[cname])


def test_constants_mirror():
    assert_constants_mirror(abi.constants(), _abi.constants)


def test_counter_names_fit():
    assert len(abi.COUNTERS) <= abi.NCOUNTERS
    assert len(set(abi.COUNTERS)) == len(abi.COUNTERS)


def test_owner_encoding_roundtrip():
    slot, page = 12345, (1 << abi.OWNER_PAGE_BITS) - 1
    own = np.uint64((slot << abi.OWNER_PAGE_BITS) | page)
    assert int(own) >> abi.OWNER_PAGE_BITS == slot
    assert int(own) & ((1 << abi.OWNER_PAGE_BITS) - 1) == page
    assert int(own) != abi.OWNER_NONE


def _record(index=0, where=0):
    r = np.zeros((), dtype=abi.RESIDENT_FAIL)
    r["index"], r["where"] = index, where
    return r.tobytes()


def test_resident_failure_decodes_what_the_device_stores():
    """fault.cuh dream_access_ok's records in the resident build: a wrong
    index with its slot, thread and block (linear, back to (x, y, z) of
    the launch; a block past the field's range), a wrong type (slot 0's
    too: its record is not zero), none."""
    grid, block = (7, 5, 3), (8, 4, 2)
    blk, thread = 3 + 7 * (4 + 5 * 2), 6 + 8 * (1 + 4 * 1)
    where = (abi.MAX_SLOTS - 1) | thread << abi.RFAIL_THREAD_SHIFT | (blk + 1) << abi.RFAIL_BLOCK_SHIFT
    assert abi.resident_failure(_record(2**64 - 1, where), grid, block) == \
        (abi.ERR_BOUNDS, abi.MAX_SLOTS - 1, 2**64 - 1, (3, 4, 2), (6, 1, 1))
    far = 1023 << abi.RFAIL_THREAD_SHIFT | (abi.RFAIL_BLOCK_MAX + 1) << abi.RFAIL_BLOCK_SHIFT
    assert abi.resident_failure(_record(5, far), (2**31, 2, 1), (1024, 1, 1)) == \
        (abi.ERR_BOUNDS, 0, 5, None, (1023, 0, 0))
    assert abi.resident_failure(_record(8, 9), grid, block) == (abi.ERR_TYPE, 9, 8)
    assert abi.resident_failure(_record(16, 0), grid, block) == (abi.ERR_TYPE, 0, 16)
    assert abi.resident_failure(_record(), grid, block) is None
