"""Hypothesis strategy for the kernels of issue 27: legal AUTO-split mixed kernels built around the constructs
the project's own generator (`strategies.py`) keeps away from the split axis.

`strategies.kernels` draws its vector tails so that an AUTO kernel stays splittable (a generator is a singleton
on the split axis, a reduction runs along the other axis, a window keeps the whole split axis).  The kernels of
an independently written generator did not, and a third of them were refused.  This strategy draws those
constructs on purpose, on the split axis, each tagged in the kernel's `// features:` comment:

* `ci` — an index generator `pto.ci` whose tile spans the split axis (the whole tile, or a column under
  up_down / a row under left_right), cast to f32 and added to the data;
* `slice` — a `pto.slice` window of the split axis of the per-lane value, inside one lane's half or across both,
  stored to a side output;
* `reduce` — a row / column reduction over the split axis (`col_*` under up_down, `row_*` under left_right),
  broadcast back with the matching `*_expand_*`;
* `transpose` — a transpose that swaps the split axis (a single one of a square tile, or a round trip);
* `loop_if` — a loop-carried value (`scf.for` iter_args) feeding an `scf.if` after the loop
  (examples/loop_accumulate with the final relu under an if);
* `extract` — a vec -> vec `pto.extract` window of the split axis, like `slice` (issue 43, part 5), with an even
  split extent (an extract copies whole windows: an odd one is refused by design).

Every kernel: a matmul on the cube (f32 operands loaded into `mat`, moved to `left`/`right`), the C->V move, one
to three of the constructs above with plain elementwise ops between them, and a store; `pto.split` up_down or
left_right (an AUTO kernel, no regions), target a2a3 or a5, and an orchestration `@main`.  All are legal kernels:
each has an unsplit meaning, and the pipeline must compile it split or, under `fallback=unsplit`, unsplit.
"""

from __future__ import annotations

from hypothesis import strategies as st

from .strategies import F32, Builder, _module, load_operand, move, tensor, tile

CONSTRUCTS = ("ci", "slice", "reduce", "transpose", "loop_if", "extract")
FEATURES = (
    [f"target:{t}" for t in ("a2a3", "a5")]
    + [f"split:{s}" for s in ("up_down", "left_right")]
    + [f"construct:{c}" for c in CONSTRUCTS]
    + ["ci:full", "ci:vector", "slice:in_lane", "slice:across_lanes", "transpose:single", "transpose:round_trip"]
)


def _ci(draw, b: Builder, v: str, shape, axis: int) -> str:
    t = tile(shape, F32, "vec")
    full = draw(st.booleans())
    b.features.add("ci:full" if full else "ci:vector")
    # A column [M, 1] (up_down) or a row [1, N] (left_right): it spans the split axis, broadcast along the other.
    gshape = list(shape) if full else ([shape[0], 1] if axis == 0 else [1, shape[1]])
    gi, gt = tile(gshape, "i32", "vec"), tile(gshape, F32, "vec")
    seed, ci, cf, g, r = b.fresh("i"), b.fresh("ci"), b.fresh("cf"), b.fresh("g"), b.fresh("v")
    b.emit(f"{seed} = arith.constant {draw(st.integers(0, 40))} : i32")
    b.emit(f"{ci} = pto.ci {seed} : i32 -> {gi}")
    b.emit(f"{cf} = pto.cast {ci} : {gi} -> {gt}")
    b.emit(f"{g} = pto.muls {cf}, {b.const_f32(0.125)} : {gt}, f32")
    op = draw(st.sampled_from(["add", "sub", "mul"]))
    if full:
        b.emit(f"{r} = pto.{op} {v}, {g} : {t}")
    else:
        b.emit(f"{r} = pto.{'row' if axis == 0 else 'col'}_expand_{op} {v}, {g} : {t}, {gt}")
    return r


def _slice(draw, b: Builder, v: str, shape, axis: int) -> str:
    """A window of the split axis stored to a side output; the chain goes on with `v`."""
    t = tile(shape, F32, "vec")
    half = shape[axis] // 2
    in_lane = draw(st.booleans())
    b.features.add("slice:in_lane" if in_lane else "slice:across_lanes")
    if in_lane:  # inside lane 0's or lane 1's half
        ext = draw(st.integers(1, half))
        lane = draw(st.integers(0, 1))
        off = lane * half + draw(st.integers(0, half - ext))
    else:  # a window that straddles the middle
        lo = draw(st.integers(0, half - 1))
        hi = draw(st.integers(half + 1, shape[axis]))
        off, ext = lo, hi - lo
    offs, win = [0, 0], list(shape)
    offs[axis], win[axis] = off, ext
    other = 1 - axis
    if draw(st.booleans()) and shape[other] > 1:  # a window of the other axis too
        win[other] = draw(st.integers(1, shape[other]))
        offs[other] = draw(st.integers(0, shape[other] - win[other]))
    wt, w = tile(win, F32, "vec"), b.fresh("win")
    b.emit(f"{w} = pto.slice {v}[{offs[0]}, {offs[1]}] : {t} -> {wt}")
    side = b.side_output(tensor(win, F32))
    b.emit(f"{b.fresh('o')} = pto.store {w}, {side}[0, 0] : {wt}, {tensor(win, F32)}")
    return v


def _extract(draw, b: Builder, v: str, shape, axis: int) -> str:
    """A `pto.extract` window of the split axis (inside one lane's half or across both, even extent) stored to a
    side output; the chain goes on with `v`."""
    t = tile(shape, F32, "vec")
    half = shape[axis] // 2
    ext = 2 * draw(st.integers(1, half // 2))
    off = draw(st.integers(0, shape[axis] - ext))
    b.features.add("slice:in_lane" if off // half == (off + ext - 1) // half else "slice:across_lanes")
    offs, win = [0, 0], list(shape)
    offs[axis], win[axis] = off, ext
    wt, w = tile(win, F32, "vec"), b.fresh("win")
    b.emit(f"{w} = pto.extract {v}[{offs[0]}, {offs[1]}] : {t} -> {wt}")
    side = b.side_output(tensor(win, F32))
    b.emit(f"{b.fresh('o')} = pto.store {w}, {side}[0, 0] : {wt}, {tensor(win, F32)}")
    return v


def _reduce(draw, b: Builder, v: str, shape, axis: int) -> str:
    t = tile(shape, F32, "vec")
    kind = "col" if axis == 0 else "row"  # reduces over the split axis
    rshape = [1, shape[1]] if kind == "col" else [shape[0], 1]
    rt = tile(rshape, F32, "vec")
    m, r = b.fresh("red"), b.fresh("v")
    red = draw(st.sampled_from(["sum", "max", "min"]))
    b.emit(f"{m} = pto.{kind}_{red} {v} : {t} -> {rt}")
    if draw(st.integers(0, 3)) == 0:  # the reduction itself is an output
        side = b.side_output(tensor(rshape, F32))
        b.emit(f"{b.fresh('o')} = pto.store {m}, {side}[0, 0] : {rt}, {tensor(rshape, F32)}")
    op = draw(st.sampled_from(["sub", "add", "mul"]))
    b.emit(f"{r} = pto.{kind}_expand_{op} {v}, {m} : {t}, {rt}")
    return r


def _transpose(draw, b: Builder, v: str, shape) -> str:
    t = tile(shape, F32, "vec")
    tt = tile([shape[1], shape[0]], F32, "vec")
    x, y = b.fresh("tr"), b.fresh("v")
    b.emit(f"{x} = pto.transpose {v} : {t} -> {tt}")
    b.emit(f"{y} = pto.muls {x}, {b.const_f32(-0.5)} : {tt}, f32")
    if shape[0] == shape[1] and draw(st.booleans()):
        b.features.add("transpose:single")
        return y
    b.features.add("transpose:round_trip")
    r = b.fresh("v")
    b.emit(f"{r} = pto.transpose {y} : {tt} -> {t}")
    return r


def _loop_if(draw, b: Builder, v: str, shape) -> str:
    t = tile(shape, F32, "vec")
    c0, c1, cn = b.const_index(0), b.const_index(1), b.const_index(draw(st.integers(1, 3)))
    acc, k, s, n = b.fresh("acc"), b.fresh("k"), b.fresh("sum"), b.fresh("v")
    b.emit(f"{acc} = scf.for {k} = {c0} to {cn} step {c1} iter_args({s} = {v}) -> ({t}) {{")
    b.emit(f"  {n} = pto.add {s}, {v} : {t}")
    b.emit(f"  scf.yield {n} : {t}")
    b.emit("}")
    ci, cj, cond = b.const_index(draw(st.integers(0, 2))), b.const_index(1), b.fresh("cond")
    b.emit(f"{cond} = arith.cmpi {draw(st.sampled_from(['slt', 'eq', 'sge']))}, {ci}, {cj} : index")
    m, x = b.fresh("m"), b.fresh("x")
    b.emit(f"{m} = scf.if {cond} -> ({t}) {{")
    b.emit(f"  {x} = pto.relu {acc} : {t}")
    b.emit(f"  scf.yield {x} : {t}")
    b.emit("} else {")
    b.emit(f"  scf.yield {acc} : {t}")
    b.emit("}")
    return m


@st.composite
def kernels(draw, max_constructs: int = 3) -> str:
    """One legal AUTO-split mixed kernel with one to `max_constructs` of `CONSTRUCTS` (module text)."""
    target = draw(st.sampled_from(["a2a3", "a5"]))
    split = draw(st.sampled_from(["up_down", "left_right"]))
    axis = 0 if split == "up_down" else 1
    m, n, k = draw(st.sampled_from([16, 32])), draw(st.sampled_from([16, 32])), 16
    b = Builder(split)
    b.features |= {f"target:{target}", f"split:{split}"}
    x = b.param("x", tensor([m, k], F32))
    w = b.param("w", tensor([k, n], F32))
    out = b.param("out", tensor([m, n], F32), out=True)
    xm, xmt = load_operand(b, x, [m, k], [0, 0], [m, k], F32, "mat")
    wm, wmt = load_operand(b, w, [k, n], [0, 0], [k, n], F32, "mat")
    lt, rt, acc_t = tile([m, k], F32, "left"), tile([k, n], F32, "right"), tile([m, n], F32, "acc")
    xl, wr = move(b, xm, xmt, lt), move(b, wm, wmt, rt)
    z = b.fresh("z")
    b.emit(f"{z} = pto.matmul {xl}, {wr} : {lt}, {rt} -> {acc_t}")
    v = move(b, z, acc_t, tile([m, n], F32, "vec"))
    shape = [m, n]
    for _ in range(draw(st.integers(1, max_constructs))):
        c = draw(st.sampled_from(CONSTRUCTS))
        b.features.add(f"construct:{c}")
        if c == "ci":
            v = _ci(draw, b, v, shape, axis)
        elif c == "slice":
            v = _slice(draw, b, v, shape, axis)
        elif c == "extract":
            v = _extract(draw, b, v, shape, axis)
        elif c == "reduce":
            v = _reduce(draw, b, v, shape, axis)
        elif c == "transpose":
            v = _transpose(draw, b, v, shape)  # a single transpose only of a square tile: the shape is kept
        else:
            v = _loop_if(draw, b, v, shape)
        if draw(st.booleans()):  # a plain elementwise op between constructs
            t = tile(shape, F32, "vec")
            r = b.fresh("v")
            b.emit(f"{r} = pto.{draw(st.sampled_from(['relu', 'abs', 'neg']))} {v} : {t}")
            v = r
    t = tile(shape, F32, "vec")
    o = b.fresh("o")
    b.emit(f"{o} = pto.store {v}, {out}[0, 0] : {t}, {tensor([m, n], F32)}")
    return _module(b, target, split, o, [m, n])
