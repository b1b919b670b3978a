"""Loop kernels of the ring-depth benchmark (`benchmarks.kernels`, issue 42): mixed kernels whose cores exchange
tiles in every iteration of an `scf.for`, as module text for a target.

- `round_trip`: per iteration the vector lanes prepare X_i (scale, cast) for the cube (V->C), the cube multiplies
  it by W and hands the product back (C->V), the lanes add it into a carried sum: both directions, each depending
  on the other.
- `k_loop`: per K-slice the cube multiplies A[:, k] by B[k, :] and hands the partial product to the lanes
  (C->V), which take its row maximum and exp-normalise it into a carried sum: one direction, a stream.
- `two_pipes`: per iteration the lanes send a scaled X_i to the cube (V->C), which multiplies it and stores the
  product itself, while the cube also multiplies Y_i and hands it to the lanes (C->V): both directions, neither
  depending on the other.

- `trip_param`: `k_loop` whose trip count is a scalar parameter `%n` (timed at the stated values of `%n`).
- `held_tiles`: per iteration the cube hands four products to the lanes, which read all four before releasing
  one: 4 popped slots held at once, more than the default depth.

Every kernel splits `up_down` and has 8 iterations (`trip_param`: `%n`); tiles are sized to fit both targets'
memories.
"""

from __future__ import annotations

TRIPS = 8
_HEAD = "builtin.module attributes {{pto.target = #pto.target<{target}>}} {{\n"


def _accumulating(target: str, name: str, params: str, prologue: str, body: str) -> str:
    """A kernel `@<name>_incore(<params>, %out_0)` that sums a 64x128 f32 vec tile over `TRIPS` iterations of
    `%i` (step 64): `prologue` before the loop, `body` computes `%term` from `%i`; the sum is stored to %out_0."""
    n = 64 * TRIPS
    return _HEAD.format(target=target) + f"""  func.func @{name}_incore({params},
      %out_0: !pto.tensor<64x128xf32> {{pto.out}}) -> !pto.tensor<64x128xf32>
      attributes {{pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>}} {{
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %cn = arith.constant {n} : index
    %zero = arith.constant 0.0 : f32
{prologue}    %init = pto.full %zero : f32 -> !pto.tile<64x128xf32, vec>
    %acc = scf.for %i = %c0 to %cn step %c64 iter_args(%sum = %init) -> (!pto.tile<64x128xf32, vec>) {{
{body}      %next = pto.add %sum, %term : !pto.tile<64x128xf32, vec>
      scf.yield %next : !pto.tile<64x128xf32, vec>
    }}
    %out_1 = pto.store %acc, %out_0[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %out_1 : !pto.tensor<64x128xf32>
  }}
}}
"""


def round_trip(target: str) -> str:
    n = 64 * TRIPS
    prologue = """    %scale = arith.constant 0.5 : f32
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
"""
    body = f"""      %x_vec = pto.load %x[%i, 0] : !pto.tensor<{n}x128xf32> -> !pto.tile<64x128xf32, vec>
      %x_s = pto.muls %x_vec, %scale : !pto.tile<64x128xf32, vec>, f32
      %x_bf = pto.cast %x_s : !pto.tile<64x128xf32, vec> -> !pto.tile<64x128xbf16, vec>
      %x_left = pto.move %x_bf : !pto.tile<64x128xbf16, vec> -> !pto.tile<64x128xbf16, left>
      %y_acc = pto.matmul %x_left, %w_right : !pto.tile<64x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<64x128xf32, acc>
      %term = pto.move %y_acc : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
"""
    params = f"%x: !pto.tensor<{n}x128xf32>, %w: !pto.tensor<128x128xbf16>"
    return _accumulating(target, "round_trip", params, prologue, body)


def k_loop(target: str) -> str:
    k = 64 * TRIPS
    body = f"""      %a_mat = pto.load %a[0, %i] : !pto.tensor<64x{k}xbf16> -> !pto.tile<64x64xbf16, mat>
      %b_mat = pto.load %b[%i, 0] : !pto.tensor<{k}x128xbf16> -> !pto.tile<64x128xbf16, mat>
      %a_left = pto.move %a_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, left>
      %b_right = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
      %part = pto.matmul %a_left, %b_right : !pto.tile<64x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<64x128xf32, acc>
      %p = pto.move %part : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
      %m = pto.row_max %p : !pto.tile<64x128xf32, vec> -> !pto.tile<64x1xf32, vec>
      %d = pto.row_expand_sub %p, %m : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
      %term = pto.exp %d : !pto.tile<64x128xf32, vec>
"""
    params = f"%a: !pto.tensor<64x{k}xbf16>, %b: !pto.tensor<{k}x128xbf16>"
    return _accumulating(target, "k_loop", params, "", body)


def two_pipes(target: str) -> str:
    n = 64 * TRIPS
    return _HEAD.format(target=target) + f"""  func.func @two_pipes_incore(%x: !pto.tensor<{n}x128xf32>, %y: !pto.tensor<{n}x128xbf16>,
                               %w: !pto.tensor<128x128xbf16>,
                               %out_0: !pto.tensor<{n}x128xf32> {{pto.out}}, %out_1: !pto.tensor<{n}x128xf32> {{pto.out}})
      -> (!pto.tensor<{n}x128xf32>, !pto.tensor<{n}x128xf32>)
      attributes {{pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>}} {{
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %cn = arith.constant {n} : index
    %scale = arith.constant 0.5 : f32
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %r0, %r1 = scf.for %i = %c0 to %cn step %c64 iter_args(%o0 = %out_0, %o1 = %out_1)
        -> (!pto.tensor<{n}x128xf32>, !pto.tensor<{n}x128xf32>) {{
      %x_vec = pto.load %x[%i, 0] : !pto.tensor<{n}x128xf32> -> !pto.tile<64x128xf32, vec>
      %x_s = pto.muls %x_vec, %scale : !pto.tile<64x128xf32, vec>, f32
      %x_bf = pto.cast %x_s : !pto.tile<64x128xf32, vec> -> !pto.tile<64x128xbf16, vec>
      %x_left = pto.move %x_bf : !pto.tile<64x128xbf16, vec> -> !pto.tile<64x128xbf16, left>
      %xw = pto.matmul %x_left, %w_right : !pto.tile<64x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<64x128xf32, acc>
      %o0_next = pto.store %xw, %o0[%i, 0] : !pto.tile<64x128xf32, acc>, !pto.tensor<{n}x128xf32>
      %y_mat = pto.load %y[%i, 0] : !pto.tensor<{n}x128xbf16> -> !pto.tile<64x128xbf16, mat>
      %y_left = pto.move %y_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, left>
      %yw_acc = pto.matmul %y_left, %w_right : !pto.tile<64x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<64x128xf32, acc>
      %yw = pto.move %yw_acc : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
      %yr = pto.relu %yw : !pto.tile<64x128xf32, vec>
      %o1_next = pto.store %yr, %o1[%i, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<{n}x128xf32>
      scf.yield %o0_next, %o1_next : !pto.tensor<{n}x128xf32>, !pto.tensor<{n}x128xf32>
    }}
    func.return %r0, %r1 : !pto.tensor<{n}x128xf32>, !pto.tensor<{n}x128xf32>
  }}
}}
"""


def trip_param(target: str) -> str:
    """`k_loop` with its trip count a scalar parameter `%n` (the loop runs `%n` K-slices of 64): the ring depth
    choice times it at the stated values of `%n` (0, 1, 2, 8: passes/expand_mixed_kernel/scalar_values.py)."""
    text = k_loop(target).replace("@k_loop_incore(", "@trip_param_incore(")
    text = text.replace("%b: !pto.tensor<", "%n: index, %b: !pto.tensor<", 1)
    text = text.replace("    %cn = arith.constant 512 : index\n", "    %cn = arith.muli %n, %c64 : index\n")
    return text


def held_tiles(target: str) -> str:
    """Per iteration the cube hands four 64x128 f32 products to the lanes, which add all four before releasing
    any: each lane holds 4 popped slots at once, more than the default depth 2 (rejected under
    `ring-depth=fixed`; `ring-depth=auto` gives the ring the 4 slots and times the depths from there)."""
    k = 64 * TRIPS
    chain = ["      %m0 = pto.matmul %a_left, %b_right : !pto.tile<64x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<64x128xf32, acc>"]
    for j in range(1, 4):
        chain.append(
            f"      %m{j} = pto.matmul_acc %m{j - 1}, %a_left, %b_right : !pto.tile<64x128xf32, acc>, "
            "!pto.tile<64x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<64x128xf32, acc>"
        )
    moves = [f"      %v{j} = pto.move %m{j} : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>" for j in range(4)]
    body = f"""      %a_mat = pto.load %a[0, %i] : !pto.tensor<64x{k}xbf16> -> !pto.tile<64x64xbf16, mat>
      %b_mat = pto.load %b[%i, 0] : !pto.tensor<{k}x128xbf16> -> !pto.tile<64x128xbf16, mat>
      %a_left = pto.move %a_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, left>
      %b_right = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
""" + "\n".join(chain + moves) + """
      %s1 = pto.add %v0, %v1 : !pto.tile<64x128xf32, vec>
      %s2 = pto.add %s1, %v2 : !pto.tile<64x128xf32, vec>
      %s3 = pto.add %s2, %v3 : !pto.tile<64x128xf32, vec>
      %term = pto.exp %s3 : !pto.tile<64x128xf32, vec>
"""
    params = f"%a: !pto.tensor<64x{k}xbf16>, %b: !pto.tensor<{k}x128xbf16>"
    return _accumulating(target, "held_tiles", params, "", body)


LOOP_KERNELS = {
    "round_trip": round_trip, "k_loop": k_loop, "two_pipes": two_pipes, "trip_param": trip_param,
    "held_tiles": held_tiles,
}
"""Name -> module text for a target."""
