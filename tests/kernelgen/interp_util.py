"""Helpers of the interpreter tests: build a one-kernel module from a body and run it on numpy arrays."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pypto_mlir.interpreter import Buffer, Machine
from pypto_mlir.ir import parse_module
from pypto_mlir.verify import verify_module


ROOT = Path(__file__).resolve().parents[2]
INPUTS = ROOT / "lit_tests" / "interpreter" / "Inputs"
EXAMPLES = ROOT / "examples"


def parsed(text: str, name: str = "t.mlir"):
    """`text` parsed and verified (a module the interpreter can run)."""
    m = parse_module(text, name)
    verify_module(m)
    return m


def input_text(name: str) -> str:
    """A file of lit_tests/interpreter/Inputs."""
    return (INPUTS / name).read_text()


def kernel_module(params: list[tuple[str, str, bool]], body: str, ret: str | None = None, target: str = "a2a3") -> str:
    """`params`: (name, tensor type, is_out); `body`: ops of the kernel; `ret`: `%v : T` to return."""
    sig = ", ".join(f"%{n}: {t}" + (" {pto.out}" if out else "") for n, t, out in params)
    rt = f" -> {ret.split(':', 1)[1].strip()}" if ret else ""
    ret_op = f"func.return {ret}" if ret else "func.return"
    return (
        f"builtin.module attributes {{pto.target = #pto.target<{target}>}} {{\n"
        f"  func.func @k({sig}){rt} attributes {{pto.kind = #pto.kind<incore>}} {{\n{body}\n    {ret_op}\n  }}\n}}\n"
    )


def run_kernel(text: str, arrays: list[np.ndarray], entry: str = "k") -> list[np.ndarray]:
    module = parse_module(text, "test.mlir")
    verify_module(module)
    bufs = [Buffer(np.array(a, copy=True)) for a in arrays]
    Machine(module).run(entry, bufs)
    return [b.data for b in bufs]
