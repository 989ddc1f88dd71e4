"""Session 47: pytest with the kernels compiled from the header directory
argv[1] (a variant, e.g. one wrong on purpose), the rest of argv to pytest."""
import sys
from pathlib import Path

import pytest

import dream.runtime.compile as C

C.INCLUDE_DIR = Path(sys.argv[1]).resolve()
sys.exit(pytest.main(sys.argv[2:]))
