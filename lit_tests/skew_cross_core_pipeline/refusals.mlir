// RUN: pypto-opt --split-input-file --verify-diagnostics --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}' %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' '--skew-cross-core-pipeline{distance=2}'

// What the pass refuses when a distance is asked (with distance=auto it leaves these loops as they are: auto.mlir).
// The cube's S accumulates a tile the consume part computes (%s_fb, from P): the produce part of iteration
// k + D would read what the consume part of iteration k + D - 1 has not computed yet.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @carried_back(%q: !pto.tensor<32x64xbf16>, %kt: !pto.tensor<64x256xbf16>,
                          %v: !pto.tensor<256x64xbf16>,
                          %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cend = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %q_mat = pto.load %q[0, 0] : !pto.tensor<32x64xbf16> -> !pto.tile<32x64xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
    %o_init = pto.full %zero : f32 -> !pto.tile<32x64xf32, vec>
    %k0_mat = pto.load %kt[0, 0] : !pto.tensor<64x256xbf16> -> !pto.tile<64x32xbf16, mat>
    %k0_right = pto.move %k0_mat : !pto.tile<64x32xbf16, mat> -> !pto.tile<64x32xbf16, right>
    %s_init = pto.matmul %q_left, %k0_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<32x32xf32, acc>
    %o, %s_last = scf.for %j = %c0 to %cend step %c32 iter_args(%o_acc = %o_init, %s_run = %s_init) -> (!pto.tile<32x64xf32, vec>, !pto.tile<32x32xf32, acc>) {
      %k_mat = pto.load %kt[0, %j] : !pto.tensor<64x256xbf16> -> !pto.tile<64x32xbf16, mat>
      %k_right = pto.move %k_mat : !pto.tile<64x32xbf16, mat> -> !pto.tile<64x32xbf16, right>
      // expected-error@+1 {{skew-cross-core-pipeline: cannot skew this loop: the produce part depends on the consume part of an earlier iteration (it reads a loop-carried value the consume part computes)}}
      %s_acc = pto.matmul_acc %s_run, %q_left, %k_right : !pto.tile<32x32xf32, acc>, !pto.tile<32x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<32x32xf32, acc>
      %unused = pto.matmul %q_left, %k_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<32x32xf32, acc>
      %s = pto.move %s_acc : !pto.tile<32x32xf32, acc> -> !pto.tile<32x32xf32, vec>
      %p = pto.muls %s, %zero : !pto.tile<32x32xf32, vec>, f32
      %p_bf = pto.cast %p : !pto.tile<32x32xf32, vec> -> !pto.tile<32x32xbf16, vec>
      %p_left = pto.move %p_bf : !pto.tile<32x32xbf16, vec> -> !pto.tile<32x32xbf16, left>
      %k2_mat = pto.load %kt[0, 0] : !pto.tensor<64x256xbf16> -> !pto.tile<32x32xbf16, mat>
      %k_right2 = pto.move %k2_mat : !pto.tile<32x32xbf16, mat> -> !pto.tile<32x32xbf16, right>
      %v_mat = pto.load %v[%j, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
      %v_right = pto.move %v_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, right>
      %pv_acc = pto.matmul %p_left, %v_right : !pto.tile<32x32xbf16, left>, !pto.tile<32x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %s_fb = pto.matmul %p_left, %k_right2 : !pto.tile<32x32xbf16, left>, !pto.tile<32x32xbf16, right> -> !pto.tile<32x32xf32, acc>
      %pv = pto.move %pv_acc : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %o_next = pto.add %o_acc, %pv : !pto.tile<32x64xf32, vec>
      scf.yield %o_next, %s_fb : !pto.tile<32x64xf32, vec>, !pto.tile<32x32xf32, acc>
    }
    %out_1 = pto.store %o, %out_0[0, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<32x64xf32>
    func.return %out_1 : !pto.tensor<32x64xf32>
  }
}

// -----

// A K-loop streams partial products one way (C->V): no core waits for the other within an iteration, so
// there is nothing to run ahead (a deeper ring is what overlaps it).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @stream_incore_0(%a: !pto.tensor<32x256xbf16>, %b: !pto.tensor<256x64xbf16>,
                             %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cend = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %o_init = pto.full %zero : f32 -> !pto.tile<32x64xf32, vec>
    // expected-error@+1 {{skew-cross-core-pipeline: cannot skew this loop: not a round trip: neither core pushes a tile and then pops one in the same iteration}}
    %o = scf.for %j = %c0 to %cend step %c32 iter_args(%o_acc = %o_init) -> (!pto.tile<32x64xf32, vec>) {
      %a_mat = pto.load %a[0, %j] : !pto.tensor<32x256xbf16> -> !pto.tile<32x32xbf16, mat>
      %a_left = pto.move %a_mat : !pto.tile<32x32xbf16, mat> -> !pto.tile<32x32xbf16, left>
      %b_mat = pto.load %b[%j, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
      %b_right = pto.move %b_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, right>
      %part = pto.matmul %a_left, %b_right : !pto.tile<32x32xbf16, left>, !pto.tile<32x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %p = pto.move %part : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %o_next = pto.add %o_acc, %p : !pto.tile<32x64xf32, vec>
      scf.yield %o_next : !pto.tile<32x64xf32, vec>
    }
    %out_1 = pto.store %o, %out_0[0, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<32x64xf32>
    func.return %out_1 : !pto.tensor<32x64xf32>
  }
}

// -----

// S crosses to the lanes in one branch only (the first block is zeros): which ring op comes next depends on
// the branch, so the order of a ring after the skew cannot be stated.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @one_branch(%q: !pto.tensor<32x64xbf16>, %kt: !pto.tensor<64x256xbf16>,
                          %v: !pto.tensor<256x64xbf16>,
                          %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cend = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %q_mat = pto.load %q[0, 0] : !pto.tensor<32x64xbf16> -> !pto.tile<32x64xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
    %o_init = pto.full %zero : f32 -> !pto.tile<32x64xf32, vec>
    %o = scf.for %j = %c0 to %cend step %c32 iter_args(%o_acc = %o_init) -> (!pto.tile<32x64xf32, vec>) {
      %k_mat = pto.load %kt[0, %j] : !pto.tensor<64x256xbf16> -> !pto.tile<64x32xbf16, mat>
      %k_right = pto.move %k_mat : !pto.tile<64x32xbf16, mat> -> !pto.tile<64x32xbf16, right>
      %first = arith.cmpi eq, %j, %c0 : index
      // expected-error@+1 {{skew-cross-core-pipeline: cannot skew this loop: the two branches of an scf.if in the loop do different cross-core transfers}}
      %s = scf.if %first -> (!pto.tile<32x32xf32, vec>) {
        %z = pto.full %zero : f32 -> !pto.tile<32x32xf32, vec>
        scf.yield %z : !pto.tile<32x32xf32, vec>
      } else {
        %s_acc = pto.matmul %q_left, %k_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<32x32xf32, acc>
        %s_mv = pto.move %s_acc : !pto.tile<32x32xf32, acc> -> !pto.tile<32x32xf32, vec>
        scf.yield %s_mv : !pto.tile<32x32xf32, vec>
      }
      %p = pto.exp %s : !pto.tile<32x32xf32, vec>
      %p_bf = pto.cast %p : !pto.tile<32x32xf32, vec> -> !pto.tile<32x32xbf16, vec>
      %p_left = pto.move %p_bf : !pto.tile<32x32xbf16, vec> -> !pto.tile<32x32xbf16, left>
      %v_mat = pto.load %v[%j, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
      %v_right = pto.move %v_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, right>
      %pv_acc = pto.matmul %p_left, %v_right : !pto.tile<32x32xbf16, left>, !pto.tile<32x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %pv = pto.move %pv_acc : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %o_next = pto.add %o_acc, %pv : !pto.tile<32x64xf32, vec>
      scf.yield %o_next : !pto.tile<32x64xf32, vec>
    }
    %out_1 = pto.store %o, %out_0[0, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<32x64xf32>
    func.return %out_1 : !pto.tensor<32x64xf32>
  }
}

// -----

// The cube picks V in an scf.if before pushing S and uses it after popping P: the tile would have to be kept
// for D iterations (an op with a region is not recomputed).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @if_value(%q: !pto.tensor<32x64xbf16>, %kt: !pto.tensor<64x256xbf16>,
                          %v: !pto.tensor<256x64xbf16>,
                          %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cend = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %q_mat = pto.load %q[0, 0] : !pto.tensor<32x64xbf16> -> !pto.tile<32x64xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
    %o_init = pto.full %zero : f32 -> !pto.tile<32x64xf32, vec>
    %o = scf.for %j = %c0 to %cend step %c32 iter_args(%o_acc = %o_init) -> (!pto.tile<32x64xf32, vec>) {
      %k_mat = pto.load %kt[0, %j] : !pto.tensor<64x256xbf16> -> !pto.tile<64x32xbf16, mat>
      %k_right = pto.move %k_mat : !pto.tile<64x32xbf16, mat> -> !pto.tile<64x32xbf16, right>
      %first = arith.cmpi eq, %j, %c0 : index
      %v_pick = scf.if %first -> (!pto.tile<32x64xbf16, right>) {
        %v0_mat = pto.load %v[0, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
        %v0_right = pto.move %v0_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, right>
        scf.yield %v0_right : !pto.tile<32x64xbf16, right>
      } else {
        %v1_mat = pto.load %v[%j, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
        %v1_right = pto.move %v1_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, right>
        scf.yield %v1_right : !pto.tile<32x64xbf16, right>
      }
      %s_acc = pto.matmul %q_left, %k_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<32x32xf32, acc>
      %s = pto.move %s_acc : !pto.tile<32x32xf32, acc> -> !pto.tile<32x32xf32, vec>
      %p = pto.exp %s : !pto.tile<32x32xf32, vec>
      %p_bf = pto.cast %p : !pto.tile<32x32xf32, vec> -> !pto.tile<32x32xbf16, vec>
      %p_left = pto.move %p_bf : !pto.tile<32x32xbf16, vec> -> !pto.tile<32x32xbf16, left>
      // expected-error@+1 {{skew-cross-core-pipeline: cannot skew this loop: the consume part uses a value the produce part computes in the same iteration ('scf.if'), which would have to live D iterations}}
      %pv_acc = pto.matmul %p_left, %v_pick : !pto.tile<32x32xbf16, left>, !pto.tile<32x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %pv = pto.move %pv_acc : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %o_next = pto.add %o_acc, %pv : !pto.tile<32x64xf32, vec>
      scf.yield %o_next : !pto.tile<32x64xf32, vec>
    }
    %out_1 = pto.store %o, %out_0[0, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<32x64xf32>
    func.return %out_1 : !pto.tensor<32x64xf32>
  }
}

// -----

// The kernel sets pto.slot_num = 2 and a distance of 2 needs 3 slots: the author's depth is not raised.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @given_depth(%q: !pto.tensor<32x64xbf16>, %kt: !pto.tensor<64x256xbf16>,
                          %v: !pto.tensor<256x64xbf16>,
                          %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.slot_num = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cend = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %q_mat = pto.load %q[0, 0] : !pto.tensor<32x64xbf16> -> !pto.tile<32x64xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
    %o_init = pto.full %zero : f32 -> !pto.tile<32x64xf32, vec>
    // expected-error@+1 {{skew-cross-core-pipeline: a distance of 2 needs rings of 3 slots, and the kernel sets its depth (2); raise pto.slot_num or skew by less}}
    %o = scf.for %j = %c0 to %cend step %c32 iter_args(%o_acc = %o_init) -> (!pto.tile<32x64xf32, vec>) {
      %k_mat = pto.load %kt[0, %j] : !pto.tensor<64x256xbf16> -> !pto.tile<64x32xbf16, mat>
      %k_right = pto.move %k_mat : !pto.tile<64x32xbf16, mat> -> !pto.tile<64x32xbf16, right>
      %s_acc = pto.matmul %q_left, %k_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<32x32xf32, acc>
      %s = pto.move %s_acc : !pto.tile<32x32xf32, acc> -> !pto.tile<32x32xf32, vec>
      %p = pto.exp %s : !pto.tile<32x32xf32, vec>
      %p_bf = pto.cast %p : !pto.tile<32x32xf32, vec> -> !pto.tile<32x32xbf16, vec>
      %p_left = pto.move %p_bf : !pto.tile<32x32xbf16, vec> -> !pto.tile<32x32xbf16, left>
      %v_mat = pto.load %v[%j, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
      %v_right = pto.move %v_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, right>
      %pv_acc = pto.matmul %p_left, %v_right : !pto.tile<32x32xbf16, left>, !pto.tile<32x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %pv = pto.move %pv_acc : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %o_next = pto.add %o_acc, %pv : !pto.tile<32x64xf32, vec>
      scf.yield %o_next : !pto.tile<32x64xf32, vec>
    }
    %out_1 = pto.store %o, %out_0[0, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<32x64xf32>
    func.return %out_1 : !pto.tensor<32x64xf32>
  }
}

// -----

// The cube loads V before pushing S and uses it after popping P, but the kernel writes V (after the loop): a
// load of a tensor a core writes is not recomputed in the consume part (its value could differ there).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @written_v(%q: !pto.tensor<32x64xbf16>, %kt: !pto.tensor<64x256xbf16>,
                          %v: !pto.tensor<256x64xbf16> {pto.inout},
                          %out_0: !pto.tensor<32x64xf32> {pto.out}) -> !pto.tensor<32x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cend = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %q_mat = pto.load %q[0, 0] : !pto.tensor<32x64xbf16> -> !pto.tile<32x64xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, left>
    %o_init = pto.full %zero : f32 -> !pto.tile<32x64xf32, vec>
    %o = scf.for %j = %c0 to %cend step %c32 iter_args(%o_acc = %o_init) -> (!pto.tile<32x64xf32, vec>) {
      %k_mat = pto.load %kt[0, %j] : !pto.tensor<64x256xbf16> -> !pto.tile<64x32xbf16, mat>
      %k_right = pto.move %k_mat : !pto.tile<64x32xbf16, mat> -> !pto.tile<64x32xbf16, right>
      %v_mat = pto.load %v[%j, 0] : !pto.tensor<256x64xbf16> -> !pto.tile<32x64xbf16, mat>
      %v_right = pto.move %v_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, right>
      %s_acc = pto.matmul %q_left, %k_right : !pto.tile<32x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<32x32xf32, acc>
      %s = pto.move %s_acc : !pto.tile<32x32xf32, acc> -> !pto.tile<32x32xf32, vec>
      %p = pto.exp %s : !pto.tile<32x32xf32, vec>
      %p_bf = pto.cast %p : !pto.tile<32x32xf32, vec> -> !pto.tile<32x32xbf16, vec>
      %p_left = pto.move %p_bf : !pto.tile<32x32xbf16, vec> -> !pto.tile<32x32xbf16, left>
      // expected-error@+1 {{skew-cross-core-pipeline: cannot skew this loop: the consume part uses a value the produce part computes in the same iteration ('pto.load'), which would have to live D iterations}}
      %pv_acc = pto.matmul %p_left, %v_right : !pto.tile<32x32xbf16, left>, !pto.tile<32x64xbf16, right> -> !pto.tile<32x64xf32, acc>
      %pv = pto.move %pv_acc : !pto.tile<32x64xf32, acc> -> !pto.tile<32x64xf32, vec>
      %o_next = pto.add %o_acc, %pv : !pto.tile<32x64xf32, vec>
      scf.yield %o_next : !pto.tile<32x64xf32, vec>
    }
    %out_1 = pto.store %o, %out_0[0, 0] : !pto.tile<32x64xf32, vec>, !pto.tensor<32x64xf32>
    %o_bf = pto.cast %o : !pto.tile<32x64xf32, vec> -> !pto.tile<32x64xbf16, vec>
    %v_1 = pto.store %o_bf, %v[0, 0] : !pto.tile<32x64xbf16, vec>, !pto.tensor<256x64xbf16>
    func.return %out_1 : !pto.tensor<32x64xf32>
  }
}

// -----

// A generated kernel (tests/kernelgen) exchanging a scratch tensor through GM inside the loop: the cube stores
// the product, the lanes load the previous iteration's (ExpandMixedKernel fences both orders with transfers, the
// loop-carried one popped at the iteration's end).  Skewed, the next iteration's produce part would run before
// that pop: a race the interpreter's race detector reports; the pass refuses the loop instead.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gen_incore_0(%a0: !pto.tensor<15x32xbf16>, %w1: !pto.tensor<32x31xbf16>, %out2: !pto.tensor<15x31xf32> {pto.out}, %scratch3: !pto.tensor<15x31xf32> {pto.out}, %in4: !pto.tensor<18x32xf32>) -> !pto.tensor<15x31xf32> attributes {pto.kind = #pto.kind<incore>} {
    %v2r, %c3r, %c4r, %c5r = scf.execute_region -> (!pto.tile<15x31xf32, vec, valid = [9, 23]>, index, index, index) {
      %f1 = arith.constant 0.000000e+00 : f32
      %v2 = pto.full %f1 : f32 -> !pto.tile<15x31xf32, vec, valid = [9, 23]>
      %c3 = arith.constant 0 : index
      %c4 = arith.constant 32 : index
      %c5 = arith.constant 16 : index
      scf.yield %v2, %c3, %c4, %c5 : !pto.tile<15x31xf32, vec, valid = [9, 23]>, index, index, index
    }
    %acc6 = scf.for %kk7 = %c3r to %c4r step %c5r iter_args(%s8 = %v2r) -> (!pto.tile<15x31xf32, vec, valid = [9, 23]>) {
      %ld9 = pto.load %a0[0, %kk7] valid [9, 16] : !pto.tensor<15x32xbf16> -> !pto.tile<15x16xbf16, mat, valid = [9, 16]>
      %mv10 = pto.move %ld9 : !pto.tile<15x16xbf16, mat, valid = [9, 16]> -> !pto.tile<15x16xbf16, left, valid = [9, 16]>
      %ld11 = pto.load %w1[%kk7, 0] valid [16, 23] : !pto.tensor<32x31xbf16> -> !pto.tile<16x31xbf16, mat, valid = [16, 23]>
      %mv12 = pto.move %ld11 : !pto.tile<16x31xbf16, mat, valid = [16, 23]> -> !pto.tile<16x31xbf16, right, valid = [16, 23]>
      %mm13 = pto.matmul %mv10, %mv12 : !pto.tile<15x16xbf16, left, valid = [9, 16]>, !pto.tile<16x31xbf16, right, valid = [16, 23]> -> !pto.tile<15x31xf32, acc, valid = [9, 23]>
      // expected-error@+1 {{skew-cross-core-pipeline: cannot skew this loop: the loop accesses a GM tensor the other core also accesses, one of them writing it: the skew would reorder those accesses against the transfers that order them}}
      %ld14 = pto.load %scratch3[0, 0] valid [9, 23] : !pto.tensor<15x31xf32> -> !pto.tile<15x31xf32, vec, valid = [9, 23]>
      %o15 = pto.store %mm13, %scratch3[0, 0] : !pto.tile<15x31xf32, acc, valid = [9, 23]>, !pto.tensor<15x31xf32>
      %v16 = pto.add %s8, %ld14 : !pto.tile<15x31xf32, vec, valid = [9, 23]>
      scf.yield %v16 : !pto.tile<15x31xf32, vec, valid = [9, 23]>
    }
    %ld18 = pto.load %in4[0, 0] : !pto.tensor<18x32xf32> -> !pto.tile<18x32xf32, vec>
    %o20r = scf.execute_region -> (!pto.tensor<15x31xf32>) {
      %sl19 = pto.slice %ld18[2, 0] valid [9, 23] : !pto.tile<18x32xf32, vec> -> !pto.tile<15x31xf32, vec, valid = [9, 23]>
      %v17 = pto.mul %acc6, %sl19 : !pto.tile<15x31xf32, vec, valid = [9, 23]>
      %o20 = pto.store %v17, %out2[0, 0] : !pto.tile<15x31xf32, vec, valid = [9, 23]>, !pto.tensor<15x31xf32>
      scf.yield %o20 : !pto.tensor<15x31xf32>
    }
    func.return %o20r : !pto.tensor<15x31xf32>
  }
}
