"""Analyses of the AUTO path only (a kernel marked `pto.split = up_down|left_right`): the full-width V->C chains
(`full_width.py`), the lane stride of a ragged boundary (`lane_stride.py`) and the cross-lane GM races of the
lowered kernel (`lane_races.py`)."""
