"""Checks of a Python mirror (numpy structured dtypes, constants) against a
header's layout as the C++ compiler saw it (an extension's `layouts` and
`constants`), shared by the ABI, mlx5 and NVMe wire-format tests."""


def assert_struct_mirrors(cname, layout, dt):
    """layout: (sizeof, {field: (offsetof, sizeof)}) of struct `cname`."""
    size, fields = layout
    assert dt.itemsize == size, cname
    assert list(dt.names) == sorted(fields, key=lambda f: fields[f][0]), cname
    for name, (off, fsize) in fields.items():
        assert dt.fields[name][1] == off, f"{cname}.{name} offset"
        assert dt.fields[name][0].itemsize == fsize, f"{cname}.{name} size"


def assert_constants_mirror(mirror, header):
    assert set(mirror) == set(header)
    for name, value in header.items():
        assert mirror[name] == value, name
