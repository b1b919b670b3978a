"""Pieces of `pypto-opt`'s mlir-opt flags that are not the driver loop itself (docs/pypto-opt.md):

- `unknown_flag_message` — the usage error for an unknown flag, with mlir-opt's "did you mean" suggestion;
- `pipeline_text` — `--dump-pass-pipeline`: the pipeline that runs, as one `builtin.module(...)` spec;
- `pass_statistics` / `format_statistics` — `--mlir-pass-statistics`: counts per pass, taken from the split
  report of the run (`split_report.py`: the same facts, added up over the kernels);
- `emit_bytecode` — `--emit-bytecode`: the output as MLIR bytecode, through upstream MLIR's bindings (the
  optional `mlir` extra).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def unknown_flag_message(arg: str, known: Iterable[str]) -> str:
    """`unknown command line argument '--x'`, with the closest known flag when one is close (mlir-opt's
    "Did you mean"). `arg` may carry `=value`; the suggestion keeps it."""
    import difflib

    name, eq, value = arg.partition("=")
    msg = f"unknown command line argument '{arg}'"
    close = difflib.get_close_matches(name, sorted(set(known)), n=1, cutoff=0.75)
    if close:
        msg += f"; did you mean '{close[0]}{eq}{value}'?"
    return msg


def pipeline_text(passes: Sequence) -> str:
    """The pipeline as mlir-opt's `--dump-pass-pipeline` prints it: every pass with all its options."""
    from pypto_mlir.pipeline import describe_pass

    specs = ",".join(describe_pass(p, include_default=True) for p in passes)
    return f"Pass Manager with {len(passes)} passes:\nbuiltin.module({specs})\n"


# (pass display name, statistic name, description, how to count it in one kernel entry of the split report)
_STATISTICS = (
    ("LowerAutoVectorSplit", "kernels-lane-split", "Kernels lane-split (AUTO path)",
     lambda k: _decision(k) == "lane-split"),
    ("LowerAutoVectorSplit", "kernels-fallen-back", "Kernels compiled unsplit: their split request fell back",
     lambda k: _decision(k) == "fallback-unsplit"),
    ("LowerAutoVectorSplit", "kernels-kept-unsplit",
     "Kernels compiled unsplit: their split needs cross-lane work and the timing model finds it slower",
     lambda k: _decision(k) == "kept-unsplit"),
    ("LowerAutoVectorSplit", "kernels-with-regions", "Kernels lowered by their split_aiv_scope regions",
     lambda k: _decision(k) == "regions"),
    ("LowerAutoVectorSplit", "values-halved", "Vector tiles cut to one lane's half of the split axis",
     lambda k: sum(1 for v in k.get("values", ()) if v["lane"] == "halved")),
    ("LowerAutoVectorSplit", "boundaries", "Cube/vector boundaries (pto.aiv_shard / pto.aic_gather)",
     lambda k: len(k.get("boundaries", ()))),
    ("LowerAutoVectorSplit", "cross-lane-combines", "Reductions over the split axis combined through a GM workspace",
     lambda k: k.get("lane_split", {}).get("cross_lane_combines", 0) if _decision(k) == "lane-split" else 0),
    ("ExpandMixedKernel", "kernels-expanded", "Mixed kernels split into AIC + AIV + Group",
     lambda k: "pipes" in k),
    ("ExpandMixedKernel", "pipes", "Pipes set up", lambda k: len(k.get("pipes", ()))),
    ("ExpandMixedKernel", "transfers", "tpush / tpop ops over the pipes",
     lambda k: sum(len(t) for p in k.get("pipes", ()) for t in p["transfers"].values())),
    ("ExpandMixedKernel", "gm-fences", "GM fences between the cores", lambda k: len(k.get("fences", ()))),
    ("ExpandMixedKernel", "ring-depths-chosen", "Rings deepened beyond the default by the timing model",
     lambda k: bool(k.get("ring_depth", {}).get("chosen"))),
    ("ExpandMixedKernel", "loops-skewed", "Round-trip loops skewed by the timing model (cross-core pipelining)",
     lambda k: bool(k.get("skew", {}).get("skewed"))),
)


def _decision(kernel: dict) -> str | None:
    return kernel.get("lane_split", {}).get("decision")


def pass_statistics(reports: Sequence[dict], ran: Iterable[str]) -> dict[str, list[tuple[int, str, str]]]:
    """{pass display name: [(count, statistic, description)]} for the passes in `ran`, summed over the kernels
    of every report (one per `--split-input-file` chunk)."""
    ran = set(ran)
    out: dict[str, list[tuple[int, str, str]]] = {}
    for pass_name, stat, desc, count in _STATISTICS:
        if pass_name in ran:
            n = sum(int(count(k)) for r in reports for k in r["kernels"])
            out.setdefault(pass_name, []).append((n, stat, desc))
    return out


def format_statistics(stats: dict[str, list[tuple[int, str, str]]]) -> str:
    """mlir-opt's `--mlir-pass-statistics` report (the `(S)` lines), pass by pass in pipeline order."""
    rule = "===" + "-" * 73 + "==="
    lines = [rule, "... Pass statistics report ...".center(79).rstrip(), rule]
    for pass_name, rows in stats.items():
        lines.append(pass_name)
        width = max(len(str(n)) for n, _, _ in rows)
        lines += [f"  (S) {n:>{width}} {stat} - {desc}" for n, stat, desc in rows]
    return "\n".join(lines) + "\n"


def emit_bytecode(text: str) -> bytes:
    """The module `text` (generic form) as MLIR bytecode, written by upstream MLIR's bindings; a PtoError that
    says to install the `mlir` extra when they are missing."""
    import io

    from pypto_mlir.mlir_tools import MLIR_EXTRA_HINT, parse_upstream

    module = parse_upstream(
        text,
        None,
        f"--emit-bytecode writes MLIR bytecode through upstream MLIR's Python bindings; {MLIR_EXTRA_HINT}",
        "upstream MLIR cannot read the output to write it as bytecode",
    )
    out = io.BytesIO()
    module.operation.write_bytecode(out)
    return out.getvalue()
