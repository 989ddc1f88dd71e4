"""Runs a script with every kernel compiled whole at KR registers a thread (--maxrregcount), when KR is set."""
import os, sys, runpy
import dream
if os.environ.get("KR"):
    orig = dream.Runtime.kernel
    def kernel(self, source, name, options=()):
        return orig(self, source, name, (*options, f"--maxrregcount={os.environ['KR']}"))
    dream.Runtime.kernel = kernel
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
