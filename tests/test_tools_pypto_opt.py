"""pypto-opt at the unit level: pipeline parsing and pass ordering, --help, input splitting, expected-diagnostic
annotations, and main()'s exit codes and messages (run in-process)."""

from __future__ import annotations

import pytest

from pypto_mlir.passes import PASSES
from pypto_mlir.tools import pypto_opt
from pypto_mlir.tools.pypto_opt import (
    UsageError,
    build_arg_parser,
    collect_expected,
    is_blank,
    main,
    parse_pipeline,
    split_chunks,
)

GOOD = """builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @main() attributes {pto.kind = #pto.kind<orchestration>} {
    func.return
  }
}
"""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- pipelines -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "lower-auto-vector-split,expand-mixed-kernel",
        " lower-auto-vector-split , expand-mixed-kernel ",
        "builtin.module(lower-auto-vector-split, expand-mixed-kernel)",
        "any(lower-auto-vector-split,expand-mixed-kernel)",
    ],
)
def test_parse_pipeline_forms(text):
    assert parse_pipeline(text) == ["lower-auto-vector-split", "expand-mixed-kernel"]


def test_parse_pipeline_rejects_unknown_passes():
    with pytest.raises(UsageError, match="unknown pass 'nope' in the pipeline \\(available: "):
        parse_pipeline("expand-mixed-kernel,nope")


def test_passes_run_in_command_line_order():
    args = build_arg_parser().parse_args(
        ["--expand-mixed-kernel", "-p", "builtin.module(verify-mixed-kernel-expanded, lower-auto-vector-split)",
         "--lower-auto-vector-split", "--pass-pipeline", "expand-mixed-kernel", "in.mlir"]
    )
    assert args.pipeline == ["expand-mixed-kernel", "verify-mixed-kernel-expanded", "lower-auto-vector-split",
                             "lower-auto-vector-split", "expand-mixed-kernel"]
    assert args.input == "in.mlir"


def test_defaults():
    args = build_arg_parser().parse_args([])
    assert args.pipeline == [] and args.input == "-" and args.output == "-"
    assert not (args.split_input_file or args.verify_diagnostics or args.mlir_print_op_generic)


def test_every_registered_pass_has_a_flag_and_help_line(capsys):
    with pytest.raises(SystemExit) as e:
        build_arg_parser().parse_args(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for name, info in PASSES.items():
        assert f"--{name}" in out and info.description in out
        assert build_arg_parser().parse_args([f"--{name}"]).pipeline == [name]


# -- chunks and annotations ----------------------------------------------------------------------------------


def test_split_chunks_line_offsets():
    text = "a\n// -----\n\nb\nb2\n// -----   \nc\n"
    chunks = split_chunks(text)
    assert [c for c, _ in chunks] == ["a\n", "\nb\nb2\n", "c\n"]
    # The offset is the number of lines before the chunk: its first line is offset + 1.
    assert [o for _, o in chunks] == [0, 2, 6]
    assert text.split("\n")[2 + 1] == "b"


def test_split_chunks_without_markers_is_one_chunk():
    assert split_chunks("x\n// ---\ny\n") == [("x\n// ---\ny\n", 0)]


def test_collect_expected_forms():
    chunk = "\n".join([
        "op  // expected-error {{same line}}",
        "// expected-error@+2 {{two below}}",
        "op",
        "op",
        "// expected-error@-1 {{one above}}",
        "// expected-error@above {{above}}",
        "// expected-warning@below {{below}}",
        "op",
        "// expected-note {{a note}}",
    ])
    got = [(e.severity, e.line, e.text) for e in collect_expected(chunk, 10)]
    assert got == [
        ("error", 11, "same line"),
        ("error", 14, "two below"),
        ("error", 14, "one above"),
        ("error", 15, "above"),
        ("warning", 18, "below"),
        ("note", 19, "a note"),
    ]


@pytest.mark.parametrize("text, blank", [("", True), ("  \n\t\n", True), ("// a\n  // b\n", True),
                                         ("// a\nbuiltin.module {}\n", False)])
def test_is_blank(text, blank):
    assert is_blank(text) is blank


# -- main() --------------------------------------------------------------------------------------------------


def test_main_success_prints_the_module(tmp_path, capsys):
    src = tmp_path / "in.mlir"
    src.write_text(GOOD)
    assert run(capsys, str(src)) == (0, GOOD, "")


def test_main_runs_passes_and_writes_the_output_file(tmp_path, capsys):
    src, dst = tmp_path / "in.mlir", tmp_path / "out.mlir"
    src.write_text(GOOD)
    code, out, err = run(capsys, str(src), "-p", "verify-mixed-kernel-expanded", "-o", str(dst))
    assert (code, out, err) == (0, "", "")
    assert dst.read_text() == GOOD


def test_main_ir_after_all_goes_to_stderr(tmp_path, capsys):
    src = tmp_path / "in.mlir"
    src.write_text(GOOD)
    code, out, err = run(capsys, str(src), "--verify-mixed-kernel-expanded", "--verify-mixed-kernel-expanded",
                         "--mlir-print-ir-after-all")
    assert code == 0 and out == GOOD
    assert err == ("// -----// IR Dump After verify-mixed-kernel-expanded //----- //\n" + GOOD) * 2


def test_main_reports_located_errors_with_exit_1(tmp_path, capsys):
    src = tmp_path / "bad.mlir"
    src.write_text(GOOD.replace("#pto.target<a2a3>", "#pto.target<a4>"))
    code, out, err = run(capsys, str(src))
    assert code == 1 and out == ""
    assert err == f"{src}:1:53: error: unknown pto.target value 'a4', expected one of: a2a3, a5\n"


def test_main_split_input_file_joins_outputs_and_keeps_going(tmp_path, capsys):
    src = tmp_path / "in.mlir"
    src.write_text(GOOD + "// -----\n\nfunc.func @bad(%a: !pto.tile<4xf32, ub>) {\n  func.return\n}\n// -----\n" + GOOD)
    code, out, err = run(capsys, str(src), "--split-input-file")
    assert code == 1
    assert out == GOOD + "// -----\n" + GOOD
    assert err.startswith(f"{src}:8:37: error: unknown memory space 'ub'")


@pytest.mark.parametrize("text", ["", "\n\n", "// nothing here\n"])
def test_main_empty_input(tmp_path, capsys, text):
    src = tmp_path / "empty.mlir"
    src.write_text(text)
    assert run(capsys, str(src)) == (1, "", f"{src}:1:1: error: {pypto_opt.EMPTY_INPUT}\n")


def test_main_usage_errors(tmp_path, capsys):
    code, out, err = run(capsys, "--frobnicate")
    assert code == 1 and out == "" and "unrecognized arguments: --frobnicate" in err
    code, out, err = run(capsys, "-p", "nope", str(tmp_path / "x.mlir"))
    assert code == 1 and "unknown pass 'nope'" in err
    code, out, err = run(capsys, str(tmp_path / "missing.mlir"))
    assert code == 1 and err == f"{tmp_path / 'missing.mlir'}: error: cannot read input file: No such file or directory\n"


def test_an_internal_error_is_reported_without_a_traceback(tmp_path, capsys, monkeypatch):
    src = tmp_path / "in.mlir"
    src.write_text(GOOD)

    def boom(module):
        raise ValueError("boom")

    monkeypatch.delenv("PYPTO_DEBUG", raising=False)
    monkeypatch.setattr(pypto_opt, "verify_module", boom)
    code, out, err = run(capsys, str(src))
    assert code == 1
    assert err.startswith(f"{src}:1:1: error: internal compiler error: ValueError: boom (please report this")
    assert "Traceback" not in err


def test_recursion_is_a_located_error(tmp_path, capsys, monkeypatch):
    src = tmp_path / "in.mlir"
    src.write_text(GOOD)

    def deep(module):
        raise RecursionError

    monkeypatch.setattr(pypto_opt, "verify_module", deep)
    code, out, err = run(capsys, str(src))
    assert code == 1 and err.startswith(f"{src}:1:1: error: input nests too deeply to be processed")


def test_verify_diagnostics_in_process(tmp_path, capsys):
    src = tmp_path / "d.mlir"
    src.write_text(
        "func.func @f(%a: !pto.tile<16x128xf32, acc>) {\n"
        "  // expected-error@+1 {{must be in [0, 4], got 9}}\n"
        "  pto.tpush_to_aiv %a {split = 9 : i64} : !pto.tile<16x128xf32, acc>\n"
        "  func.return\n}\n"
    )
    assert run(capsys, str(src), "--verify-diagnostics")[0] == 0
    src.write_text(src.read_text().replace("got 9}}", "got 8}}"))
    code, _, err = run(capsys, str(src), "--verify-diagnostics")
    assert code == 1
    assert f"{src}:3:3: error: unexpected error: 'pto.tpush_to_aiv' op attribute 'split'" in err
    assert f"{src}:3:1: error: expected error \"must be in [0, 4], got 8\" was not produced" in err
