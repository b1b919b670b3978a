"""The split report (`pypto-opt --split-report`, python/pypto_mlir/split_report.py).

Golden reports of the examples are checked in (tests/golden/split_report/*.json): a change in any decision of
either pass — a value's lane status, a split code, a fence, a pipe's depth or ring — is a diff here. After an
intended change, regenerate them with `PYPTO_UPDATE_GOLDEN=1 pytest tests/tools/test_split_report.py` and read
the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pypto_mlir.tools.pypto_opt import main

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "split_report"
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.mlir"))


def report_of(tmp_path: Path, monkeypatch, name: str, *passes: str) -> tuple[int, dict]:
    monkeypatch.chdir(ROOT)  # the report names the input as given: examples/<name>, on every machine
    out = tmp_path / "r.json"
    rc = main([f"examples/{name}", *passes, f"--split-report={out}", "-o", str(tmp_path / "out.mlir")])
    return rc, json.loads(out.read_text())


@pytest.mark.parametrize("name", EXAMPLES)
def test_golden_report_of_each_example(tmp_path, monkeypatch, name):
    rc, report = report_of(tmp_path, monkeypatch, name, "--lower-auto-vector-split", "--expand-mixed-kernel")
    assert rc == 0
    golden = GOLDEN / name.replace(".mlir", ".json")
    text = json.dumps(report, indent=2) + "\n"
    if os.environ.get("PYPTO_UPDATE_GOLDEN"):
        golden.write_text(text)
    assert golden.exists(), f"no golden report {golden}; run with PYPTO_UPDATE_GOLDEN=1"
    assert text == golden.read_text(), f"the split report of {name} changed; see the module docstring"


def test_every_golden_report_has_an_example():
    assert sorted(p.name for p in GOLDEN.glob("*.json")) == sorted(n.replace(".mlir", ".json") for n in EXAMPLES)


def test_the_report_shows_each_decision(tmp_path, monkeypatch):
    """What the golden files hold, spelled out once for one example: a lane split of a softmax."""
    _, report = report_of(tmp_path, monkeypatch, "matmul_softmax.a2a3.mlir", "--lower-auto-vector-split",
                          "--expand-mixed-kernel")
    (chunk,) = report["reports"]
    assert chunk["target"] == "a2a3"
    (k,) = chunk["kernels"]
    assert k["kernel"] == "attn_incore_0" and k["split"] == "up_down"
    assert k["lane_split"]["decision"] == "lane-split" and k["lane_split"]["lane_stride"] is None
    status = {v["value"]: v["lane"] for v in k["values"] if v["value"]}
    assert status["%s"] == "halved" and status["%scores"] == "cube" and status["%subblock_idx"] == "per lane"
    (b,) = k["boundaries"]
    assert (b["op"], b["split_code"], b["split_code_name"]) == ("pto.aiv_shard", 1, "up_down")
    assert b["source"] == "!pto.tile<64x128xf32, acc>" and b["result"] == "!pto.tile<32x128xf32, vec>"
    (p,) = k["pipes"]
    assert p["directions"] == ["c2v"] and p["slot_num"] == 2 and p["slot_size"] == 64 * 128 * 4  # one slot holds the whole tile (both lanes' halves)
    assert p["rings"] == [
        {"name": "attn_incore_0_c2v_slot_buffer", "reserved_on": "aiv", "memory": "vec", "bytes": 65536}
    ]
    assert [t["kind"] for t in p["transfers"]["c2v"]] == ["push", "pop"]
    assert k["result"]["functions"] == ["attn_incore_0_aic", "attn_incore_0_aiv", "attn_incore_0"]


def test_no_report_without_the_flag_and_an_unwritable_report_is_an_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    both = ["--lower-auto-vector-split", "--expand-mixed-kernel"]
    assert main(["examples/matmul_softmax.a2a3.mlir", *both, "-o", str(tmp_path / "o")]) == 0
    assert list(tmp_path.iterdir()) == [tmp_path / "o"]
    bad = tmp_path / "missing" / "r.json"
    assert main(["examples/matmul_softmax.a2a3.mlir", *both, f"--split-report={bad}", "-o", str(tmp_path / "o")]) == 1
    assert f"{bad}: error: cannot write the split report" in capsys.readouterr().err


def test_the_decision_log_is_empty_outside_a_capture():
    from pypto_mlir.passes.decisions import capture_decisions, record, recording

    assert not recording()
    record("P", "k", "x")  # dropped: nobody listens
    with capture_decisions() as log:
        assert recording()
        record("P", "k", "x", a=1)
    assert [(d.pass_name, d.kernel, d.kind, d.facts) for d in log] == [("P", "k", "x", {"a": 1})]


def test_the_report_says_which_axis_auto_chose_and_why(tmp_path, monkeypatch):
    """`#pto.split<auto>` (issue 43 part 3): the axis, why (with both modelled makespans when both axes split),
    and why each refused axis does not split; a kernel that splits on neither gives both reasons."""
    monkeypatch.chdir(ROOT)
    out = tmp_path / "r.txt"
    src = "lit_tests/lower_auto_vector_split/split_auto.mlir"
    assert main([src, "--lower-auto-vector-split", "--expand-mixed-kernel", f"--split-report={out}",
                 "-o", str(tmp_path / "o.mlir")]) == 0
    text = out.read_text()
    assert "kernel @ragged_rows: split auto requested, lane-split\n  LowerAutoVectorSplit: is lane-split left_right" in text
    assert "  axis left_right: the smaller modelled makespan (up_down 1179, left_right 1159 cycles)\n" in text
    assert "  axis up_down: the modelled makespans tie (up_down 709, left_right 709 cycles): up_down, the default\n" in text
    assert "  axis left_right does not split: automatic split-axis halving of 'pto.random'" in text
    assert "  axis up_down: the smaller modelled makespan (up_down 688, left_right 1139 cycles)\n" in text  # row_sum
    neither = text.split("kernel @neither: ", 1)[1]
    assert neither.startswith("split auto requested, compiled unsplit (the split fell back)\n"
                              "  LowerAutoVectorSplit: falls back to unsplit because neither axis can be lane-split:\n"
                              f"  axis up_down does not split: 'pto.random' at {src}:120:5: ")
    assert f"  axis left_right does not split: 'pto.random' at {src}:122:5: " in neither
