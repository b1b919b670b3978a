"""The kernel generator's `scf.execute_region` rule (issue 40, point 4): wrap runs of a generated kernel's ops.

`wrap_execute_regions(text)` draws how many wraps (none in about half the kernels), and for each one a block of the
kernel `@gen_incore_0` (its body, a loop or branch body, a `split_aiv_scope` body, or the body of a region an
earlier wrap made: nesting) and a run of consecutive ops of that block (never its terminator).  The run moves into
a new `scf.execute_region` at its place; the values it defines that later ops use become the region's results
(yielded in order of definition).  So any op the generator emits (boundary moves, matmuls, stores, loops, whole
`split_aiv_scope` regions) may end up in one, at any depth, and the campaign checks both passes on it by execution.

Features (the kernel's `// features:` line): `execute_region` (at least one wrap), `execute_region:nested` (a
region inside a region), `execute_region:in_control_flow` (a region inside an `scf.for` / `scf.if` /
`split_aiv_scope` body), `execute_region:results` (a region that yields values).
"""

from __future__ import annotations

from hypothesis import strategies as st
from xdsl.dialects import func, scf
from xdsl.ir import Block, Operation, Region, SSAValue

from pypto_mlir.ir import parse_module, print_module

FEATURES = ("execute_region", "execute_region:nested", "execute_region:in_control_flow", "execute_region:results")

_HEADER = "// features:"


def _blocks(kernel: func.FuncOp) -> list[Block]:
    """Every block of the kernel with at least one op before its terminator, in program order."""
    return [b for op in kernel.walk() for r in op.regions for b in r.blocks if len(b.ops) > 1]


def _used_after(ops: list[Operation]) -> list[SSAValue]:
    """The results of `ops` that an op outside them (or outside their regions) uses."""
    inside = {o for op in ops for o in op.walk()}
    return [r for op in ops for r in op.results if any(u.operation not in inside for u in r.uses)]


def wrap(ops: list[Operation]) -> scf.ExecuteRegionOp:
    """Move the consecutive ops `ops` of one block into a new `scf.execute_region` at their place."""
    block = ops[0].parent_block()
    assert block is not None
    results = _used_after(ops)
    region_op = scf.ExecuteRegionOp([r.type for r in results], Region(Block()))
    block.insert_op_before(region_op, ops[0])
    body = region_op.region.block
    for op in ops:
        op.detach()
        body.add_op(op)
    body.add_op(scf.YieldOp(*results))
    for old, new in zip(results, region_op.results):
        new.name_hint = f"{old.name_hint}r" if old.name_hint else None
        old.replace_uses_with_if(new, lambda use: not region_op.is_ancestor(use.operation))
    return region_op


def _features(op: scf.ExecuteRegionOp, kernel: func.FuncOp) -> set[str]:
    out = {"execute_region"}
    if op.results:
        out.add("execute_region:results")
    parents = []
    p = op.parent_op()
    while p is not None and p is not kernel:
        parents.append(p)
        p = p.parent_op()
    if any(isinstance(p, scf.ExecuteRegionOp) for p in parents) or any(
        isinstance(o, scf.ExecuteRegionOp) for o in op.region.walk()
    ):
        out.add("execute_region:nested")
    if any(not isinstance(p, scf.ExecuteRegionOp) for p in parents):
        out.add("execute_region:in_control_flow")
    return out


@st.composite
def wrap_execute_regions(draw, text: str) -> str:
    """`text` (a generated module) with 0 to 3 runs of its kernel's ops wrapped in `scf.execute_region`."""
    n = draw(st.sampled_from([0, 0, 0, 1, 1, 2, 3]))
    if n == 0:
        return text
    header, _, rest = text.partition("\n") if text.startswith(_HEADER) else ("", "", text)
    module = parse_module(rest, "gen.mlir")
    kernel = next(f for f in module.walk() if isinstance(f, func.FuncOp) and f.sym_name.data == "gen_incore_0")
    features: set[str] = set()
    for _ in range(n):
        blocks = _blocks(kernel)
        block = blocks[draw(st.integers(0, len(blocks) - 1))]
        ops = list(block.ops)[:-1]
        i = draw(st.integers(0, len(ops) - 1))
        j = draw(st.integers(i + 1, min(len(ops), i + 12)))
        wrap(ops[i:j])
    for op in kernel.walk():
        if isinstance(op, scf.ExecuteRegionOp):
            features |= _features(op, kernel)
    old = header[len(_HEADER):].split() if header else []
    return f"{_HEADER} {' '.join(sorted(set(old) | features))}\n{print_module(module)}"
