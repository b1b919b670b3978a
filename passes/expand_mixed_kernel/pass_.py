"""ExpandMixedKernel (placeholder until the pass lands: fails honestly instead of doing nothing)."""

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ..common import not_implemented


class ExpandMixedKernelPass(ModulePass):
    name = "expand-mixed-kernel"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise not_implemented(self.name, op)
