"""Hypothesis strategy for round-trip loops (issue 42, the skew pass): mixed kernels whose loop crosses the cores
both ways in every iteration, as the attention loop does, drawn with the shapes the skew must handle.

Each kernel: per block j, S = Q K_j^T on the cube (C->V), P = f(S) on the vector lanes, P sent back (V->C), P V_j
on the cube, added into a carried O on the lanes (C->V); O is stored after the loop.  Drawn, each tagged in the
kernel's `// features:` comment:

* `trip:N` — the trip count, 0 to 6 (`dynamic`: the loop ends at an `index` parameter, which `@main` sets);
* `carry_l` — a second vector carry (the row sums of P), in the lanes' produce part, divided into O at the end;
* `carry_s` — a cube carry: S accumulates over the blocks (`matmul_acc`), in the cube's produce part;
* `if_vec` — P is exp(S) or S / 2 by an `scf.if` on the block index (no transfer inside);
* `if_cube` — S is computed in both branches of an `scf.if` on the block index (a push in each branch);
* `v_early` — V_j is loaded before S is pushed (the consume part's load, recomputed there by the skew);
* split `up_down` or `left_right`, target a2a3 or a5; tiles of 16 or 32 rows.
"""

from __future__ import annotations

from hypothesis import strategies as st

BLOCK = 32
MAX_TRIP = 6


@st.composite
def round_trips(draw) -> str:
    target = draw(st.sampled_from(["a2a3", "a5"]))
    split = draw(st.sampled_from(["up_down", "left_right"]))
    rows = draw(st.sampled_from([16, 32]))
    dynamic = draw(st.booleans())
    trip = draw(st.integers(0, MAX_TRIP))
    carry_l, carry_s = draw(st.booleans()), draw(st.booleans())
    if_vec, if_cube, v_early = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
    features = [f"trip:{trip}", *(["dynamic"] if dynamic else []),
                *(name for name, on in (("carry_l", carry_l), ("carry_s", carry_s), ("if_vec", if_vec),
                                        ("if_cube", if_cube), ("v_early", v_early)) if on),
                f"split:{split}", f"target:{target}"]
    n = BLOCK * MAX_TRIP
    s_t = f"!pto.tile<{rows}x{BLOCK}xf32, vec>"
    acc_t = f"!pto.tile<{rows}x{BLOCK}xf32, acc>"
    o_t = f"!pto.tile<{rows}x64xf32, vec>"
    l_t = f"!pto.tile<{rows}x1xf32, vec>"
    q_l = f"!pto.tile<{rows}x64xbf16, left>"
    k_r = f"!pto.tile<64x{BLOCK}xbf16, right>"
    params = (f"%q: !pto.tensor<{rows}x64xbf16>, %kt: !pto.tensor<64x{n}xbf16>, %v: !pto.tensor<{n}x64xbf16>"
              + (", %n: index" if dynamic else "") + f", %out_0: !pto.tensor<{rows}x64xf32> {{pto.out}}")
    ub = "%n" if dynamic else "%cend"
    carries = [("%o_acc", "%o_init", o_t, "%o_next")]
    if carry_l:
        carries.append(("%l_acc", "%l_init", l_t, "%l_next"))
    if carry_s:
        carries.append(("%s_run", "%s_init", acc_t, "%s_acc"))
    results = ["%o", "%l", "%s_last"][: len(carries)]
    matmul_s = (f"pto.matmul_acc %s_run, %q_left, %k_right : {acc_t}, {q_l}, {k_r} -> {acc_t}" if carry_s
                else f"pto.matmul %q_left, %k_right : {q_l}, {k_r} -> {acc_t}")
    v_load = (f"      %v_mat = pto.load %v[%j, 0] : !pto.tensor<{n}x64xbf16> -> !pto.tile<{BLOCK}x64xbf16, mat>\n"
              f"      %v_right = pto.move %v_mat : !pto.tile<{BLOCK}x64xbf16, mat> -> !pto.tile<{BLOCK}x64xbf16, right>\n")
    body = (f"      %k_mat = pto.load %kt[0, %j] : !pto.tensor<64x{n}xbf16> -> !pto.tile<64x{BLOCK}xbf16, mat>\n"
            f"      %k_right = pto.move %k_mat : !pto.tile<64x{BLOCK}xbf16, mat> -> {k_r}\n")
    if v_early:
        body += v_load
    if if_cube:
        body += (f"      %early = arith.cmpi ult, %j, %c64 : index\n"
                 f"      %s_acc, %s = scf.if %early -> ({acc_t}, {s_t}) {{\n"
                 f"        %sa = {matmul_s}\n        %sv = pto.move %sa : {acc_t} -> {s_t}\n"
                 f"        scf.yield %sa, %sv : {acc_t}, {s_t}\n      }} else {{\n"
                 f"        %sb = {matmul_s}\n        %sw = pto.move %sb : {acc_t} -> {s_t}\n"
                 f"        scf.yield %sb, %sw : {acc_t}, {s_t}\n      }}\n")
    else:
        body += f"      %s_acc = {matmul_s}\n      %s = pto.move %s_acc : {acc_t} -> {s_t}\n"
    if if_vec:
        body += (f"      %odd = arith.cmpi ugt, %j, %c32 : index\n      %p = scf.if %odd -> ({s_t}) {{\n"
                 f"        %pe = pto.exp %s : {s_t}\n        scf.yield %pe : {s_t}\n      }} else {{\n"
                 f"        %ph = pto.muls %s, %half : {s_t}, f32\n        scf.yield %ph : {s_t}\n      }}\n")
    else:
        body += f"      %p = pto.exp %s : {s_t}\n"
    if carry_l:
        body += (f"      %rs = pto.row_sum %p : {s_t} -> {l_t}\n      %l_next = pto.add %l_acc, %rs : {l_t}\n")
    body += (f"      %p_bf = pto.cast %p : {s_t} -> !pto.tile<{rows}x{BLOCK}xbf16, vec>\n"
             f"      %p_left = pto.move %p_bf : !pto.tile<{rows}x{BLOCK}xbf16, vec> -> !pto.tile<{rows}x{BLOCK}xbf16, left>\n")
    if not v_early:
        body += v_load
    body += (f"      %pv_acc = pto.matmul %p_left, %v_right : !pto.tile<{rows}x{BLOCK}xbf16, left>, "
             f"!pto.tile<{BLOCK}x64xbf16, right> -> !pto.tile<{rows}x64xf32, acc>\n"
             f"      %pv = pto.move %pv_acc : !pto.tile<{rows}x64xf32, acc> -> {o_t}\n"
             f"      %o_next = pto.add %o_acc, %pv : {o_t}\n"
             f"      scf.yield {', '.join(c[3] for c in carries)} : {', '.join(c[2] for c in carries)}\n")
    inits = ""
    if carry_l:
        inits += f"    %l_init = pto.full %one : f32 -> {l_t}\n"
    if carry_s:
        inits += (f"    %s_init = pto.matmul %q_left, %k0_right : {q_l}, {k_r} -> {acc_t}\n")
    res = "%o" if not carry_l else "%res"
    tail = f"    %res = pto.row_expand_div %o, %l : {o_t}, {l_t}\n" if carry_l else ""
    call_params = ", ".join(["%q", "%kt", "%v", *(["%nv"] if dynamic else []), "%out_0"])
    call_types = ", ".join([f"!pto.tensor<{rows}x64xbf16>", f"!pto.tensor<64x{n}xbf16>", f"!pto.tensor<{n}x64xbf16>",
                            *(["index"] if dynamic else []), f"!pto.tensor<{rows}x64xf32>"])
    return f"""// features: {' '.join(features)}
builtin.module attributes {{pto.target = #pto.target<{target}>}} {{
  func.func @rt_incore_0({params}) -> !pto.tensor<{rows}x64xf32>
      attributes {{pto.kind = #pto.kind<incore>, pto.split = #pto.split<{split}>}} {{
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %cend = arith.constant {BLOCK * trip} : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %q_mat = pto.load %q[0, 0] : !pto.tensor<{rows}x64xbf16> -> !pto.tile<{rows}x64xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<{rows}x64xbf16, mat> -> {q_l}
    %k0_mat = pto.load %kt[0, 0] : !pto.tensor<64x{n}xbf16> -> !pto.tile<64x{BLOCK}xbf16, mat>
    %k0_right = pto.move %k0_mat : !pto.tile<64x{BLOCK}xbf16, mat> -> {k_r}
    %o_init = pto.full %zero : f32 -> {o_t}
{inits}    {', '.join(results)} = scf.for %j = %c0 to {ub} step %c32 iter_args({', '.join(f'{c[0]} = {c[1]}' for c in carries)})
        -> ({', '.join(c[2] for c in carries)}) {{
{body}    }}
{tail}    %out_1 = pto.store {res}, %out_0[0, 0] : {o_t}, !pto.tensor<{rows}x64xf32>
    func.return %out_1 : !pto.tensor<{rows}x64xf32>
  }}
  func.func @main(%q: !pto.tensor<{rows}x64xbf16>, %kt: !pto.tensor<64x{n}xbf16>, %v: !pto.tensor<{n}x64xbf16>)
      -> !pto.tensor<{rows}x64xf32> attributes {{pto.kind = #pto.kind<orchestration>}} {{
    %nv = arith.constant {BLOCK * trip} : index
    %out_0 = pto.create_tensor : !pto.tensor<{rows}x64xf32>
    %r = func.call @rt_incore_0({call_params}) : ({call_types}) -> !pto.tensor<{rows}x64xf32>
    func.return %r : !pto.tensor<{rows}x64xf32>
  }}
}}
"""
