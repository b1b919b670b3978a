"""The op index (dialects/pto_op_index.py) and the context that loads `pto` ops one at a time from it
(`pypto_mlir.ir.make_context`, issue 44): the index names exactly the dialect's op classes, a module loads only
the op families it uses, and nothing else changes (an unknown op is still an error, a clone loads ops too)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pypto_mlir import PtoError, parse_module
from pypto_mlir.dialects import ALL_PTO_OPS
from pypto_mlir.dialects.pto_op_index import OP_CLASSES
from pypto_mlir.ir import make_context

ROOT = Path(__file__).resolve().parents[2]


def test_the_index_names_exactly_the_op_classes_of_the_dialect():
    actual = {op.name: (op.__module__.rsplit(".", 1)[1], op.__name__) for op in ALL_PTO_OPS}
    entries = "\n".join(f'    "{k}": ("{m}", "{c}"),' for k, (m, c) in actual.items())
    assert OP_CLASSES == actual, f"dialects/pto_op_index.py is out of date; its entries are:\n{entries}"


def _families_loaded_by_parsing(text: str) -> list[str]:
    code = (
        "import sys; from pypto_mlir.ir import parse_module; from pypto_mlir.verify import verify_module; "
        "verify_module(parse_module(sys.stdin.read())); "
        "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('pypto_mlir.dialects.pto_')))"
    )
    out = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True, check=True)
    return eval(out.stdout)  # a printed list of module names


def test_a_module_loads_only_the_op_families_it_uses():
    kernel = (ROOT / "examples" / "loop_accumulate.a2a3.mlir").read_text()
    loaded = _families_loaded_by_parsing(kernel)
    assert {"pto_tile_ops", "pto_matmul_ops", "pto_elementwise_ops"} <= set(loaded)
    assert not {"pto_pipe_ops", "pto_comm_ops", "pto_mx_ops", "pto_view_ops", "pto_dialect"} & set(loaded)
    # a module with only the target attribute loads the types and attributes, no op
    target = "builtin.module attributes {pto.target = #pto.target<a2a3>} {\n}\n"
    assert not [m for m in _families_loaded_by_parsing(target) if m.endswith("_ops")]


def test_unknown_ops_and_clones_behave_as_before():
    with pytest.raises(PtoError, match="unknown operation 'pto.no_such_op'"):
        parse_module("%0 = pto.no_such_op : i32")
    clone = make_context().clone()
    assert clone.get_optional_op("pto.load") is ALL_PTO_OPS[[op.name for op in ALL_PTO_OPS].index("pto.load")]
    assert clone.get_optional_op("pto.no_such_op") is None
