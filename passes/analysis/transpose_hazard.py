"""The transpose hazard of a split: a data `pto.transpose` that moves the split axis.

Each AIV lane holds half of the split axis; a transpose that moves that axis to another dim would transpose each
lane's half on its own, so the lanes' data would land in the wrong place.  Both passes reject it with their own
message (ExpandMixedKernel for an AUTO-split kernel, reference expand-mixed-kernel §7.2; LowerAutoVectorSplit
for a data-parallel or explicit-boundary `split_aiv_scope` region, reference lower-auto-vector-split
`FindTransposeSplitHazard`); this module is the one predicate both call, and the one home of the kernel-level
check and its message (`check_kernel_transpose_hazard`: ExpandMixedKernel's §7.2 rejection of a kernel that
did not go through LowerAutoVectorSplit).  A kernel LowerAutoVectorSplit lowered (`pto.split_aiv`) is not a
hazard: that pass moves the split axis with the permutation, so each transposed value is split on its own axis,
and refuses only where values split on different axes meet (issue 43; docs/lower-auto-vector-split.md,
*Transposes*).

A transpose is a hazard on split dim `d` when
- its source has a dim `d` (rank > d),
- its permutation moves dim `d` (`axes[d] != d`; without `axes` it reverses the dims), and
- the source extent on `d` is not the constant 1 (a dynamic extent counts as a hazard).

The reference's `tile.transpose` swaps two axes given as arguments and counts "fewer than 3 arguments" or a
non-constant axis as a hazard because it cannot tell which axes move; a `pto.transpose` always states its
permutation, so "moves dim d" is exact here.  `pto.transpose_view` is a view, not a data transpose, and is not
checked (as in the reference).
"""

from __future__ import annotations

from collections.abc import Iterable
from io import StringIO

from xdsl.dialects import func
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_lanes import DATA_PARALLEL_MODES, split_dim_of
from pypto_mlir.dialects.pto_ops import TransposeOp
from pypto_mlir.dialects.pto_types import DYNAMIC, FuncFlag, TileType, has_flag, split_mode_of


def moves_split_axis(op: TransposeOp, dim: int) -> bool:
    """Whether the transpose `op` is a hazard for a split of dim `dim` (see the module docstring)."""
    src = op.src.type
    assert isinstance(src, TileType)
    if src.rank <= dim:
        return False
    if op.get_axes()[dim] == dim:
        return False  # the split axis stays in place
    return src.get_shape()[dim] != 1


def find_transpose_hazard(ops: Iterable[Operation], dim: int) -> TransposeOp | None:
    """The first transpose among `ops` that moves split dim `dim`, or None."""
    for op in ops:
        if isinstance(op, TransposeOp) and moves_split_axis(op, dim):
            return op
    return None


def check_kernel_transpose_hazard(f: func.FuncOp, pass_name: str) -> None:
    """§7.2: a split kernel that LowerAutoVectorSplit did not lower (no `pto.split_aiv`, no
    `pto.split_aiv_region_validated`) must not transpose its split axis away; the message starts with
    `pass_name`."""
    if has_flag(f, FuncFlag.SPLIT_AIV_REGION_VALIDATED) or has_flag(f, FuncFlag.SPLIT_AIV):
        return
    mode = split_mode_of(f)
    if mode not in DATA_PARALLEL_MODES:
        return
    dim = split_dim_of(mode)
    op = find_transpose_hazard(f.walk(), dim)
    if op is None:
        return
    result = f"%{op.result.name_hint}" if op.result.name_hint else "%<unnamed>"
    raise PtoError(
        f"{pass_name}: kernel '{f.sym_name.data}' requests pto.split<{mode}> but contains a pto.transpose "
        f"(result '{result}') that swaps the split axis (dim {dim}): each AIV lane's half would move to the "
        f"other dimension while the split still halves dim {dim}, so the result would have the wrong shape "
        f"and values. Either (1) drop the split — set pto.split = #pto.split<none> — or (2) eliminate this "
        f"transpose, e.g. take the column you need with a column slice of its source, {_column_slice_hint(op)}",
        op=op,
    )


def _column_slice_hint(transpose: Operation) -> str:
    """`%col = pto.slice %src[0, %j] : <src type> -> <one column of it>` for the source of `transpose`, in the
    dialect's own syntax (the diagnostic is read beside MLIR, not the Python frontend)."""
    src = transpose.operands[0]
    name = f"%{src.name_hint}" if src.name_hint else "%src"
    src_t = src.type
    if not isinstance(src_t, TileType) or src_t.get_shape()[0] == DYNAMIC:
        return f"%col = pto.slice {name}[0, %j] (one column wide)"
    col_t = src_t.with_(shape=[src_t.get_shape()[0], 1], reset_view=True)
    return f"%col = pto.slice {name}[0, %j] : {_type_text(src_t)} -> {_type_text(col_t)}"


def _type_text(t: Attribute) -> str:
    out = StringIO()
    Printer(stream=out).print_attribute(t)
    return out.getvalue()


__all__ = ["check_kernel_transpose_hazard", "find_transpose_hazard", "moves_split_axis"]
