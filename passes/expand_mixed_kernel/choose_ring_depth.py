"""`choose-ring-depth`: the last phase of ExpandMixedKernel; deepens a ring where the timing model shows a gain.

Expects: no incore kernel is left, and each pair `split-mixed-kernel` made (`pto.protocol_pending`) that has
cross-core transfers has its pipe setup (`setup-pipes` ran); otherwise a located error names the pass to run
first.  In the pipeline it runs after `verify-mixed-kernel-expanded`, so the kernels it times are valid.

Guarantees: with `ring-depth=auto` (the default), each pending pair whose kernel sets neither `pto.slot_num`
nor `pto.local_slot_num` has the shallowest depth, from the default 2 (or the more slots a side holds at once,
which `setup-pipes` set) up to PTOAS's implicit depth and within the memory budget, that reaches the best
modelled makespan over the stated values of its scalar parameters (`ring_depth.py`, `scalar_values.py`; the
`slot_num` of both initializers and the size of the reserves change, nothing else); a kernel that needs more
slots than fit its memories is rejected.  `ring-depth=fixed` keeps the default, as the reference, and rejects a
kernel that holds more popped slots at once than that.  Every choice is a "ring_depth" entry of the decision log.  Then `pto.protocol_pending` is removed
from every function: the protocol of the pairs is complete.  Then, with `skew=auto` (the default), each of those
pairs with a loop whose cores exchange tiles both ways gets the skew (`skew-cross-core-pipeline`, distance D) and
the ring depth the model finds best together, or stays as it is where no skew shortens the modelled makespan
(`skew_choice.py`; a "skew" entry of the decision log); `skew=off` skews nothing.  Running it again changes
nothing (the pending flags are gone, so no pair is considered twice).

The timing comes from a cost model the pass is handed (`RingCostModel`), and the skew from a rewriter it is handed
(`SkewRewriter`); `run_pipeline` hands the default ones (`pypto_mlir.interpreter.ring_cost` through
`pipeline.DefaultRingCostModel`, the skew pass through `pipeline.DefaultSkewRewriter`), so this pass imports
neither the interpreter nor another pass.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import ModuleOp

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_ops import pipe_init_of
from pypto_mlir.dialects.pto_types import FuncInt, int_attr_of

from .phase import ExpansionPhase, ExpansionState, clear_pending, pending_pairs, require_split
from .pipe_metadata import DEFAULT_SLOT_NUM
from .pipe_setup import pipe_setup_due, refuse_beyond_default, slots_needed
from .ring_depth import RING_DEPTHS, RingCostModel, choose_ring_depths
from .skew_choice import SKEW_MODES, SkewRewriter, choose_skews


def check_ring_depth_option(value: str, pass_name: str) -> None:
    if value not in RING_DEPTHS:
        raise ValueError(
            f"{pass_name}: unknown ring-depth '{value}'; expected one of {', '.join(RING_DEPTHS)} "
            "(auto: the timing model chooses the depth of a kernel that sets no pto.slot_num; fixed: always 2)"
        )


def check_skew_option(value: str, pass_name: str) -> None:
    if value not in SKEW_MODES:
        raise ValueError(
            f"{pass_name}: unknown skew '{value}'; expected one of {', '.join(SKEW_MODES)} "
            "(auto: skew a round-trip loop where the timing model shows a gain; off: never skew)"
        )


@dataclass(frozen=True)
class CostModelUser:
    """A pass that takes a `RingCostModel` and a `SkewRewriter`. Neither is a field (the pass's spec, its options
    and their messages are the dataclass fields): the class says None, and `with_cost_model` /
    `with_skew_rewriter` give a copy its own."""

    cost_model: ClassVar[RingCostModel | None] = None
    skew_rewriter: ClassVar[SkewRewriter | None] = None

    def _with(self, field: str, value: object):
        copy = dataclasses.replace(self)
        for name in ("cost_model", "skew_rewriter"):
            object.__setattr__(copy, name, getattr(self, name))
        object.__setattr__(copy, field, value)
        return copy

    def with_cost_model(self, model: RingCostModel | None):
        """A copy of this pass that times with `model`."""
        return self._with("cost_model", model)

    def with_skew_rewriter(self, rewriter: SkewRewriter | None):
        """A copy of this pass that skews loops with `rewriter`."""
        return self._with("skew_rewriter", rewriter)


@dataclass(frozen=True)
class ChooseRingDepthPass(CostModelUser, ExpansionPhase):
    """`--choose-ring-depth` (module doc)."""

    name = "choose-ring-depth"

    ring_depth: str = "auto"
    """`auto`: the timing model chooses; `fixed`: the default depth 2."""

    skew: str = "auto"
    """`auto`: skew a round-trip loop where the timing model shows a gain; `off`: never."""

    def __post_init__(self) -> None:
        check_ring_depth_option(self.ring_depth, self.name)
        check_skew_option(self.skew, self.name)

    def run(self, module: ModuleOp, state: ExpansionState) -> None:
        require_split(module, self.name)
        pairs = pending_pairs(module)
        if not state.trusted:
            for kernel, aic, aiv in pairs:
                if pipe_setup_due(aic, aiv):
                    raise PtoError(
                        f"{self.name}: the kernels '@{aic.sym_name.data}' and '@{aiv.sym_name.data}' exchange tiles "
                        f"but have no pipe setup yet, and this phase chooses the depth of that pipe; run "
                        f"--setup-pipes before --{self.name}",
                        op=aic,
                    )
        auto = [
            kernel for kernel, aic, _ in pairs
            if int_attr_of(aic, FuncInt.SLOT_NUM) is None and int_attr_of(aic, FuncInt.LOCAL_SLOT_NUM) is None
        ]
        kept: dict[str, int | None] = {}
        if self.ring_depth == "auto" and auto:
            kept = choose_ring_depths(module, auto, state.target, self.cost_model)
        elif self.ring_depth == "fixed":
            # A ring setup-pipes deepened for what a side holds (run without ring-depth=fixed) cannot go back to 2.
            by_kernel = {kernel: (aic, aiv) for kernel, aic, aiv in pairs}
            for kernel in auto:
                aic, aiv = by_kernel[kernel]
                init = pipe_init_of(aic)
                if init is not None and (init.explicit_depth or DEFAULT_SLOT_NUM) > DEFAULT_SLOT_NUM:
                    refuse_beyond_default(aic, aiv, kernel, slots_needed(aic, aiv))
        clear_pending(module)
        if self.skew == "auto":
            kernels = [kernel for kernel, _, _ in pairs]
            choose_skews(module, kernels, state.target, kept, self.ring_depth == "fixed", self.cost_model,
                         self.skew_rewriter)
