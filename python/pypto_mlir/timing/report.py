"""Reports of a modelled run: the `pypto-run --timing` text, its JSON form, and the Chrome trace-event file of
`pypto-run --trace` (one process per Group run, one thread per core, one slice per op that costs cycles, a wait
slice where a core stalls on a ring, and a flow arrow from each push to each pop of the entry it filled).  The
trace's time unit is the modelled cycle, written as the format's microsecond: read "1 us" as one cycle."""

from __future__ import annotations

import json
from typing import Any

from pypto_mlir.diagnostics import location_of

from .timeline import Schedule, Timeline, replay

DISCLAIMER = "modelled cycles from the cost table in docs/timing-model.md: a model, not hardware time"


def schedules(timelines: list[Timeline]) -> list[Schedule]:
    return [replay(tl) for tl in timelines]


def summary(scheds: list[Schedule]) -> dict[str, Any]:
    """The figures of `--timing` as plain data (also `pypto-run --timing --json`)."""
    groups = []
    for s in scheds:
        tl = s.timeline
        cores = []
        for i, t in enumerate(tl.tracks):
            end = s.placed[i][-1].end if s.placed[i] else 0
            cores.append(
                {
                    "core": t.label,
                    "busy": s.busy(i),
                    "waiting": s.waiting(i),
                    "idle_at_end": s.makespan - end,
                    "by_unit": s.busy_by_unit(i),
                }
            )
        rings = []
        for key, r in sorted(tl.rings.items()):
            rings.append(
                {
                    "ring": r.name,
                    "slot_num": s.depths[key],
                    "full_stall": s.full_stall.get(key, 0),
                    "empty_stall": s.empty_stall.get(key, 0),
                }
            )
        bound = s.overlap_bound()
        barriers = {"barriers": s.barriers, "barrier_stall": s.barrier_stall} if s.barriers else {}
        groups.append(
            {
                **barriers,
                "group": tl.label,
                "target": tl.target,
                "makespan": s.makespan,
                "overlap_bound": bound,
                "cores": cores,
                "rings": rings,
                "deadlock": s.deadlock,
                "unguarded": s.unguarded,
            }
        )
    return {"unit": "modelled cycle", "note": DISCLAIMER, "makespan": sum(s.makespan for s in scheds), "groups": groups}


def format_text(scheds: list[Schedule]) -> str:
    data = summary(scheds)
    lines = [f"timing ({DISCLAIMER})"]
    if not data["groups"]:
        lines.append("no Group ran: the model times expanded kernels (run the program after --expand-mixed-kernel)")
        return "\n".join(lines) + "\n"  # (pypto-run never prints this: it times the pipeline's output instead)
    for g in data["groups"]:
        ratio = f", {g['makespan'] / g['overlap_bound']:.2f}x the overlap bound" if g["overlap_bound"] else ""
        lines.append(f"{g['group']} ({g['target'] or 'no target, a2a3 table'}): makespan {g['makespan']} cycles{ratio}")
        lines.append(f"  overlap bound max(core busy) = {g['overlap_bound']}")
        lines.append(f"  {'core':<12} {'busy':>9} {'waiting':>9} {'idle end':>9}  busy by unit")
        for c in g["cores"]:
            units = ", ".join(f"{u} {n}" for u, n in sorted(c["by_unit"].items()))
            lines.append(f"  {c['core']:<12} {c['busy']:>9} {c['waiting']:>9} {c['idle_at_end']:>9}  {units}")
        for r in g["rings"]:
            lines.append(
                f"  {r['ring']} ({r['slot_num']} slots): producers waited {r['full_stall']} cycles on a full ring, "
                f"consumers {r['empty_stall']} on an empty ring (summed over the cores)"
            )
        if g.get("barriers"):
            lines.append(
                f"  {g['barriers']} lane barrier(s): the lanes waited {g['barrier_stall']} cycles for each other there "
                "(summed over the lanes)"
            )
        for u in g["unguarded"]:
            lines.append(f"  unguarded: the {u} may overwrite a slot before its free is waited for (pto-isa's sync period)")
        if g["deadlock"]:
            lines.append(f"  deadlock: {', '.join(g['deadlock'])} cannot finish with these depths")
    lines.append(f"total makespan {data['makespan']} cycles (Groups one after another)")
    return "\n".join(lines) + "\n"


def _loc(op) -> str:
    loc = location_of(op)
    return str(loc) if loc is not None else ""


def chrome_trace(scheds: list[Schedule]) -> dict[str, Any]:
    """The run in the Chrome trace-event format (loads in Perfetto and chrome://tracing)."""
    events: list[dict[str, Any]] = []
    flow_id = 0
    offset = 0
    for pid, s in enumerate(scheds, start=1):
        tl = s.timeline
        events.append({"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": tl.label}})
        push_at: dict[tuple, list[tuple[int, int]]] = {}
        for tid, (track, placed) in enumerate(zip(tl.tracks, s.placed), start=1):
            events.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": track.label}})
            for it, p in zip(track.items, placed):
                if p.wait:
                    why = "ring full" if it.sync == "push" else "ring empty"
                    ring = tl.rings[it.ring].name if it.ring else ""
                    events.append(
                        {"name": f"wait: {why}", "cat": "stall", "ph": "X", "pid": pid, "tid": tid,
                         "ts": offset + p.ready, "dur": p.wait, "args": {"ring": ring, "op": it.op.name}}
                    )
                if it.cycles:
                    args = {"cycles": it.cycles, "unit": it.unit}
                    if _loc(it.op):
                        args["loc"] = _loc(it.op)
                    if it.ring is not None:
                        args["ring"] = tl.rings[it.ring].name
                        args["entry"] = it.index
                    events.append(
                        {"name": it.op.name, "cat": it.unit, "ph": "X", "pid": pid, "tid": tid,
                         "ts": offset + p.start, "dur": it.cycles, "args": args}
                    )
                if it.sync == "push":
                    push_at.setdefault((it.ring, it.index), []).append((tid, offset + p.start))
        for tid, (track, placed) in enumerate(zip(tl.tracks, s.placed), start=1):
            for it, p in zip(track.items, placed):
                if it.sync != "pop":
                    continue
                for src_tid, ts in push_at.get((it.ring, it.index), []):
                    flow_id += 1
                    name = tl.rings[it.ring].name
                    events.append({"name": name, "cat": "pipe", "ph": "s", "id": flow_id, "pid": pid, "tid": src_tid, "ts": ts})
                    events.append(
                        {"name": name, "cat": "pipe", "ph": "f", "bp": "e", "id": flow_id, "pid": pid, "tid": tid,
                         "ts": offset + p.start}
                    )
        offset += s.makespan
    # No "displayTimeUnit": the format's timestamps are microseconds, and "1 us = 1 modelled cycle" is the whole
    # convention (a display unit of "ns" beside it would contradict it).
    return {"traceEvents": events, "otherData": {"unit": "1 us = 1 modelled cycle", "note": DISCLAIMER}}


def write_trace(scheds: list[Schedule], path: str) -> None:
    with open(path, "w") as fh:
        json.dump(chrome_trace(scheds), fh, indent=None, separators=(",", ":"))
        fh.write("\n")
