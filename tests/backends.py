"""The backends the shared GPU correctness suite runs on: the suite passes
unchanged on each (swapping is one argument). A backend that is not
registered or cannot run here is skipped with its reason."""
import pytest

BACKENDS = [
    pytest.param(("direct", {}), id="direct"),
    pytest.param(("softrnic", {"queue_memory": "gpu"}), id="softrnic-gpuq"),  # the GPU engine
    pytest.param(("softrnic", {"engine": "host"}), id="softrnic-hostengine"),
    pytest.param(("softrnic", {"engine": "host", "queue_memory": "host"}), id="softrnic-hostq"),
    pytest.param(("nvme", {}), id="nvme"),
    pytest.param(("nvme", {"queue_memory": "host"}), id="nvme-hostq"),
]

# The soft engines' host threads with their copies on the copy engines, not
# the default copy kernel (runtime/copier.py): for the suite's tests of page loads under
# pressure (make_rt_dma), not all of them, to keep the suite within minutes.
COPY_ENGINES = [
    pytest.param(("softrnic", {"engine": "host", "dma": "copy-engines"}), id="softrnic-copyengines"),
    pytest.param(("nvme", {"dma": "copy-engines"}), id="nvme-copyengines"),
]


# The share of a test's page loads each backend gets, for tests whose work is
# page loads: the soft NVMe controller serves one in 50-250 us on these
# machines (a file per array on a virtio disk) against about 1 us on direct,
# and the whole GPU suite must pass in under 10 minutes (H100, session 36: at
# 0.25 its nvme half alone took about 6). Such a test keeps its ring-to-data
# ratio and shrinks its op count: at x = 8 nvme's scatter still loads some
# 60,000 pages, each after a write-back.
WORK_SHARE = {"direct": 1, "softrnic": 1, "nvme": 0.125}


def usable(spec, tmp_path) -> tuple[str, dict]:
    """(name, options) of backend `spec` with its files in tmp_path, or a
    pytest skip."""
    from dream.runtime.backends import all_backends
    name, options = spec
    cls = all_backends().get(name)
    if cls is None:
        pytest.skip(f"backend {name!r} is not built")
    ok, why = cls.availability()
    if not ok:
        pytest.skip(f"backend {name!r} cannot run here: {why}")
    opts = dict(options)
    if name == "nvme":
        opts.setdefault("directory", str(tmp_path))
    return name, opts


def runtime_factory(spec, tmp_path):
    """A function making Runtimes of backend `spec`, or a pytest skip."""
    import dream
    name, opts = usable(spec, tmp_path)

    def make(**kw):
        return dream.Runtime(backend=name, **{**opts, **kw})
    make.share = WORK_SHARE[name]
    return make
