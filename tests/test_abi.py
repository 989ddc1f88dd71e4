"""The Python mirror of abi.h against the compiler's layout (dream._abi)."""
import numpy as np
import pytest

from dream import _abi
from dream.runtime import abi
from mirrors import assert_constants_mirror, assert_struct_mirrors

MIRRORS = {"dream_array_desc": abi.ARRAY_DESC, "dream_error": abi.ERROR,
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
