// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split | filecheck %s
// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=EXPAND,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --lower-auto-vector-split --expand-mixed-kernel | filecheck %s --check-prefixes=EXPAND,A5
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split %s
// RUN: pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split -
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel -

// scf.execute_region in pto.split_aiv_scope kernels: the region path inlines every scf.execute_region of the
// function first (the AUTO path's rule), so a split_aiv_scope inside one is lowered like one at the top, and one
// inside a region body is lowered with the body: halved in a full-width data-parallel region (here it holds the
// C->V boundary, now a shard), spliced in an explicit-boundary region (it holds the shard), spliced in a
// task-parallel one. No scf.execute_region is left; every program computes the same outputs before and after,
// alone and through ExpandMixedKernel, on both targets.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @data_parallel
  // CHECK-SAME:    pto.split_aiv, pto.split_aiv_region_validated
  // CHECK-NOT:     scf.execute_region
  // CHECK:         %acc = pto.matmul
  // CHECK-NEXT:    %subblock_idx = pto.get_subblock_idx : index
  // CHECK-NEXT:    %aiv_id = pto.get_subblock_idx : index
  // CHECK:         %v = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
  // CHECK-NEXT:    %x = pto.exp %v : !pto.tile<8x128xf32, vec>
  // CHECK-NEXT:    %o2 = pto.store %x, %o[%{{.*}}, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
  // CHECK-NEXT:    func.return %o2
  // The AIV kernels run on both lanes (pto.split_aiv); on a2a3 ExpandMixedKernel also stamps pto.dual_aiv_dispatch.
  // EXPAND-LABEL: func.func @data_parallel_aiv
  // A2A3-SAME:      pto.split_aiv, pto.split_aiv_region_validated, pto.dual_aiv_dispatch} {
  // A5-SAME:        pto.split_aiv, pto.split_aiv_region_validated} {
  // EXPAND:         %v = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<8x128xf32, vec>
  func.func @data_parallel(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = scf.execute_region -> (!pto.tensor<16x128xf32>) {
      %s = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
        %e = scf.execute_region -> (!pto.tile<16x128xf32, vec>) {
          %v = pto.move %acc : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
          %x = pto.exp %v : !pto.tile<16x128xf32, vec>
          scf.yield %x : !pto.tile<16x128xf32, vec>
        }
        %o2 = pto.store %e, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
        pto.yield %o2 : !pto.tensor<16x128xf32>
      }
      scf.yield %s : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }

  // Explicit boundary: the shard sits in an scf.execute_region of the region body; inlined, the body is spliced
  // as written (no halving, no %subblock_idx), and the store uses the lane id.
  // CHECK-LABEL: func.func @explicit
  // CHECK-NOT:     scf.execute_region
  // CHECK:         %acc = pto.matmul
  // CHECK-NEXT:    %aiv_id = pto.get_subblock_idx : index
  // CHECK-NEXT:    %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
  // CHECK-NEXT:    %x = pto.exp %h : !pto.tile<8x128xf32, vec>
  // CHECK:         %row = arith.muli %aiv_id, %c8 : index
  // CHECK-NEXT:    %o2 = pto.store %x, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
  // CHECK-NEXT:    func.return %o2
  // CHECK-NOT:     pto.get_subblock_idx
  // EXPAND-LABEL: func.func @explicit_aiv
  // EXPAND:         %h = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<8x128xf32, vec>
  func.func @explicit(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %e = scf.execute_region -> (!pto.tile<8x128xf32, vec>) {
        %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
        %x = pto.exp %h : !pto.tile<8x128xf32, vec>
        scf.yield %x : !pto.tile<8x128xf32, vec>
      }
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %o2 = pto.store %e, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }

  // Task-parallel: each lane picks its half by %aiv_id inside an scf.execute_region; spliced unchanged.
  // CHECK-LABEL: func.func @task
  // CHECK-SAME:    attributes {pto.kind = #pto.kind<incore>, pto.split_aiv, pto.split_aiv_region_validated}
  // CHECK-NEXT:    %aiv_id = pto.get_subblock_idx : index
  // CHECK-NEXT:    %c8 = arith.constant 8 : index
  // CHECK-NEXT:    %base = arith.muli %aiv_id, %c8 : index
  // CHECK-NEXT:    %x = pto.load %p[%base, 0] : !pto.tensor<16x64xf32> -> !pto.tile<8x64xf32, vec>
  // CHECK-NEXT:    %n = pto.neg %x : !pto.tile<8x64xf32, vec>
  // CHECK-NEXT:    %s = pto.store %n, %q[%base, 0] : !pto.tile<8x64xf32, vec>, !pto.tensor<16x64xf32>
  // CHECK-NEXT:    func.return %s
  // EXPAND-LABEL: func.func @task
  // EXPAND-SAME:    pto.kind = #pto.kind<aiv>
  func.func @task(%p: !pto.tensor<16x64xf32>, %q: !pto.tensor<16x64xf32> {pto.out}) -> !pto.tensor<16x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %r = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x64xf32>) {
      %q2 = scf.execute_region -> (!pto.tensor<16x64xf32>) {
        %c8 = arith.constant 8 : index
        %base = arith.muli %aiv_id, %c8 : index
        %x = pto.load %p[%base, 0] : !pto.tensor<16x64xf32> -> !pto.tile<8x64xf32, vec>
        %n = pto.neg %x : !pto.tile<8x64xf32, vec>
        %s = pto.store %n, %q[%base, 0] : !pto.tile<8x64xf32, vec>, !pto.tensor<16x64xf32>
        scf.yield %s : !pto.tensor<16x64xf32>
      }
      pto.yield %q2 : !pto.tensor<16x64xf32>
    }
    func.return %r : !pto.tensor<16x64xf32>
  }

  func.func @main(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %p: !pto.tensor<16x64xf32>)
      -> (!pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>, !pto.tensor<16x64xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %o1 = pto.create_tensor : !pto.tensor<16x128xf32>
    %o2 = pto.create_tensor : !pto.tensor<16x128xf32>
    %q = pto.create_tensor : !pto.tensor<16x64xf32>
    %r1 = func.call @data_parallel(%a, %b, %o1) : (!pto.tensor<16x64xbf16>, !pto.tensor<64x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    %r2 = func.call @explicit(%a, %b, %o2) : (!pto.tensor<16x64xbf16>, !pto.tensor<64x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    %r3 = func.call @task(%p, %q) : (!pto.tensor<16x64xf32>, !pto.tensor<16x64xf32>) -> !pto.tensor<16x64xf32>
    func.return %r1, %r2, %r3 : !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>, !pto.tensor<16x64xf32>
  }
}
