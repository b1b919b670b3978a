"""The MixedKernelExpanded verifier (issue 5; reference §7.1).  Placeholder."""

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ..common import not_implemented


def verify_mixed_kernel_expanded(module: ModuleOp) -> None:
    return None  # TODO(issue 5)


class VerifyMixedKernelExpandedPass(ModulePass):
    name = "verify-mixed-kernel-expanded"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise not_implemented(self.name, op)
