"""Automatic pipe setup and dual AIV dispatch (reference §4.1 and §6 "Dual-AIV"; seed steps 11-12).

`build_pipe_setup` prepends the frontend pipe setup to an expanded AIC/AIV pair whose bodies use cross-core
tile ops and carry no setup yet:

    AIC:  [%<f>_v2c_slot_buffer = reserve_buffer]          if V2C
          [%<f>_c2v_slot_buffer_import = import_peer_buffer] if C2V
          [%c0_i32 = arith.constant 0 : i32]                 if one direction is inactive
          pto.aic_initialize_pipe %c2v, %v2c {dir_mask, slot_size, slot_num[, local_slot_num]}
    AIV:  (after a leading `pto.get_subblock_idx`)
          [%<f>_v2c_slot_buffer_import = import_peer_buffer] if V2C
          [%<f>_c2v_slot_buffer = reserve_buffer]            if C2V
          [%c0_i32 = arith.constant 0 : i32]
          pto.aiv_initialize_pipe %c2v, %v2c {...}

`slot_size` is the largest tile (bytes) any tpush sends or tpop receives on either side in either direction;
`slot_num` is the function's `pto.slot_num`, else the default 2 or, under `ring-depth=auto`, the most popped
slots a side holds at once when that is more (`ring_slot_num`; always emitted); a reserve holds
`slot_size x (pto.local_slot_num or slot_num)` bytes at `base = -1` (auto).
"""

from __future__ import annotations

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Operation, SSAValue

from pypto_mlir.diagnostics import PtoError
from pypto_mlir.dialects.pto_traits import CoreSide, PipeDirection
from pypto_mlir.dialects.pto_ops import (
    AicInitializePipeOp,
    AivInitializePipeOp,
    GetSubblockIdxOp,
    ImportPeerBufferOp,
    ReserveBufferOp,
    implicit_slot_num,
)

from pypto_mlir.dialects.pto_types import FuncFlag, FuncInt, int_attr_of, set_flag

from ..analysis.slots import most_held
from ..common import split_mode, with_loc
from .phase import half_name
from .pipe_metadata import AUTO_BASE, DEFAULT_SLOT_NUM, collect_pipe_metadata, set_name_hint, side_of
from .tfree import check_local_depth


def pipe_depths(original: func.FuncOp, target: str, name: str) -> tuple[int, int | None]:
    """(`slot_num`, `local_slot_num` or None) for the automatic pipe of the kernel `@name`, read from `original`
    (the mixed kernel, or one of its halves: they keep its attributes); rejects what the target cannot do."""
    slot_num = int_attr_of(original, FuncInt.SLOT_NUM)
    if slot_num is None:
        slot_num = DEFAULT_SLOT_NUM
    elif slot_num <= 0:
        raise PtoError(f"'pto.slot_num' of @{name} must be a positive integer, got {slot_num}", op=original)
    local = int_attr_of(original, FuncInt.LOCAL_SLOT_NUM)
    if local is None:
        return slot_num, None
    if target == "a5":
        raise PtoError(
            f"'pto.local_slot_num' on @{name} is not supported on a5 (the a5 pipe lowering has no local consumer "
            f"depth, even one equal to slot_num); remove it — it is an a2a3-only option",
            op=original,
        )
    if local <= 0:
        raise PtoError(f"'pto.local_slot_num' of @{name} must be a positive integer, got {local}", op=original)
    if local > slot_num:
        raise PtoError(
            f"'pto.local_slot_num' of @{name} is {local}, more than its slot_num {slot_num}; the local consumer "
            f"depth must be at most the ring depth: lower pto.local_slot_num or raise pto.slot_num",
            op=original,
        )
    return slot_num, local


def slots_needed(aic: func.FuncOp, aiv: func.FuncOp) -> int:
    """The most popped slots of the pipe either half holds at once: the least ring depth the pair runs at."""
    return max(most_held(f, side_of(core).tpop, side_of(core).tfree) for f, core in ((aic, CoreSide.AIC), (aiv, CoreSide.AIV)))


def refuse_beyond_default(aic: func.FuncOp, aiv: func.FuncOp, name: str, need: int) -> None:
    """`ring-depth=fixed` (the reference's depth 2 for a kernel that sets no pto.slot_num): reject a pair that
    holds more popped slots at once than 2, at the pop that goes over."""
    setting = f"the default slot_num, @{name} sets no pto.slot_num"
    note = (
        f"; ring-depth=fixed keeps the reference's depth {DEFAULT_SLOT_NUM} (with ring-depth=auto the pass gives "
        f"@{name} the {need} slots it needs)"
    )
    for f, core in ((aic, CoreSide.AIC), (aiv, CoreSide.AIV)):
        check_local_depth(f, core, DEFAULT_SLOT_NUM, setting, ring=True, note=note)


def ring_slot_num(
    aic: func.FuncOp, aiv: func.FuncOp, name: str, original: func.FuncOp, mask: int, slot_num: int, ring_depth: str
) -> int:
    """The ring depth of the pair's setup when no `pto.local_slot_num` is given (beyond the reference: a side that
    holds more popped tiles than the ring has slots hangs the device):

    - `pto.slot_num` given: the author's depth is a contract; a pair that holds more is rejected, saying how many
      slots it needs;
    - none given, `ring-depth=fixed`: the reference's 2; a pair that holds more is rejected (`refuse_beyond_default`);
    - none given, `ring-depth=auto`: the most slots the pair holds at once (at least 2: `choose-ring-depth` starts
      its candidates there), up to PTOAS's implicit depth of the pipe (8 for one direction, 4 for both); a pair
      that holds more is rejected at the pop that goes over."""
    need = slots_needed(aic, aiv)
    if int_attr_of(original, FuncInt.SLOT_NUM) is not None:
        setting = f"pto.slot_num = {slot_num} on @{name}"
        fix = f"@{name} needs {need} slots: raise pto.slot_num to {need}, or release a slot (use the held tiles) before this pop"
        for f, core in ((aic, CoreSide.AIC), (aiv, CoreSide.AIV)):
            check_local_depth(f, core, slot_num, setting, ring=True, fix=fix)
        return slot_num
    if ring_depth == "fixed":
        refuse_beyond_default(aic, aiv, name, need)
        return slot_num
    limit = implicit_slot_num(mask)
    both = mask == PipeDirection.C2V.bit | PipeDirection.V2C.bit
    setting = (
        f"the deepest ring the pass chooses when @{name} sets no pto.slot_num: PTOAS's implicit depth for a pipe "
        f"carrying {'both directions' if both else 'one direction'}"
    )
    fix = f"@{name} needs {need} slots: release a slot (use the held tiles) before this pop, or set pto.slot_num = {need}"
    for f, core in ((aic, CoreSide.AIC), (aiv, CoreSide.AIV)):
        check_local_depth(f, core, limit, setting, ring=True, fix=fix)
    return max(slot_num, need)


def _setup_due(aic: func.FuncOp, aiv: func.FuncOp) -> tuple[int, int] | None:
    """(`dir_mask`, `slot_size`) of the setup `build_pipe_setup` adds to the pair, or None when it adds none."""
    md_c, md_v = collect_pipe_metadata(aic), collect_pipe_metadata(aiv)
    if md_c.setup or md_v.setup:
        return None
    mask = md_c.dir_mask | md_v.dir_mask
    if mask == 0:
        return None
    sizes = md_c.sizes() + md_v.sizes()
    if any(s is None for s in sizes):
        return None
    return mask, max(s for s in sizes if s is not None)


def pipe_setup_due(aic: func.FuncOp, aiv: func.FuncOp) -> bool:
    """Whether `build_pipe_setup` would add a setup to the pair (it has transfers of static size, no setup)."""
    return _setup_due(aic, aiv) is not None


def build_pipe_setup(
    aic: func.FuncOp, aiv: func.FuncOp, name: str, original: func.FuncOp, target: str, ring_depth: str = "auto"
) -> None:
    """Prepend the pipe setup of the expanded pair `aic`/`aiv` of the mixed function `name` (see module doc);
    `ring_depth` is ExpandMixedKernel's option (`ring_slot_num`).

    Nothing is added when neither body has a cross-core tile op, when either body already has a setup op, or
    when a tile size is not static (the verifier then reports the unsized tile)."""
    due = _setup_due(aic, aiv)
    if due is None:
        return
    mask, slot_size = due
    slot_num, local = pipe_depths(original, target, name)
    if local is not None:
        setting = f"pto.local_slot_num = {local} on @{name}"
        check_local_depth(aic, CoreSide.AIC, local, setting)
        check_local_depth(aiv, CoreSide.AIV, local, setting)
    else:
        slot_num = ring_slot_num(aic, aiv, name, original, mask, slot_num, ring_depth)
    size = slot_size * (local if local is not None else slot_num)
    if size > 2**63 - 1:
        raise PtoError(
            f"the pipe buffer of @{name} would hold {size} bytes ({slot_size}-byte slots x "
            f"{local if local is not None else slot_num}), more than an i64 size can state; lower pto.slot_num"
            + (" or pto.local_slot_num" if local is not None else ""),
            op=original,
        )
    c2v, v2c = bool(mask & PipeDirection.C2V.bit), bool(mask & PipeDirection.V2C.bit)
    c2v_name, v2c_name = f"{name}_c2v_slot_buffer", f"{name}_v2c_slot_buffer"

    def reserve(buf: str) -> Operation:
        op = ReserveBufferOp(buf, size, AUTO_BASE)
        set_name_hint(op.results[0], buf)
        return op

    def import_(buf: str, peer: str) -> Operation:
        op = ImportPeerBufferOp(buf, peer)
        set_name_hint(op.results[0], f"{buf}_import")
        return op

    def prefix(init_cls: type, c2v_op: Operation | None, v2c_op: Operation | None, lead: list[Operation]) -> list[Operation]:
        ops = list(lead)
        zero: SSAValue | None = None
        if c2v_op is None or v2c_op is None:
            c = arith.ConstantOp(IntegerAttr(0, i32))
            c.results[0].name_hint = "c0_i32"
            ops.append(c)
            zero = c.results[0]
        c2v_val = c2v_op.results[0] if c2v_op is not None else zero
        v2c_val = v2c_op.results[0] if v2c_op is not None else zero
        assert c2v_val is not None and v2c_val is not None
        ops.append(init_cls(c2v_val, v2c_val, mask, slot_size, slot_num, local))
        return ops

    aic_reserve = reserve(v2c_name) if v2c else None
    aic_import = import_(c2v_name, half_name(name, CoreSide.AIV)) if c2v else None
    aic_ops = prefix(AicInitializePipeOp, aic_import, aic_reserve, [op for op in (aic_reserve, aic_import) if op])
    aiv_import = import_(v2c_name, half_name(name, CoreSide.AIC)) if v2c else None
    aiv_reserve = reserve(c2v_name) if c2v else None
    aiv_ops = prefix(AivInitializePipeOp, aiv_reserve, aiv_import, [op for op in (aiv_import, aiv_reserve) if op])

    _prepend(aic, aic_ops, original, after_subblock_idx=False)
    _prepend(aiv, aiv_ops, original, after_subblock_idx=True)


def _prepend(f: func.FuncOp, ops: list[Operation], original: func.FuncOp, after_subblock_idx: bool) -> None:
    block = f.body.blocks[0]
    first = block.first_op
    for op in ops:
        with_loc(op, original)
    if after_subblock_idx and isinstance(first, GetSubblockIdxOp):
        anchor = first
        for op in ops:
            block.insert_op_after(op, anchor)
            anchor = op
        return
    if first is None:
        block.add_ops(ops)
        return
    for op in ops:
        block.insert_op_before(op, first)


def stamp_dual_aiv_dispatch(aiv: func.FuncOp, original: func.FuncOp, target: str) -> None:
    """a2a3 runs a mixed kernel without a split mode on both AIV lanes: mark its AIV half `pto.dual_aiv_dispatch`.

    Only the attribute is set here; the lane-1 replay (zero valid shape, suppressed stores) is a later lowering."""
    if target != "a2a3" or split_mode(original) != "none":
        return
    set_flag(aiv, FuncFlag.DUAL_AIV_DISPATCH)
