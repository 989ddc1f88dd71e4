import pytest

from dream import ConfigError, parse_size
from dream.runtime.sizes import format_size, parse_duration


@pytest.mark.parametrize("text,n", [
    (4096, 4096), ("4KiB", 4096), ("4k", 4096), ("4 KB", 4000), ("2GiB", 2 << 30),
    ("1.5MiB", 3 << 19), ("64K", 65536), ("1TiB", 1 << 40), ("512", 512), ("512B", 512)])
def test_parse_size(text, n):
    assert parse_size(text) == n


@pytest.mark.parametrize("bad", ["", "4XB", "-1", "0", 0, -4, 1.5, True, "1.3B", None, "KiB"])
def test_parse_size_rejects(bad):
    with pytest.raises(ConfigError, match="page_size"):
        parse_size(bad, "page_size")


def test_format_size():
    assert format_size(4096) == "4KiB"
    assert format_size(3 << 30) == "3GiB"
    assert format_size(1536) == "1.50KiB"


@pytest.mark.parametrize("text,s", [(5, 5.0), ("500ms", 0.5), ("2s", 2.0), ("1min", 60.0),
                                    ("250us", 250e-6)])
def test_parse_duration(text, s):
    assert parse_duration(text) == pytest.approx(s)


@pytest.mark.parametrize("bad", ["soon", 0, -1, "5 parsecs"])
def test_parse_duration_rejects(bad):
    with pytest.raises(ConfigError, match="timeout"):
        parse_duration(bad)
