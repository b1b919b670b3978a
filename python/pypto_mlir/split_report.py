"""The split report: per mixed kernel, what LowerAutoVectorSplit and ExpandMixedKernel decided and why.

`pypto-opt --split-report=FILE` writes it (JSON when FILE ends in `.json`, else the text form; `-` prints the
text form on standard error). It is built from three sights of the module — the input (before the first pass),
the mixed kernels as ExpandMixedKernel receives them (after LowerAutoVectorSplit), the output — and from the
passes' decision log (`passes/decisions.py`), for what the IR does not spell by itself (why a kernel fell back,
which hazards a fence closes). Per kernel:

- `lane_split`: the LowerAutoVectorSplit decision (`lane-split`, `fallback-unsplit` with the op and reason,
  `kept-unsplit` (a split with cross-lane work that the timing model finds slower), `left-alone` with the reason,
  `regions`) and the lane stride; for `#pto.split<auto>` the `axis` chosen, why, each axis's modelled makespan
  and why a refused axis does not split (`refused`); for a split with reductions over the split axis,
  `cross_lane_combines` (the number of GM workspace round trips the split added, one per such reduction and run
  of it; absent when 0), `combines` (each one's op, combine, method, workspace, barriers), `gm_lane_parts` (each
  whole value whose lane part the split takes through a GM workspace: value, split dim, workspace, in a loop;
  absent when none) and, when compared,
  `pays` (the modelled makespans split and unsplit, and the verdict); `kept_whole` (how many values the split
  computes whole on both lanes where per-lane values met another axis or width; absent when 0);
- `values`: the lane status of each named value of the lowered kernel: `halved` (a vector tile cut to one lane's
  part of the split axis), `whole` (the same full vector tile on both lanes), `per lane` (a scalar or index that
  differs between the lanes: the lane id and the offsets computed from it; unnamed ones are listed by op),
  `made by the split` (a vector tile the lowering created), `cube` (a cube-side tile, never on the lanes);
- `boundaries`: each `pto.aiv_shard` / `pto.aic_gather` with its split code, lane stride, source and result
  tile (the result's shape and valid extents are what each lane receives; a widened transfer shows here);
- `fences`: each GM fence ExpandMixedKernel wrote, with its direction and each hazard it closes (kind, the two
  accesses, loop-carried or not);
- `pipes`: each pipe set up for the kernel's halves: direction, depth (`slot_num`), slot size, and the ring
  reserved per side and memory space (the C->V ring on the AIV in `vec`, the V->C ring on the AIC in `mat`),
  with the transfers that use it;
- `ring_depth`: the depth the timing model chose and the modelled cycles per candidate depth;
- `skew`: the loop the skew choice looked at, whether it was skewed, by how many iterations (D), the ring depth
  it runs at, the modelled cycles before (unskewed) and after, and every distance tried with its cycles per
  depth (or why it was not skewed);
- `result`: the functions the kernel became; `rejected`: the error, when the pipeline refused it.

The report describes decisions; it is deterministic (no addresses; the modelled cycles a choice was made by
come from the timing model's cost table, not from a clock), so golden
reports of the examples are checked in (`tests/golden/split_report/`): a change in any decision is a diff.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from io import StringIO

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.printer import Printer

from pypto_mlir.diagnostics import PtoError, location_of
from pypto_mlir.dialects.pto_ops import GetSubblockIdxOp, ReserveBufferOp
from pypto_mlir.dialects.pto_pipe_ops import _InitializePipeOp
from pypto_mlir.dialects.pto_traits import BoundaryAffinity, CoreSide, PipeDirection, PipePop, PipePush
from pypto_mlir.dialects.pto_types import FuncFlag, FunctionKind, TensorType, TileType, has_flag, kind_of, split_mode_of, target_of
from pypto_mlir.dialects.pto_lanes import DATA_PARALLEL_MODES, SPLIT_CODE_NAMES, split_dim_of
from pypto_mlir.passes.decisions import Decision, op_ref
from pypto_mlir.pipeline import PipelineHooks

REPORT_VERSION = 1

# Which ops the report describes is asked of the op classes and their traits (`dialects/pto_traits.py`), never
# of op-name tables: a boundary carries `BoundaryAffinity`, a transfer `PipePush` / `PipePop` (with its direction).
_TRANSFER_KINDS = ((PipePush, "push"), (PipePop, "pop"))


class SplitReportRecorder(PipelineHooks):
    """Pipeline hooks that keep the sights of the module the report is built from, then call `inner`."""

    def __init__(self, inner: PipelineHooks | None = None):
        self.inner = inner
        self.input: ModuleOp | None = None
        self.mixed: ModuleOp | None = None
        self.output: ModuleOp | None = None
        self.error: PtoError | None = None

    def before_pass(self, p: ModulePass, module: ModuleOp) -> None:
        if self.input is None:
            self.input = module.clone()
        if p.name in ("expand-mixed-kernel", "insert-gm-fences") and self.mixed is None:  # the pass, or its phase 1
            self.mixed = module.clone()
        if self.inner is not None:
            self.inner.before_pass(p, module)

    def after_pass(self, p: ModulePass, module: ModuleOp) -> None:
        self.output = module
        if self.inner is not None:
            self.inner.after_pass(p, module)

    def after_failure(self, p: ModulePass, module: ModuleOp, error: BaseException) -> None:
        if isinstance(error, PtoError):
            self.error = error
        if self.inner is not None:
            self.inner.after_failure(p, module, error)


def _type(t: Attribute) -> str:
    out = StringIO()
    Printer(stream=out).print_attribute(t)
    return out.getvalue()


def _functions(module: ModuleOp | None) -> dict[str, func.FuncOp]:
    if module is None:
        return {}
    return {f.sym_name.data: f for f in module.body.block.ops if isinstance(f, func.FuncOp)}


def _kernel_of(op: Operation | None) -> str | None:
    while op is not None and not isinstance(op, func.FuncOp):
        op = op.parent_op()
    if op is None:
        return None
    name = op.sym_name.data
    half = CoreSide.kernel_of_half(name)
    if half is not None and kind_of(op) in (FunctionKind.AIC, FunctionKind.AIV):
        return half[0]
    return name


def _values(f: func.FuncOp) -> Iterable[SSAValue]:
    for block_op in [f, *f.walk()]:
        for region in block_op.regions:
            for block in region.blocks:
                yield from block.args
        if block_op is not f:
            yield from block_op.results


def lane_values(before: func.FuncOp, after: func.FuncOp) -> list[dict]:
    """The lane status of each named value of the lowered kernel `after` (see the module docstring), matched to
    `before` (the kernel as written) by name and occurrence."""
    mode = split_mode_of(before)
    dim = split_dim_of(mode) if mode in DATA_PARALLEL_MODES else None
    seen_before: dict[str, list[SSAValue]] = {}
    for v in _values(before):
        if v.name_hint:
            seen_before.setdefault(v.name_hint, []).append(v)
    lane: set[SSAValue] = set()
    for op in after.walk():
        if isinstance(op, GetSubblockIdxOp) or any(o in lane for o in op.operands):
            lane.update(r for r in op.results if not isinstance(r.type, (TileType, TensorType)))
    out: list[dict] = []
    count: dict[str, int] = {}
    for v in _values(after):
        name = v.name_hint
        if name is None:
            if v in lane and isinstance(v.owner, Operation):
                out.append({"value": None, "lane": "per lane", **op_ref(v.owner)})
            continue
        i = count.get(name, 0)
        count[name] = i + 1
        old = seen_before.get(name, [])
        old_v = old[i] if i < len(old) else None
        entry: dict = {"value": f"%{name}", "type": _type(v.type)}
        if v in lane:
            entry["lane"] = "per lane"
        elif isinstance(v.type, TileType) and v.type.space != "vec":
            entry["lane"] = "cube"  # a cube-side tile: the lanes never hold it
        elif isinstance(v.type, TileType) and old_v is not None and isinstance(old_v.type, TileType):
            a, b = v.type.get_shape(), old_v.type.get_shape()
            if v.type == old_v.type:
                entry["lane"] = "whole"
            elif dim is not None and len(a) == len(b) and a[dim] < b[dim]:
                entry["lane"] = "halved"
                entry["full_type"] = _type(old_v.type)
            else:
                entry["lane"] = "changed"
                entry["full_type"] = _type(old_v.type)
        elif isinstance(v.type, TileType):
            entry["lane"] = "made by the split"
        else:
            continue  # a scalar, index or tensor the same on both lanes: nothing to say
        out.append(entry)
    return out


def boundaries(f: func.FuncOp) -> list[dict]:
    out = []
    for op in f.walk():
        if not op.has_trait(BoundaryAffinity):
            continue
        code = op.split_code  # type: ignore[attr-defined]
        stride = getattr(op, "stride", None)
        out.append({
            **op_ref(op),
            "split_code": code,
            "split_code_name": SPLIT_CODE_NAMES[code] if 0 <= code < len(SPLIT_CODE_NAMES) else None,
            "lane_stride": stride,
            "source": _type(op.operands[0].type),
            "result": _type(op.results[0].type),
        })
    return out


def pipes(aic: func.FuncOp | None, aiv: func.FuncOp | None) -> list[dict]:
    """One entry per `initialize_pipe` of the kernel's halves (the AIC's and the AIV's of one pipe are one entry,
    keyed by the pipe id), with the rings each side reserves and the transfers in each direction."""
    sides = {"aic": aic, "aiv": aiv}
    by_id: dict[int, dict] = {}
    for side, f in sides.items():
        if f is None:
            continue
        reserves = {}
        for op in f.walk():
            if isinstance(op, ReserveBufferOp):
                reserves[op.result] = op
        for op in f.walk():
            if not isinstance(op, _InitializePipeOp):
                continue
            pid = op.pipe_id
            entry = by_id.setdefault(pid, {
                "id": pid,
                "directions": [d.value for d in PipeDirection if op.directions & d.bit],
                "slot_size": op.slot_bytes,
                "slot_num": op.explicit_depth,
                "local_slot_num": op.local_depth,
                "rings": [],
            })
            for operand in op.operands:
                rb = reserves.get(operand)
                if rb is not None:
                    entry["rings"].append({
                        "name": rb.buffer_name.data,
                        "reserved_on": side,
                        "memory": CoreSide(side).ring_space,
                        "bytes": rb.ring_bytes,
                    })
    transfers: dict[str, list[dict]] = {"c2v": [], "v2c": []}
    for side, f in sides.items():
        if f is None:
            continue
        for op in f.walk():
            for trait, what in _TRANSFER_KINDS:
                t = op.get_trait(trait)
                if t is None:
                    continue
                tile = op.results[0] if what == "pop" else op.operands[0]
                transfers[t.direction.value].append({
                    "side": side, "kind": what, **op_ref(op), "tile": _type(tile.type),
                    "split_code": op.split_code,  # type: ignore[attr-defined]
                })
    out = sorted(by_id.values(), key=lambda e: e["id"])
    for entry in out:
        entry["transfers"] = {d: transfers[d] for d in entry["directions"]}
    return out


def build_report(rec: SplitReportRecorder, decisions: list[Decision], source: str) -> dict:
    """The report of one module (one `--split-input-file` chunk) from the recorder's sights and the log."""
    before = _functions(rec.input)
    mixed = _functions(rec.mixed)
    after = _functions(rec.output) if rec.error is None else {}
    target = target_of(rec.input) if rec.input is not None else None
    kernels = []
    placed_error = False
    for name, f in before.items():
        if kind_of(f) != FunctionKind.INCORE:
            continue
        entry: dict = {"kernel": name, "split": split_mode_of(f)}
        mine = [d for d in decisions if d.kernel == name]
        lavs = [d for d in mine if d.pass_name == "LowerAutoVectorSplit"]
        if lavs:
            entry["lane_split"] = {"decision": lavs[-1].kind, **lavs[-1].facts}
        lowered = mixed.get(name)
        if lowered is not None and has_flag(lowered, FuncFlag.SPLIT_AIV):
            entry["values"] = lane_values(f, lowered)
            entry["boundaries"] = boundaries(lowered)
        entry["fences"] = [d.facts for d in mine if d.kind == "fence"]
        aic, aiv = after.get(CoreSide.AIC.half_name(name)), after.get(CoreSide.AIV.half_name(name))
        if aic is not None or aiv is not None:
            entry["result"] = {"functions": [g.sym_name.data for g in (aic, aiv) if g is not None]}
            if name in after:
                entry["result"]["functions"].append(name)
            entry["pipes"] = pipes(aic, aiv)
            depth = [d for d in mine if d.kind == "ring_depth"]
            if depth:
                entry["ring_depth"] = depth[-1].facts
            skew = [d for d in mine if d.kind == "skew"]
            if skew:
                entry["skew"] = skew[-1].facts
        elif name in after:
            entry["result"] = {"functions": [name], "kind": str(kind_of(after[name]))}
        if rec.error is not None and _kernel_of(rec.error.op) == name:
            entry["rejected"] = _error(rec.error)
            placed_error = True
        kernels.append(entry)
    report: dict = {"version": REPORT_VERSION, "input": source, "target": target, "kernels": kernels}
    if rec.error is not None and not placed_error:
        report["error"] = _error(rec.error)
    return report


def _error(e: PtoError) -> dict:
    loc = e.loc if e.loc is not None else location_of(e.op)
    return {"message": e.message, "at": str(loc) if loc is not None else None}


# ---------------------------------------------------------------------------------------------------------------
# output
# ---------------------------------------------------------------------------------------------------------------


def to_json(reports: list[dict]) -> str:
    return json.dumps({"version": REPORT_VERSION, "reports": reports}, indent=2) + "\n"


# The words of the text form, said once at its top (docs/pypto-opt.md, "Split report").
KEY = (
    "key: lane split = the vector part runs on both AIV lanes, each on its half of the split axis",
    "     halved = a vector tile cut to one lane's half; whole = the same full tile on both lanes",
    "     per lane = a value that differs between the lanes (the lane id, offsets computed from it)",
    "     cube = a cube-side tile, never on the lanes; boundary = where a tile crosses between cube and vector",
)


def to_text(reports: list[dict]) -> str:
    lines: list[str] = []
    for r in reports:
        lines.append(f"split report: {r['input']} (target {r['target']})")
        lines.extend(KEY)
        if "error" in r:
            lines.append(f"  error at {r['error']['at']}: {r['error']['message']}")
        for k in r["kernels"]:
            lines.extend(_kernel_text(k))
    return "\n".join(lines) + "\n"


def _headline(k: dict) -> str:
    """What the kernel asked for and what it got: a fallback never reads as a split."""
    decision = k.get("lane_split", {}).get("decision")
    asked = k["split"]
    if decision == "regions":
        return "pto.split_aiv_scope regions, each lowered with its own mode"
    if asked == "none":
        return "no lane split requested (compiled unsplit)"
    if "rejected" in k and decision is None:
        return f"split {asked} requested, rejected (below)"
    outcome = {
        "lane-split": "lane-split",
        "fallback-unsplit": "compiled unsplit (the split fell back)",
        "kept-unsplit": "compiled unsplit (the split does not pay)",
        "left-alone": "left alone",
    }.get(decision or "", "not lowered (LowerAutoVectorSplit did not run)")
    return f"split {asked} requested, {outcome}"


def _lane_split_text(ls: dict) -> str:
    """The LowerAutoVectorSplit line; a lane split says how the lanes share the split axis."""
    if "refused" in ls and ls["decision"] == "fallback-unsplit":
        return "falls back to unsplit because neither axis can be lane-split:"
    if ls["decision"] != "lane-split":
        return ls["summary"].split("; axis ", 1)[0]
    if ls.get("lane_stride") is None:
        how = "lane 0 takes the first half of the split axis (rounded up), lane 1 the rest"
    else:
        how = f"lane 1 starts at row/column {ls['lane_stride']} of the split axis (balanced ragged boundary)"
    return f"is lane-split {ls['mode']}: {how}"


def _choice_text(ls: dict) -> list[str]:
    """The lines of the choices by the timing model: the axis of `#pto.split<auto>` (and why each refused axis
    does not split), whether a split with cross-lane combines pays (both figures)."""
    out = []
    if "axis" in ls:
        out.append(f"  axis {ls['axis']['chosen']}: {ls['axis']['why']}")
        out.extend(f"  axis {axis} does not split: {why}" for axis, why in ls["axis"]["refused"].items())
    for axis, r in ls.get("refused", {}).items():
        out.append(f"  axis {axis} does not split: {r['forced_by']} at {r['at']}: {r['reason']}")
    if "pays" in ls and ls["decision"] == "lane-split":
        out.append(f"  cross-lane work: {ls['pays']['why']}")
    return out


def _kernel_text(k: dict) -> list[str]:
    out = [f"kernel @{k['kernel']}: {_headline(k)}"]
    ls = k.get("lane_split")
    if ls:
        out.append(f"  LowerAutoVectorSplit: {_lane_split_text(ls)}")
        combined = "combined across the lanes" if ls["decision"] == "lane-split" else "the split would combine across the lanes"
        for c in ls.get("combines", []):
            fill = ", its row filled with the identity first (a lane's half may be empty)" if c["identity_fill"] else ""
            loop = " (in a loop: once per iteration)" if c["in_loop"] else ""
            how = (
                f"each lane's half of the source through a {c['workspace']} GM workspace, the {c['combine']} run on "
                "the whole source (the unsplit order)"
                if c["method"] == "halves"
                else f"each lane's partial through a {c['workspace']} GM workspace, {c['combine']} of the two rows"
            )
            out.append(
                f"  {combined}: {c['value']} = {c['op']} over the split axis (dim {c['split_dim']}), "
                f"{how}, {c['barriers']} lane barrier(s){fill}{loop}"
            )
        takes = "takes" if ls["decision"] == "lane-split" else "would take"
        for p in ls.get("gm_lane_parts", []):
            loop = " (in a loop: once per iteration)" if p["in_loop"] else ""
            out.append(
                f"  the split {takes} the lane part of {p['value']} (whole on both lanes, an odd split extent on dim "
                f"{p['split_dim']}) through a {p['workspace']} GM workspace: each lane stores it to its row and loads "
                f"its window{loop}"
            )
        out.extend(_choice_text(ls))
    if "values" in k:
        groups: dict[str, list[str]] = {}
        for v in k["values"]:
            groups.setdefault(v["lane"], []).append(v["value"] or f"(an unnamed {v['op']} result)")
        for status in ("halved", "whole", "per lane", "made by the split", "changed", "cube"):
            if status in groups:
                out.append(f"  {status}: {', '.join(groups[status])}")
    for b in k.get("boundaries", []):
        stride = f", lane_stride {b['lane_stride']}" if b["lane_stride"] is not None else ""
        out.append(
            f"  boundary {b['op']} at {b.get('at', '?')}: split code {b['split_code']} ({b['split_code_name']}{stride}),"
            f" {b['source']} -> {b['result']}"
        )
    for fence in k.get("fences", []):
        for h in fence["hazards"]:
            carried = ", loop-carried" if h["loop_carried"] else ""
            out.append(
                f"  fence {fence['direction']}: {h['kind']} on {h['first']['tensor']} ({h['first']['core']} {h['first']['op']}"
                f" at {h['first'].get('at', '?')} before {h['then']['core']} {h['then']['op']} at {h['then'].get('at', '?')}{carried})"
            )
    for p in k.get("pipes", []):
        rings = "; ".join(f"{g['bytes']} B ring in {g['memory']} ({g['reserved_on'].upper()})" for g in p["rings"])
        n = sum(len(v) for v in p["transfers"].values())
        out.append(
            f"  pipe {p['id']} {'+'.join(p['directions'])}: depth {p['slot_num']}, slot {p['slot_size']} B; {rings}; "
            f"{n} transfers"
        )
    if "ring_depth" in k:
        rd = k["ring_depth"]
        if rd["chosen"]:
            spans = ", ".join(f"{d}: {m if m is not None else 'deadlock or unguarded'}" for d, m in rd["makespans"].items())
            out.append(f"  ring depth {rd['slot_num']}: {rd['reason']} (modelled cycles per depth: {spans})")
        else:
            what = "the default" if rd["slot_num"] == 2 else "the least the kernel runs at"
            out.append(f"  ring depth {rd['slot_num']} ({what}, not chosen): {rd['reason']}")
        if "scalar_values" in rd:
            roles = ", ".join(f"{n} ({p['role']}: {', '.join(p['uses']) or 'no use'})" for n, p in rd["scalar_params"].items())
            runs = "; ".join(", ".join(f"{n} = {v}" for n, v in run.items()) for run in rd["scalar_values"])
            out.append(f"    scalar parameters {roles}; timed at {runs}")
    if "skew" in k:
        out.append(_skew_text(k["skew"]))
    if "result" in k:
        kind = f" ({k['result']['kind']})" if "kind" in k["result"] else ""
        out.append(f"  result: {', '.join('@' + n for n in k['result']['functions'])}{kind}")
    if "rejected" in k:
        out.append(f"  rejected at {k['rejected']['at']}: {k['rejected']['message']}")
    return out


def _skew_text(sk: dict) -> str:
    """The skew line: what was skewed, by how much, and the modelled cycles before and after (or why not).  The
    facts are ExpandMixedKernel's skew choice's, or the explicit `skew-cross-core-pipeline` pass's (no cycles)."""
    loop = sk.get("loop", {})
    where = f"{loop.get('op', 'the loop')} at {loop.get('at', '?')}"
    if not sk["skewed"]:
        before = f"; modelled cycles unskewed {sk['makespan_before']}" if "makespan_before" in sk else ""
        return f"  skew: {where} not skewed: {sk['reason']}{before}{_tried_text(sk)}"
    ahead = f"the {sk['ahead']} runs ahead, " if sk.get("ahead") else ""
    least = sk["min_depth"] if "min_depth" in sk else max(sk.get("min_depths", {}).values(), default=None)
    depth = (f"ring depth {sk['depth_before']} -> {sk['depth_after']}" if sk["depth_after"] != sk["depth_before"]
             else f"ring depth {sk['depth_after']}")
    cycles = (f": modelled cycles {sk['makespan_before']} -> {sk['makespan_after']}" if "makespan_after" in sk
              else "")
    return (
        f"  skew: {where} skewed by {sk['distance']} iteration{'s' if sk['distance'] != 1 else ''} ({ahead}remainder: {sk['remainder']}, needs depth "
        f">= {least}), {depth}{cycles}{_tried_text(sk)}"
    )


def _tried_text(sk: dict) -> str:
    """Each distance tried, with its modelled cycles per ring depth (or why it was not timed)."""
    parts = []
    for t in sk.get("tried", []):
        if "refused" in t:
            parts.append(f"D={t['distance']}: {t['refused']}")
        else:
            spans = ", ".join(f"{d}: {m if m is not None else 'deadlock or unguarded'}" for d, m in t["makespans"].items())
            parts.append(f"D={t['distance']}: {spans}")
    return f" (tried, cycles per depth: {'; '.join(parts)})" if parts else ""


def write_reports(path: str, reports: list[dict]) -> None:
    """`path` ending in .json: JSON; `-`: the text form on standard error; else the text form."""
    if path == "-":
        sys.stderr.write(to_text(reports))
        return
    text = to_json(reports) if path.endswith(".json") else to_text(reports)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
