"""Runs `dream bench` argv[2:] with read-ahead depth capped at argv[1]."""
import sys
import dream.runtime.abi as abi
abi.AHEAD_MAX = int(sys.argv[1])
from dream.bench.cli import main
sys.exit(main(sys.argv[2:]))
