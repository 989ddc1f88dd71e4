"""Variant packages for A/B in one call: a copy of the installed package with some headers swapped.
mkvar.py OUT HDRDIR [files...]: OUT/dream = installed dream, with HDRDIR/<f> copied over its include/dream/<f>."""
import os, shutil, sys, dream
site = os.path.dirname(os.path.dirname(dream.__file__))
out, hdr, files = sys.argv[1], sys.argv[2], sys.argv[3:]
shutil.rmtree(out, ignore_errors=True)
shutil.copytree(os.path.join(site, "dream"), os.path.join(out, "dream"))
for f in files:
    shutil.copy(os.path.join(hdr, f), os.path.join(out, "dream/cuda/include/dream", f))
print(out, files)
