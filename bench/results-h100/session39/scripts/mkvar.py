"""/tmp/v_NAME: the installed package with the headers of .b39/NAME_hdr copied in, for A/B in one call."""
import os, shutil, sys, dream
name = sys.argv[1]
site = os.path.dirname(os.path.dirname(dream.__file__))
out = f"/tmp/v_{name}"
shutil.rmtree(out, ignore_errors=True)
shutil.copytree(os.path.join(site, "dream"), os.path.join(out, "dream"))
here = os.path.dirname(os.path.abspath(__file__))
for f in os.listdir(os.path.join(here, f"{name}_hdr")):
    shutil.copy(os.path.join(here, f"{name}_hdr", f), os.path.join(out, "dream/cuda/include/dream", f))
print(out)
