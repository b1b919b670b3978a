"""`python -m pypto_mlir [pypto-opt options]`: the `pypto-opt` driver (`python -m pypto_mlir.tools.pypto_run`
runs `pypto-run`)."""

import sys

from pypto_mlir.tools.pypto_opt import main

sys.exit(main())
