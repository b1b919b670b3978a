"""The timing model: a per-target cost table (`costs.py`), the schedule of a recorded run (`timeline.py`), and
its reports (`report.py`: the `pypto-run --timing` text and the `--trace` Chrome trace).  A model, not a
cycle-accurate simulator: its figures are modelled cycles, not hardware time (docs/timing-model.md)."""
