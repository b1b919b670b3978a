"""Idempotence check for lit: read `pypto-opt --expand-mixed-kernel` output (chunks separated by `// -----`) on
stdin, run the MixedKernelExpanded verifier and ExpandMixedKernel again on each chunk, and fail (exit 1, with
a diff) if the printed result differs from the input.  Works through a pipe, so concurrent lit runs sharing
an output directory cannot clobber each other's temporary files."""

import difflib
import sys

from pypto_mlir import make_context, parse_module, print_module, verify_module
from pypto_mlir.passes.expand_mixed_kernel.pass_ import ExpandMixedKernelPass
from pypto_mlir.pipeline import with_default_models
from pypto_mlir.passes.expand_mixed_kernel.verifier import verify_mixed_kernel_expanded

text = sys.stdin.read()
if not text.strip():
    sys.exit("expand_again: empty input (did the first expansion fail?)")
failed = False
for i, chunk in enumerate(text.split("// -----\n")):
    m = parse_module(chunk, f"<chunk {i}>")
    verify_mixed_kernel_expanded(m)
    with_default_models(ExpandMixedKernelPass()).apply(make_context(), m)
    verify_module(m)
    again = print_module(m)
    if again != chunk:
        failed = True
        sys.stderr.writelines(difflib.unified_diff(chunk.splitlines(True), again.splitlines(True), "first", "second"))
print(f"expand_again: {i + 1} chunk(s) unchanged" if not failed else "expand_again: CHANGED")
sys.exit(1 if failed else 0)
