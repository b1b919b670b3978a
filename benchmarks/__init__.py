"""Compile-time benchmarks of the pypto-mlir passes (see docs/performance.md).

Run from the repository root: `python -m benchmarks` (not installed; not a timed test).
"""
