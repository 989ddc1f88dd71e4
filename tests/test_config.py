"""API validation that needs no GPU: bad settings fail before any device call."""
import numpy as np
import pytest

import dream
from dream.runtime.array import check_dtype, check_shape
from dream.runtime.kernel import _dim3, _scalar_bytes


@pytest.mark.parametrize("kw,match", [
    ({"page_size": "3KiB"}, "page_size='3KiB': must be a power of two"),
    ({"page_size": 1024}, "page_size=1024: must be a power of two from 4KiB"),
    ({"page_size": "64MiB"}, "to 16MiB"),
    ({"page_size": "big"}, "page_size: cannot read 'big'"),
    ({"gpu_memory": "2KiB"}, "smaller than one page"),
    ({"gpu_memory": "8TiB", "page_size": "4KiB"}, "at most 536,870,911"),
    ({"timeout": "soon"}, "timeout: cannot read"),
    ({"host_timeout": -1}, "host_timeout: must be positive"),
    ({"device": -1}, "device=-1"),
    ({"backend": "carrier-pigeon"}, "unknown backend 'carrier-pigeon'"),
])
def test_runtime_rejects_settings(kw, match):
    with pytest.raises(dream.ConfigError, match=match):
        dream.Runtime(**kw)


def test_runtime_without_gpu_says_so():
    from dream.runtime.cuda import gpu_status
    if gpu_status(0)[0] is not None:
        pytest.skip("this machine has a GPU")
    with pytest.raises(dream.NoDeviceError, match="needs an NVIDIA GPU"):
        dream.Runtime()


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int8, np.uint16, np.int64,
                                np.complex64, np.complex128, np.bool_, "f2"])
def test_dtypes_accepted(dt):
    assert check_dtype(dt, "x") == np.dtype(dt)


@pytest.mark.parametrize("dt", [object, "U4", "S3", [("a", "i4"), ("b", "f8")], "M8[s]", "nonsense"])
def test_dtypes_refused(dt):
    with pytest.raises(dream.ConfigError, match="rt.zeros"):
        check_dtype(dt, "rt.zeros")


@pytest.mark.parametrize("shape,want", [(5, (5,)), ((2, 3), (2, 3)), ([4, 5, 6], (4, 5, 6)),
                                        (np.int64(7), (7,))])
def test_shapes(shape, want):
    assert check_shape(shape, "x") == want


@pytest.mark.parametrize("shape", [0, (), (3, 0), (-1,), (2.5,), "abc"])
def test_bad_shapes(shape):
    with pytest.raises(dream.ConfigError, match="shape must be positive"):
        check_shape(shape, "rt.empty")


def test_dim3():
    assert _dim3(7, "grid") == (7, 1, 1)
    assert _dim3((2, 3), "grid") == (2, 3, 1)
    for bad in (0, (1, 2, 3, 4), (1, -1), 1.5, ()):
        with pytest.raises(dream.ConfigError, match="grid"):
            _dim3(bad, "grid")


def test_scalar_packing():
    assert _scalar_bytes(5, 4, 0, "k") == (5).to_bytes(4, "little")
    assert _scalar_bytes(-2, 8, 0, "k") == (-2).to_bytes(8, "little", signed=True)
    assert _scalar_bytes(1.5, 4, 0, "k") == np.float32(1.5).tobytes()
    assert _scalar_bytes(1.5, 8, 0, "k") == np.float64(1.5).tobytes()
    assert _scalar_bytes(np.uint16(9), 2, 0, "k") == np.uint16(9).tobytes()
    assert _scalar_bytes(True, 1, 0, "k") == b"\x01"


@pytest.mark.parametrize("value,size,match", [
    (np.int32(1), 8, "argument 2 is int32 \\(4 bytes\\) but the kernel's parameter 2 has 8"),
    (1 << 40, 4, "does not fit its 4-byte parameter"),
    (3, 2, "pass a NumPy scalar"),
    ("3", 4, "argument 2 has type str"),
    (True, 4, "is a bool"),
])
def test_scalar_packing_errors(value, size, match):
    with pytest.raises(dream.KernelArgumentError, match=match):
        _scalar_bytes(value, size, 2, "k")


def test_queue_placements():
    from dream.runtime.queue_memory import DEFAULT, placement
    assert DEFAULT == "gpu"
    assert placement("split") == ("host", "gpu")  # SQs with the engine, CQs with the GPU
    assert placement("gpu") == ("gpu", "gpu") and placement("host") == ("host", "host")
    with pytest.raises(dream.ConfigError, match="queue_memory='disk': one of 'gpu', 'host', 'split'"):
        placement("disk")
