"""Memory budget: the peak of live tiles plus pipe rings per memory space of one core (the one budget analysis).

`MemoryBudget(f)` looks at one expanded half (`<f>_aic` / `<f>_aiv`) once and gives, per memory space, the
largest number of bytes live at any point (`peaks`), with the buffers live there.  What is counted:

- **Tiles.** Every op result of `!pto.tile` type with a static shape is a buffer of `tile_bytes` (shape x
  element size) in its memory space, live from its definition to its last use.
- **Aliases are one buffer.** A view (an op with the `SlotView` trait: slice, reshape, transpose_view,
  set_validshape, reinterpret_view) is its source's buffer; so is the result of an `scf.if` (what either branch
  yields), and every value of a loop-carried position of an `scf.for` / `scf.while` (the initial value, the
  region argument, the value yielded back and the loop's result: the carried buffer is updated in place).  A
  buffer lives from the first definition or use of any of its values to the last.
- **Popped slots are the ring.** A `tpop` result (and its views) lives in the pipe's reserved ring, counted
  once below, not again as a tile.  A function argument of tile type belongs to the caller (not counted).
- **Loops.** A buffer live at a loop (`scf.for` / `scf.while`) from outside -- defined before it and used in
  it, or carried by it -- is live across the whole loop body; buffers made and dead inside one iteration are
  counted where they live.
- **Branches.** An `scf.if` contributes the larger of its branches (only one runs).
- **Rings.** Each `pto.reserve_buffer` of the function (the consumer-side ring: C->V in the AIV's UB, V->C in
  the AIC's L1) is live for the whole function, `size` bytes.

Dynamic-shape tiles are not sized: they are listed in `unsized` and not counted.  Users: the `verify-budget`
pass (`passes/budget/verify_budget.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import func, scf
from xdsl.ir import Block, Operation, OpResult, SSAValue

from pypto_mlir.dialects.pto_ops import TPOP_OPS, ReserveBufferOp, SplitAivScopeOp, YieldOp, pipe_init_of
from pypto_mlir.dialects.pto_traits import CoreSide, SlotView
from pypto_mlir.dialects.pto_types import FunctionKind, TileType, kind_of, memory_capacity, tile_bytes

RING_SPACE = {side: side.ring_space for side in CoreSide}
"""Where a core's consumer-side ring lives (`CoreSide.ring_space`), by side."""


@dataclass(eq=False)
class Buffer:
    """One on-chip buffer: a tile allocation with all its aliases, or a reserved ring."""

    space: str
    bytes: int
    op: Operation
    """The op that allocates it (its first allocating definition, or the reserve_buffer)."""
    ring: bool = False
    order: int = 0
    """Program order of `op` (ties in size are listed in this order)."""

    @property
    def name(self) -> str:
        if isinstance(self.op, ReserveBufferOp):
            return f'ring "{self.op.buffer_name.data}"'  # type: ignore[attr-defined]
        res = self.op.results[0] if self.op.results else None
        hint = res.name_hint if res is not None else None
        return f"%{hint}" if hint else f"'{self.op.name}'"


@dataclass
class SpacePeak:
    """The largest live total of one memory space: its bytes, the buffers live then, the op where it occurs."""

    space: str
    bytes: int
    live: list[Buffer]
    at: Operation | None

    def largest_first(self) -> list[Buffer]:
        return sorted(self.live, key=lambda b: (-b.bytes, b.order))


def side_of(f: func.FuncOp) -> CoreSide | None:
    kind = kind_of(f)
    if kind == FunctionKind.AIC:
        return CoreSide.AIC
    if kind == FunctionKind.AIV:
        return CoreSide.AIV
    return None


class MemoryBudget:
    """Per-space peaks of one AIC or AIV function (see the module doc); computed once, on construction."""

    def __init__(self, f: func.FuncOp, side: CoreSide | None = None):
        self.function = f
        self.side = side if side is not None else side_of(f)
        self.unsized: list[Operation] = []
        self.rings: list[Buffer] = []
        self._parent: dict[SSAValue, SSAValue] = {}
        self._collect(f)
        self._buffers = self._make_buffers()
        tiles = self._peak(f.body.blocks[0], frozenset(), frozenset()) if f.body.blocks else {}
        self.peaks: dict[str, SpacePeak] = {}
        spaces = set(tiles) | {r.space for r in self.rings}
        for space in sorted(spaces):
            rings = [r for r in self.rings if r.space == space]
            t_bytes, t_live, t_at = tiles.get(space, (0, [], None))
            self.peaks[space] = SpacePeak(space, t_bytes + sum(r.bytes for r in rings), list(t_live) + rings, t_at)

    # -- alias classes -----------------------------------------------------------------------------------------
    def _find(self, v: SSAValue) -> SSAValue:
        root = v
        while self._parent.get(root, root) is not root:
            root = self._parent[root]
        while v is not root:  # path compression
            nxt = self._parent.get(v, v)
            self._parent[v] = root
            v = nxt
        return root

    def _union(self, a: SSAValue, b: SSAValue) -> None:
        if not (isinstance(a.type, TileType) and isinstance(b.type, TileType)):
            return
        ra, rb = self._find(a), self._find(b)
        if ra is not rb:
            self._parent[rb] = ra

    def _collect(self, f: func.FuncOp) -> None:
        self._tiles: list[SSAValue] = []
        self._order: dict[Operation, int] = {}
        for op in f.walk():
            if isinstance(op, ReserveBufferOp) and self.side is not None:
                size = op.ring_bytes
                self.rings.append(Buffer(RING_SPACE[self.side], size, op, ring=True, order=len(self._order)))
            self._order[op] = len(self._order)
            for r in op.results:
                if isinstance(r.type, TileType):
                    self._tiles.append(r)
            for region in op.regions:
                for b in region.blocks:
                    self._tiles += [a for a in b.args if isinstance(a.type, TileType)]
            if op.has_trait(SlotView) and op.results and op.operands:
                self._union(op.operands[0], op.results[0])
            elif isinstance(op, scf.IfOp):
                for region in op.regions:
                    if region.blocks:
                        for r, y in zip(op.results, _yielded(region.blocks[0])):
                            self._union(r, y)
            elif isinstance(op, scf.ForOp):
                body = op.body.blocks[0]
                ys = _yielded(body)
                for i, r in enumerate(op.results):
                    for v in (op.iter_args[i], body.args[i + 1], ys[i] if i < len(ys) else None):
                        if v is not None:
                            self._union(r, v)
            elif isinstance(op, scf.WhileOp):
                before, after = op.before_region.blocks[0], op.after_region.blocks[0]
                ys, conds = _yielded(after), _yielded(before)
                for i, a in enumerate(before.args):
                    for v in (op.arguments[i] if i < len(op.arguments) else None, ys[i] if i < len(ys) else None):
                        if v is not None:
                            self._union(a, v)
                for i, r in enumerate(op.results):
                    for v in (conds[i] if i < len(conds) else None, after.args[i] if i < len(after.args) else None):
                        if v is not None:
                            self._union(r, v)
            elif isinstance(op, SplitAivScopeOp):
                for r, y in zip(op.results, _yielded(op.body.block)):
                    self._union(r, y)

    def _make_buffers(self) -> dict[SSAValue, Buffer]:
        """The buffer of each alias class that allocates (root value -> Buffer), and each class's touches."""
        members: dict[SSAValue, list[SSAValue]] = {}
        for v in self._tiles:
            members.setdefault(self._find(v), []).append(v)
        buffers: dict[SSAValue, Buffer] = {}
        self._touches: dict[Buffer, list[Operation]] = {}
        for root, vals in members.items():
            alloc: Buffer | None = None
            for v in vals:
                if not isinstance(v, OpResult) or not _allocates(v):
                    continue
                assert isinstance(v.type, TileType)
                size = tile_bytes(v.type)
                if size is None:
                    self.unsized.append(v.op)
                    continue
                if alloc is None:
                    alloc = Buffer(v.type.space, size, v.op, order=self._order[v.op])
                elif v.type.space == alloc.space:
                    alloc.bytes = max(alloc.bytes, size)
            if alloc is None:
                continue
            buffers[root] = alloc
            touches: list[Operation] = []
            for v in vals:
                if isinstance(v, OpResult):
                    touches.append(v.op)
                touches += [u.operation for u in v.uses]
            self._touches[alloc] = touches
        return buffers

    # -- liveness ----------------------------------------------------------------------------------------------
    def _peak(self, block: Block, entry: frozenset[Buffer], exit: frozenset[Buffer]) -> dict[str, tuple[int, list[Buffer], Operation | None]]:
        """Per space: (peak bytes, buffers live then, op) inside `block`, given the buffers live at its start
        (`entry`) and end (`exit`) from outside."""
        ops = list(block.ops)
        index = {op: i for i, op in enumerate(ops)}
        seen: dict[Buffer, list[int]] = {}
        direct: dict[Buffer, bool] = {}
        for buf, touches in self._touches.items():
            for t in touches:
                a = _ancestor_in(block, t)
                if a is None:
                    continue
                seen.setdefault(buf, []).append(index[a])
                direct[buf] = direct.get(buf, False) or a is t
        spans: dict[Buffer, tuple[int, int]] = {}
        for buf in sorted(set(seen) | entry | exit, key=lambda b: b.order):
            ids = seen.get(buf, [])
            if not ids and not (buf in entry and buf in exit):
                continue  # dead in this block
            if buf not in entry and buf not in exit and not direct.get(buf) and len(set(ids)) == 1:
                continue  # lives only inside one op's regions: counted there
            lo = 0 if buf in entry else min(ids)
            hi = len(ops) - 1 if buf in exit else max(ids)
            spans[buf] = (lo, hi)
        best: dict[str, tuple[int, list[Buffer], Operation | None]] = {}

        def offer(space: str, total: int, live: list[Buffer], at: Operation | None) -> None:
            if space not in best or total > best[space][0]:
                best[space] = (total, live, at)

        for i, op in enumerate(ops):
            live = [b for b, (lo, hi) in spans.items() if lo <= i <= hi]
            blocks = [b for r in op.regions for b in r.blocks]
            if not blocks:
                for space, total, bufs in _by_space(live):
                    offer(space, total, bufs, op)
                continue
            if isinstance(op, (scf.ForOp, scf.WhileOp)):
                inside_in = inside_out = frozenset(live)
            else:
                inside_in = frozenset(b for b in live if spans[b][0] < i)
                inside_out = frozenset(b for b in live if spans[b][1] > i)
            for b in blocks:
                for space, (total, bufs, at) in self._peak(b, inside_in, inside_out).items():
                    offer(space, total, bufs, at)
            if isinstance(op, scf.IfOp) and len(blocks) == 1:  # no else: the path that skips the branch
                for space, total, bufs in _by_space([b for b in inside_in if b in inside_out]):
                    offer(space, total, bufs, op)
        return best


def _by_space(live: list[Buffer]) -> list[tuple[str, int, list[Buffer]]]:
    out: dict[str, list[Buffer]] = {}
    for b in live:
        out.setdefault(b.space, []).append(b)
    return [(s, sum(b.bytes for b in bs), bs) for s, bs in out.items()]


def _allocates(v: OpResult) -> bool:
    """Whether a tile result is a new buffer (not a view, a popped slot, or a control-flow result)."""
    op = v.op
    return not (
        op.has_trait(SlotView)
        or isinstance(op, TPOP_OPS)
        or isinstance(op, (scf.IfOp, scf.ForOp, scf.WhileOp, SplitAivScopeOp))
    )


def _yielded(block: Block) -> list[SSAValue]:
    term = block.last_op
    if isinstance(term, (scf.YieldOp, YieldOp)):
        return list(term.operands)
    if isinstance(term, scf.ConditionOp):
        return list(term.args)
    return []


def _ancestor_in(block: Block, op: Operation) -> Operation | None:
    """`op` or its ancestor whose block is `block` (None when `op` is not inside `block`)."""
    cur: Operation | None = op
    while cur is not None:
        if cur.parent_block() is block:
            return cur
        cur = cur.parent_op()
    return None


__all__ = ["Buffer", "MemoryBudget", "RING_SPACE", "SpacePeak", "side_of"]


def _ring_room(f: func.FuncOp, side: CoreSide, target: str) -> tuple[int | None, int]:
    """(bytes the ring's space of `f`'s core has left beside its live tiles at their peak, or None when the
    space has no stated capacity; how many rings `f` reserves there)."""
    budget = MemoryBudget(f, side)
    space = RING_SPACE[side]
    peak = budget.peaks.get(space)
    rings = sum(b.bytes for b in budget.rings)
    capacity = memory_capacity(target, space)
    if capacity is None:
        return None, len(budget.rings)
    return capacity - ((peak.bytes if peak is not None else 0) - rings), len(budget.rings)


def ring_rooms(aic: func.FuncOp, aiv: func.FuncOp, target: str) -> list[tuple[CoreSide, int | None, int]]:
    """Per core of an expanded pair: (its side, the bytes its ring space has left beside its live tiles at their
    peak or None when the space has no stated capacity, how many rings it reserves there)."""
    return [(CoreSide.AIC, *_ring_room(aic, CoreSide.AIC, target)), (CoreSide.AIV, *_ring_room(aiv, CoreSide.AIV, target))]


def depth_fits(aic: func.FuncOp, aiv: func.FuncOp, target: str) -> Callable[[int], bool]:
    """Whether both cores of an expanded pair hold its pipe's rings at a depth beside their live tiles at their
    peak, as a test of the depth (each core's room is computed once; the ring depth choice of ExpandMixedKernel
    and the skew pass ask it)."""
    init = pipe_init_of(aic)
    assert init is not None
    slot = init.slot_bytes
    rooms = ring_rooms(aic, aiv, target)

    def fits(d: int) -> bool:
        return all(room is None or rings == 0 or slot * d * rings <= room for _, room, rings in rooms)

    return fits
