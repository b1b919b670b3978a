// RUN: pypto-opt %s '--lower-auto-vector-split{split-policy=always}' | filecheck %s
// RUN: pypto-run --quiet --check-pipeline 'lower-auto-vector-split{split-policy=always},expand-mixed-kernel' %s
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir '--lower-auto-vector-split{split-policy=always}' | filecheck %s
// RUN: pypto-run --quiet --check-pipeline 'lower-auto-vector-split{split-policy=always},expand-mixed-kernel' %t.a5.mlir

// A singleton loop accumulator that meets only whole values stays whole (issue 43 merge regression).  Under
// left_right a [16, 1] row-sum accumulator has a singleton split axis; the row sum over the split axis is combined
// across the lanes (whole on both lanes), so the carried value must stay whole: the row_expand_div after the loop
// needs every row's sum on both lanes.  It used to be carried as lane 0's part (lane 1 an empty column), and
// lane 1's half of the result was NaN (found by the round-trip generator, kernelgen/round_trips.py).  The same
// lines hold on both targets (one prefix).  split-policy=always: the timing model would keep this small kernel
// unsplit (the split does not pay), and the split is what is shown.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @rt_incore_0
  // CHECK:       %{{.*}}, %{{.*}} = scf.for {{.*}} -> (!pto.tile<16x32xf32, vec>, !pto.tile<16x1xf32, vec>) {
  // CHECK:         pto.lane_barrier
  // CHECK:         %[[RS:.*]] = pto.row_sum %{{.*}} : !pto.tile<16x32xf32, vec> -> !pto.tile<16x1xf32, vec>
  // CHECK-NEXT:    pto.add %{{.*}}, %[[RS]] : !pto.tile<16x1xf32, vec>
  // CHECK:       pto.row_expand_div %{{.*}}, %{{.*}} : !pto.tile<16x32xf32, vec>, !pto.tile<16x1xf32, vec>
  func.func @rt_incore_0(%q: !pto.tensor<16x64xbf16>, %kt: !pto.tensor<64x192xbf16>, %v: !pto.tensor<192x64xbf16>, %out_0: !pto.tensor<16x64xf32> {pto.out}) -> !pto.tensor<16x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %cend = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %q_mat = pto.load %q[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %k0_mat = pto.load %kt[0, 0] : !pto.tensor<64x192xbf16> -> !pto.tile<64x32xbf16, mat>
    %k0_right = pto.move %k0_mat : !pto.tile<64x32xbf16, mat> -> !pto.tile<64x32xbf16, right>
    %o_init = pto.full %zero : f32 -> !pto.tile<16x64xf32, vec>
    %l_init = pto.full %one : f32 -> !pto.tile<16x1xf32, vec>
    %o, %l = scf.for %j = %c0 to %cend step %c32 iter_args(%o_acc = %o_init, %l_acc = %l_init)
        -> (!pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>) {
      %k_mat = pto.load %kt[0, %j] : !pto.tensor<64x192xbf16> -> !pto.tile<64x32xbf16, mat>
      %k_right = pto.move %k_mat : !pto.tile<64x32xbf16, mat> -> !pto.tile<64x32xbf16, right>
      %s_acc = pto.matmul %q_left, %k_right : !pto.tile<16x64xbf16, left>, !pto.tile<64x32xbf16, right> -> !pto.tile<16x32xf32, acc>
      %s = pto.move %s_acc : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
      %p = pto.exp %s : !pto.tile<16x32xf32, vec>
      %rs = pto.row_sum %p : !pto.tile<16x32xf32, vec> -> !pto.tile<16x1xf32, vec>
      %l_next = pto.add %l_acc, %rs : !pto.tile<16x1xf32, vec>
      %p_bf = pto.cast %p : !pto.tile<16x32xf32, vec> -> !pto.tile<16x32xbf16, vec>
      %p_left = pto.move %p_bf : !pto.tile<16x32xbf16, vec> -> !pto.tile<16x32xbf16, left>
      %v_mat = pto.load %v[%j, 0] : !pto.tensor<192x64xbf16> -> !pto.tile<32x64xbf16, mat>
      %v_right = pto.move %v_mat : !pto.tile<32x64xbf16, mat> -> !pto.tile<32x64xbf16, right>
      %pv_acc = pto.matmul %p_left, %v_right : !pto.tile<16x32xbf16, left>, !pto.tile<32x64xbf16, right> -> !pto.tile<16x64xf32, acc>
      %pv = pto.move %pv_acc : !pto.tile<16x64xf32, acc> -> !pto.tile<16x64xf32, vec>
      %o_next = pto.add %o_acc, %pv : !pto.tile<16x64xf32, vec>
      scf.yield %o_next, %l_next : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
    }
    %res = pto.row_expand_div %o, %l : !pto.tile<16x64xf32, vec>, !pto.tile<16x1xf32, vec>
    %out_1 = pto.store %res, %out_0[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
    func.return %out_1 : !pto.tensor<16x64xf32>
  }
  func.func @main(%q: !pto.tensor<16x64xbf16>, %kt: !pto.tensor<64x192xbf16>, %v: !pto.tensor<192x64xbf16>)
      -> !pto.tensor<16x64xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %nv = arith.constant 0 : index
    %out_0 = pto.create_tensor : !pto.tensor<16x64xf32>
    %r = func.call @rt_incore_0(%q, %kt, %v, %out_0) : (!pto.tensor<16x64xbf16>, !pto.tensor<64x192xbf16>, !pto.tensor<192x64xbf16>, !pto.tensor<16x64xf32>) -> !pto.tensor<16x64xf32>
    func.return %r : !pto.tensor<16x64xf32>
  }
}
