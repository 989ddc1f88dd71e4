"""The Python mirror of abi.h against the compiler's layout (dream._abi)."""
import numpy as np
import pytest

from dream import _abi
from dream.runtime import abi

MIRRORS = {"dream_array_desc": abi.ARRAY_DESC, "dream_error": abi.ERROR,
           "dream_rt_state": abi.RT_STATE, "dream_ptr_abi": abi.PTR}


@pytest.mark.parametrize("cname", sorted(MIRRORS))
def test_struct_mirror(cname):
    size, fields = _abi.layouts[cname]
    dt = MIRRORS[cname]
    assert dt.itemsize == size, cname
    assert set(dt.names) == set(fields), cname
    for name, (off, fsize) in fields.items():
        assert dt.fields[name][1] == off, f"{cname}.{name} offset"
        assert dt.fields[name][0].itemsize == fsize, f"{cname}.{name} size"


def test_constants_mirror():
    mirror = abi.constants()
    assert set(mirror) == set(_abi.constants)
    for name, value in _abi.constants.items():
        assert mirror[name] == value, name


def test_counter_names_fit():
    assert len(abi.COUNTERS) <= abi.NCOUNTERS
    assert len(set(abi.COUNTERS)) == len(abi.COUNTERS)


def test_owner_encoding_roundtrip():
    slot, page = 12345, (1 << abi.OWNER_PAGE_BITS) - 1
    own = np.uint64((slot << abi.OWNER_PAGE_BITS) | page)
    assert int(own) >> abi.OWNER_PAGE_BITS == slot
    assert int(own) & ((1 << abi.OWNER_PAGE_BITS) - 1) == page
    assert int(own) != abi.OWNER_NONE
