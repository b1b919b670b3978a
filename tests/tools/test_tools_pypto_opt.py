"""pypto-opt at the unit level: pass ordering (pipeline parsing itself: test_pipeline.py), --help, input splitting, expected-diagnostic
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
    assert err == ("// -----// IR Dump After VerifyMixedKernelExpanded (verify-mixed-kernel-expanded) //----- //\n" + GOOD) * 2


def test_main_reports_located_errors_with_exit_1(tmp_path, capsys):
    src = tmp_path / "bad.mlir"
    src.write_text(GOOD.replace("#pto.target<a2a3>", "#pto.target<a4>"))
    code, out, err = run(capsys, str(src))
    assert code == 1 and out == ""
    # As mlir-opt: the located line, then the source line and a caret under the column.
    line = GOOD.replace("a2a3", "a4").splitlines()[0]
    assert err == (
        f"{src}:1:53: error: unknown pto.target value 'a4', expected one of: a2a3, a5\n{line}\n" + " " * 52 + "^\n"
    )


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
    assert code == 1 and out == "" and "unknown command line argument '--frobnicate'" in err
    code, out, err = run(capsys, "-p", "nope", str(tmp_path / "x.mlir"))
    assert code == 1 and "unknown pass 'nope'" in err
    code, out, err = run(capsys, str(tmp_path / "missing.mlir"))
    assert code == 1 and err == f"{tmp_path / 'missing.mlir'}: error: cannot read input file: No such file or directory\n"


def test_an_internal_error_is_reported_without_a_traceback(tmp_path, capsys, monkeypatch):
    src = tmp_path / "in.mlir"
    src.write_text(GOOD)

    def boom(module, memo=None):
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

    def deep(module, memo=None):
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


# -- -o (atomic), mlir-opt spellings, bytecode ----------------------------------------------------------------


def test_output_file_is_replaced_atomically(tmp_path, capsys):
    src, dst = tmp_path / "in.mlir", tmp_path / "out.mlir"
    src.write_text(GOOD)
    dst.write_text("old")
    dst.chmod(0o640)
    assert run(capsys, str(src), "-o", str(dst))[0] == 0
    assert dst.read_text() == GOOD
    assert dst.stat().st_mode & 0o777 == 0o640  # the existing file's permissions are kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mlir", "out.mlir"]  # no temporary left


def test_failing_run_leaves_the_output_file_alone(tmp_path, capsys):
    src, dst = tmp_path / "bad.mlir", tmp_path / "out.mlir"
    src.write_text(GOOD.replace("a2a3", "a4"))
    dst.write_text("old")
    assert run(capsys, str(src), "-o", str(dst))[0] == 1
    assert dst.read_text() == "old"
    dst.unlink()
    assert run(capsys, str(src), "-o", str(dst))[0] == 1
    assert not dst.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mlir"]


def test_write_output_cleans_up_when_writing_fails(tmp_path, monkeypatch):
    dst = tmp_path / "out.mlir"
    dst.write_text("old")

    def broken_replace(a, b):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pypto_opt.os, "replace", broken_replace)
    with pytest.raises(OSError):
        pypto_opt.write_output(str(dst), "new")
    assert dst.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.mlir"]


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["-pass-pipeline=builtin.module(x)", "in"], ["--pass-pipeline=builtin.module(x)", "in"]),
        (["-split-input-file", "-o", "-split-input-file"], ["--split-input-file", "-o", "-split-input-file"]),
        (["-p", "expand-mixed-kernel", "-mlir-timing"], ["-p", "expand-mixed-kernel", "--mlir-timing"]),
        (["-expand-mixed-kernel"], ["--expand-mixed-kernel"]),
        (["--lower-auto-vector-split=a=1 b=2"], ["-p", "lower-auto-vector-split{a=1 b=2}"]),
        (["--verify-each", "--verify-each=0"], ["--verify-each=1", "--verify-each=0"]),
        (["-unknown-thing"], ["-unknown-thing"]),  # left for argparse to refuse
        (["--", "-split-input-file"], ["--", "-split-input-file"]),
    ],
)
def test_normalize_argv(argv, expected):
    parser = build_arg_parser()
    assert pypto_opt.normalize_argv(argv, pypto_opt.long_options(parser)) == expected


def test_pass_options_flow_from_the_command_line(monkeypatch):
    """`-p 'pass{opt=val}'` builds the pass with that field set (checked on a registry with an options pass)."""
    from dataclasses import dataclass

    from xdsl.passes import ModulePass

    from pypto_mlir import pipeline

    @dataclass(frozen=True)
    class Opt(ModulePass):
        name = "opt-pass"
        level: int = 0

        def apply(self, ctx, op):
            pass

    monkeypatch.setattr(pipeline, "_registry", lambda: {"opt-pass": lambda: Opt})
    args = build_arg_parser().parse_args(["-p", "builtin.module(opt-pass{level=3})"])
    assert args.passes == [Opt(level=3)] and args.pipeline == ["opt-pass{level=3}"]


def test_bytecode_without_the_bindings_is_a_located_error(tmp_path, capsys, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_mlir(name, *a, **k):
        if name == "mlir" or name.startswith("mlir."):
            raise ImportError("no mlir")
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_mlir)
    src = tmp_path / "k.mlirbc"
    src.write_bytes(b"ML\xefR\x00garbage")
    code, out, err = run(capsys, str(src))
    assert code == 1 and out == ""
    assert err.startswith(f"{src}:1:1: error: the input is MLIR bytecode, which pypto-mlir reads through upstream")
    assert "pip install 'pypto-mlir[mlir]'" in err and "Traceback" not in err


def test_version_list_passes_show_dialects(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("pypto-opt (pypto-mlir) version ")
    code, out, _ = run(capsys, "--list-passes")
    assert code == 0 and out.splitlines()[0] == "Passes:"
    assert all(f"--{n}" in out for n in PASSES)
    assert run(capsys, "--show-dialects")[:2] == (0, "Available Dialects: arith,builtin,func,pto,scf\n")


def test_no_abbreviations(capsys):
    code, _, err = run(capsys, "--expand")
    assert code == 1 and "unknown command line argument '--expand'" in err


def test_main_runs_with_its_gc_thresholds_and_restores_the_callers(tmp_path, monkeypatch):
    """pypto-opt raises the cyclic GC's thresholds while it runs (docs/performance.md) and gives a caller that runs
    it in-process its own thresholds back, also when it fails."""
    import gc

    seen = []
    real = pypto_opt._main
    monkeypatch.setattr(pypto_opt, "_main", lambda argv: (seen.append(gc.get_threshold()), real(argv))[1])
    src = tmp_path / "in.mlir"
    src.write_text("builtin.module {}\n")
    before = gc.get_threshold()
    assert main([str(src)]) == 0
    assert main([str(tmp_path / "missing.mlir")]) == 1
    assert seen == [pypto_opt.GC_THRESHOLDS] * 2
    assert gc.get_threshold() == before
