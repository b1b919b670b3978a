// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split | filecheck %s
// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=EXPAND,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=EXPAND,A5
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split -
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel -

// scf.execute_region in AUTO kernels: the pass inlines every scf.execute_region of a kernel it lowers first (its
// ops move in front of it, its results become the values its scf.yield gives), then lowers the inlined body like
// any other, so a region is never a scope (E-AUTO-SCOPE) here. Shown: a region yielding a cube tile and the C->V
// boundary (now a shard), regions nested in a loop body and in each other, a V->C boundary inside a region (now a
// gather; on a5 behind its NZ adapter), a result-less region around the store; no scf.execute_region is left,
// and every program computes the same outputs before and after, alone and through ExpandMixedKernel, on both
// targets.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @boundary_in_region
  // CHECK-SAME:    pto.split = #pto.split<up_down>, pto.split_aiv
  // CHECK-NOT:     scf.execute_region
  // CHECK:         %sc = pto.matmul %q_left, %k_right
  // CHECK-NEXT:    %sv = pto.aiv_shard %sc {split = 1 : i64} : !pto.tile<64x128xf32, acc> -> !pto.tile<32x128xf32, vec>
  // CHECK:         %acc = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %sv) -> (!pto.tile<32x128xf32, vec>) {
  // CHECK-NEXT:      %ex = pto.relu %s : !pto.tile<32x128xf32, vec>
  // CHECK-NEXT:      %l = pto.load %q[%{{.*}}, 0] : !pto.tensor<64x128xf32> -> !pto.tile<32x128xf32, vec>
  // CHECK-NEXT:      %n = pto.sub %ex, %l : !pto.tile<32x128xf32, vec>
  // CHECK-NEXT:      scf.yield %n : !pto.tile<32x128xf32, vec>
  // CHECK:         %d_1 = pto.store %acc, %d[%{{.*}}, 0] : !pto.tile<32x128xf32, vec>, !pto.tensor<64x128xf32>
  // CHECK-NOT:     scf.execute_region
  // CHECK:         func.return %d_1
  // EXPAND-LABEL: func.func @boundary_in_region_aic
  // EXPAND:         pto.tpush_to_aiv %sc {split = 1 : i64} : !pto.tile<64x128xf32, acc>
  // EXPAND-LABEL: func.func @boundary_in_region_aiv
  // EXPAND:         %sv = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<32x128xf32, vec>
  func.func @boundary_in_region(%q: !pto.tensor<64x128xf32>, %kt: !pto.tensor<128x128xf32>,
                                %d: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %q_mat = pto.load %q[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, mat>
    %k_mat = pto.load %kt[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, mat>
    %s0, %mm = scf.execute_region -> (!pto.tile<64x128xf32, vec>, !pto.tile<64x128xf32, acc>) {
      %q_left = pto.move %q_mat : !pto.tile<64x128xf32, mat> -> !pto.tile<64x128xf32, left>
      %k_right = pto.move %k_mat : !pto.tile<128x128xf32, mat> -> !pto.tile<128x128xf32, right>
      %sc = pto.matmul %q_left, %k_right : !pto.tile<64x128xf32, left>, !pto.tile<128x128xf32, right> -> !pto.tile<64x128xf32, acc>
      %sv = pto.move %sc : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
      scf.yield %sv, %sc : !pto.tile<64x128xf32, vec>, !pto.tile<64x128xf32, acc>
    }
    %acc = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %s0) -> (!pto.tile<64x128xf32, vec>) {
      %e, %x = scf.execute_region -> (!pto.tile<64x128xf32, vec>, !pto.tile<64x128xf32, vec>) {
        %ex = pto.relu %s : !pto.tile<64x128xf32, vec>
        %ld = scf.execute_region -> (!pto.tile<64x128xf32, vec>) {
          %l = pto.load %q[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, vec>
          scf.yield %l : !pto.tile<64x128xf32, vec>
        }
        scf.yield %ex, %ld : !pto.tile<64x128xf32, vec>, !pto.tile<64x128xf32, vec>
      }
      %n = pto.sub %e, %x : !pto.tile<64x128xf32, vec>
      scf.yield %n : !pto.tile<64x128xf32, vec>
    }
    %d_1 = pto.store %acc, %d[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %d_1 : !pto.tensor<64x128xf32>
  }

  // LEFT_RIGHT: the V->C boundary inside nested regions gets its gather; the store sits in a result-less region.
  // CHECK-LABEL: func.func @gather_in_region
  // CHECK-SAME:    pto.split = #pto.split<left_right>, pto.split_aiv
  // CHECK-NOT:     scf.execute_region
  // CHECK:         %a = pto.load %x[0, %{{.*}}] : !pto.tensor<32x64xf32> -> !pto.tile<32x32xf32, vec>
  // CHECK-NEXT:    %e = pto.exp %a : !pto.tile<32x32xf32, vec>
  // CHECK-NEXT:    %em_mat = pto.aic_gather %e {split = 2 : i64} : !pto.tile<32x32xf32, vec> -> !pto.tile<32x64xf32, mat>
  // CHECK-NEXT:    %em = pto.move %em_mat : !pto.tile<32x64xf32, mat> -> !pto.tile<32x64xf32, mat>
  // CHECK-NEXT:    %l = pto.move %em : !pto.tile<32x64xf32, mat> -> !pto.tile<32x64xf32, left>
  // CHECK:         pto.matmul
  // CHECK:         %o_1 = pto.store %r, %o[0, 0] : !pto.tile<32x32xf32, acc>, !pto.tensor<32x32xf32>
  // CHECK-NOT:     scf.execute_region
  // EXPAND-LABEL: func.func @gather_in_region_aic
  // EXPAND:         %em_mat = pto.tpop_from_aiv {split = 2 : i64} : !pto.tile<32x64xf32, mat>
  // EXPAND-LABEL: func.func @gather_in_region_aiv
  // A2A3:           pto.tpush_to_aic %e {split = 2 : i64} : !pto.tile<32x32xf32, vec>
  // A5:             %e_nz = pto.move %e : !pto.tile<32x32xf32, vec> -> !pto.tile<32x32xf32, vec, blayout = col_major, slayout = row_major>
  // A5-NEXT:        pto.tpush_to_aic %e_nz {split = 2 : i64}
  func.func @gather_in_region(%x: !pto.tensor<32x64xf32>, %w: !pto.tensor<64x32xf32>,
                              %o: !pto.tensor<32x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %m = scf.execute_region -> (!pto.tile<32x64xf32, mat>) {
      %a = pto.load %x[0, 0] : !pto.tensor<32x64xf32> -> !pto.tile<32x64xf32, vec>
      %mm = scf.execute_region -> (!pto.tile<32x64xf32, mat>) {
        %e = pto.exp %a : !pto.tile<32x64xf32, vec>
        %em = pto.move %e : !pto.tile<32x64xf32, vec> -> !pto.tile<32x64xf32, mat>
        scf.yield %em : !pto.tile<32x64xf32, mat>
      }
      scf.yield %mm : !pto.tile<32x64xf32, mat>
    }
    %l = pto.move %m : !pto.tile<32x64xf32, mat> -> !pto.tile<32x64xf32, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<64x32xf32> -> !pto.tile<64x32xf32, mat>
    %w_right = pto.move %w_mat : !pto.tile<64x32xf32, mat> -> !pto.tile<64x32xf32, right>
    %r = pto.matmul %l, %w_right : !pto.tile<32x64xf32, left>, !pto.tile<64x32xf32, right> -> !pto.tile<32x32xf32, acc>
    scf.execute_region {
      %o_1 = pto.store %r, %o[0, 0] : !pto.tile<32x32xf32, acc>, !pto.tensor<32x32xf32>
      scf.yield
    }
    func.return
  }

  func.func @main(%q: !pto.tensor<64x128xf32>, %kt: !pto.tensor<128x128xf32>, %x: !pto.tensor<32x64xf32>,
                  %w: !pto.tensor<64x32xf32>) -> (!pto.tensor<64x128xf32>, !pto.tensor<32x32xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %d = pto.create_tensor : !pto.tensor<64x128xf32>
    %o = pto.create_tensor : !pto.tensor<32x32xf32>
    %r = func.call @boundary_in_region(%q, %kt, %d) : (!pto.tensor<64x128xf32>, !pto.tensor<128x128xf32>, !pto.tensor<64x128xf32>) -> !pto.tensor<64x128xf32>
    func.call @gather_in_region(%x, %w, %o) : (!pto.tensor<32x64xf32>, !pto.tensor<64x32xf32>, !pto.tensor<32x32xf32>) -> ()
    func.return %r, %o : !pto.tensor<64x128xf32>, !pto.tensor<32x32xf32>
  }
}
