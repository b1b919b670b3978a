"""The `pto` dialect: types, attributes and operations (contract: docs/dialect.md).

Importing a module of the package loads only that module and what it imports: `pto_types` the types and
attributes, an op family (`pto_tile_ops`, ...) its ops with their traits. `PTO` (the xDSL `Dialect`) and
`ALL_PTO_OPS` import every family on first use (`pto_dialect.py`). A context from `pypto_mlir.ir.make_context`
loads each `pto` op when the parser first meets it (`pto_op_index.py`), so a run imports the families its input
uses; every op's assembly format is read on its first parse or print (`pto_lazy_format.py`).
"""

from . import pto_lazy_format

pto_lazy_format.install()


def __getattr__(name: str):
    if name in ("ALL_PTO_OPS", "PTO"):
        from . import pto_dialect

        return getattr(pto_dialect, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ALL_PTO_OPS", "PTO"]
