"""The reference interpreter of `pto` programs (issue 7; not implemented yet)."""
