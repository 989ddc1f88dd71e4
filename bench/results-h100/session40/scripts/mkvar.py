"""/tmp/v_NAME: a copy of the package at FROM (a folder holding dream/; default: the installed one) with the
headers of .b40/HDR copied in, for A/B in one call."""
import os, shutil, sys
name, hdr = sys.argv[1], sys.argv[2]
src = sys.argv[3] if len(sys.argv) > 3 else None
if src is None:
    import dream
    src = os.path.dirname(os.path.dirname(dream.__file__))
out = f"/tmp/v_{name}"
shutil.rmtree(out, ignore_errors=True)
shutil.copytree(os.path.join(src, "dream"), os.path.join(out, "dream"))
here = os.path.dirname(os.path.abspath(__file__))
for f in os.listdir(os.path.join(here, hdr)):
    shutil.copy(os.path.join(here, hdr, f), os.path.join(out, "dream/cuda/include/dream", f))
print(out)
