"""Repository structure: no Python source file of the project is over 800 lines (the project rule; a file that
grows past it is split into modules of one family or job each, as `dialects/pto_ops.py` was)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MAX_LINES = 800
SOURCE_FOLDERS = ("dialects", "passes", "python", "tools")

# Files allowed over the limit: none (dialects/pto_ops.py, lower_auto_vector_split/lowering.py and
# interpreter/machine.py were split). `test_allowed_files_are_still_over_the_limit` fails for a stale entry.
ALLOWED_OVER: set[str] = set()


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def oversized(root: Path, folders: tuple[str, ...] = SOURCE_FOLDERS) -> dict[str, int]:
    """Every .py file under `folders` of `root` with more than MAX_LINES lines: path (relative) -> its lines."""
    return {
        str(p.relative_to(root)): n
        for folder in folders
        for p in sorted((root / folder).rglob("*.py"))
        if (n := line_count(p)) > MAX_LINES
    }


def test_no_source_file_is_over_the_limit():
    over = {name: n for name, n in oversized(ROOT).items() if name not in ALLOWED_OVER}
    assert not over, f"source files over {MAX_LINES} lines (split them by family): " + ", ".join(
        f"{name} ({n})" for name, n in sorted(over.items())
    )


def test_allowed_files_are_still_over_the_limit():
    """An allow-list entry whose file was split (or is gone) is removed, so the list only shrinks."""
    over = oversized(ROOT)
    stale = sorted(name for name in ALLOWED_OVER if name not in over)
    assert not stale, f"no longer over {MAX_LINES} lines, remove from ALLOWED_OVER: {', '.join(stale)}"


def test_the_check_can_fail(tmp_path):
    (tmp_path / "dialects").mkdir()
    (tmp_path / "dialects" / "big.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "dialects" / "ok.py").write_text("x = 1\n" * MAX_LINES)
    assert oversized(tmp_path, ("dialects",)) == {"dialects/big.py": MAX_LINES + 1}
