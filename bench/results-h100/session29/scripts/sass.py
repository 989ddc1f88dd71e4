"""SASS of a graph kernel's general build: its global loads by kind (session 29)."""
import subprocess, sys, collections, re
import dream.runtime.compile as c
from dream.bench.graph import KERNELS, CSR
from dream.bench.harness import DREAM_BUILD
src = DREAM_BUILD + CSR + KERNELS
for name in sys.argv[1].split(","):
    img, low = c.link_kernel(src, (name,), "sm_90", ("DREAM_BACKEND_DIRECT",))
    open(f"/tmp/{name}.cubin", "wb").write(img)
    out = subprocess.run(["cuobjdump", "-sass", "-fun", low[name], f"/tmp/{name}.cubin"], capture_output=True, text=True).stdout
    ops = collections.Counter(m.group(1) for m in re.finditer(r"\s(LDG[.\w]*|LD[.\w]*|ATOMG[.\w]*|RED[.\w]*|CCTL[.\w]*)\s", out))
    print(name, dict(ops))
