"""A structure-aware mutation fuzzer for pypto-mlir.

It mutates the lit inputs and examples (tokens, numbers, shapes, dtypes, memory spaces, attributes, targets, split
modes, SSA names, nesting depth, truncation, non-ASCII) and runs every mutant in-process through
parse -> verify -> print -> re-parse, then --lower-auto-vector-split and --expand-mixed-kernel (verifying after
each) -> print -> re-parse -> a second --expand-mixed-kernel, under a per-input time limit. A located `PtoError`
is a correct rejection; everything else is a finding, classified as:

- ``internal``: an exception other than `PtoError`, an "internal error" message, or an error without location;
- ``timeout``: the input took longer than the limit;
- ``fixed-point``: printed IR does not parse back to the same text;
- ``idempotence``: a second --expand-mixed-kernel changes its own output.

Each finding is shrunk to a minimal reproducer and saved (a `.mlir` file with the class and message in a header);
`python -m pypto_mlir.fuzz check FILE` runs the oracle on a file (what a lit regression test calls).

    python -m pypto_mlir.fuzz run -n 100000 --jobs 0 --seed 1 --out fuzz-findings
"""

from .oracle import Finding, check_text
from .mutate import Mutator, load_corpus
from .campaign import run_campaign

__all__ = ["Finding", "Mutator", "check_text", "load_corpus", "run_campaign"]
