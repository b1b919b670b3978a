// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s
// RUN: pypto-run --check-pipeline expand-mixed-kernel %s | filecheck %s --check-prefix=EXEC
// RUN: sed 's/a2a3/a5/' %s | pypto-run --check-pipeline expand-mixed-kernel - | filecheck %s --check-prefix=EXEC

// One GM buffer under two names.  (1) Parameters a caller binds to one buffer (analysis/hazards.py: param_aliases).  The hazard analysis takes
// distinct tensor parameters to be distinct buffers, as the launch contract says; but when a func.call of the
// module passes one tensor for two of them, they are one GM tensor and the cube's store to one and the vector
// side's load of the other are a RAW dependence.  @aliased is called with %s twice: fenced (C->V, the store's
// tile pushed after the store, popped before the load).  @distinct is the same kernel called with two
// tensors: no fence.  Without the alias the load raced the store (the interpreter's race detector reported it).
// (2) A pto.tensor_cast (the TensorView trait) is its source's buffer: @cast_view's vector load of the cast of
// %ws is fenced after the cube's store to %ws.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @aliased_aic(
  // CHECK:         %wa1 = pto.store %y, %wa[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
  // CHECK-NEXT:    pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
  // CHECK-LABEL: func.func @aliased_aiv(
  // CHECK:         %wa_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:    pto.tfree_to_aic %wa_gm_sync : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:    %v = pto.load %wb[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
  func.func @aliased(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                     %wa: !pto.tensor<16x128xf32> {pto.inout}, %wb: !pto.tensor<16x128xf32> {pto.inout},
                     %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %wa1 = pto.store %y, %wa[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    %v = pto.load %wb[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %v : !pto.tile<16x128xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o : !pto.tensor<16x128xf32>
  }

  // CHECK-LABEL: func.func @distinct_aic(
  // CHECK-NOT:     pto.tpush_to_aiv
  // CHECK:         func.return
  // CHECK-LABEL: func.func @distinct_aiv(
  // CHECK-NOT:     _gm_sync
  // CHECK:         func.return
  func.func @distinct(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                      %wa: !pto.tensor<16x128xf32> {pto.inout}, %wb: !pto.tensor<16x128xf32> {pto.inout},
                      %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %wa1 = pto.store %y, %wa[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    %v = pto.load %wb[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %v : !pto.tile<16x128xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o : !pto.tensor<16x128xf32>
  }

  // CHECK-LABEL: func.func @cast_view_aic(
  // CHECK:         %ws1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
  // CHECK-NEXT:    pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
  // CHECK-LABEL: func.func @cast_view_aiv(
  // CHECK:         %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:    pto.tfree_to_aic %ws_gm_sync : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:    %v = pto.load %c[0, 0] : !pto.tensor<?x128xf32> -> !pto.tile<16x128xf32, vec>
  func.func @cast_view(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                       %ws: !pto.tensor<16x128xf32> {pto.inout},
                       %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %c = pto.tensor_cast %ws : !pto.tensor<16x128xf32> -> !pto.tensor<?x128xf32>
    %ws1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    %v = pto.load %c[0, 0] : !pto.tensor<?x128xf32> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %v : !pto.tile<16x128xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %o : !pto.tensor<16x128xf32>
  }

  // EXEC: check of pipeline 'expand-mixed-kernel' passed
  func.func @main(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>) -> (!pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %s = pto.create_tensor : !pto.tensor<16x128xf32>
    %t = pto.create_tensor : !pto.tensor<16x128xf32>
    %u = pto.create_tensor : !pto.tensor<16x128xf32>
    %o1 = pto.create_tensor : !pto.tensor<16x128xf32>
    %o2 = pto.create_tensor : !pto.tensor<16x128xf32>
    %r1 = func.call @aliased(%x, %w, %s, %s, %o1) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    %r2 = func.call @distinct(%x, %w, %t, %u, %o2) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    %v = pto.create_tensor : !pto.tensor<16x128xf32>
    %o3 = pto.create_tensor : !pto.tensor<16x128xf32>
    %r3 = func.call @cast_view(%x, %w, %v, %o3) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r1, %r2, %r3 : !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>
  }
}
