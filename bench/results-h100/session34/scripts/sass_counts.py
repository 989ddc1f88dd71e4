import re, sys, subprocess
s = subprocess.run(["/tmp/tri/triton/backends/nvidia/bin/cuobjdump", "-sass", sys.argv[1]], capture_output=True, text=True).stdout
parts = re.split(r"\n\s*Function : ", s)
for p in parts[1:]:
    name = p.split("\n", 1)[0]
    ins = [m.group(2) for m in re.finditer(r"/\*([0-9a-f]{4})\*/\s+([^;]*);", p) if "NOP" not in m.group(2)]
    ld = sum("LDG" in i for i in ins); st = sum("STG" in i for i in ins)
    print(name, len(ins), "LDG", ld, "CONST", sum("CONSTANT" in i for i in ins), "STG", st, "BRA", sum("BRA" in i for i in ins))
