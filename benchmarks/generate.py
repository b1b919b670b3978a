"""Generators of `pto` modules of growing size, for the compile-time benchmark.

Two shapes, both valid input of `--lower-auto-vector-split` and `--expand-mixed-kernel` on both targets:

- `many_kernels(n, target)`: `n` small mixed incore kernels (about 20 ops each, `pto.split = up_down`), cycling
  through four bodies (C->V softmax tail, C->V with a K-loop, C->V with an `scf.if`, V->C prep feeding a matmul),
  and an orchestration `@main` that calls each kernel once.
- `long_kernel(n, target)`: one mixed incore kernel with `n` rounds of
  load -> move -> matmul -> move (acc -> vec) -> vector ops -> store, threaded through a loop-carried vec
  accumulator and the output tensor; every 4th round runs its matmul inside an `scf.for` K-loop and every 3rd
  round applies its vector tail under an `scf.if`.

Tile shapes are small and fixed; only the number of functions (or rounds) grows.
"""

from __future__ import annotations

from io import StringIO

TARGETS = ("a2a3", "a5")
SHAPES = ("many", "long")

# Types used throughout (M x K) @ (K x N) -> M x N.
_A = "!pto.tensor<32x128xbf16>"
_B = "!pto.tensor<128x64xbf16>"
_BIAS = "!pto.tensor<32x64xf32>"
_OUT = "!pto.tensor<32x64xf32>"
_AM = "!pto.tile<32x128xbf16, mat>"
_AL = "!pto.tile<32x128xbf16, left>"
_BM = "!pto.tile<128x64xbf16, mat>"
_BR = "!pto.tile<128x64xbf16, right>"
_ACC = "!pto.tile<32x64xf32, acc>"
_V = "!pto.tile<32x64xf32, vec>"
_V1 = "!pto.tile<32x1xf32, vec>"
# K-loop slices: (32 x 32) @ (32 x 64)
_AMK = "!pto.tile<32x32xbf16, mat>"
_ALK = "!pto.tile<32x32xbf16, left>"
_BMK = "!pto.tile<32x64xbf16, mat>"
_BRK = "!pto.tile<32x64xbf16, right>"
# V->C prep: x (32 x 128 f32) scaled and cast on the vector side, then multiplied on the cube.
_X = "!pto.tensor<32x128xf32>"
_XV = "!pto.tile<32x128xf32, vec>"
_XVB = "!pto.tile<32x128xbf16, vec>"

_SIG = (
    f"%a: {_A}, %b: {_B}, %x: {_X}, %bias: {_BIAS}, %flag: i1, %out_0: {_OUT} {{pto.out}}"
)
_ARG_TYPES = f"{_A}, {_B}, {_X}, {_BIAS}, i1, {_OUT}"
_ATTRS = "attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>}"


def _kernel_softmax(name: str) -> str:
    return f"""  func.func @{name}({_SIG}) -> {_OUT}
      {_ATTRS} {{
    %scale = arith.constant 0.125 : f32
    %a_mat = pto.load %a[0, 0] : {_A} -> {_AM}
    %b_mat = pto.load %b[0, 0] : {_B} -> {_BM}
    %a_left = pto.move %a_mat : {_AM} -> {_AL}
    %b_right = pto.move %b_mat : {_BM} -> {_BR}
    %mm = pto.matmul %a_left, %b_right : {_AL}, {_BR} -> {_ACC}
    %s = pto.move %mm : {_ACC} -> {_V}
    %bias_v = pto.load %bias[0, 0] : {_BIAS} -> {_V}
    %t = pto.add %s, %bias_v : {_V}
    %ts = pto.muls %t, %scale : {_V}, f32
    %m = pto.row_max %ts : {_V} -> {_V1}
    %d = pto.row_expand_sub %ts, %m : {_V}, {_V1}
    %e = pto.exp %d : {_V}
    %sum = pto.row_sum %e : {_V} -> {_V1}
    %p = pto.row_expand_div %e, %sum : {_V}, {_V1}
    %r = pto.relu %p : {_V}
    %out_1 = pto.store %r, %out_0[0, 0] : {_V}, {_OUT}
    func.return %out_1 : {_OUT}
  }}
"""


def _kernel_kloop(name: str) -> str:
    return f"""  func.func @{name}({_SIG}) -> {_OUT}
      {_ATTRS} {{
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %init = pto.full %zero : f32 -> {_V}
    %acc = scf.for %kk = %c0 to %c128 step %c32 iter_args(%sum = %init) -> ({_V}) {{
      %a_mat = pto.load %a[0, %kk] : {_A} -> {_AMK}
      %b_mat = pto.load %b[%kk, 0] : {_B} -> {_BMK}
      %a_left = pto.move %a_mat : {_AMK} -> {_ALK}
      %b_right = pto.move %b_mat : {_BMK} -> {_BRK}
      %part = pto.matmul %a_left, %b_right : {_ALK}, {_BRK} -> {_ACC}
      %part_vec = pto.move %part : {_ACC} -> {_V}
      %next = pto.add %sum, %part_vec : {_V}
      scf.yield %next : {_V}
    }}
    %bias_v = pto.load %bias[0, 0] : {_BIAS} -> {_V}
    %t = pto.add %acc, %bias_v : {_V}
    %r = pto.relu %t : {_V}
    %out_1 = pto.store %r, %out_0[0, 0] : {_V}, {_OUT}
    func.return %out_1 : {_OUT}
  }}
"""


def _kernel_if(name: str) -> str:
    return f"""  func.func @{name}({_SIG}) -> {_OUT}
      {_ATTRS} {{
    %a_mat = pto.load %a[0, 0] : {_A} -> {_AM}
    %b_mat = pto.load %b[0, 0] : {_B} -> {_BM}
    %a_left = pto.move %a_mat : {_AM} -> {_AL}
    %b_right = pto.move %b_mat : {_BM} -> {_BR}
    %mm = pto.matmul %a_left, %b_right : {_AL}, {_BR} -> {_ACC}
    %s = pto.move %mm : {_ACC} -> {_V}
    %bias_v = pto.load %bias[0, 0] : {_BIAS} -> {_V}
    %t = pto.add %s, %bias_v : {_V}
    %u = scf.if %flag -> ({_V}) {{
      %e = pto.exp %t : {_V}
      scf.yield %e : {_V}
    }} else {{
      %r = pto.relu %t : {_V}
      scf.yield %r : {_V}
    }}
    %m = pto.row_max %u : {_V} -> {_V1}
    %d = pto.row_expand_sub %u, %m : {_V}, {_V1}
    %out_1 = pto.store %d, %out_0[0, 0] : {_V}, {_OUT}
    func.return %out_1 : {_OUT}
  }}
"""


def _kernel_prep(name: str) -> str:
    return f"""  func.func @{name}({_SIG}) -> {_OUT}
      {_ATTRS} {{
    %scale = arith.constant 0.125 : f32
    %x_vec = pto.load %x[0, 0] : {_X} -> {_XV}
    %x_scaled = pto.muls %x_vec, %scale : {_XV}, f32
    %x_bf = pto.cast %x_scaled : {_XV} -> {_XVB}
    %x_left = pto.move %x_bf : {_XVB} -> {_AL}
    %b_mat = pto.load %b[0, 0] : {_B} -> {_BM}
    %b_right = pto.move %b_mat : {_BM} -> {_BR}
    %mm = pto.matmul %x_left, %b_right : {_AL}, {_BR} -> {_ACC}
    %s = pto.move %mm : {_ACC} -> {_V}
    %bias_v = pto.load %bias[0, 0] : {_BIAS} -> {_V}
    %t = pto.add %s, %bias_v : {_V}
    %r = pto.relu %t : {_V}
    %out_1 = pto.store %r, %out_0[0, 0] : {_V}, {_OUT}
    func.return %out_1 : {_OUT}
  }}
"""


_BODIES = (_kernel_softmax, _kernel_kloop, _kernel_if, _kernel_prep)


def _main(callees: list[str]) -> str:
    out = StringIO()
    out.write(
        f"  func.func @main(%a: {_A}, %b: {_B}, %x: {_X}, %bias: {_BIAS}, %flag: i1)\n"
        f"      attributes {{pto.kind = #pto.kind<orchestration>}} {{\n"
    )
    for i, name in enumerate(callees):
        out.write(f"    %o{i}_0 = pto.create_tensor : {_OUT}\n")
        out.write(
            f"    %r{i}_0 = func.call @{name}(%a, %b, %x, %bias, %flag, %o{i}_0) : ({_ARG_TYPES}) -> {_OUT}\n"
        )
    out.write("    func.return\n  }\n")
    return out.getvalue()


def many_kernels(n: int, target: str = "a2a3") -> str:
    """`n` small mixed kernels and an orchestration `@main` calling each once."""
    out = StringIO()
    out.write(f"builtin.module attributes {{pto.target = #pto.target<{target}>}} {{\n")
    names = []
    for i in range(n):
        name = f"k{i}_incore"
        names.append(name)
        out.write(_BODIES[i % len(_BODIES)](name))
    out.write(_main(names))
    out.write("}\n")
    return out.getvalue()


def _round(i: int) -> str:
    """One round of the long kernel: `%acc{i}`/`%out{i}` in, `%acc{i+1}`/`%out{i+1}` out."""
    n = i + 1
    lines: list[str] = []
    w = lines.append
    if i % 4 == 3:  # K-loop: the matmul and its boundary move inside an scf.for
        w(f"    %kacc{i} = scf.for %kk{i} = %c0 to %c128 step %c32 iter_args(%ks{i} = %acc{i}) -> ({_V}) {{")
        w(f"      %am{i} = pto.load %a[0, %kk{i}] : {_A} -> {_AMK}")
        w(f"      %bm{i} = pto.load %b[%kk{i}, 0] : {_B} -> {_BMK}")
        w(f"      %al{i} = pto.move %am{i} : {_AMK} -> {_ALK}")
        w(f"      %br{i} = pto.move %bm{i} : {_BMK} -> {_BRK}")
        w(f"      %mm{i} = pto.matmul %al{i}, %br{i} : {_ALK}, {_BRK} -> {_ACC}")
        w(f"      %mv{i} = pto.move %mm{i} : {_ACC} -> {_V}")
        w(f"      %kn{i} = pto.add %ks{i}, %mv{i} : {_V}")
        w(f"      scf.yield %kn{i} : {_V}")
        w("    }")
        w(f"    %t{i} = pto.muls %kacc{i}, %half : {_V}, f32")
    else:
        w(f"    %am{i} = pto.load %a[0, 0] : {_A} -> {_AM}")
        w(f"    %bm{i} = pto.load %b[0, 0] : {_B} -> {_BM}")
        w(f"    %al{i} = pto.move %am{i} : {_AM} -> {_AL}")
        w(f"    %br{i} = pto.move %bm{i} : {_BM} -> {_BR}")
        w(f"    %mm{i} = pto.matmul %al{i}, %br{i} : {_AL}, {_BR} -> {_ACC}")
        w(f"    %mv{i} = pto.move %mm{i} : {_ACC} -> {_V}")
        w(f"    %t{i} = pto.add %acc{i}, %mv{i} : {_V}")
    if i % 3 == 2:  # the vector tail under an scf.if
        w(f"    %u{i} = scf.if %flag -> ({_V}) {{")
        w(f"      %ue{i} = pto.exp %t{i} : {_V}")
        w(f"      scf.yield %ue{i} : {_V}")
        w("    } else {")
        w(f"      %ur{i} = pto.relu %t{i} : {_V}")
        w(f"      scf.yield %ur{i} : {_V}")
        w("    }")
    else:
        w(f"    %u{i} = pto.exp %t{i} : {_V}")
    w(f"    %m{i} = pto.row_max %u{i} : {_V} -> {_V1}")
    w(f"    %acc{n} = pto.row_expand_sub %u{i}, %m{i} : {_V}, {_V1}")
    w(f"    %out{n} = pto.store %acc{n}, %out{i}[0, 0] : {_V}, {_OUT}")
    return "\n".join(lines) + "\n"


def long_kernel(n: int, target: str = "a2a3") -> str:
    """One mixed kernel with `n` cube->vector rounds, and an orchestration `@main` calling it."""
    out = StringIO()
    out.write(f"builtin.module attributes {{pto.target = #pto.target<{target}>}} {{\n")
    out.write(
        f"  func.func @long_incore(%a: {_A}, %b: {_B}, %flag: i1, %out0: {_OUT} {{pto.out}}) -> {_OUT}\n"
        f"      {_ATTRS} {{\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %c32 = arith.constant 32 : index\n"
        "    %c128 = arith.constant 128 : index\n"
        "    %half = arith.constant 0.5 : f32\n"
        "    %zero = arith.constant 0.0 : f32\n"
        f"    %acc0 = pto.full %zero : f32 -> {_V}\n"
    )
    for i in range(n):
        out.write(_round(i))
    out.write(f"    func.return %out{n} : {_OUT}\n  }}\n")
    out.write(
        f"  func.func @main(%a: {_A}, %b: {_B}, %flag: i1) -> {_OUT}\n"
        f"      attributes {{pto.kind = #pto.kind<orchestration>}} {{\n"
        f"    %o = pto.create_tensor : {_OUT}\n"
        f"    %r = func.call @long_incore(%a, %b, %flag, %o) : ({_A}, {_B}, i1, {_OUT}) -> {_OUT}\n"
        f"    func.return %r : {_OUT}\n  }}\n"
    )
    out.write("}\n")
    return out.getvalue()


def generate(shape: str, n: int, target: str = "a2a3") -> str:
    if shape == "many":
        return many_kernels(n, target)
    if shape == "long":
        return long_kernel(n, target)
    raise ValueError(f"unknown shape {shape!r} (known: {', '.join(SHAPES)})")
