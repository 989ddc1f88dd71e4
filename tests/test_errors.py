"""Device errors as the user reads them (Runtime._device_error), from error
records as the GPU writes them (abi.ERROR, sync.cuh dream_fail)."""
import types

import numpy as np

import dream
from dream.runtime import abi
from dream.runtime.runtime import Runtime


def record(**fields):
    e = np.zeros((), dtype=abi.ERROR)
    e["count"] = 1
    for name, value in fields.items():
        e[name] = value
    return e


def message(e) -> dream.DeviceError:
    rt = types.SimpleNamespace(_arrays={}, timeout_s=10.0, backend_name="softrnic", _backend=None)
    return Runtime._device_error(rt, e, "kernel k")


def test_a_queue_wait_names_its_queue_and_entry():
    # queue.cuh records the queue, the entry's index and the opcode
    e = record(code=abi.ERR_TIMEOUT, where=abi.WAIT_COMPLETION, page=7, detail=[21, 143, 0x10, 0])
    err = message(e)
    assert isinstance(err, dream.DreamTimeoutError)
    assert "the completion of a transport request" in str(err)
    assert "page 7 of array slot 0, queue 21, entry index 143, opcode 0x10" in str(err)


def test_a_page_wait_names_no_queue():
    err = message(record(code=abi.ERR_TIMEOUT, where=abi.WAIT_PAGE, page=7, detail=[1, 2, 3, 0]))
    assert isinstance(err, dream.DreamTimeoutError)
    assert "queue" not in str(err) and "another warp's load" in str(err)


def test_a_resident_builds_record_raises_the_general_builds_error():
    # Runtime._resident_error: what abi.resident_failure decodes, told in
    # _device_error's words
    arr = types.SimpleNamespace(name="w", shape=(10,), dtype=np.dtype(np.float32), size=10)
    rt = types.SimpleNamespace(_arrays={3: arr}, timeout_s=10.0, backend_name="direct", _backend=None)
    rt._device_error = lambda e, what, at=None: Runtime._device_error(rt, e, what, at)
    err = Runtime._resident_error(rt, (abi.ERR_TYPE, 3, 8), "kernel k")
    assert isinstance(err, dream.ElementTypeError)
    assert str(err) == ("kernel k: dream_ptr<T> with sizeof(T) = 8 used for array 'w' (shape (10,), float32) "
                        "whose elements are 4 bytes, at every access through it (its thread is not recorded)")
    err = Runtime._resident_error(rt, (abi.ERR_BOUNDS, 3, -1 % 2**64, (1, 2, 0), (5, 0, 0)), "kernel k")
    assert isinstance(err, dream.OutOfBoundsError)
    assert "index -1 is out of bounds for array 'w'" in str(err) and "block (1, 2, 0) thread (5, 0, 0)" in str(err)
    err = Runtime._resident_error(rt, (abi.ERR_BOUNDS, 3, 10, None, (5, 0, 0)), "kernel k")
    assert f"a block at or past linear block {abi.RFAIL_BLOCK_MAX:,}, thread (5, 0, 0)" in str(err)
