"""/tmp/v_main: the installed package with main's (HEAD's) fault.cuh and direct.cuh, for A/B in one call."""
import os, shutil, dream
site = os.path.dirname(os.path.dirname(dream.__file__))
out = "/tmp/v_main"
shutil.rmtree(out, ignore_errors=True)
shutil.copytree(os.path.join(site, "dream"), os.path.join(out, "dream"))
here = os.path.dirname(os.path.abspath(__file__))
for f in ("fault.cuh", "direct.cuh", "sync.cuh"):
    shutil.copy(os.path.join(here, "main_hdr", f), os.path.join(out, "dream/cuda/include/dream", f))
print(out)
