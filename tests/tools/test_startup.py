"""`pypto-opt` imports only what its run needs (its startup is paid by every lit RUN line).

Each case runs the console script's code (`from pypto_mlir.tools.pypto_opt import main; sys.exit(main())`) in a
fresh Python with `-X importtime` and reads the modules it imported from that report. A heavy module that the run
does not need must not be among them: NumPy, the interpreter, the upstream-MLIR helpers and bindings, a pass that
was not asked for; and on an empty module not even the dialects (they are registered by loader and imported when
the parser first meets one of their ops or types).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = "import sys; from pypto_mlir.tools.pypto_opt import main; sys.exit(main())"
KERNEL = ROOT / "examples" / "matmul_softmax.a2a3.mlir"  # split up_down: needs LowerAutoVectorSplit first
UNSPLIT = ROOT / "examples" / "vector_prep_matmul.a2a3.mlir"  # no split: ExpandMixedKernel alone takes it

HEAVY = (
    "numpy",
    "ml_dtypes",
    "pypto_mlir.interpreter",
    "pypto_mlir.fuzz",
    "pypto_mlir.mlir_bridge",
    "pypto_mlir.mlir_tools",
    "mlir",
    "xdsl.interpreter",
)
LAVS = "pypto_mlir.passes.lower_auto_vector_split"
EMK = "pypto_mlir.passes.expand_mixed_kernel"
DIALECTS = ("pypto_mlir.dialects", "xdsl.dialects.func", "xdsl.dialects.arith", "xdsl.dialects.scf")


def imported(args: list[str], tmp_path: Path) -> set[str]:
    r = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", SCRIPT, *args, "-o", str(tmp_path / "out.mlir")],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,  # not the checkout: its folders must not shadow the installed package
    )
    assert r.returncode == 0, r.stderr[-2000:]
    names = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*([\w.]+)\s*$", r.stderr, re.MULTILINE))
    assert "pypto_mlir.tools.pypto_opt" in names  # the report was read
    return names


def loaded(names: set[str], package: str) -> list[str]:
    return sorted(n for n in names if n == package or n.startswith(package + "."))


def test_empty_module_loads_no_dialect_and_no_heavy_module(tmp_path):
    src = tmp_path / "empty.mlir"
    src.write_text("builtin.module {}\n")
    names = imported([str(src)], tmp_path)
    for package in (*HEAVY, *DIALECTS, LAVS, EMK):
        assert not loaded(names, package), f"{package} imported on an empty module: {loaded(names, package)}"
    assert (tmp_path / "out.mlir").read_text() == "builtin.module {\n}\n"


def test_parse_verify_print_loads_no_pass_and_no_heavy_module(tmp_path):
    names = imported([str(KERNEL)], tmp_path)
    assert "pypto_mlir.dialects.pto_tile_ops" in names  # the kernel's ops were loaded on first use ...
    assert "pypto_mlir.dialects.pto_comm_ops" not in names  # ... and only the families it uses (issue 44)
    for package in (*HEAVY, LAVS, EMK, "xdsl.transforms"):
        assert not loaded(names, package), f"{package} imported without a pass: {loaded(names, package)}"


@pytest.mark.parametrize(
    "flag,src,absent",
    [("--expand-mixed-kernel", UNSPLIT, LAVS), ("--lower-auto-vector-split", KERNEL, None)],
)
def test_a_pass_loads_its_own_modules_only(tmp_path, flag, src, absent):
    names = imported([flag, str(src)], tmp_path)
    assert loaded(names, EMK if flag == "--expand-mixed-kernel" else LAVS)
    for package in HEAVY:
        assert not loaded(names, package), f"{package} imported by {flag}: {loaded(names, package)}"
    if absent is not None:
        assert not loaded(names, absent), f"{absent} imported by {flag}: {loaded(names, absent)}"


def test_dialects_still_load_for_generic_and_prefix_free_spellings(tmp_path):
    """Lazily registered dialects are found from every spelling: the generic form, an op named without its
    dialect inside `func.func` (`return`), a type in an attribute."""
    src = tmp_path / "generic.mlir"
    src.write_text(
        '"builtin.module"() ({\n'
        '  func.func @f(%a: i32) -> i32 attributes {t = !pto.tensor<16xf32>} {\n'
        '    %c = "arith.addi"(%a, %a) : (i32, i32) -> i32\n'
        "    return %c : i32\n"
        "  }\n"
        "}) : () -> ()\n"
    )
    imported([str(src)], tmp_path)
    out = (tmp_path / "out.mlir").read_text()
    assert "arith.addi %a, %a : i32" in out and "func.return %c : i32" in out
    assert "!pto.tensor<16xf32>" in out
