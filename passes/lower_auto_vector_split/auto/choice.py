"""The choices LowerAutoVectorSplit makes by the timing model: which axis a `#pto.split<auto>` kernel is split on,
and whether a split that needs extra cross-lane work pays (issue 43, parts 3 and 4).

The pass lowers the kernel once per candidate axis and asks a `SplitCostModel` it is handed (this module imports
neither the interpreter nor the timing model; the drivers hand `pypto_mlir.pipeline.DefaultSplitCostModel`, which
expands the kernel with ExpandMixedKernel and times its Group's run) for the modelled makespan of each form.  The
rules, each in one function here:

- `choose_axis`: the axis that splits; where both do, the one with the smaller modelled makespan, `up_down` on a
  tie; where the model cannot time the kernel (a scalar parameter, a failing run), the axis with fewer cross-lane
  combines, `up_down` on a tie (an `up_down` lane half of a row-major tensor is one contiguous block of GM, a
  `left_right` half is a strided one).
- `split_pays`: a split that needs extra cross-lane work (`SplitLowering.cross_lane_combines` > 0: workspace round
  trips that combine the lanes' partial results; or `SplitLowering.gm_lane_parts` > 0: a whole value's lane part
  through a workspace, `patterns/gm_lane_part.py`) is kept only when its modelled makespan is not above the unsplit
  form's (a tie keeps the split); when the model cannot time either form, the split is kept.  The pass asks only
  under the default policy `split-policy=pays` and `fallback=unsplit`: under `fallback=error` the split is a
  contract and `split-policy=always` splits whatever it costs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from xdsl.dialects.builtin import ModuleOp

from pypto_mlir.dialects.pto_lanes import DATA_PARALLEL_MODES

SPLIT_POLICIES = ("pays", "always")
"""The `split-policy` option: `pays` (a split with extra cross-lane work is kept only when the model says it is
not slower than the unsplit kernel) or `always` (split whenever the rules allow)."""

DEFAULT_AXIS = "up_down"
"""The axis an `auto` kernel gets when both split and the model ties or cannot tell them apart."""


class SplitCostModel(Protocol):
    """What the split choices ask of a timing model."""

    def kernel_makespan(self, module: ModuleOp, kernel: str) -> int | str:
        """The modelled makespan of the mixed kernel `@kernel` of `module` (lowered by this pass, or unsplit) once
        ExpandMixedKernel has expanded it, or why it cannot be timed (a sentence for the report)."""
        ...


class MissingSplitCostModel(RuntimeError):
    """A split choice needed the timing model but no model was handed to the pass (a caller's mistake, not the
    input's: run the pass through `pypto_mlir.pipeline.run_pipeline`, or give it one with `with_split_model`)."""


def missing_model(kernel: str, what: str) -> MissingSplitCostModel:
    return MissingSplitCostModel(
        f"lower-auto-vector-split: {what} of @{kernel} is chosen by the timing model, but no split cost model was "
        "handed to the pass; run it through pypto_mlir.pipeline.run_pipeline, or give it one with "
        ".with_split_model(pypto_mlir.pipeline.DefaultSplitCostModel())"
    )


@dataclass(frozen=True)
class AxisChoice:
    axis: str
    why: str
    makespans: dict[str, int | str] = field(default_factory=dict)
    """Per axis that splits, its modelled makespan (or why it could not be timed); empty when only one splits."""


def choose_axis(combines: dict[str, int], timed: dict[str, int | str]) -> AxisChoice:
    """The axis of an `auto` kernel among those that split (`combines`: axis -> its cross-lane combines, at least
    one axis), given their modelled makespans `timed` (needed only when more than one splits)."""
    axes = [a for a in DATA_PARALLEL_MODES if a in combines]
    if len(axes) == 1:
        other = next(a for a in DATA_PARALLEL_MODES if a != axes[0])
        return AxisChoice(axes[0], f"the only axis that splits ({other} does not)")
    spans = {a: timed[a] for a in axes}
    if all(isinstance(m, int) for m in spans.values()):
        best = min(spans.values())  # type: ignore[type-var]
        winners = [a for a in axes if spans[a] == best]
        figures = ", ".join(f"{a} {spans[a]}" for a in axes)
        if len(winners) > 1:
            why = f"the modelled makespans tie ({figures} cycles): {DEFAULT_AXIS}, the default"
            return AxisChoice(DEFAULT_AXIS, why, spans)
        return AxisChoice(winners[0], f"the smaller modelled makespan ({figures} cycles)", spans)
    reason = next(m for m in spans.values() if isinstance(m, str))
    fewest = min(combines[a] for a in axes)
    axis = DEFAULT_AXIS if combines[DEFAULT_AXIS] == fewest else next(a for a in axes if combines[a] == fewest)
    why = (
        f"both axes split and the model cannot time the kernel ({reason}): the axis with fewer cross-lane combines, "
        f"{DEFAULT_AXIS} when they tie"
    )
    return AxisChoice(axis, why, spans)


@dataclass(frozen=True)
class PaysVerdict:
    keep_split: bool
    why: str


def split_pays(
    split: int | str, unsplit: int | str, combines: int, lane_parts: int = 0, kept_whole: int = 0, one_writer: int = 0
) -> PaysVerdict:
    """Whether a split that needs extra work is kept, given the modelled makespans of the split and the unsplit
    forms (a string: why that form could not be timed).  The extra work: `combines` cross-lane combines,
    `lane_parts` lane parts through a GM workspace (`patterns/gm_lane_part.py`), `kept_whole` values computed whole
    on both lanes where per-lane values met another axis or width (`auto/whole_retry.py`), `one_writer` stores made
    by lane 0 alone between lane barriers (`store_by_lane0_between_barriers`)."""
    def _n(k: int, what: str, tail: str = "") -> str:
        return f"{k} {what}{'s' if k != 1 else ''}{tail}"

    needs = [_n(combines, "cross-lane combine")] if combines or not (lane_parts or kept_whole or one_writer) else []
    if lane_parts:
        needs.append(_n(lane_parts, "lane part", " through GM"))
    if kept_whole:
        needs.append(_n(kept_whole, "value", " computed whole on both lanes"))
    if one_writer:
        needs.append(_n(one_writer, "store", " by one lane between lane barriers"))
    work = f"the split needs {' and '.join(needs)}"
    if isinstance(split, str) or isinstance(unsplit, str):
        reason = split if isinstance(split, str) else unsplit
        return PaysVerdict(True, f"{work} and the model cannot time the kernel ({reason}): split")
    if unsplit < split:
        return PaysVerdict(False, f"{work} and is slower: modelled {split} cycles split, {unsplit} unsplit")
    return PaysVerdict(True, f"{work} and still pays: modelled {split} cycles split, {unsplit} unsplit")
