"""The one pass-pipeline runner: parse a pipeline spec, run its passes, verify after each.

Every tool runs passes through here (`pypto-opt`, `pypto-run --check-pipeline`, the upstream-MLIR bridge,
`python -m pypto_mlir.mlir_tools same-pto-ops`), so "apply a pass, then verify the module" is written once.

Pipeline specs are MLIR's textual form, read with xDSL's own pass-spec parser for each pass:

    lower-auto-vector-split,expand-mixed-kernel
    builtin.module(lower-auto-vector-split{opt=val other=1,2}, expand-mixed-kernel)
    any(expand-mixed-kernel)

`pass{opt=val}` sets the dataclass field `opt` of the pass (dashes in option names become underscores, as in
xDSL: `{lane-stride=8}` sets `lane_stride`). Every pypto-mlir pass runs on the whole `builtin.module`, so the
only anchors are a top-level `builtin.module(...)` or `any(...)` (both mean "the module"); a nested anchor
(`builtin.module(func.func(...))`) would run the pass on other ops, which none of our passes can, and is
refused with the reason. A malformed spec raises `PipelineError`, whose message shows the spec with a caret
under the offending place (xDSL's span printing).
"""

from __future__ import annotations

import dataclasses
import re
from contextlib import nullcontext
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from xdsl.utils.lexer import Input, Span

from pypto_mlir.diagnostics import PtoError

if TYPE_CHECKING:  # a driver imports this module even when it runs no pass: it loads nothing of them
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.passes import ModulePass
    from xdsl.utils.arg_spec import ArgSpec

    from pypto_mlir.verify import VerifyMemo

__all__ = [
    "PipelineError",
    "PipelineHooks",
    "describe_pass",
    "parse_pipeline",
    "pass_display_name",
    "run_pipeline",
    "DefaultRingCostModel",
    "DefaultSkewRewriter",
    "DefaultSplitCostModel",
    "with_default_models",
]

# Anchors that mean "the top-level module" when they wrap the whole pipeline.
TOP_ANCHORS = ("builtin.module", "any")


class PipelineError(ValueError):
    """A pipeline spec that cannot be read: unknown pass or option, bad syntax, an anchor our passes cannot run
    under. The message is complete (with the spec and a caret where one helps); tools print it as a usage
    error."""


def _registry() -> Mapping[str, Callable[[], type[ModulePass]]]:
    from pypto_mlir.passes import PASSES

    return {name: info.load for name, info in PASSES.items()}


def _caret(spec: str, start: int, end: int, message: str) -> str:
    """`message` followed by the spec with carets under [start, end) (xDSL's span printing)."""
    span = Span(start, max(end, start + 1), Input(spec, "pass-pipeline"))
    context = span.print_with_context(message).splitlines()
    # print_with_context starts with the `pass-pipeline:1:N` location line; the message already says what.
    return message + "\n" + "\n".join(context[1:3])


def _split_top(spec: str, start: int, end: int) -> list[tuple[int, int]]:
    """The [start, end) ranges of the comma-separated elements of spec[start:end], at nesting depth 0 (commas
    inside `{...}`, `(...)`, `[...]` or quotes belong to the element)."""
    out: list[tuple[int, int]] = []
    depth, quote, elem = 0, False, start
    i = start
    while i < end:
        c = spec[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == '"':
                quote = False
        elif c == '"':
            quote = True
        elif c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
            if depth < 0:
                raise PipelineError(_caret(spec, i, i + 1, f"unbalanced '{c}' in the pass pipeline"))
        elif c == "," and depth == 0:
            out.append((elem, i))
            elem = i + 1
        i += 1
    if quote:
        raise PipelineError(_caret(spec, elem, end, "unterminated string in the pass pipeline"))
    if depth != 0:
        raise PipelineError(_caret(spec, elem, end, "unbalanced brackets in the pass pipeline"))
    out.append((elem, end))
    return out


def _strip(spec: str, start: int, end: int) -> tuple[int, int]:
    while start < end and spec[start].isspace():
        start += 1
    while end > start and spec[end - 1].isspace():
        end -= 1
    return start, end


def _anchor(spec: str, start: int, end: int) -> tuple[str, int, int] | None:
    """(`name`, body start, body end) when spec[start:end] is `name(body)`, else None."""
    i = start
    while i < end and (spec[i].isalnum() or spec[i] in "._-$"):
        i += 1
    j = i
    while j < end and spec[j].isspace():
        j += 1
    if i == start or j >= end or spec[j] != "(" or spec[end - 1] != ")":
        return None
    return spec[start:i], j + 1, end - 1


def _leaves(spec: str, start: int, end: int, top: bool) -> list[tuple[int, int]]:
    """The pass elements of spec[start:end], anchors unwrapped (only a top-level module anchor is allowed)."""
    start, end = _strip(spec, start, end)
    if start == end:
        return []
    out: list[tuple[int, int]] = []
    for s, e in _split_top(spec, start, end):
        s, e = _strip(spec, s, e)
        if s == e:
            raise PipelineError(_caret(spec, s, s + 1, "empty element in the pass pipeline (two commas in a row?)"))
        anchored = _anchor(spec, s, e)
        if anchored is None:
            out.append((s, e))
            continue
        name, bs, be = anchored
        if top and name in TOP_ANCHORS:
            out.extend(_leaves(spec, bs, be, top=False))
            continue
        where = "nested inside the module's pipeline" if not top else "as the pipeline's anchor"
        raise PipelineError(
            _caret(
                spec,
                s,
                s + len(name),
                f"cannot run passes on '{name}' ({where}): every pypto-mlir pass runs on the whole "
                "builtin.module; write the passes directly inside builtin.module(...)",
            )
        )
    return out


def parse_pipeline(
    spec: str | Iterable[str],
    available: Mapping[str, Callable[[], type[ModulePass]]] | None = None,
) -> tuple[ModulePass, ...]:
    """The passes of a pipeline spec (or of several specs, in order), with their options set.

    `available` maps pass names to loaders (default: every pypto-mlir pass)."""
    if not isinstance(spec, str):
        return tuple(p for one in spec for p in parse_pipeline(one, available))
    from xdsl.utils.arg_spec import parse_spec
    from xdsl.utils.exceptions import ArgSpecParseError

    registry = _registry() if available is None else available
    passes: list[ModulePass] = []
    for s, e in _leaves(spec, 0, len(spec), top=True):
        text = spec[s:e]
        try:
            arg_spec = parse_spec(text)
        except ArgSpecParseError as err:  # (a BaseException in xDSL)
            lines = str(err).rstrip().split("\n")[2:]  # drop the heading and xDSL's `pass-pipeline:1:N` line
            raise PipelineError(f"cannot parse the pass '{text}' in the pass pipeline:\n" + "\n".join(lines)) from None
        if arg_spec.name not in registry:
            raise PipelineError(
                _caret(
                    spec,
                    s,
                    s + len(arg_spec.name),
                    f"unknown pass '{arg_spec.name}' in the pipeline (available: {', '.join(registry)}); "
                    "upstream passes such as canonicalize run in mlir-opt",
                )
            )
        cls = registry[arg_spec.name]()
        passes.append(_instantiate(cls, arg_spec, spec, s, e))
    return tuple(passes)


def _instantiate(cls: type[ModulePass], arg_spec: ArgSpec, spec: str, s: int, e: int) -> ModulePass:
    try:
        return cls.from_spec(arg_spec)
    except (ValueError, TypeError, NotImplementedError) as err:
        raise PipelineError(_option_error(cls, arg_spec, err, spec, s, e)) from None


class DefaultRingCostModel:
    """The ring cost model the drivers hand to the passes: `interpreter.ring_cost.ReplayRingCostModel`, loaded when
    a kernel is first timed (the interpreter loads NumPy; most runs time nothing)."""

    def makespans(self, module: ModuleOp, group: str, depths: list[int], scalar_values=({},)) -> dict[int, int | None] | str:
        from pypto_mlir.interpreter.ring_cost import ReplayRingCostModel

        return ReplayRingCostModel().makespans(module, group, depths, scalar_values)


class DefaultSkewRewriter:
    """The skew rewrite the drivers hand to the skew choice (`expand-mixed-kernel{skew=auto}`,
    `choose-ring-depth`): the `skew-cross-core-pipeline` pass's `skew_candidates` / `apply_skew`, loaded when a
    kernel is first considered (a pass folder never imports another pass; the driver joins them)."""

    @staticmethod
    def _skew():
        from pypto_mlir.passes import skew_cross_core_pipeline

        return skew_cross_core_pipeline

    def candidates(self, module: ModuleOp) -> list:
        return list(self._skew().skew_candidates(module))

    def apply(self, module: ModuleOp, site: object, distance: int) -> object:
        return self._skew().apply_skew(module, site, distance)


class DefaultSplitCostModel:
    """The split cost model the drivers hand to LowerAutoVectorSplit (`#pto.split<auto>`'s axis, whether a split
    with extra cross-lane work pays): `split_cost.expanded_makespan`, the kernel alone through ExpandMixedKernel
    (run here, with the default ring cost model) and its Group timed; loaded when a kernel is first timed."""

    def kernel_makespan(self, module: ModuleOp, kernel: str) -> int | str:
        from pypto_mlir.split_cost import expanded_makespan

        return expanded_makespan(module, kernel, lambda m: run_pipeline(m, "expand-mixed-kernel"))


def with_default_models(p: ModulePass) -> ModulePass:
    """`p`, handed the default models it takes and has none of: the ring cost model and the skew rewriter
    (`choose-ring-depth`, `expand-mixed-kernel`), the split cost model (`lower-auto-vector-split`); the passes
    import neither the interpreter, the timing model nor each other."""
    if getattr(p, "cost_model", False) is None:
        p = p.with_cost_model(DefaultRingCostModel())  # type: ignore[attr-defined]
    if getattr(p, "skew_rewriter", False) is None:
        p = p.with_skew_rewriter(DefaultSkewRewriter())  # type: ignore[attr-defined]
    if getattr(p, "split_model", False) is None:
        p = p.with_split_model(DefaultSplitCostModel())  # type: ignore[attr-defined]
    return p


_VALUE_KINDS = {bool: "true or false", int: "an integer", float: "a number", str: "a word"}


def _option_error(cls: type[ModulePass], arg_spec: ArgSpec, err: Exception, spec: str, s: int, e: int) -> str:
    """The message for options a pass refuses: which option, spelled as the user writes it (`ring-depth`, never
    xDSL's field name `ring_depth`), with a caret under it and the options the pass has."""
    from typing import get_type_hints

    from xdsl.utils.arg_spec import ArgSpec as Spec

    fields = {f.name.replace("_", "-"): f for f in dataclasses.fields(cls) if f.init} if dataclasses.is_dataclass(cls) else {}
    known = f"options of '{cls.name}': {', '.join(fields)}" if fields else f"'{cls.name}' takes no options"
    for given, values in arg_spec.parameters.items():
        name = given.replace("_", "-")
        at = spec.find(given, s, e)
        at = at if at >= 0 else s
        if name not in fields:
            return _caret(spec, at, at + len(given), f"unknown option '{name}' for pass '{cls.name}' ({known})")
        try:
            cls.from_spec(Spec(arg_spec.name, {given: values}))
        except (ValueError, TypeError, NotImplementedError) as one:
            kind = _VALUE_KINDS.get(get_type_hints(cls).get(fields[name].name), "")
            why = str(one) if not str(one).startswith(("Incompatible types", "Argument must")) else f"expected {kind}"
            text = ",".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)
            what = f"bad value '{text}'" if values else "no value"
            return _caret(spec, at, at + len(given), f"{what} for option '{name}' of pass '{cls.name}': {why} ({known})")
    return _caret(spec, s, e, f"bad options for pass '{cls.name}': {err} ({known})")


def describe_pass(p: ModulePass, include_default: bool = False) -> str:
    """The pass as it would be written in a pipeline: `name` or `name{opt=val}` (non-default options only, or
    every option with `include_default=True`, as `--dump-pass-pipeline` prints it). Options are spelled as on the
    command line and in `--list-passes` (`ring-depth=auto`, not xDSL's `ring_depth="auto"`); a string is quoted
    only when it is not a plain word."""
    spec = p.spec(include_default=include_default)
    opts = " ".join(
        name.replace("_", "-") + ("=" + ",".join(_option_value(v) for v in values) if values else "")
        for name, values in spec.parameters.items()
    )
    return f"{spec.name}{{{opts}}}" if opts else spec.name


def _option_value(v: object) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, str) and not re.fullmatch(r"[A-Za-z_][\w.-]*", v):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(v)


def pass_display_name(p: ModulePass | type[ModulePass]) -> str:
    """MLIR's display name of a pass: the class name without its `Pass` suffix (`LowerAutoVectorSplit`)."""
    cls = p if isinstance(p, type) else type(p)
    return cls.__name__.removesuffix("Pass")


INVALID_OUTPUT = "left IR that does not verify"
"""What the note on a verifier error after a pass says (`invalid_output_note`); the campaign counts such an error
as a failure of the pass, not as a rejection of the input."""


def invalid_output_note(pass_name: str) -> str:
    """The note added to a verifier error in a pass's output: the error is the pass's, not the input's."""
    return (
        f"pass '{pass_name}' {INVALID_OUTPUT} (the error above is in the pass's output, at the location of the op "
        "it rewrote): a compiler bug, not a problem of the input"
    )


class PipelineHooks:
    """Callbacks around each pass (printing IR, timing); the default does nothing."""

    def before_pass(self, p: ModulePass, module: ModuleOp) -> None:
        pass

    def after_pass(self, p: ModulePass, module: ModuleOp) -> None:
        pass

    def after_failure(self, p: ModulePass, module: ModuleOp, error: BaseException) -> None:
        pass


def run_pipeline(
    module: ModuleOp,
    passes: Sequence[ModulePass] | str,
    ctx: Context | None = None,
    *,
    verify_each: bool = True,
    hooks: PipelineHooks | None = None,
    input_verified: bool = False,
    memo: VerifyMemo | None = None,
    full_verify: bool = False,
) -> None:
    """Run `passes` (instances, or a spec string) on `module` in place, verifying the module after each pass
    that may change it (unless `verify_each=False`; a pass class with `changes_ir = False`, a check such as
    `verify-budget`, is not followed by a verification). A pass or verifier error propagates (a `PtoError`); `hooks.after_failure`
    sees the module as the failing pass left it. `input_verified=True` says the caller has verified `module`
    (as `pypto-opt` does after parsing), so the first pass does not verify it again (`verify.ensure_verified`).

    The verification after a pass re-checks only the ops the pass created or changed: a `verify.VerifyMemo`
    (`memo`, the caller's when it verified the input with one, else a fresh one for this run) remembers what
    verified, and the verdict and message are the full verifier's. `full_verify=True` verifies every op after
    every pass (`pypto-opt --verify-each=full`)."""
    if isinstance(passes, str):
        passes = parse_pipeline(passes)
    if not passes:
        return
    passes = [with_default_models(p) for p in passes]
    from pypto_mlir.ir import make_context
    from pypto_mlir.verify import VerifyMemo, verified_input, verify_module

    ctx = ctx if ctx is not None else make_context()
    if full_verify:
        memo = None
    elif memo is None:
        memo = VerifyMemo()
    for i, p in enumerate(passes):
        if hooks is not None:
            hooks.before_pass(p, module)
        try:
            # the passes check their input (`ensure_verified`) unless it is known to be verified: the first
            # pass's when the caller says so, every later one's (the output of a pass that verifies, or that
            # the caller chose not to verify with verify_each=False)
            with verified_input(module) if i > 0 or input_verified else nullcontext():
                p.apply(ctx, module)
            if verify_each and getattr(p, "changes_ir", True):
                try:
                    verify_module(module, memo)  # a pass that declares `changes_ir = False` (a check) left it as it was
                except PtoError as bad:
                    bad.notes.append((None, invalid_output_note(describe_pass(p))))
                    raise
        except BaseException as err:
            if hooks is not None:
                hooks.after_failure(p, module, err)
            raise
        if hooks is not None:
            hooks.after_pass(p, module)
