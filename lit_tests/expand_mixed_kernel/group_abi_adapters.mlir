// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s
// RUN: pypto-run --quiet --check-pipeline expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline expand-mixed-kernel -

// Phase 4 with shared members: @cube and @vec are called by two Groups with different layouts, so each Group gets
// private copies (@<g>_aic_adapter, @<g>_aiv_adapter, added at the top of the module) rebuilt onto its parameter
// list, and the peer_func of each copy's import_peer_buffer names the Group's own AIV adapter; the originals keep
// their ABI.  The AIV member is split_aiv (both lanes work), so no dual dispatch is inferred, on either target.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @g2_aic_adapter(%o: !pto.tensor<16x16xf32> {pto.out}, %y: !pto.tensor<16x16xf32>)
  // CHECK:       pto.import_peer_buffer {name = "c2v", peer_func = @g2_aiv_adapter} : i32
  // CHECK:       pto.load %y[0, 0]
  // CHECK-LABEL: func.func @g2_aiv_adapter(%o: !pto.tensor<16x16xf32> {pto.out}, %y: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
  // CHECK-SAME:  attributes {pto.kind = #pto.kind<aiv>, pto.split_aiv}
  // CHECK-LABEL: func.func @g1_aic_adapter(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out})
  // CHECK:       pto.import_peer_buffer {name = "c2v", peer_func = @g1_aiv_adapter} : i32
  // CHECK-LABEL: func.func @g1_aiv_adapter(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
  // CHECK:       pto.store %{{.*}}, %o[%{{.*}}, 0]
  // The originals are unchanged.
  // CHECK-LABEL: func.func @cube(%a: !pto.tensor<16x16xf32>)
  // CHECK:       pto.import_peer_buffer {name = "c2v", peer_func = @vec} : i32
  // CHECK-LABEL: func.func @vec(%out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
  func.func @cube(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "c2v", peer_func = @vec} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %xm = pto.load %a[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xl = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %xr = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %z = pto.matmul %xl, %xr : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    pto.tpush_to_aiv %z {split = 1 : i64} : !pto.tile<16x16xf32, acc>
    func.return
  }
  func.func @vec(%out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<aiv>, pto.split_aiv} {
    %rb = pto.reserve_buffer {name = "c2v", size = 2048 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %lane = pto.get_subblock_idx : index
    %c8 = arith.constant 8 : index
    %row = arith.muli %lane, %c8 : index
    %p = pto.tpop_from_aic {split = 1 : i64} : !pto.tile<8x16xf32, vec>
    %e = pto.exp %p : !pto.tile<8x16xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<8x16xf32, vec>
    %o2 = pto.store %e, %out[%row, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
  // CHECK-LABEL: func.func @g1(
  // CHECK-NEXT:  func.call @g1_aic_adapter(%x, %o)
  // CHECK-NEXT:  %r = func.call @g1_aiv_adapter(%x, %o)
  func.func @g1(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<group>} {
    func.call @cube(%x) : (!pto.tensor<16x16xf32>) -> ()
    %r = func.call @vec(%o) : (!pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r : !pto.tensor<16x16xf32>
  }
  // CHECK-LABEL: func.func @g2(
  // CHECK-NEXT:  func.call @g2_aic_adapter(%o, %y)
  // CHECK-NEXT:  %r = func.call @g2_aiv_adapter(%o, %y)
  func.func @g2(%o: !pto.tensor<16x16xf32> {pto.out}, %y: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<group>} {
    func.call @cube(%y) : (!pto.tensor<16x16xf32>) -> ()
    %r = func.call @vec(%o) : (!pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r : !pto.tensor<16x16xf32>
  }
  func.func @main(%x: !pto.tensor<16x16xf32>, %y: !pto.tensor<16x16xf32>) -> (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<orchestration>} {
    %o1 = pto.create_tensor : !pto.tensor<16x16xf32>
    %o2 = pto.create_tensor : !pto.tensor<16x16xf32>
    %r1 = func.call @g1(%x, %o1) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    %r2 = func.call @g2(%o2, %y) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
    func.return %r1, %r2 : !pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>
  }
}
