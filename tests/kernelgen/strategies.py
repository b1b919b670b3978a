"""Hypothesis strategies that build valid mixed `pto` kernels (MLIR text with an orchestration `@main`).

A kernel is a chain of stages, each drawn at random:

* a *cube source*: a matmul of bf16 operands loaded into `mat` and moved to `left`/`right`, optionally chained
  with `matmul_acc`, optionally inside a K-loop that carries the `acc` tile, optionally with a ragged (partially
  valid) row extent; or a *vector prep* feeding the cube (V->C: load f32 into `vec`, scale, cast to bf16, move to
  `left`), possibly both directions in one kernel;
* the C->V boundary (`move acc -> vec`), placed before or inside an `scf.if`, or a K-loop that accumulates the
  moved partial products in a loop-carried `vec` tile (`iter_args`);
* a vector tail: elementwise, scalar, unary ops, reductions with broadcasts (row ops for up_down, column ops for
  left_right), an extra vector operand loaded from GM;
* a store of the result (from `vec`, or straight from `acc`).

* runs of any of these ops (whole loops and `split_aiv_scope` regions included) wrapped in `scf.execute_region`,
  nested too (`exec_regions.py`);
* beyond that (the op coverage record `NOT_EMITTED` below lists what is still not emitted and why): bias
  matmuls, gemv, a cube-side `pto.extract`, the dialect's other vector ops, views and generators, side outputs
  `@main` returns, tile/tensor get/put, a notify/wait handshake, tails inside the K-loop.

Extents are drawn from small even, odd and ragged sizes (and one-row kernels for gemv); the split mode from none/up_down/left_right; the target
from a2a3/a5.  Every generated module parses and verifies (the property test checks that first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hypothesis import strategies as st

from .exec_regions import FEATURES as EXEC_REGION_FEATURES
from .exec_regions import wrap_execute_regions

BF, F32 = "bf16", "f32"


# The vector-tail rules (`vector_tail`): each is tagged `tail:<kind>` in the kernels that use it.
TAIL_KINDS = (
    "unary", "scalar", "binary_self", "binary_load", "reduce", "reshape", "reshape_swap",
    "div", "math", "expand_div", "transpose", "transpose_view", "reinterpret", "ci", "random", "gather_row",
    "extract", "slice", "set_validshape", "tile_get", "tile_put", "generator", "gm_once",
)

# Every feature the strategy can emit (a kernel lists its own in a `// features:` comment; a test reports how
# often each one is drawn and fails if one is never drawn).
FEATURES = (
    [f"target:{t}" for t in ("a2a3", "a5")]
    + [f"split:{s}" for s in ("none", "up_down", "left_right", "region")]
    + [f"mode:{m}" for m in ("c2v", "v2c", "both")]
    + ["single_matmul", "k_chain", "loop:vec_carry", "loop:acc_carry"]
    + ["ragged_rows", "partial_columns", "partial_columns:left_right", "odd_extent_on_split_axis", "odd_v2c_gather"]
    + ["c2v_in_scf_if", "store_from_acc", "two_stores_to_output"]
    + ["gm_exchange", "several_stores_to_one_tensor", "gm_exchange_in_loop", "scratch_reused_across_iterations"]
    + ["load_before_store_in_loop", "region_shard", "region_subblock_idx", "region_lane_exchange"]
    + [f"tail:{k}" for k in TAIL_KINDS]
    + ["tail_in_loop", "matmul_bias", "gemv", "cube_extract", "cube_extract_in_loop"]
    + ["comm:notify_wait", "comm:tensor_get", "comm:tensor_put"]
    + ["pingpong_scratch"]
    + ["tail:reshape:left_right", "tail:reduce:split_axis", "tail:reduce:split_axis_ragged"]
    + ["tail:slice_of_load", "tail:reshape_shared", "v2c_shared", "tail:reinterpret:stored"]
    + ["region_put", "region_cube_reload", "loop:carry_select", "gm_exchange_aliased_params"]
    + ["gm_exchange_through_cast", "held_slots"]
    + list(EXEC_REGION_FEATURES)
    + [f"generator:{g}" for g in ("full", "create", "ci", "f16", "i32", "own_box", "lanes_differ")]
    + [f"generator:through_{t}" for t in ("store", "scalar", "reduce", "if")]
    + [f"gm_once:{x}" for x in ("atomic", "put", "flat", "row", "self")] + ["region_gm_once"]
)


# The coverage record: every op of the `pto` dialect is either emitted by the strategy (somewhere in the module:
# the mixed kernel, or @main for `pto.create_tensor`) or listed here with the reason it is not.  `ILLEGAL_INPUT`
# ops are not legal in a mixed InCore kernel before the passes; `NOT_YET` ops are legal there but have no rule
# yet (a gap, said honestly).  tests/interpreter/test_interp_campaign.py::test_generator_covers_every_legal_op checks it.
ILLEGAL_INPUT, NOT_YET = "not legal in a mixed input kernel", "legal, no generator rule yet"
_PROTOCOL = ("the pipe protocol ExpandMixedKernel creates for the split AIC/AIV kernels; the generated input "
             "leaves every cube<->vector crossing to the passes")
NOT_EMITTED: dict[str, tuple[str, str]] = {
    **{f"pto.{o}": (ILLEGAL_INPUT, _PROTOCOL) for o in (
        "tpush_to_aiv", "tpush_to_aic", "tpop_from_aic", "tpop_from_aiv", "tfree_to_aic", "tfree_to_aiv",
        "reserve_buffer", "import_peer_buffer", "aic_initialize_pipe", "aiv_initialize_pipe")},
    "pto.defer_wait": (ILLEGAL_INPUT, "a deferred waiter must lower to a pure AIV kernel (no cube work); "
                       "ExpandMixedKernel rejects it in a mixed kernel (deferred_waiters.py)"),
    "pto.aic_gather": (NOT_YET, "an explicit V->C boundary of a split_aiv_scope body; the generator's region "
                       "kernels only shard the cube result (C->V)"),
    "pto.batch_matmul": (NOT_YET, "rank-3 tiles: the generator's cube sources and vector tails are 2-D"),
    "pto.batch_matmul_acc": (NOT_YET, "rank-3 tiles: the generator's cube sources and vector tails are 2-D"),
    **{f"pto.{o}": (NOT_YET, "f8E4M3FN operands with f8E8M0FNU scales: the interpreter's random inputs are "
                    "uniform in [-1, 1), which is no valid E8M0 scale; needs scale inputs built in the kernel")
       for o in ("matmul_mx", "matmul_mx_acc", "matmul_mx_bias")},
}

_OP_USE = re.compile(r"(?:^|=)\s*(pto\.[a-z_0-9]+)", re.MULTILINE)


def ops_of(text: str) -> set[str]:
    """The `pto` ops a module uses (names at an op's position: `pto.x` starting a line or after `=`)."""
    return set(_OP_USE.findall(text))


def features_of(text: str) -> set[str]:
    """The features a kernel lists in its `// features:` line (among the leading comment lines)."""
    for line in text.splitlines():
        if line.startswith("// features:"):
            return set(line[len("// features:"):].split())
        if not line.startswith("//"):
            break
    return set()


def tile(shape, dt, space, valid=None) -> str:
    s = f"!pto.tile<{shape[0]}x{shape[1]}x{dt}, {space}"
    if valid is not None and list(valid) != list(shape):
        s += ", valid = [" + ", ".join(str(v) for v in valid) + "]"
    return s + ">"


def tensor(shape, dt) -> str:
    return f"!pto.tensor<{'x'.join(str(d) for d in shape)}x{dt}>"


@dataclass
class Builder:
    split: str
    lines: list[str] = field(default_factory=list)
    params: list[tuple[str, str, str]] = field(default_factory=list)  # name, type, "in" / "out" / "inout"
    # Tensors @main returns besides the kernel's result (side outputs, signal tensors): only what @main returns
    # and its own parameters are compared before and after the pipeline.
    extra_results: list[tuple[str, str]] = field(default_factory=list)
    epilogue: list[str] = field(default_factory=list)  # the kernel's last ops, before its return
    main_pre_call: list[str] = field(default_factory=list)  # @main's ops before the call (e.g. a notify)
    region: bool = False  # the vector tail being drawn is the per-lane body of a split_aiv_scope
    n: int = 0
    indent: int = 2
    features: set[str] = field(default_factory=set)  # what this kernel exercises (see FEATURES)
    # Parameters @main binds to another parameter's tensor (name -> the parameter whose tensor it passes).
    aliases: dict[str, str] = field(default_factory=dict)
    valid_n: int | None = None  # valid columns of the right operand (partial columns), None = all

    def right_valid(self, k: int, n: int):
        return [k, self.valid_n] if self.valid_n is not None and self.valid_n != n else None

    def fresh(self, base: str = "t") -> str:
        self.n += 1
        return f"%{base}{self.n}"

    def emit(self, line: str) -> None:
        self.lines.append("  " * self.indent + line)

    def param(self, base: str, ty: str, out: bool = False, inout: bool = False) -> str:
        name = f"%{base}{len(self.params)}"
        self.params.append((name, ty, "inout" if inout else "out" if out else "in"))
        return name

    def side_output(self, ty: str) -> str:
        """A fresh output tensor that @main creates, passes and returns (so it is compared)."""
        name = self.param("side", ty, out=True)
        self.extra_results.append((name, ty))
        return name

    @property
    def auto_axis(self) -> int | None:
        """The split axis of an AUTO split kernel's vector code (None: no split, or a region's per-lane body)."""
        return None if self.region else {"up_down": 0, "left_right": 1}.get(self.split)

    def const_index(self, v: int) -> str:
        c = self.fresh("c")
        self.emit(f"{c} = arith.constant {v} : index")
        return c

    def const_f32(self, v: float) -> str:
        c = self.fresh("f")
        self.emit(f"{c} = arith.constant {v!r} : f32")
        return c


# ---------------------------------------------------------------------------------------------------------------
# Stages
# ---------------------------------------------------------------------------------------------------------------


def load_operand(b: Builder, tens: str, tshape, off, shape, dt, space, valid=None) -> tuple[str, str]:
    t = tile(shape, dt, space, valid)
    v = b.fresh("ld")
    offs = ", ".join(str(o) for o in off)
    vpart = f" valid [{valid[0]}, {valid[1]}]" if valid is not None and list(valid) != list(shape) else ""
    b.emit(f"{v} = pto.load {tens}[{offs}]{vpart} : {tensor(tshape, dt)} -> {t}")
    return v, t


def move(b: Builder, src: str, src_t: str, dst_t: str) -> str:
    v = b.fresh("mv")
    b.emit(f"{v} = pto.move {src} : {src_t} -> {dst_t}")
    return v


def cube_left(b: Builder, draw, a: str, ashape, m, k, koff, valid_m) -> str:
    """The left operand of one K-slice, loaded by the cube: a `[m, k]` window of A moved to `left`, or (fully
    valid rows) the whole of A loaded once into `mat` and the K-slice taken with `pto.extract` (mat -> left)."""
    lv = [valid_m, k] if valid_m != m else None
    if draw is not None and valid_m == m and draw(st.integers(0, 3)) == 0:
        b.features.add("cube_extract" if isinstance(koff, int) else "cube_extract_in_loop")
        am, at = load_operand(b, a, ashape, [0, 0], ashape, BF, "mat")
        e = b.fresh("ex")
        b.emit(f"{e} = pto.extract {am}[0, {koff}] : {at} -> {tile([m, k], BF, 'left')}")
        return e
    am, at = load_operand(b, a, ashape, [0, koff], [m, k], BF, "mat", lv)
    return move(b, am, at, tile([m, k], BF, "left", lv))


def emit_matmul(b: Builder, draw, left, right, lt, rt, acc_t, n, acc=None) -> str:
    """`matmul` / `matmul_acc` (`gemv*` for a one-row left operand), or `*_bias` with a `[1, n]` bias from GM."""
    r = b.fresh("mm")
    fam = "gemv" if lt.startswith("!pto.tile<1x") else "matmul"
    if fam == "gemv":
        b.features.add("gemv")
    if acc is not None:
        b.emit(f"{r} = pto.{fam}_acc {acc}, {left}, {right} : {acc_t}, {lt}, {rt} -> {acc_t}")
    elif draw is not None and draw(st.integers(0, 3)) == 0:
        b.features.add("matmul_bias")
        bias = b.param("bias", tensor([1, n], F32))
        bv, bt = load_operand(b, bias, [1, n], [0, 0], [1, n], F32, "bias")
        b.emit(f"{r} = pto.{fam}_bias {left}, {right}, {bv} : {lt}, {rt}, {bt} -> {acc_t}")
    else:
        b.emit(f"{r} = pto.{fam} {left}, {right} : {lt}, {rt} -> {acc_t}")
    return r


def cube_operands(b: Builder, a: str, bm: str, ashape, bshape, m, k, n, koff, valid_m, left_from_vec=None, draw=None):
    """Load one K-slice of A (or take a vec-prepared left operand) and of B; returns (left, right) names."""
    if left_from_vec is not None:
        left = left_from_vec
    else:
        left = cube_left(b, draw, a, ashape, m, k, koff, valid_m)
    rv = b.right_valid(k, n)
    bm_, bt = load_operand(b, bm, bshape, [koff, 0], [k, n], BF, "mat", rv)
    right = move(b, bm_, bt, tile([k, n], BF, "right", rv))
    return left, right


def _static(valid) -> bool:
    return all(isinstance(v, int) for v in valid)


def _positive(b: Builder, v: str, t: str) -> str:
    """`abs(v) + 1`: a tile >= 1 everywhere (the domain of log, sqrt, rsqrt, recip and of a divisor)."""
    a, p = b.fresh("v"), b.fresh("v")
    b.emit(f"{a} = pto.abs {v} : {t}")
    b.emit(f"{p} = pto.adds {a}, {b.const_f32(1.0)} : {t}, f32")
    return p


def _tail_kinds(b: Builder, shape, valid, allow_load: bool) -> list[str]:
    """The vector-tail rules legal on an f32 `vec` tile of `shape`/`valid` here (the split, a region body)."""
    # reduce and math are listed twice: they choose among several ops each, and every op should be drawn
    kinds = ["unary", "scalar", "binary_self", "reduce", "reduce", "div", "math", "math", "expand_div", "reinterpret",
             "ci", "random"]
    full = list(valid) == list(shape)
    if full:
        kinds += ["reshape", "reshape_swap"]  # a partially valid tile can only be reshaped to a static valid region
        if b.split == "left_right":
            kinds.append("reshape")  # tail:reshape:left_right (no per-lane form: kept full width) is rare otherwise
    if allow_load:
        kinds.append("binary_load")
        if full:
            kinds += ["tile_get"] * 2  # tile_get reads a fully valid tile; rarely legal, so listed twice
    if not b.region:
        # A transpose round trip swaps the split axis twice: an AUTO split moves the split axis with each
        # permutation (issue 43); LowerAutoVectorSplit refuses it in a split_aiv_scope body (E-TRANSPOSE).
        kinds += ["transpose", "transpose_view"]
    if b.auto_axis != 0 and _static(valid) and valid[0] == shape[0]:
        # gather_row's indices address the whole source: not a row-split (UP_DOWN) source; the ci index column
        # reads rows 0..M-1, which must all be valid.
        kinds += ["gather_row"] * 2  # rarely legal: listed twice so that 300 kernels draw it
    if not b.region:
        # Side outputs (stored at [0, 0] of a tensor @main returns): not from a region body, whose lanes would
        # both write there.
        # generator: listed twice, so that its rarer forms (an scf.if merge, a reduction) are drawn too
        kinds += ["tile_put", "set_validshape", "generator", "generator"] if _static(valid) else ["tile_put"]
        kinds += ["gm_once"] * 2  # issue 40: drawn twice so that the whole-value forms are frequent
        if full and (b.auto_axis is None or shape[b.auto_axis] % 2 == 0):
            kinds += ["extract", "slice"]  # a window of an AUTO split tile halves its (even) split extent
    return kinds


def _window(draw, b: Builder, shape):
    """A smaller window of a `shape` tile that keeps the whole AUTO split axis: (offsets, window shape)."""
    offs, win = [0, 0], list(shape)
    for d in range(2):
        if d == b.auto_axis or shape[d] < 2:
            continue
        win[d] = draw(st.integers(1, shape[d] - 1)) if draw(st.booleans()) else shape[d]
        offs[d] = draw(st.integers(0, shape[d] - win[d]))
    return offs, win


def _generator_tail(draw, b: Builder, shape, valid) -> None:
    """A generator spanning the split axis, stored whole to a side output (issue 40, classes 2 and 3): `pto.full`
    (f32 / f16 / i32), a vec `pto.create` (f32 / f16; made defined by an `adds`, the interpreter's create is 0) or
    `pto.ci` (i32), of the tail's box and valid region or of an own box whose split-axis extent is odd or whose
    valid extent is ragged (15, 16, 17, 33: lanes of 8 + 7, 9 + 8, 17 + 16 ...), through nothing, a scalar op, a
    reduction off the split axis or an `scf.if` merge with a second `full`.  When the lanes hold different valid
    extents, lane 1 must get its own (a `set_validshape` after the halved generator): taking its whole box stores
    past the end of the side output (odd box) or over its cells outside the valid region (ragged)."""
    gen = draw(st.sampled_from(["full", "create", "ci"]))
    dt = "i32" if gen == "ci" else draw(st.sampled_from([F32, "f16", "i32"] if gen == "full" else [F32, "f16"]))
    axis = b.auto_axis if b.auto_axis is not None else 0
    gshape, gvalid = list(shape), list(valid)
    if draw(st.booleans()):
        # an odd box (fully valid or not), or an even one with a ragged valid extent: the lanes' extents differ
        gshape[axis] = draw(st.sampled_from([15, 16, 17, 33]))
        gshape[1 - axis] = draw(st.sampled_from([1, 8]))
        gvalid = list(gshape)
        if gshape[axis] == 16 or draw(st.booleans()):
            gvalid[axis] = draw(st.integers(gshape[axis] // 2, gshape[axis] - 1))
        b.features.add("generator:own_box")
    if b.auto_axis is not None and gshape[axis] > 1 and (gshape[axis] % 2 or gvalid[axis] != gshape[axis]):
        b.features.add("generator:lanes_differ")
    through = draw(st.sampled_from(["store", "scalar", "reduce", "if"] if dt != "i32" else ["store", "scalar", "if"]))
    b.features.update({f"generator:{gen}", f"generator:through_{through}"})
    if dt != F32:
        b.features.add(f"generator:{dt}")
    gt = tile(gshape, dt, "vec", gvalid)

    def const(v: float, ty: str = dt) -> str:
        c = b.fresh("k")
        b.emit(f"{c} = arith.constant {int(v) if ty == 'i32' else float(v)!r} : {ty}")
        return c

    def generate(kind: str, v: float) -> str:
        g = b.fresh("gen")
        if kind == "ci":
            b.emit(f"{g} = pto.ci {const(v, 'i32')} : i32 -> {gt}")
        elif kind == "full":
            b.emit(f"{g} = pto.full {const(v)} : {dt} -> {gt}")
        else:
            b.emit(f"{g} = pto.create : {gt}")
            h = b.fresh("gen")
            b.emit(f"{h} = pto.adds {g}, {const(v)} : {gt}, {dt}")
            g = h
        return g

    rshape, rt = gshape, gt
    if through == "if":
        ci, cj = b.const_index(draw(st.integers(0, 2))), b.const_index(1)
        cond, g = b.fresh("cond"), b.fresh("gif")
        b.emit(f"{cond} = arith.cmpi slt, {ci}, {cj} : index")
        b.emit(f"{g} = scf.if {cond} -> ({gt}) {{")
        for i, (kind, v) in enumerate([(gen, 3), ("full", 5)]):
            b.indent += 1
            b.emit(f"scf.yield {generate(kind, v)} : {gt}")
            b.indent -= 1
            b.emit("} else {" if i == 0 else "}")
    else:
        g = generate(gen, draw(st.sampled_from([1, 2, 7])))
    if through == "scalar":
        h = b.fresh("gen")
        b.emit(f"{h} = pto.muls {g}, {const(3)} : {gt}, {dt}")
        g = h
    elif through == "reduce":
        row = axis == 0  # a reduction along the other axis: row_sum under up_down (and no split), col_sum else
        rshape = [gshape[0], 1] if row else [1, gshape[1]]
        rt = tile(rshape, dt, "vec", [gvalid[0], 1] if row else [1, gvalid[1]])
        h = b.fresh("gen")
        b.emit(f"{h} = pto.{'row' if row else 'col'}_sum {g} : {gt} -> {rt}")
        g = h
    side = b.side_output(tensor(rshape, dt))
    b.emit(f"{b.fresh('o')} = pto.store {g}, {side}[0, 0] : {rt}, {tensor(rshape, dt)}")


@st.composite
def vector_tail(draw, b: Builder, v: str, shape, valid, allow_load: bool = True) -> str:
    """A few vector ops on `v` (an f32 vec tile of `shape`); returns the final value."""
    t = tile(shape, F32, "vec", valid)
    n_ops = draw(st.integers(0, 4))
    kinds = _tail_kinds(b, shape, valid, allow_load)
    for _ in range(n_ops):
        kind = draw(st.sampled_from(kinds))
        r = b.fresh("v")
        b.features.add(f"tail:{kind}")
        if kind == "reshape" and b.split == "left_right":
            # the class lavs-reshape-left-right: a lane's column half is not a half of the flat row
            b.features.add("tail:reshape:left_right")
        if kind in ("reshape", "reshape_swap"):
            # Row-major reshape to one row (or to the swapped shape [N, M]) and back: under a split, the row data
            # moves across the lanes' halves (LEFT_RIGHT: no per-lane form, UP_DOWN: the halves stay blocks).
            flat = [1, shape[0] * shape[1]] if kind == "reshape" else [shape[1], shape[0]]
            ft = tile(flat, F32, "vec")
            f = b.fresh("rs")
            b.emit(f"{f} = pto.reshape {v} : {t} -> {ft}")
            g = b.fresh("v")
            b.emit(f"{g} = pto.muls {f}, {b.const_f32(0.5)} : {ft}, f32")
            b.emit(f"{r} = pto.reshape {g} : {ft} -> {t}")
            if draw(st.integers(0, 2)) == 0:
                r = _reshape_shared(b, r, v, t)
        elif kind == "unary":
            op = draw(st.sampled_from(["relu", "abs", "neg", "exp"]))
            if op == "exp":
                c = b.const_f32(0.0625)
                s = b.fresh("v")
                b.emit(f"{s} = pto.muls {v}, {c} : {t}, f32")
                v = s
            b.emit(f"{r} = pto.{op} {v} : {t}")
        elif kind == "math":
            op = draw(st.sampled_from(["log", "sqrt", "rsqrt", "recip"]))
            b.emit(f"{r} = pto.{op} {_positive(b, v, t)} : {t}")
        elif kind == "div":
            if draw(st.booleans()):
                c = b.const_f32(draw(st.sampled_from([2.0, -4.0, 0.5])))
                b.emit(f"{r} = pto.divs {v}, {c} : {t}, f32")
            else:
                b.emit(f"{r} = pto.div {v}, {_positive(b, v, t)} : {t}")
        elif kind == "scalar":
            op = draw(st.sampled_from(["adds", "muls", "maxs", "mins", "subs"]))
            c = b.const_f32(draw(st.sampled_from([0.5, -0.25, 2.0, 0.125])))
            b.emit(f"{r} = pto.{op} {v}, {c} : {t}, f32")
        elif kind == "binary_self":
            op = draw(st.sampled_from(["add", "mul", "max", "sub"]))
            b.emit(f"{r} = pto.{op} {v}, {v} : {t}")
        elif kind in ("binary_load", "tile_get"):
            op = draw(st.sampled_from(["add", "mul", "min"]))
            if kind == "binary_load" and draw(st.integers(0, 2)) == 0:
                w = _slice_of_load(draw, b, shape, valid)
            elif kind == "tile_get":
                c = b.param("in", tensor(shape, F32))
                w = b.fresh("tg")
                b.emit(f"{w} = pto.tile_get {c}[0, 0] from {b.const_index(0)} : {tensor(shape, F32)} -> {t}")
            else:
                c = b.param("in", tensor(shape, F32))
                w, wt = load_operand(b, c, shape, [0, 0], shape, F32, "vec", valid)
            b.emit(f"{r} = pto.{op} {v}, {w} : {t}")
        elif kind in ("reduce", "expand_div"):
            # Row ops reduce dim 1 (lane-local under up_down), column ops dim 0 (lane-local under left_right).
            axis = "row" if b.split != "left_right" else "col"
            if b.split == "none":
                axis = draw(st.sampled_from(["row", "col"]))
            # Issue 43: an AUTO kernel also reduces over its split axis (col under up_down, row under left_right),
            # which LowerAutoVectorSplit combines across the lanes through a GM workspace; the tile's valid extent
            # may be ragged or its box odd on that axis (a lane's half partial or empty). The other axis's valid
            # extent must be static: the combined result's type states it.
            over = b.auto_axis is not None and isinstance(valid[1 - b.auto_axis], int) and draw(st.booleans())
            if over:
                axis = "col" if b.auto_axis == 0 else "row"
                b.features.add("tail:reduce:split_axis")
                if shape[b.auto_axis] % 2 or valid[b.auto_axis] != shape[b.auto_axis]:
                    b.features.add("tail:reduce:split_axis_ragged")
            rshape = [shape[0], 1] if axis == "row" else [1, shape[1]]
            rvalid = [valid[0], 1] if axis == "row" else [1, valid[1]]
            rt = tile(rshape, F32, "vec", rvalid)
            m = b.fresh("red")
            if kind == "expand_div":
                # Divide by the row/column maximum of abs(v) + 1 (never 0).
                b.emit(f"{m} = pto.{axis}_max {_positive(b, v, t)} : {t} -> {rt}")
                b.emit(f"{r} = pto.{axis}_expand_div {v}, {m} : {t}, {rt}")
            else:
                red = draw(st.sampled_from(["sum", "max", "min"]))
                b.emit(f"{m} = pto.{axis}_{red} {v} : {t} -> {rt}")
                op = draw(st.sampled_from(["sub", "add", "mul"]))
                b.emit(f"{r} = pto.{axis}_expand_{op} {v}, {m} : {t}, {rt}")
        elif kind in ("transpose", "transpose_view"):
            # A transpose round trip, scaled in between.
            tt = tile([shape[1], shape[0]], F32, "vec", [valid[1], valid[0]])
            if kind == "transpose_view":
                # the zero-copy view reads the row-major bytes column-major (dialects.pto_types.transpose_view_type)
                tt = tt[:-1] + ", blayout = col_major>"
            x, y = b.fresh("tr"), b.fresh("v")
            b.emit(f"{x} = pto.{kind} {v} : {t} -> {tt}")
            b.emit(f"{y} = pto.muls {x}, {b.const_f32(-0.5)} : {tt}, f32")
            b.emit(f"{r} = pto.{kind} {y} : {tt} -> {t}")
        elif kind == "reinterpret":
            # The same bytes as i32 (same width) or as twice as many i16 columns, and back.
            if draw(st.booleans()):
                it = tile(shape, "i32", "vec", valid)
            else:
                it = tile([shape[0], 2 * shape[1]], "i16", "vec",
                          [valid[0], 2 * valid[1] if isinstance(valid[1], int) else "?"])
            x = b.fresh("bits")
            b.emit(f"{x} = pto.reinterpret_view {v} : {t} -> {it}")
            if not b.region and "i16" in it and draw(st.integers(0, 2)) == 0:
                # the i16 view also stored: a user that is not a view (under an AUTO split of an odd extent its
                # source is then computed whole, issue 43 class 5); not in a region's per-lane body, where each
                # lane would store its half at the same cells
                b.features.add("tail:reinterpret:stored")
                bt = tensor([shape[0], 2 * shape[1]], "i16")
                b.emit(f"{b.fresh('o')} = pto.store {x}, {b.side_output(bt)}[0, 0] : {it}, {bt}")
            b.emit(f"{r} = pto.reinterpret_view {x} : {it} -> {t}")
        elif kind in ("ci", "random"):
            # A generated row [1, N] (added to every row) or column [M, 1] (to every column); under an AUTO split
            # the generated tile must be a singleton on the split axis (E-GEN otherwise).
            col = {0: False, 1: True}.get(b.auto_axis, draw(st.booleans()))
            gshape = [shape[0], 1] if col else [1, shape[1]]
            gvalid = [valid[0], 1] if col else [1, valid[1]]
            # a generator has no valid operand: where v's valid extent is a runtime one (a region's lane), the
            # generated tile is valid in its whole box (the verifier rejects a '?' on it)
            gvalid = [v if isinstance(v, int) else n for v, n in zip(gvalid, gshape)]
            seed = b.fresh("i")
            b.emit(f"{seed} = arith.constant {draw(st.integers(0, 40))} : i32")
            gt = tile(gshape, F32, "vec", gvalid)
            if kind == "ci":
                ci, gi = b.fresh("ci"), tile(gshape, "i32", "vec", gvalid)
                b.emit(f"{ci} = pto.ci {seed} : i32 -> {gi}")
                cf, g = b.fresh("v"), b.fresh("v")
                b.emit(f"{cf} = pto.cast {ci} : {gi} -> {gt}")
                b.emit(f"{g} = pto.muls {cf}, {b.const_f32(0.125)} : {gt}, f32")
            else:
                g = b.fresh("rnd")
                b.emit(f"{g} = pto.random {seed} : i32 -> {gt}")
            op = draw(st.sampled_from(["add", "sub", "mul"]))
            b.emit(f"{r} = pto.{'row' if col else 'col'}_expand_{op} {v}, {g} : {t}, {gt}")
        elif kind == "gather_row":
            # Rows idx[i] + off of v, idx = 0, 1, ... (pto.ci): a shifted window, stored to a side output, or
            # (off = 0 and all rows) the same tile, which the tail continues with.
            off = draw(st.integers(0, min(3, shape[0] - 1))) if not b.region else 0
            rows = shape[0] - off
            it = tile([rows, 1], "i32", "vec")
            seed, idx = b.fresh("i"), b.fresh("idx")
            b.emit(f"{seed} = arith.constant 0 : i32")
            b.emit(f"{idx} = pto.ci {seed} : i32 -> {it}")
            gt = tile([rows, shape[1]], F32, "vec", [rows, valid[1]])
            g = b.fresh("g")
            b.emit(f"{g} = pto.gather_row {v}, {idx}[{off}] : {t}, {it} -> {gt}")
            if off == 0:
                r = g
            else:
                side = b.side_output(tensor([rows, shape[1]], F32))
                b.emit(f"{b.fresh('o')} = pto.store {g}, {side}[0, 0] : {gt}, {tensor([rows, shape[1]], F32)}")
                r = v
        elif kind == "generator":
            _generator_tail(draw, b, shape, valid)
            r = v
        elif kind == "gm_once":
            _gm_once(draw, b, v, shape, valid)
            r = v
        elif kind in ("extract", "slice", "set_validshape", "tile_put"):
            # A derived tile stored to a side output; the tail continues with v.
            if kind == "tile_put":
                side = b.side_output(tensor(shape, F32))
                peer = b.const_index(0)
                b.emit(f"{b.fresh('o')} = pto.tile_put {v}, {side}[0, 0] to {peer} : {t}, {tensor(shape, F32)}")
                v = r = v
                continue
            if kind == "set_validshape":
                nv = [draw(st.integers(0 if d != b.auto_axis else 1, valid[d])) for d in range(2)]
                wt, w = tile(shape, F32, "vec", nv), b.fresh("sv")
                b.emit(f"{w} = pto.set_validshape {v} valid [{nv[0]}, {nv[1]}] : {t} -> {wt}")
                wshape = shape
            else:
                offs, wshape = _window(draw, b, shape)
                wt, w = tile(wshape, F32, "vec"), b.fresh("win")
                b.emit(f"{w} = pto.{kind} {v}[{offs[0]}, {offs[1]}] : {t} -> {wt}")
            side = b.side_output(tensor(wshape, F32))
            b.emit(f"{b.fresh('o')} = pto.store {w}, {side}[0, 0] : {wt}, {tensor(wshape, F32)}")
            r = v
        v = r
    return v


def _gm_once(draw, b: Builder, v: str, shape, valid) -> None:
    """A GM effect that must happen once per kernel (an atomic store, a put: `OncePerKernel`) of a value that an
    AUTO split may keep whole on both AIV lanes (issue 40, class 1), into a side output @main creates (zeros, so
    a duplicated atomic store shows as twice the value): `flat`, a tile loaded for it alone and flattened to one
    row (whole under left_right, and under up_down when its row count is odd); `row`, a tile loaded as one row
    under up_down or one column under left_right (a singleton split axis: never halved); `self`, the tail's value
    (per lane when split: the control)."""
    what = draw(st.sampled_from(["atomic", "put"]))
    src = draw(st.sampled_from(["flat", "row", "self"]))
    b.features |= {f"gm_once:{what}", f"gm_once:{src}"}
    if src == "self":
        w, wshape, wt = v, list(shape), tile(shape, F32, "vec", valid)
    else:
        col = b.auto_axis == 1 or (b.auto_axis is None and draw(st.booleans()))
        lshape = list(shape) if src == "flat" else ([shape[0], 1] if col else [1, shape[1]])
        c = b.param("in", tensor(lshape, F32))
        w, wt = load_operand(b, c, lshape, [0, 0], lshape, F32, "vec")
        wshape = lshape
        if src == "flat":
            wshape = [1, shape[0] * shape[1]]
            f = b.fresh("flat")
            b.emit(f"{f} = pto.reshape {w} : {wt} -> {tile(wshape, F32, 'vec')}")
            w, wt = f, tile(wshape, F32, "vec")
    ot = tensor(wshape, F32)
    side = b.side_output(ot)
    if what == "atomic":
        b.emit(f"{b.fresh('o')} = pto.store {w}, {side}[0, 0] {{atomic = 1 : i64}} : {wt}, {ot}")
    else:
        b.emit(f"{b.fresh('o')} = pto.tile_put {w}, {side}[0, 0] to {b.const_index(0)} : {wt}, {ot}")


@st.composite
def kernels(draw, max_ops: int = 4) -> str:
    """A generated mixed kernel (`_kernel`), with runs of its ops wrapped in `scf.execute_region` in about half of
    them (`exec_regions.py`)."""
    return draw(wrap_execute_regions(draw(_kernel(max_ops))))


@st.composite
def _kernel(draw, max_ops: int = 4) -> str:
    target = draw(st.sampled_from(["a2a3", "a5"]))
    split = draw(st.sampled_from(["none", "up_down", "left_right"]))
    b = Builder(split)
    m = draw(st.sampled_from([1, 8, 15, 16, 17, 32]))  # 1: a one-row left operand (gemv)
    k = draw(st.sampled_from([16, 32]))
    n = draw(st.sampled_from([16, 31, 32]))
    shape_out = [m, n]
    ragged = draw(st.booleans()) and m > 8
    valid_m = draw(st.integers(max(1, m // 2), m - 1)) if ragged else m
    # Partial columns (valid columns of the right operand, hence of the product): left_right splits them.
    ragged_cols = draw(st.integers(0, 3)) == 0 and n > 16
    valid_n = draw(st.integers(n // 2, n - 1)) if ragged_cols else n
    b.valid_n = valid_n
    iters = draw(st.sampled_from([1, 1, 2, 3]))
    ktot = k * iters
    mode = draw(st.sampled_from(["c2v", "c2v", "v2c", "both"]))
    loop_kind = draw(st.sampled_from(["none", "vec_carry", "acc_carry"])) if iters > 1 else "none"
    place = draw(st.sampled_from(["plain", "if"]))
    store_acc = draw(st.booleans()) and mode == "v2c"
    # An explicit per-lane region (pl.split_aiv): the vector tail runs inside `split_aiv_scope` on each lane's
    # `aiv_shard` of the cube result; the function carries pto.split_aiv instead of pto.split.
    region = draw(st.integers(0, 3)) == 0 and loop_kind != "vec_carry" and mode == "c2v"
    if region:
        split = draw(st.sampled_from(["up_down", "left_right"]))
        b.split = split

    b.features.update({f"target:{target}", f"split:{'region' if region else split}", f"mode:{mode}"})
    b.features.add(f"loop:{loop_kind}" if loop_kind != "none" else ("k_chain" if iters > 1 else "single_matmul"))
    if ragged:
        b.features.add("ragged_rows")
    if ragged_cols:
        b.features.add("partial_columns" + (":left_right" if split == "left_right" else ""))
    odd_axis = {"up_down": m, "left_right": n}.get(split, 0) % 2 == 1
    if odd_axis:
        b.features.add("odd_extent_on_split_axis")
    if odd_axis and split == "up_down" and mode != "c2v" and not region:
        b.features.add("odd_v2c_gather")
    a = b.param("a", tensor([m, ktot], BF)) if mode != "v2c" else None
    x = b.param("x", tensor([m, ktot], F32)) if mode != "c2v" else None
    bw = b.param("w", tensor([ktot, n], BF))
    out = b.param("out", tensor(shape_out, F32), out=True)
    _comm_prologue(draw, b, shape_out, region)
    valid = [valid_m, valid_n]
    acc_t = tile([m, n], F32, "acc", valid)
    vec_t = tile([m, n], F32, "vec", valid)

    def left_of(koff) -> str | None:
        """The V->C prep of the left operand for one K-slice (None when the cube loads it itself)."""
        if x is None:
            return None
        lv = [valid_m, k] if valid_m != m else None
        xv, xt = load_operand(b, x, [m, ktot], [0, koff], [m, k], F32, "vec", lv)
        c = b.const_f32(draw(st.sampled_from([0.5, 0.125, 1.0])))
        s = b.fresh("v")
        b.emit(f"{s} = pto.muls {xv}, {c} : {xt}, f32")
        h = b.fresh("v")
        ht = tile([m, k], BF, "vec", lv)
        b.emit(f"{h} = pto.cast {s} : {xt} -> {ht}")
        if draw(st.integers(0, 3)) == 0:
            _v2c_shared(b, s, xt, [m, k])
        return move(b, h, ht, tile([m, k], BF, "left", lv))

    def matmul(left, right, acc=None) -> str:
        lt = tile([m, k], BF, "left", [valid_m, k] if valid_m != m else None)
        rt = tile([k, n], BF, "right", b.right_valid(k, n))
        return emit_matmul(b, draw, left, right, lt, rt, acc_t, n, acc)

    def slice_product(koff, acc=None) -> str:
        l_vec = left_of(koff) if mode in ("v2c", "both") and draw(st.booleans()) or mode == "v2c" else None
        if l_vec is None and a is None:
            l_vec = left_of(koff)
        left, right = cube_operands(b, a, bw, [m, ktot], [ktot, n], m, k, n, koff, valid_m, l_vec, draw)
        return matmul(left, right, acc)

    def c2v(accv: str) -> str:
        return move(b, accv, acc_t, vec_t)

    loop_scratch = None
    load_first = False
    if loop_kind == "vec_carry" and draw(st.integers(0, 1)) == 0:
        loop_scratch = b.param("scratch", tensor(shape_out, F32), out=True)
        load_first = draw(st.booleans())
    if loop_kind == "vec_carry":
        zero = b.const_f32(0.0)
        init = b.fresh("v")
        b.emit(f"{init} = pto.full {zero} : f32 -> {vec_t}")
        c0, cs, ck = b.const_index(0), b.const_index(ktot), b.const_index(k)
        res, kk, s = b.fresh("acc"), b.fresh("kk"), b.fresh("s")
        b.emit(f"{res} = scf.for {kk} = {c0} to {cs} step {ck} iter_args({s} = {init}) -> ({vec_t}) {{")
        b.indent += 1
        # inside the loop the K offset is dynamic: use kk for the cube loads
        part = _dyn_slice(b, a, x, bw, m, k, n, ktot, kk, valid_m, acc_t, mode, draw)
        if loop_scratch is not None:
            # A C->V exchange through one GM scratch tensor reused by every iteration; with load_first the vector
            # side reads the scratch before the cube stores this iteration's product (the previous iteration's).
            b.features.update({"gm_exchange_in_loop", "scratch_reused_across_iterations"})
            sv = valid if valid != [m, n] else None
            if load_first:
                b.features.add("load_before_store_in_loop")
                pv, _ = load_operand(b, loop_scratch, shape_out, [0, 0], [m, n], F32, "vec", sv)
            o1 = b.fresh("o")
            b.emit(f"{o1} = pto.store {part}, {loop_scratch}[0, 0] : {acc_t}, {tensor(shape_out, F32)}")
            if not load_first:
                pv, _ = load_operand(b, o1, shape_out, [0, 0], [m, n], F32, "vec", sv)
        else:
            pv = c2v(part)
        if draw(st.booleans()):
            # Vector work on each iteration's partial product before it is accumulated.
            b.features.add("tail_in_loop")
            pv = draw(vector_tail(b, pv, [m, n], valid))
        nx = b.fresh("v")
        if draw(st.integers(0, 3)) == 0:
            # The first iteration's partial product carried as is (an scf.if yields it in one branch only: the
            # result *may* be the popped slot, so its slot stays in use until the yield's copy).
            b.features.add("loop:carry_select")
            first, c0k = b.fresh("first"), b.const_index(0)
            b.emit(f"{first} = arith.cmpi eq, {kk}, {c0k} : index")
            b.emit(f"{nx} = scf.if {first} -> ({vec_t}) {{")
            b.emit(f"  scf.yield {pv} : {vec_t}")
            b.emit("} else {")
            sm = b.fresh("v")
            b.emit(f"  {sm} = pto.add {s}, {pv} : {vec_t}")
            b.emit(f"  scf.yield {sm} : {vec_t}")
            b.emit("}")
        else:
            b.emit(f"{nx} = pto.add {s}, {pv} : {vec_t}")
        b.emit(f"scf.yield {nx} : {vec_t}")
        b.indent -= 1
        b.emit("}")
        v = res
        accv = None
    elif loop_kind == "acc_carry":
        first = slice_product(0)
        c0, cs, ck = b.const_index(k), b.const_index(ktot), b.const_index(k)
        res, kk, s = b.fresh("acc"), b.fresh("kk"), b.fresh("s")
        b.emit(f"{res} = scf.for {kk} = {c0} to {cs} step {ck} iter_args({s} = {first}) -> ({acc_t}) {{")
        b.indent += 1
        nx = _dyn_slice(b, a, x, bw, m, k, n, ktot, kk, valid_m, acc_t, mode, draw, acc=s)
        b.emit(f"scf.yield {nx} : {acc_t}")
        b.indent -= 1
        b.emit("}")
        accv, v = res, None
    else:
        accv = slice_product(0)
        parts = [accv]
        for i in range(1, iters):
            accv = slice_product(i * k, accv)
            parts.append(accv)
        v = None
        if iters >= 3 and place == "plain" and not region and not store_acc and draw(st.booleans()):
            # Every partial product of the K-chain crosses to the vector side, which adds them all: it holds
            # `iters` (3) popped slots at once, more than the default ring depth 2 (ExpandMixedKernel sizes the
            # ring by the slots held: docs/timing-model.md "Kernels that hold more popped slots than the default").
            b.features.add("held_slots")
            moved = [c2v(p) for p in parts]
            v = moved[0]
            for w in moved[1:]:
                sm = b.fresh("v")
                b.emit(f"{sm} = pto.add {v}, {w} : {vec_t}")
                v = sm
            accv = None

    if region and accv is not None:
        return _region_tail(draw, b, target, accv, acc_t, m, n, valid, out, shape_out)

    if store_acc and accv is not None:
        b.features.add("store_from_acc")
        o = b.fresh("o")
        b.emit(f"{o} = pto.store {accv}, {out}[0, 0] : {acc_t}, {tensor(shape_out, F32)}")
        return _module(b, target, split, o, shape_out)

    # A C->V exchange through GM: the cube stores the product into a scratch tensor and the vector side loads
    # it back (ExpandMixedKernel must fence the pair with a tpush/tpop handshake).
    if v is None and accv is not None and place == "plain" and draw(st.integers(0, 1)) == 0:
        scratch = scratch_param = b.param("scratch", tensor(shape_out, F32), out=True)
        b.features.add("gm_exchange")
        if draw(st.booleans()):
            # Several cube stores to the scratch tensor before the vector load (the first one is overwritten).
            b.features.add("several_stores_to_one_tensor")
            s0 = b.fresh("o")
            b.emit(f"{s0} = pto.store {accv}, {scratch}[0, 0] : {acc_t}, {tensor(shape_out, F32)}")
            accv = slice_product(0, accv)
            scratch = s0
        s1 = b.fresh("o")
        b.emit(f"{s1} = pto.store {accv}, {scratch}[0, 0] : {acc_t}, {tensor(shape_out, F32)}")
        src, src_shape = s1, shape_out
        how = draw(st.integers(0, 7))
        if how == 1:
            # The vector side loads the scratch through a pto.tensor_cast (the same buffer with its row count made
            # `?`): the hazard analysis must see the cast as its source (the TensorView trait).
            b.features.add("gm_exchange_through_cast")
            src, src_shape = b.fresh("cast"), ["?", shape_out[1]]
            b.emit(f"{src} = pto.tensor_cast {s1} : {tensor(shape_out, F32)} -> {tensor(src_shape, F32)}")
        elif how in (2, 3):
            # The vector side loads a second parameter that @main binds to the same tensor as the scratch: one
            # GM buffer under two names (ExpandMixedKernel must see the alias at the call and fence the pair).
            b.features.add("gm_exchange_aliased_params")
            src = b.param("alias", tensor(shape_out, F32), inout=True)
            b.aliases[src] = scratch_param
        v, _ = load_operand(b, src, src_shape, [0, 0], [m, n], F32, "vec", valid if valid != [m, n] else None)
        accv = None

    if v is None and accv is not None and place == "plain" and draw(st.integers(0, 5)) == 0:
        v = _pingpong_exchange(b, accv, acc_t, vec_t, shape_out, m, n, valid)
        accv = None

    if place == "if":
        b.features.add("c2v_in_scf_if")
        ci, cj = b.const_index(draw(st.integers(0, 2))), b.const_index(1)
        cond = b.fresh("cond")
        b.emit(f"{cond} = arith.cmpi {draw(st.sampled_from(['slt', 'eq', 'sge']))}, {ci}, {cj} : index")
        r = b.fresh("ifr")
        b.emit(f"{r} = scf.if {cond} -> ({vec_t}) {{")
        b.indent += 1
        w = v if v is not None else c2v(accv)
        w = draw(vector_tail(b, w, [m, n], valid))
        b.emit(f"scf.yield {w} : {vec_t}")
        b.indent -= 1
        b.emit("} else {")
        b.indent += 1
        w = v if v is not None else c2v(accv)
        w = draw(vector_tail(b, w, [m, n], valid))
        b.emit(f"scf.yield {w} : {vec_t}")
        b.indent -= 1
        b.emit("}")
        v = r
    else:
        if v is None:
            v = c2v(accv)
    if draw(st.integers(0, 4)) == 0:
        # Two vector stores to the output: the first is overwritten by the second (program order must be kept).
        b.features.add("two_stores_to_output")
        o0 = b.fresh("o")
        b.emit(f"{o0} = pto.store {v}, {out}[0, 0] : {vec_t}, {tensor(shape_out, F32)}")
        out = o0
    v = draw(vector_tail(b, v, [m, n], valid))
    o = b.fresh("o")
    b.emit(f"{o} = pto.store {v}, {out}[0, 0] : {vec_t}, {tensor(shape_out, F32)}")
    return _module(b, target, split, o, shape_out)


def _pingpong_exchange(b: Builder, accv, acc_t, vec_t, shape_out, m, n, valid) -> str:
    """A C->V exchange through two GM scratch tensors rotated by a loop's iter_args (ping-pong buffers): the
    vector side reads %y before the cube stores the product into %x, and the yield swaps them (%y, the store's
    result).  The side that does not store must keep rotating (the store's result is its destination), and the
    may-alias fences must order both.  Returns the vector sum of what the vector side read."""
    tt = tensor(shape_out, F32)
    ping, pong = b.param("ping", tt, out=True), b.param("pong", tt, out=True)
    b.features.update({"gm_exchange_in_loop", "pingpong_scratch"})
    zero = b.const_f32(0.0)
    init = b.fresh("v")
    b.emit(f"{init} = pto.full {zero} : f32 -> {vec_t}")
    c0, c2, c1 = b.const_index(0), b.const_index(2), b.const_index(1)
    res, i, acc, x, y = b.fresh("pp"), b.fresh("i"), b.fresh("s"), b.fresh("x"), b.fresh("y")
    b.emit(
        f"{res}:3 = scf.for {i} = {c0} to {c2} step {c1} iter_args({acc} = {init}, {x} = {ping}, {y} = {pong}) "
        f"-> ({vec_t}, {tt}, {tt}) {{"
    )
    b.indent += 1
    pv, _ = load_operand(b, y, shape_out, [0, 0], [m, n], F32, "vec", valid if valid != [m, n] else None)
    nx = b.fresh("v")
    b.emit(f"{nx} = pto.add {acc}, {pv} : {vec_t}")
    st_ = b.fresh("o")
    b.emit(f"{st_} = pto.store {accv}, {x}[0, 0] : {acc_t}, {tt}")
    b.emit(f"scf.yield {nx}, {y}, {st_} : {vec_t}, {tt}, {tt}")
    b.indent -= 1
    b.emit("}")
    return f"{res}#0"


def _slice_of_load(draw, b: Builder, shape, valid) -> str:
    """A vector operand cut out of a larger loaded tile by a `pto.slice` whose window moves along both axes (so
    along the split axis of either mode): LowerAutoVectorSplit loads the window directly."""
    b.features.add("tail:slice_of_load")
    dr, dc = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    big = [shape[0] + dr, shape[1] + dc]
    c = b.param("in", tensor(big, F32))
    w, wt = load_operand(b, c, big, [0, 0], big, F32, "vec")
    so = [draw(st.integers(0, dr)), draw(st.integers(0, dc))]
    r = b.fresh("sl")
    vpart = f" valid [{valid[0]}, {valid[1]}]" if list(valid) != list(shape) else ""
    b.emit(f"{r} = pto.slice {w}[{so[0]}, {so[1]}]{vpart} : {wt} -> {tile(shape, F32, 'vec', valid)}")
    return r


def _reshape_shared(b: Builder, r: str, v: str, t: str) -> str:
    """The input of a reshape round trip also read by a halved op (the sum of both): a reshape with no per-lane form
    keeps its input chain whole and the halved op takes a lane slice of it."""
    b.features.add("tail:reshape_shared")
    x = b.fresh("v")
    b.emit(f"{x} = pto.add {r}, {v} : {t}")
    return x


def _v2c_shared(b: Builder, s: str, st_: str, shape) -> None:
    """The scaled V->C operand also stored by the vector side (to an output of its own): a V->C chain no gather
    places stays whole, and the store takes the lane part."""
    b.features.add("v2c_shared")
    o = b.param("side", tensor(shape, F32), out=True)
    r = b.fresh("o")
    b.emit(f"{r} = pto.store {s}, {o}[0, 0] : {st_}, {tensor(shape, F32)}")


def _region_tail(draw, b: Builder, target, accv, acc_t, m, n, valid, out, shape_out) -> str:
    axis = 0 if b.split == "up_down" else 1
    full = [m, n]
    half = list(full)
    half[axis] = (full[axis] + 1) // 2
    # The lane's valid extent on the split axis is static only for an even, fully valid axis.
    hvalid = [
        (half[d] if full[d] % 2 == 0 and valid[d] == full[d] else "?") if d == axis else valid[d] for d in range(2)
    ]
    ht = tile(half, F32, "vec", hvalid)
    ot = tensor(shape_out, F32)
    r, lane = b.fresh("reg"), b.fresh("aiv_id")
    b.emit(f"{r} = pto.split_aiv_scope {b.split} ({lane}) -> ({ot}) {{")
    b.indent += 1
    b.features.add("region_shard")
    h = b.fresh("h")
    b.emit(f"{h} = pto.aiv_shard {accv} {{split = {axis + 1} : i64}} : {acc_t} -> {ht}")
    b.region = True
    w = draw(vector_tail(b, h, half, hvalid, allow_load=False))
    b.region = False
    if draw(st.booleans()):
        # The lane id read with pto.get_subblock_idx instead of the region's block argument (the same value).
        b.features.add("region_subblock_idx")
        lane = b.fresh("sub")
        b.emit(f"{lane} = pto.get_subblock_idx : index")
    if hvalid == half and draw(st.integers(0, 1)) == 0:
        w = _lane_exchange(b, w, ht, half, lane)
    step = b.const_index(half[axis])
    off = b.fresh("off")
    b.emit(f"{off} = arith.muli {lane}, {step} : index")
    o = b.fresh("o")
    offs = f"{off}, 0" if axis == 0 else f"0, {off}"
    if draw(st.integers(0, 5)) == 0:
        # Each lane's rows written by a communication op (a put to peer 0, this device) instead of a store: the
        # cross-lane GM order check must see it as the region's per-lane write (its GmAccess trait).
        b.features.add("region_put")
        peer = b.const_index(0)
        b.emit(f"{o} = pto.tile_put {w}, {out}[{offs}] to {peer} : {ht}, {ot}")
    else:
        b.emit(f"{o} = pto.store {w}, {out}[{offs}] : {ht}, {ot}")
    b.emit(f"pto.yield {o} : {ot}")
    b.indent -= 1
    b.emit("}")
    if draw(st.integers(0, 3)) == 0:
        # Outside the region both lanes run the code once the function is split: a GM effect that must happen
        # once per kernel there (an atomic store of a loaded tile; AivSplitValid keeps other vector ops, puts
        # included, inside the regions; the epilogue's notify is the other such op) must run on one lane (issue 40).
        b.features.add("region_gm_once")
        lshape = [1, n] if draw(st.booleans()) else [m, n]
        c, lt = b.param("in", tensor(lshape, F32)), tensor(lshape, F32)
        x, xt = load_operand(b, c, lshape, [0, 0], lshape, F32, "vec")
        side = b.side_output(lt)
        b.emit(f"{b.fresh('o')} = pto.store {x}, {side}[0, 0] {{atomic = 1 : i64}} : {xt}, {lt}")
    if draw(st.integers(0, 4)) == 0:
        # The cube reads the region's result back (a load into mat, stored from acc to a side output): not a
        # cross-lane access (the cube is not on the lanes); ExpandMixedKernel fences it after both lanes' writes.
        b.features.add("region_cube_reload")
        mt, at = tile(shape_out, F32, "mat"), tile(shape_out, F32, "acc")
        cl, ca = b.fresh("cl"), b.fresh("ca")
        b.emit(f"{cl} = pto.load {r}[0, 0] : {ot} -> {mt}")
        b.emit(f"{ca} = pto.move {cl} : {mt} -> {at}")
        side = b.side_output(ot)
        b.emit(f"{b.fresh('o')} = pto.store {ca}, {side}[0, 0] : {at}, {ot}")
    return _module(b, target, "region", r, shape_out)


def _lane_exchange(b: Builder, w: str, ht: str, half: list[int], lane: str) -> str:
    """Each lane adds the other lane's part to its own, exchanged through a `pto.lane_workspace` (one row per lane)
    across a `pto.lane_barrier` (issue 43): the cross-lane GM order the race detector must see through the
    barrier.  Only for a fully valid lane part, so that each lane reads only cells the other wrote."""
    b.features.add("region_lane_exchange")
    wt = tensor([2, *half], F32)
    ws, ws1, other, x, s = (b.fresh(h) for h in ("ws", "ws", "other", "x", "x"))
    b.emit(f"{ws} = pto.lane_workspace : {wt}")
    b.emit(f"{ws1} = pto.store {w}, {ws}[{lane}, 0, 0] : {ht}, {wt}")
    b.emit("pto.lane_barrier")
    b.emit(f"{other} = arith.subi {b.const_index(1)}, {lane} : index")
    b.emit(f"{x} = pto.load {ws1}[{other}, 0, 0] : {wt} -> {ht}")
    b.emit(f"{s} = pto.add {w}, {x} : {ht}")
    return s


def _comm_prologue(draw, b: Builder, shape, region: bool) -> None:
    """Device communication at the kernel's start (peer 0, this device): a signal handshake (@main notifies
    element 0, the kernel waits for it and notifies element 1 at its end), or a whole-tensor copy into a side
    output (a vector op: not outside the regions of a region kernel)."""
    copies = [] if region else ["tensor_get", "tensor_put"]
    comm = draw(st.sampled_from(["none"] * 9 + ["notify_wait"] + copies))
    if comm == "none":
        return
    b.features.add(f"comm:{comm}")
    if comm == "notify_wait":
        st_ = "!pto.tensor<2xi32>"
        sig = b.param("sig", st_, inout=True)
        b.extra_results.append((sig, st_))
        b.main_pre_call += ["%mpeer = arith.constant 0 : index", f"pto.notify {sig}[0] to %mpeer : {st_}"]
        b.emit(f"pto.wait {sig}[0] : {st_}")
        b.epilogue += ["%epeer = arith.constant 0 : index", f"pto.notify {sig}[1] to %epeer : {st_}"]
        return
    src = b.param("in", tensor(shape, F32))
    dst = b.side_output(tensor(shape, F32))
    word = "from" if comm == "tensor_get" else "to"
    ty = tensor(shape, F32)
    b.emit(f"{b.fresh('d')} = pto.{comm} {src}, {dst} {word} {b.const_index(0)} : {ty}, {ty}")


def _dyn_slice(b, a, x, bw, m, k, n, ktot, kk, valid_m, acc_t, mode, draw, acc=None) -> str:
    lv = [valid_m, k] if valid_m != m else None
    if mode in ("v2c", "both") and (a is None or draw(st.booleans())):
        xv, xt = load_operand(b, x, [m, ktot], [0, kk], [m, k], F32, "vec", lv)
        h = b.fresh("v")
        ht = tile([m, k], BF, "vec", lv)
        b.emit(f"{h} = pto.cast {xv} : {xt} -> {ht}")
        left = move(b, h, ht, tile([m, k], BF, "left", lv))
    else:
        left = cube_left(b, draw, a, [m, ktot], m, k, kk, valid_m)
    rv = b.right_valid(k, n)
    bm_, bt = load_operand(b, bw, [ktot, n], [kk, 0], [k, n], BF, "mat", rv)
    right = move(b, bm_, bt, tile([k, n], BF, "right", rv))
    lt = tile([m, k], BF, "left", lv)
    rt = tile([k, n], BF, "right", rv)
    return emit_matmul(b, draw, left, right, lt, rt, acc_t, n, acc)


def _module(b: Builder, target: str, split: str, result: str, shape_out) -> str:
    sig = ", ".join(f"{nm}: {ty}" + ("" if kind == "in" else f" {{pto.{kind}}}") for nm, ty, kind in b.params)
    attrs = "pto.kind = #pto.kind<incore>"
    if split == "region":
        attrs += ", pto.split_aiv"
    elif split != "none":
        attrs += f", pto.split = #pto.split<{split}>"
    ot = tensor(shape_out, F32)
    body = "\n".join(b.lines + [f"    {line}" for line in b.epilogue])
    main_params = [(nm, ty) for nm, ty, kind in b.params if kind == "in"]
    msig = ", ".join(f"{nm}: {ty}" for nm, ty in main_params)
    creates = "\n    ".join(
        f"{nm} = pto.create_tensor : {ty}" for nm, ty, kind in b.params if kind != "in" and nm not in b.aliases
    )
    call_args = ", ".join(b.aliases.get(nm, nm) for nm, _, _ in b.params)
    call_types = ", ".join(ty for _, ty, _ in b.params)
    rnames = ", ".join(["%r"] + [nm for nm, _ in b.extra_results])
    rtypes = ", ".join([ot] + [ty for _, ty in b.extra_results])
    mres = rtypes if not b.extra_results else f"({rtypes})"
    pre_call = "".join(f"\n    {line}" for line in b.main_pre_call)
    return f"""// features: {' '.join(sorted(b.features))}
builtin.module attributes {{pto.target = #pto.target<{target}>}} {{
  func.func @gen_incore_0({sig}) -> {ot}
      attributes {{{attrs}}} {{
{body}
    func.return {result} : {ot}
  }}
  func.func @main({msig}) -> {mres} attributes {{pto.kind = #pto.kind<orchestration>}} {{
    {creates}{pre_call}
    %r = func.call @gen_incore_0({call_args}) : ({call_types}) -> {ot}
    func.return {rnames} : {rtypes}
  }}
}}
"""
