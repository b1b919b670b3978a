"""The one pipeline runner (`pypto_mlir.pipeline`): spec forms, options reaching the pass, anchors, errors with a
caret, verification after each pass and the hooks around passes."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from pypto_mlir import PtoError, parse_module
from pypto_mlir.pipeline import (
    INVALID_OUTPUT,
    PipelineError,
    PipelineHooks,
    describe_pass,
    invalid_output_note,
    parse_pipeline,
    pass_display_name,
    run_pipeline,
)

NAMES = ["lower-auto-vector-split", "expand-mixed-kernel"]


@pytest.mark.parametrize(
    "text",
    [
        "lower-auto-vector-split,expand-mixed-kernel",
        " lower-auto-vector-split , expand-mixed-kernel ",
        "builtin.module(lower-auto-vector-split, expand-mixed-kernel)",
        "builtin.module( lower-auto-vector-split{} ,expand-mixed-kernel )",
        "any(lower-auto-vector-split,expand-mixed-kernel)",
    ],
)
def test_spec_forms(text):
    assert [p.name for p in parse_pipeline(text)] == NAMES


def test_several_specs_in_order():
    got = parse_pipeline(["expand-mixed-kernel", "builtin.module(verify-mixed-kernel-expanded)"])
    assert [p.name for p in got] == ["expand-mixed-kernel", "verify-mixed-kernel-expanded"]


def test_empty_pipelines():
    assert parse_pipeline("") == () and parse_pipeline("builtin.module()") == ()


# A pass with options, registered only for these tests: options must reach its dataclass fields.
@dataclass(frozen=True)
class OptionsPass(ModulePass):
    name = "with-options"
    lane_stride: int = 0
    mode: str = "auto"
    report: bool = False
    sizes: tuple[int, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        op.attributes["seen"] = __import__("xdsl.dialects.builtin", fromlist=["StringAttr"]).StringAttr(str(self))


REG = {"with-options": lambda: OptionsPass}


def test_options_reach_the_pass_fields():
    (p,) = parse_pipeline('builtin.module(with-options{lane-stride=8 mode="fallback" report=true sizes=1,2,3})', REG)
    assert p == OptionsPass(lane_stride=8, mode="fallback", report=True, sizes=(1, 2, 3))
    # spelled as on the command line: dashes, no quotes around a plain word (issue 44)
    assert describe_pass(p) == "with-options{lane-stride=8 mode=fallback report=true sizes=1,2,3}"
    # The description parses back to the same pass.
    assert parse_pipeline(describe_pass(p), REG) == (p,)


def test_options_default_and_bare_flag():
    assert parse_pipeline("with-options", REG) == (OptionsPass(),)
    assert parse_pipeline("with-options{mode=report}", REG) == (OptionsPass(mode="report"),)


@pytest.mark.parametrize(
    "spec, message, caret_line",
    [
        ("expand-mixed-kernel,nope", "unknown pass 'nope' in the pipeline (available: ", "                    ^^^^"),
        ("builtin.module(func.func(cse))", "cannot run passes on 'func.func'", "               ^^^^^^^^^"),
        ("func.func(expand-mixed-kernel)", "cannot run passes on 'func.func' (as the pipeline's anchor)", "^^^^^^^^^"),
        (
            "builtin.module(builtin.module(expand-mixed-kernel))",
            "cannot run passes on 'builtin.module' (nested inside",
            "               ^^^^^^^^^^^^^^",
        ),
        ("a,,b", "empty element", "  ^"),
        ("builtin.module(expand-mixed-kernel", "unbalanced brackets", None),
        ("expand-mixed-kernel)", "unbalanced ')'", None),
    ],
)
def test_bad_specs_are_located(spec, message, caret_line):
    with pytest.raises(PipelineError) as e:
        parse_pipeline(spec)
    text = str(e.value)
    assert message in text
    assert spec in text.splitlines()  # the spec is shown ...
    if caret_line is not None:  # ... with a caret under the offending part
        assert caret_line in text.splitlines()


def test_bad_options_name_the_known_ones():
    with pytest.raises(PipelineError, match=r"unknown option 'no-such' for pass 'with-options' \(options of 'with-options': "
                                            r"lane-stride, mode, report, sizes\)"):
        parse_pipeline("with-options{no-such=1}", REG)
    with pytest.raises(PipelineError, match="'verify-budget' takes no options"):
        parse_pipeline("verify-budget{x=1}")
    with pytest.raises(PipelineError, match="options of 'expand-mixed-kernel': ring-depth"):
        parse_pipeline("expand-mixed-kernel{x=1}")
    with pytest.raises(PipelineError, match="cannot parse the pass 'with-options{mode=}'"):
        parse_pipeline("with-options{mode=}", REG)


def test_display_name():
    (p,) = parse_pipeline("lower-auto-vector-split")
    assert pass_display_name(p) == "LowerAutoVectorSplit"


MODULE = """builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @main() attributes {pto.kind = #pto.kind<orchestration>} {
    func.return
  }
}
"""


class Recorder(PipelineHooks):
    def __init__(self):
        self.events = []

    def before_pass(self, p, module):
        self.events.append(("before", p.name))

    def after_pass(self, p, module):
        self.events.append(("after", p.name))

    def after_failure(self, p, module, error):
        self.events.append(("failed", p.name, type(error).__name__))


@dataclass(frozen=True)
class BreaksTheModule(ModulePass):
    """Leaves an invalid module (an unknown pto.kind): the verification after it must catch that."""

    name = "breaks"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.dialects.builtin import StringAttr

        f = next(iter(op.body.block.ops))
        f.attributes["pto.kind"] = StringAttr("nonsense")


def test_runs_in_order_and_calls_the_hooks():
    m = parse_module(MODULE)
    rec = Recorder()
    run_pipeline(m, "expand-mixed-kernel,verify-mixed-kernel-expanded", hooks=rec)
    assert rec.events == [
        ("before", "expand-mixed-kernel"),
        ("after", "expand-mixed-kernel"),
        ("before", "verify-mixed-kernel-expanded"),
        ("after", "verify-mixed-kernel-expanded"),
    ]


def test_verifies_after_each_pass_unless_told_not_to():
    passes = parse_pipeline("breaks", {"breaks": lambda: BreaksTheModule})
    m = parse_module(MODULE)
    rec = Recorder()
    with pytest.raises(PtoError, match="pto.kind") as err:
        run_pipeline(m, passes, hooks=rec)
    assert rec.events == [("before", "breaks"), ("failed", "breaks", "PtoError")]
    # the error says it is the pass's output that does not verify (the campaign counts it as a failure)
    assert [n for _, n in err.value.notes] == [invalid_output_note("breaks")]
    assert INVALID_OUTPUT in err.value.format()
    run_pipeline(parse_module(MODULE), passes, verify_each=False)  # no verification: no error


def test_no_tool_applies_passes_by_itself():
    """"Apply a pass, verify the module" lives in pypto_mlir.pipeline only: no other source calls `.apply(`
    on a pass or loops over pass names itself."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    offenders = []
    for path in [*(root / "tools").glob("*.py"), *(root / "python" / "pypto_mlir").rglob("*.py")]:
        if path.name == "pipeline.py":
            continue
        text = path.read_text()
        if "().apply(" in text or "get_pass(name)" in text:
            offenders.append(path.relative_to(root).as_posix())
    assert offenders == []


def test_passes_that_declare_they_change_nothing_leave_the_module_as_it_was():
    """`changes_ir = False` lets the pipeline skip the verification after a pass; it must hold."""
    from pathlib import Path

    from pypto_mlir.ir import parse_module, print_module

    root = Path(__file__).resolve().parents[1]
    checks = ["verify-budget", "verify-mixed-kernel-expanded"]
    for p in checks:
        assert getattr(parse_pipeline(p)[0], "changes_ir", True) is False
    for src in sorted((root / "examples").glob("*.mlir")):
        m = parse_module(src.read_text())
        run_pipeline(m, "lower-auto-vector-split,expand-mixed-kernel")
        before = print_module(m)
        run_pipeline(m, ",".join(checks))
        assert print_module(m) == before, src.name


@pytest.mark.parametrize(
    "spec, message, caret",
    [
        # an unknown option, written with an underscore: named with the dash the pass's option list uses
        ("expand-mixed-kernel{ring_dep=2}", "unknown option 'ring-dep' for pass 'expand-mixed-kernel' (options of "
         "'expand-mixed-kernel': ring-depth, skew)", "                    ^^^^^^^^"),
        # a value of the wrong type, and one the pass refuses itself: the option is spelled one way only
        ("lower-auto-vector-split{remarks=maybe}", "bad value 'maybe' for option 'remarks' of pass "
         "'lower-auto-vector-split': expected true or false", "                        ^^^^^^^"),
        ("expand-mixed-kernel{ring_depth=deep}", "bad value 'deep' for option 'ring-depth' of pass "
         "'expand-mixed-kernel': expand-mixed-kernel: unknown ring-depth 'deep'", "                    ^^^^^^^^^^"),
    ],
)
def test_option_errors_name_the_option_as_written_on_the_command_line(spec, message, caret):
    with pytest.raises(PipelineError) as e:
        parse_pipeline(spec)
    text = str(e.value)
    first = text.splitlines()[0]
    assert message in first and "ring_depth" not in first and "Provided arguments" not in first
    assert text.splitlines()[-2:] == [spec, caret]


def test_describe_pass_round_trips_and_quotes_only_what_needs_it():
    (p,) = parse_pipeline('with-options{mode="two words" sizes=1}', REG)
    assert describe_pass(p) == 'with-options{mode="two words" sizes=1}'
    assert parse_pipeline(describe_pass(p), REG) == (p,)
    (q,) = parse_pipeline("expand-mixed-kernel")
    assert describe_pass(q) == "expand-mixed-kernel"
    assert describe_pass(q, include_default=True) == "expand-mixed-kernel{ring-depth=auto skew=auto}"
