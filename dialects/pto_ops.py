"""Operations of the `pto` dialect.

Every op is a written-out class; what the analyses need to know about it (its core affinity, its role in the pipe
protocol, whether its result is a view, ...) are xDSL traits from `pto_traits.py`, asked with `op.has_trait(T)` /
`op.get_trait(T)`.  Op parameters are inherent *attributes* (not properties), so the generic form reads
`{split = 0 : i64}`.  Offsets are mixed static/dynamic lists as in `tensor.extract_slice`: the static values
are in `static_offsets` (dynamic entries hold `DYNAMIC`), the dynamic ones are `offsets` operands.

Side effects drive generic DCE: pure tile ops carry `Pure`, `load` only reads (`MemoryReadEffect`), and store,
transfer (tpush/tpop/tfree) and setup ops declare no effect trait, i.e. unknown effects, so nothing removes them.

The ops are defined in one module per family, beside the families beyond the contract (`pto_view_ops.py`,
`pto_comm_ops.py`, `pto_mx_ops.py`); every one of them imports its shared pieces from `pto_op_base.py`:

    pto_op_base.py          helpers, mixed index lists, the offset-addressed syntax, `_UnaryTileOp`
    pto_tile_ops.py         GM tensors, load / store, move and views, the tile generators
    pto_matmul_ops.py       the cube matmuls
    pto_elementwise_ops.py  elementwise vector ops and cast
    pto_rowcol_ops.py       row / col reductions and expands
    pto_split_ops.py        the lane id, aiv_shard / aic_gather, split_aiv_scope / yield
    pto_pipe_ops.py         tpush / tpop / tfree and the pipe setup

This module is the one place to import them from: it re-exports every public name of those modules and builds
`ALL_OPS` (the contract's ops, in registration order) and the op families derived from the traits.
"""

from __future__ import annotations

from xdsl.ir import Operation

from .pto_elementwise_ops import *  # noqa: F403
from .pto_elementwise_ops import ELEMENTWISE_OPS
from .pto_matmul_ops import *  # noqa: F403
from .pto_matmul_ops import MATMUL_OPS
from .pto_op_base import *  # noqa: F403
from .pto_pipe_ops import *  # noqa: F403
from .pto_pipe_ops import PIPE_OPS
from .pto_rowcol_ops import *  # noqa: F403
from .pto_rowcol_ops import ROW_COL_OPS
from .pto_split_ops import *  # noqa: F403
from .pto_split_ops import SPLIT_OPS
from .pto_tile_ops import *  # noqa: F403
from .pto_tile_ops import TILE_OPS
from .pto_traits import PipeDirection, PipeFree, PipeInit, PipePop, PipePush, PipeSetup, PipeTransfer, SlotView, TileGenerator

ALL_OPS: list[type[Operation]] = [*TILE_OPS, *MATMUL_OPS, *ELEMENTWISE_OPS, *ROW_COL_OPS, *SPLIT_OPS, *PIPE_OPS]
"""The contract's ops, in the order the dialect registers them."""


def _with_trait(trait: type) -> tuple[type[Operation], ...]:
    """The op classes of this dialect that carry `trait` (in `ALL_OPS` order)."""
    return tuple(cls for cls in ALL_OPS if cls.has_trait(trait))  # type: ignore[attr-defined]


# Op families, each defined once.  Those that a trait describes are derived from it (MATMUL_OPS, BINARY_OPS,
# SCALAR_OPS, UNARY_OPS, REDUCE_OPS and EXPAND_OPS are listed in their family modules).
TPUSH_OPS = _with_trait(PipePush)
TPOP_OPS = _with_trait(PipePop)
TFREE_OPS = _with_trait(PipeFree)
TRANSFER_OPS = TPUSH_OPS + TPOP_OPS
"""The ops that move a tile through a pipe (tpush and tpop; tfree only releases a slot)."""
SETUP_OPS = _with_trait(PipeSetup)
INIT_OPS = _with_trait(PipeInit)
VIEW_OPS = _with_trait(SlotView)
GENERATOR_OPS = _with_trait(TileGenerator)


def pipe_op(trait: type[PipeTransfer], direction: PipeDirection) -> type[Operation]:
    """The op class that does `trait` (`PipePush`, `PipePop` or `PipeFree`) on a pipe of `direction`: derived from
    the traits, so the pairing of a tpop with its tfree (same direction) is stated once, on the op classes."""
    for cls in _with_trait(trait):
        t = cls.get_trait(trait)  # type: ignore[attr-defined]
        if type(t) is trait and t.direction is direction:
            return cls
    raise KeyError(f"no {trait.__name__} op for {direction}")


TFREE_FOR_TPOP: dict[type[Operation], type[Operation]] = {
    pop: pipe_op(PipeFree, pop.get_trait(PipePop).direction) for pop in TPOP_OPS  # type: ignore[attr-defined]
}
"""The tfree that releases the slot of each tpop (the one of the same pipe direction)."""
