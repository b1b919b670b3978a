"""The rewrite of one loop skewed by a distance D (docs/skew-cross-core-pipeline.md *The rewrite*).

`for %k = lb to ub step s iter_args(P = p0, C = c0) { produce(k, P); consume(k, C); yield }` (P: the values the
produce part carries, C: the consume part's) becomes

    %P1 = for %k = lb to min(lb + D*s, ub) step s iter_args(P = p0) { produce(k) }            // prologue
    %P2, %C1[, %e] = for %k = lb to ub - D*s step s iter_args(P = %P1, C = c0[, %n = lb]) {  // steady
                       produce(k + D*s); consume(k); [yield ..., k + s] }
    %C2 = for %k = %e to ub step s iter_args(C = %C1) { consume(k) }                          // epilogue

The prologue runs min(D, trip) produces, the steady loop trip - D iterations (none when trip <= D), the epilogue
the last min(D, trip) consumes: every trip count works, with no divisibility rule and no remainder loop.  With
constant bounds the bounds are constants (`%e` is lb + (trip - D)*s, the steady loop is left out when it would
not run, and D is at most the trip count); with runtime bounds the steady loop counts `%e` for the epilogue.  The
loop's results are %P2 (produce-carried) and %C2 (consume-carried).  The consume part recomputes the index
arithmetic it shares with the produce part (`Cut.remat`).
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ..common import with_loc
from .parts import Cut, body_ops
from .sites import static_int, trip_count


class _Emitter:
    """Inserts ops before `anchor`, each with `anchor`'s location."""

    def __init__(self, anchor: Operation):
        self.anchor = anchor
        self.consts: dict[int, SSAValue] = {}

    def op(self, op: Operation) -> Operation:
        Rewriter.insert_op(with_loc(op, self.anchor), InsertPoint.before(self.anchor))
        return op

    def const(self, value: int) -> SSAValue:
        if value in self.consts:
            return self.consts[value]
        v = self.consts[value] = self.op(arith.ConstantOp(IntegerAttr(value, IndexType()))).results[0]
        v.name_hint = f"c{value}" if value >= 0 else f"cm{-value}"
        return v


def _clone_into(block: Block, ops: list[Operation], mapper: dict[SSAValue, SSAValue]) -> None:
    for op in ops:
        block.add_op(op.clone(value_mapper=mapper))


def _loop(lb: SSAValue, ub: SSAValue, step: SSAValue, inits: list[SSAValue], hints: list[str | None]) -> scf.ForOp:
    """An `scf.for` with an empty body whose block arguments take `hints` (the induction variable's first)."""
    block = Block(arg_types=[IndexType(), *(v.type for v in inits)])
    for arg, hint in zip(block.args, hints):
        arg.name_hint = hint
    return scf.ForOp(lb, ub, step, inits, Region(block))


def skew_loop(cut: Cut, distance: int) -> int:
    """Rewrite `cut`'s loop skewed by `distance` (module doc); returns the distance used (at most the trip count
    when it is static; 0: a loop that never runs is left as it is)."""
    loop = cut.loop
    trip = trip_count(loop)
    d = distance if trip is None else min(distance, trip)
    if d == 0:
        return 0
    ops = body_ops(loop)
    produce = [op for op in ops[: cut.cut] if op not in cut.moved]
    consume = ops[cut.cut:]
    body = loop.body.block
    iv, args = body.args[0], list(body.args[1:])
    yields = list(body.last_op.operands)  # type: ignore[union-attr]
    p_idx = list(cut.produce_args)
    c_idx = [i for i in range(len(args)) if i not in p_idx]
    inits = list(loop.iter_args)
    hint = iv.name_hint
    p_hints = [hint, *(args[i].name_hint for i in p_idx)]
    c_hints = [*(args[i].name_hint for i in c_idx)]
    emit = _Emitter(loop)
    lb, ub, step = loop.lb, loop.ub, loop.step
    s = static_int(step)
    assert s is not None
    ahead = emit.const(d * s)

    def produce_body(block: Block, k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        mapper: dict[SSAValue, SSAValue] = {iv: k, **{args[i]: v for i, v in zip(p_idx, carried)}}
        _clone_into(block, produce, mapper)
        return [mapper.get(yields[i], yields[i]) for i in p_idx]

    def consume_body(block: Block, k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        mapper: dict[SSAValue, SSAValue] = {iv: k, **{args[i]: v for i, v in zip(c_idx, carried)}}
        _clone_into(block, list(cut.remat) + consume, mapper)
        return [mapper.get(yields[i], yields[i]) for i in c_idx]

    # prologue
    if trip is None:
        start = emit.op(arith.AddiOp(lb, ahead)).results[0]
        pro_end = emit.op(arith.MinSIOp(start, ub)).results[0]
        steady_end = emit.op(arith.SubiOp(ub, ahead)).results[0]
        start.name_hint, pro_end.name_hint, steady_end.name_hint = "lb_ahead", "prologue_end", "steady_end"
    else:
        lb0 = static_int(lb)
        assert lb0 is not None
        ub0 = lb0 + trip * s  # the last iteration's end (ub itself when s divides ub - lb)

        def at(value: int) -> SSAValue:
            return lb if value == lb0 else ub if value == ub0 and static_int(ub) == ub0 else emit.const(value)

        pro_end, steady_end = at(lb0 + d * s), at(lb0 + (trip - d) * s)
    pro = _loop(lb, pro_end, step, [inits[i] for i in p_idx], p_hints)
    pb = pro.body.block
    pb.add_op(scf.YieldOp(*produce_body(pb, pb.args[0], list(pb.args[1:]))))
    emit.op(pro)
    p_res: list[SSAValue] = list(pro.results)
    c_in = [inits[i] for i in c_idx]

    # steady
    epi_start = steady_end
    if trip is None or trip > d:
        extra = [lb] if trip is None else []
        st = _loop(lb, steady_end, step, p_res + c_in + extra, [*p_hints, *c_hints, "next"])
        sb = st.body.block
        k = sb.args[0]
        k_ahead = arith.AddiOp(k, ahead)
        k_ahead.results[0].name_hint = f"{hint}_ahead" if hint else None
        sb.add_op(k_ahead)
        n_p = len(p_idx)
        p_out = produce_body(sb, k_ahead.results[0], list(sb.args[1: 1 + n_p]))
        c_out = consume_body(sb, k, list(sb.args[1 + n_p: 1 + n_p + len(c_idx)]))
        tail: list[SSAValue] = []
        if trip is None:
            nxt = arith.AddiOp(k, step)
            nxt.results[0].name_hint = "next"
            sb.add_op(nxt)
            tail = [nxt.results[0]]
        sb.add_op(scf.YieldOp(*p_out, *c_out, *tail))
        if not k_ahead.results[0].uses:
            Rewriter.erase_op(k_ahead)
        emit.op(st)
        p_res = list(st.results[:n_p])
        c_in = list(st.results[n_p: n_p + len(c_idx)])
        if trip is None:
            epi_start = st.results[-1]
            epi_start.name_hint = "epilogue_start"

    # epilogue
    epi = _loop(epi_start, ub, step, c_in, [hint, *c_hints])
    eb = epi.body.block
    eb.add_op(scf.YieldOp(*consume_body(eb, eb.args[0], list(eb.args[1:]))))
    emit.op(epi)

    results = {**dict(zip(p_idx, p_res)), **dict(zip(c_idx, epi.results))}
    for i, r in enumerate(loop.results):
        if r.name_hint and results[i].owner is not loop:
            results[i].name_hint = r.name_hint
        r.replace_all_uses_with(results[i])
    Rewriter.erase_op(loop)
    return d
