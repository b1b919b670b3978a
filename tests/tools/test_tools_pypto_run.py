"""pypto-run as a tool (run in-process): strict input element types and --cast, numpy-readable outputs,
--expect golden files, --json, progress on stderr, --compare-with matching parameters by position, bytecode."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from pypto_mlir.tools import pypto_run
from pypto_mlir.tools.pypto_run import Progress, main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "seed_example1.a2a3.mlir"  # @main(%x: 16x128 bf16, %y: 128x128 bf16) -> 16x128 f32


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_outputs_are_saved_readable_by_plain_numpy(tmp_path, capsys):
    code, out, _ = run(capsys, EXAMPLE, "--output-dir", tmp_path)
    assert code == 0
    assert re.search(r"%x: saved \[16, 128\] bfloat16 as float32 to .*x\.npy", out)
    x = np.load(tmp_path / "x.npy")
    assert x.dtype == np.float32  # not raw |V2 bytes
    assert np.array_equal(x.astype(ml_dtypes.bfloat16).astype(np.float32), x)  # exact bf16 values
    assert np.load(tmp_path / "result_0.npy").dtype == np.float32


def test_input_types_are_strict(tmp_path, capsys):
    rounded = tmp_path / "rounded.npy"
    np.save(rounded, np.full((16, 128), 0.1, dtype=np.float32))  # 0.1 is not a bf16 value
    code, _, err = run(capsys, EXAMPLE, "--input", f"x={rounded}")
    assert code == 1
    assert "error: input 'x' has element type float32 but parameter %x is !pto.tensor<16x128xbf16>, and 2048 of " \
           "its 2048 values are not exactly representable in bfloat16; convert the file, or pass --cast" in err
    assert run(capsys, EXAMPLE, "--input", f"x={rounded}", "--cast", "--quiet")[0] == 0
    ints = tmp_path / "ints.npy"
    np.save(ints, np.ones((16, 128), dtype=np.int32))
    code, _, err = run(capsys, EXAMPLE, "--input", f"x={ints}")
    assert code == 1 and "has element type int32 but parameter %x is !pto.tensor<16x128xbf16> (a float type)" in err
    # A saved output feeds back as is: float32 holding bf16 values is exact.
    assert run(capsys, EXAMPLE, "--output-dir", tmp_path / "o", "--quiet")[0] == 0
    assert run(capsys, EXAMPLE, "--input", f"x={tmp_path / 'o' / 'x.npy'}", "--quiet")[0] == 0


def test_expect_compares_with_golden_files(tmp_path, capsys):
    assert run(capsys, EXAMPLE, "--output-dir", tmp_path, "--quiet")[0] == 0
    golden = tmp_path / "result_0.npy"
    code, out, _ = run(capsys, EXAMPLE, "--quiet", "--expect", f"result#0={golden}", "--expect", f"x={tmp_path / 'x.npy'}")
    assert code == 0
    code, _, err = run(capsys, EXAMPLE, "--seed", "1", "--quiet", "--expect", f"result#0={golden}")
    assert code == 1
    assert re.search(r"error: output result#0 differs at \[\d+, \d+\]: expected .*, got .* \(\d+ of 2048 elements "
                     r"differ; tolerance rtol = atol = 4\.77e-07; element type float32\)", err)
    wrong_shape = tmp_path / "wrong_shape.npy"
    np.save(wrong_shape, np.zeros((8, 8), np.float32))
    code, _, err = run(capsys, EXAMPLE, "--quiet", "--expect", f"result#0={wrong_shape}")
    assert code == 1 and "output result#0 differs in shape: expected [8, 8], got [16, 128]" in err
    code, _, err = run(capsys, EXAMPLE, "--expect", f"nope={golden}")
    assert code == 1 and "--expect nope: no output named %nope (outputs: result#0, %x, %y)" in err


def test_json_summary(tmp_path, capsys):
    code, out, _ = run(capsys, EXAMPLE, "--json", "--expect", f"x={tmp_path / 'missing.npy'}")
    assert code == 1 and json.loads(out)["ok"] is False and "cannot read" in json.loads(out)["error"]
    code, out, _ = run(capsys, EXAMPLE, "--json")
    s = json.loads(out)
    assert code == 0 and s["ok"] and s["mode"] == "run" and s["seed"] == 0
    assert s["outputs"]["%x"] == {"shape": [16, 128], "dtype": "bfloat16"}
    code, out, _ = run(capsys, EXAMPLE, "--json", "--check-pipeline", "lower-auto-vector-split,expand-mixed-kernel")
    s = json.loads(out)
    assert code == 0 and s["mode"] == "check-pipeline" and s["check"]["ok"] and s["check"]["stage"] == "ok"


def test_compare_with_matches_parameters_by_position(tmp_path, capsys):
    renamed = tmp_path / "renamed.mlir"
    text = EXAMPLE.read_text()
    for old, new in (("%x", "%arg0"), ("%y", "%arg1")):
        text = text.replace(old, new)
    renamed.write_text(text)
    code, out, err = run(capsys, EXAMPLE, "--compare-with", renamed)
    assert code == 0, err
    assert "passed: 3 output(s) match" in out


def test_progress_reports_on_stderr(capsys):
    with Progress("always", every=0.05) as p:
        p.set("running the program")
        time.sleep(0.3)
    err = capsys.readouterr().err
    assert re.search(r"pypto-run: running the program\.\.\. \d+ s", err)
    with Progress("never", every=0.01):
        time.sleep(0.05)
    assert capsys.readouterr().err == ""


def test_bytecode_input(tmp_path, capsys):
    from pypto_mlir.mlir_tools import find_mlir_opt, have_mlir_bindings

    mlir_opt = find_mlir_opt()
    if not (have_mlir_bindings() and mlir_opt):
        pytest.skip("the optional `mlir` extra is not installed")
    generic = subprocess.run(
        [pypto_run.sys.executable, "-m", "pypto_mlir", str(EXAMPLE), "--mlir-print-op-generic"],
        capture_output=True, text=True, check=True,
    ).stdout
    bc = tmp_path / "k.mlirbc"
    subprocess.run([mlir_opt, "--allow-unregistered-dialect", "--emit-bytecode", "-o", str(bc)], input=generic,
                   text=True, check=True)
    assert bc.read_bytes()[:4] == b"ML\xefR"
    code, out, err = run(capsys, EXAMPLE, "--compare-with", bc)
    assert code == 0, err


def test_timing_and_trace_of_an_expanded_kernel(tmp_path, capsys):
    """--timing prints the modelled figures (and --json carries them); --trace writes Chrome trace JSON; an
    unwritable trace path is a usage error, not a traceback."""
    src = Path(__file__).resolve().parents[2] / "examples" / "loop_accumulate.a5.mlir"
    trace = tmp_path / "t.json"
    spec = "lower-auto-vector-split,expand-mixed-kernel"
    assert pypto_run.main([str(src), "--quiet", "--check-pipeline", spec, "--timing", "--trace", str(trace)]) == 0
    out = capsys.readouterr().out
    assert "a model, not hardware time" in out and re.search(r"Group @kloop_incore_0 \(a5\): makespan \d+ cycles", out)
    events = json.loads(trace.read_text())["traceEvents"]
    assert {e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"} == {
        "AIC", "AIV lane 0", "AIV lane 1"}
    assert pypto_run.main([str(src), "--check-pipeline", spec, "--timing", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["timing"]["unit"] == "modelled cycle" and data["timing"]["groups"][0]["makespan"] > 0
    assert pypto_run.main([str(src), "--quiet", "--trace", str(tmp_path / "no" / "dir" / "t.json")]) == 1
    assert "cannot write the trace file" in capsys.readouterr().err


@pytest.mark.parametrize("target", ["a2a3", "a5"])
def test_timing_of_a_mixed_kernel_times_the_default_pipeline_beside_the_unsplit_kernels(capsys, target, tmp_path):
    """Issue 44: --timing / --trace on a mixed kernel time the default pipeline's output (said on stderr), with the
    same kernels without their pto.split request beside them; never an empty report or trace."""
    src = ROOT / "examples" / f"matmul_softmax.{target}.mlir"
    code, out, err = run(capsys, src, "--timing", "--json", "--trace", tmp_path / "t.json")
    summary = json.loads(out)
    assert code == 0 and "timing the output of the default pipeline" in err
    assert summary["timed_pipeline"] == "lower-auto-vector-split,expand-mixed-kernel"
    split, unsplit = summary["timing"], summary["timing"]["unsplit"]
    assert [g["group"] for g in split["groups"]] == [g["group"] for g in unsplit["groups"]] == ["Group @attn_incore_0"]
    assert 0 < split["makespan"] < unsplit["makespan"]  # the lane split gains on this kernel
    trace = json.loads((tmp_path / "t.json").read_text())
    assert trace["traceEvents"] and "displayTimeUnit" not in trace


def test_check_pipeline_runs_the_budget_check_after_expand(tmp_path):
    assert pypto_run.budgeted(["lower-auto-vector-split", "expand-mixed-kernel"]) == [
        "lower-auto-vector-split", "expand-mixed-kernel", "verify-budget"]
    assert pypto_run.budgeted(["expand-mixed-kernel", "verify-budget"]) == ["expand-mixed-kernel", "verify-budget"]
    assert pypto_run.budgeted(["expand-mixed-kernel"], off=True) == ["expand-mixed-kernel"]
