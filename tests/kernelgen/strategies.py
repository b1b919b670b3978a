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

Extents are drawn from small even, odd and ragged sizes; the split mode from none/up_down/left_right; the target
from a2a3/a5.  Every generated module parses and verifies (the property test checks that first).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

BF, F32 = "bf16", "f32"


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
    + ["load_before_store_in_loop", "region_shard"]
    + [f"tail:{k}" for k in ("unary", "scalar", "binary_self", "binary_load", "reduce", "reshape", "reshape_swap")]
    + ["tail:reshape:left_right", "tail:slice_of_load", "tail:reshape_shared", "v2c_shared"]
)


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
    return f"!pto.tensor<{shape[0]}x{shape[1]}x{dt}>"


@dataclass
class Builder:
    split: str
    lines: list[str] = field(default_factory=list)
    params: list[tuple[str, str, bool]] = field(default_factory=list)  # name, type, is_out
    n: int = 0
    indent: int = 2
    features: set[str] = field(default_factory=set)  # what this kernel exercises (see FEATURES)
    valid_n: int | None = None  # valid columns of the right operand (partial columns), None = all

    def right_valid(self, k: int, n: int):
        return [k, self.valid_n] if self.valid_n is not None and self.valid_n != n else None

    def fresh(self, base: str = "t") -> str:
        self.n += 1
        return f"%{base}{self.n}"

    def emit(self, line: str) -> None:
        self.lines.append("  " * self.indent + line)

    def param(self, base: str, ty: str, out: bool = False) -> str:
        name = f"%{base}{len(self.params)}"
        self.params.append((name, ty, out))
        return name

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


def cube_operands(b: Builder, a: str, bm: str, ashape, bshape, m, k, n, koff, valid_m, left_from_vec=None):
    """Load one K-slice of A (or take a vec-prepared left operand) and of B; returns (left, right) names."""
    lv = [valid_m, k] if valid_m != m else None
    if left_from_vec is not None:
        left = left_from_vec
    else:
        am, at = load_operand(b, a, ashape, [0, koff], [m, k], BF, "mat", lv)
        left = move(b, am, at, tile([m, k], BF, "left", lv))
    rv = b.right_valid(k, n)
    bm_, bt = load_operand(b, bm, bshape, [koff, 0], [k, n], BF, "mat", rv)
    right = move(b, bm_, bt, tile([k, n], BF, "right", rv))
    return left, right


@st.composite
def vector_tail(draw, b: Builder, v: str, shape, valid, allow_load: bool = True) -> str:
    """A few vector ops on `v` (an f32 vec tile of `shape`); returns the final value."""
    t = tile(shape, F32, "vec", valid)
    n_ops = draw(st.integers(0, 4))
    kinds = ["unary", "scalar", "binary_self", "reduce", "reshape", "reshape_swap"] + (
        ["binary_load"] if allow_load else []
    )
    for _ in range(n_ops):
        kind = draw(st.sampled_from(kinds))
        r = b.fresh("v")
        if kind in ("reshape", "reshape_swap") and list(valid) != list(shape):
            kind = "unary"  # a partially valid tile can only be reshaped to a static valid region
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
        elif kind == "scalar":
            op = draw(st.sampled_from(["adds", "muls", "maxs", "mins", "subs"]))
            c = b.const_f32(draw(st.sampled_from([0.5, -0.25, 2.0, 0.125])))
            b.emit(f"{r} = pto.{op} {v}, {c} : {t}, f32")
        elif kind == "binary_self":
            op = draw(st.sampled_from(["add", "mul", "max", "sub"]))
            b.emit(f"{r} = pto.{op} {v}, {v} : {t}")
        elif kind == "binary_load":
            op = draw(st.sampled_from(["add", "mul", "min"]))
            if draw(st.integers(0, 2)) == 0:
                w = _slice_of_load(draw, b, shape, valid)
            else:
                c = b.param("in", tensor(shape, F32))
                w, wt = load_operand(b, c, shape, [0, 0], shape, F32, "vec", valid)
            b.emit(f"{r} = pto.{op} {v}, {w} : {t}")
        else:
            # Row ops reduce dim 1 (fine under up_down), column ops dim 0 (fine under left_right).
            axis = "row" if b.split != "left_right" else "col"
            if b.split == "none":
                axis = draw(st.sampled_from(["row", "col"]))
            red = draw(st.sampled_from(["sum", "max", "min"]))
            rshape = [shape[0], 1] if axis == "row" else [1, shape[1]]
            rvalid = [valid[0], 1] if axis == "row" else [1, valid[1]]
            rt = tile(rshape, F32, "vec", rvalid)
            m = b.fresh("red")
            b.emit(f"{m} = pto.{axis}_{red} {v} : {t} -> {rt}")
            op = draw(st.sampled_from(["sub", "add", "mul"]))
            b.emit(f"{r} = pto.{axis}_expand_{op} {v}, {m} : {t}, {rt}")
        v = r
    return v


@st.composite
def kernels(draw, max_ops: int = 4) -> str:
    target = draw(st.sampled_from(["a2a3", "a5"]))
    split = draw(st.sampled_from(["none", "up_down", "left_right"]))
    b = Builder(split)
    m = draw(st.sampled_from([8, 15, 16, 17, 32]))
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
        r = b.fresh("mm")
        lt = tile([m, k], BF, "left", [valid_m, k] if valid_m != m else None)
        rt = tile([k, n], BF, "right", b.right_valid(k, n))
        if acc is None:
            b.emit(f"{r} = pto.matmul {left}, {right} : {lt}, {rt} -> {acc_t}")
        else:
            b.emit(f"{r} = pto.matmul_acc {acc}, {left}, {right} : {acc_t}, {lt}, {rt} -> {acc_t}")
        return r

    def slice_product(koff, acc=None) -> str:
        l_vec = left_of(koff) if mode in ("v2c", "both") and draw(st.booleans()) or mode == "v2c" else None
        if l_vec is None and a is None:
            l_vec = left_of(koff)
        left, right = cube_operands(b, a, bw, [m, ktot], [ktot, n], m, k, n, koff, valid_m, l_vec)
        return matmul(left, right, acc)

    def c2v(accv: str) -> str:
        return move(b, accv, acc_t, vec_t)

    loop_scratch = None
    load_first = False
    if loop_kind == "vec_carry" and draw(st.integers(0, 2)) == 0:
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
        nx = b.fresh("v")
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
        for i in range(1, iters):
            accv = slice_product(i * k, accv)
        v = None

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
        scratch = b.param("scratch", tensor(shape_out, F32), out=True)
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
        v, _ = load_operand(b, s1, shape_out, [0, 0], [m, n], F32, "vec", valid if valid != [m, n] else None)
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
    w = draw(vector_tail(b, h, half, hvalid, allow_load=False))
    step = b.const_index(half[axis])
    off = b.fresh("off")
    b.emit(f"{off} = arith.muli {lane}, {step} : index")
    o = b.fresh("o")
    offs = f"{off}, 0" if axis == 0 else f"0, {off}"
    b.emit(f"{o} = pto.store {w}, {out}[{offs}] : {ht}, {ot}")
    b.emit(f"pto.yield {o} : {ot}")
    b.indent -= 1
    b.emit("}")
    return _module(b, target, "region", r, shape_out)


def _dyn_slice(b, a, x, bw, m, k, n, ktot, kk, valid_m, acc_t, mode, draw, acc=None) -> str:
    lv = [valid_m, k] if valid_m != m else None
    if mode in ("v2c", "both") and (a is None or draw(st.booleans())):
        xv, xt = load_operand(b, x, [m, ktot], [0, kk], [m, k], F32, "vec", lv)
        h = b.fresh("v")
        ht = tile([m, k], BF, "vec", lv)
        b.emit(f"{h} = pto.cast {xv} : {xt} -> {ht}")
        left = move(b, h, ht, tile([m, k], BF, "left", lv))
    else:
        am, at = load_operand(b, a, [m, ktot], [0, kk], [m, k], BF, "mat", lv)
        left = move(b, am, at, tile([m, k], BF, "left", lv))
    rv = b.right_valid(k, n)
    bm_, bt = load_operand(b, bw, [ktot, n], [kk, 0], [k, n], BF, "mat", rv)
    right = move(b, bm_, bt, tile([k, n], BF, "right", rv))
    r = b.fresh("mm")
    lt = tile([m, k], BF, "left", lv)
    rt = tile([k, n], BF, "right", rv)
    if acc is None:
        b.emit(f"{r} = pto.matmul {left}, {right} : {lt}, {rt} -> {acc_t}")
    else:
        b.emit(f"{r} = pto.matmul_acc {acc}, {left}, {right} : {acc_t}, {lt}, {rt} -> {acc_t}")
    return r


def _module(b: Builder, target: str, split: str, result: str, shape_out) -> str:
    sig = ", ".join(f"{nm}: {ty}" + (" {pto.out}" if out else "") for nm, ty, out in b.params)
    attrs = "pto.kind = #pto.kind<incore>"
    if split == "region":
        attrs += ", pto.split_aiv"
    elif split != "none":
        attrs += f", pto.split = #pto.split<{split}>"
    ot = tensor(shape_out, F32)
    body = "\n".join(b.lines)
    main_params = [(nm, ty) for nm, ty, out in b.params if not out]
    msig = ", ".join(f"{nm}: {ty}" for nm, ty in main_params)
    creates = "\n    ".join(f"{nm} = pto.create_tensor : {ty}" for nm, ty, out in b.params if out)
    call_args = ", ".join(nm for nm, _, _ in b.params)
    call_types = ", ".join(ty for _, ty, _ in b.params)
    return f"""// features: {' '.join(sorted(b.features))}
builtin.module attributes {{pto.target = #pto.target<{target}>}} {{
  func.func @gen_incore_0({sig}) -> {ot}
      attributes {{{attrs}}} {{
{body}
    func.return {result} : {ot}
  }}
  func.func @main({msig}) -> {ot} attributes {{pto.kind = #pto.kind<orchestration>}} {{
    {creates}
    %r = func.call @gen_incore_0({call_args}) : ({call_types}) -> {ot}
    func.return %r : {ot}
  }}
}}
"""
