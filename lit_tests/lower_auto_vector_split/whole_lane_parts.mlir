// RUN: pypto-opt %s --lower-auto-vector-split | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run --quiet --entry slice_load --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry slice_load --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry slice_of_load_lr --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry slice_of_load_lr --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry slice_of_load_dyn --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry slice_of_load_dyn --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry v2c_shared_ragged --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry v2c_shared_ragged --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry v2c_shared_odd_empty --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry v2c_shared_odd_empty --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry reshape_shared_lr --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry reshape_shared_lr --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry reshape_shared_odd_result --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry reshape_shared_odd_result --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir
// RUN: pypto-run --quiet --entry reshape_in_if --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry reshape_in_if --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// Values the pass computes whole on both lanes and lane-slices for halved code (docs/lower-auto-vector-split.md,
// "Kernels that used to be rejected", classes 6 and 7): a slice of a loaded tile along the split axis is loaded
// directly; a V->C chain or a reshape's input chain also read by halved code stays full width and the halved
// consumers take `pto.slice %whole[sub*S, 0]`; a reshape result with no lane window stays whole. Every kernel is
// checked by execution before and after the whole pipeline, on a2a3 and a5; the IR is the same on both.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A2A3: module attributes {pto.target = #pto.target<a2a3>}
  // A5: module attributes {pto.target = #pto.target<a5>}
  // Item 1: a slice on the split axis of a loaded tile is folded into a per-lane load of the window: offsets
  // composed (4 + 6 = 10), then halved (10 + sub*8). The original load had no other user and is gone.
  // CHECK-LABEL: func.func @slice_load
  // CHECK:       %[[L:.*]] = arith.muli %subblock_idx, %c8 : index
  // CHECK-NEXT:  %c10 = arith.constant 10 : index
  // CHECK-NEXT:  %[[O:.*]] = arith.addi %c10, %[[L]] : index
  // CHECK:       %w = pto.load %x[%[[O]], 0] : !pto.tensor<32x16xf32> -> !pto.tile<8x16xf32, vec>
  // CHECK-NOT:   pto.slice
  // CHECK:       pto.add %s, %w : !pto.tile<8x16xf32, vec>
  func.func @slice_load(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<32x16xf32>, %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %l = pto.load %x[4, 0] : !pto.tensor<32x16xf32> -> !pto.tile<24x16xf32, vec>
    %w = pto.slice %l[6, 0] : !pto.tile<24x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    %a = pto.add %s, %w : !pto.tile<16x16xf32, vec>
    %o = pto.store %a, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
  // The same under LEFT_RIGHT, on the column axis: 8 + 3 = 11, lane offset sub*8.
  // CHECK-LABEL: func.func @slice_of_load_lr
  // CHECK:       %c11 = arith.constant 11 : index
  // CHECK-NEXT:  %[[O:.*]] = arith.addi %c11, %{{.*}} : index
  // CHECK:       %w = pto.load %x[0, %[[O]]] : !pto.tensor<8x40xf32> -> !pto.tile<8x8xf32, vec>
  // CHECK-NOT:   pto.slice
  func.func @slice_of_load_lr(%qk: !pto.tile<8x16xf32, acc>, %x: !pto.tensor<8x40xf32>, %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
    %l = pto.load %x[0, 8] : !pto.tensor<8x40xf32> -> !pto.tile<8x32xf32, vec>
    %w = pto.slice %l[0, 3] : !pto.tile<8x32xf32, vec> -> !pto.tile<8x16xf32, vec>
    %a = pto.add %s, %w : !pto.tile<8x16xf32, vec>
    %o = pto.store %a, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }
  // A runtime load offset (%i + 5, then + sub*8), and a slice of the folded window (again folded: %i + 5 + 2,
  // a 7-row valid window of 8 rows whose lanes hold 4 and 3 rows: clamped per lane).
  // CHECK-LABEL: func.func @slice_of_load_dyn
  // CHECK:       %[[A:.*]] = arith.addi %i, %c5 : index
  // CHECK-NEXT:  %[[B:.*]] = arith.addi %[[A]], %{{.*}} : index
  // CHECK-NEXT:  %[[C:.*]] = arith.addi %[[A]], %c2 : index
  // CHECK-NEXT:  %w = pto.load %x[%[[B]], 0] : !pto.tensor<64x16xf32> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %[[D:.*]] = arith.addi %[[C]], %{{.*}} : index
  // CHECK-NEXT:  %v = pto.load %x[%[[D]], 0] valid [%{{.*}}, 16] : !pto.tensor<64x16xf32> -> !pto.tile<4x16xf32, vec, valid = [?, 16]>
  // CHECK-NOT:   pto.slice
  func.func @slice_of_load_dyn(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<64x16xf32>, %i: index, %out: !pto.tensor<16x16xf32> {pto.out}, %out2: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %l = pto.load %x[%i, 0] : !pto.tensor<64x16xf32> -> !pto.tile<32x16xf32, vec>
    %w = pto.slice %l[5, 0] : !pto.tile<32x16xf32, vec> -> !pto.tile<16x16xf32, vec>
    %v = pto.slice %w[2, 0] valid [7, 16] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec, valid = [7, 16]>
    %a = pto.add %s, %w : !pto.tile<16x16xf32, vec>
    %o = pto.store %a, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    %o2 = pto.store %v, %out2[0, 0] : !pto.tile<8x16xf32, vec, valid = [7, 16]>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
  // Item 2: a V->C chain whose lanes no gather places (13 of 16 rows: lanes 8 and 5) stays full width, and the
  // halved consumer of %s (exp, store) takes its lane part with a lane slice (rows sub*8, valid clamp(13 - sub*8)).
  // CHECK-LABEL: func.func @v2c_shared_ragged
  // CHECK:       %s = pto.muls %l, %c : !pto.tile<16x16xf32, vec, valid = [13, 16]>, f32
  // CHECK-NEXT:  %[[P:.*]] = pto.slice %s[%0, 0] valid [%3, 16] : !pto.tile<16x16xf32, vec, valid = [13, 16]> -> !pto.tile<8x16xf32, vec, valid = [?, 16]>
  // CHECK-NEXT:  %h = pto.cast %s : !pto.tile<16x16xf32, vec, valid = [13, 16]> -> !pto.tile<16x16xbf16, vec, valid = [13, 16]>
  // CHECK-NEXT:  %left = pto.move %h
  // CHECK:       %e = pto.exp %[[P]] : !pto.tile<8x16xf32, vec, valid = [?, 16]>
  // CHECK-NEXT:  pto.store %e, %out2[%0, 0]
  func.func @v2c_shared_ragged(%x: !pto.tensor<16x16xf32>, %w: !pto.tensor<16x16xbf16>, %out: !pto.tensor<16x16xf32> {pto.out}, %out2: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %l = pto.load %x[0, 0] valid [13, 16] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec, valid = [13, 16]>
    %c = arith.constant 0.5 : f32
    %s = pto.muls %l, %c : !pto.tile<16x16xf32, vec, valid = [13, 16]>, f32
    %h = pto.cast %s : !pto.tile<16x16xf32, vec, valid = [13, 16]> -> !pto.tile<16x16xbf16, vec, valid = [13, 16]>
    %left = pto.move %h : !pto.tile<16x16xbf16, vec, valid = [13, 16]> -> !pto.tile<16x16xbf16, left, valid = [13, 16]>
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %right = pto.move %wm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %mm = pto.matmul %left, %right : !pto.tile<16x16xbf16, left, valid = [13, 16]>, !pto.tile<16x16xbf16, right> -> !pto.tile<16x16xf32, acc, valid = [13, 16]>
    %o = pto.store %mm, %out[0, 0] : !pto.tile<16x16xf32, acc, valid = [13, 16]>, !pto.tensor<16x16xf32>
    %e = pto.exp %s : !pto.tile<16x16xf32, vec, valid = [13, 16]>
    %o2 = pto.store %e, %out2[0, 0] : !pto.tile<16x16xf32, vec, valid = [13, 16]>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
  // An odd V->C box (15 rows) whose lane 1 is empty (6 valid rows <= 8): lane 1's slice starts at 15 - 8 = 7
  // (in the box, read as empty).
  // CHECK-LABEL: func.func @v2c_shared_odd_empty
  // CHECK:       %[[W:.*]] = arith.muli %subblock_idx, %c7 : index
  // CHECK:       %[[P:.*]] = pto.slice %l[%[[W]], 0] valid [%{{.*}}, 16] : !pto.tile<15x16xf32, vec, valid = [6, 16]> -> !pto.tile<8x16xf32, vec, valid = [?, 16]>
  // CHECK-NEXT:  %h = pto.cast %l
  // CHECK:       %e = pto.relu %[[P]]
  func.func @v2c_shared_odd_empty(%x: !pto.tensor<15x16xf32>, %w: !pto.tensor<16x16xbf16>, %out: !pto.tensor<15x16xf32> {pto.out}, %out2: !pto.tensor<15x16xf32> {pto.out}) -> !pto.tensor<15x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %l = pto.load %x[0, 0] valid [6, 16] : !pto.tensor<15x16xf32> -> !pto.tile<15x16xf32, vec, valid = [6, 16]>
    %h = pto.cast %l : !pto.tile<15x16xf32, vec, valid = [6, 16]> -> !pto.tile<15x16xbf16, vec, valid = [6, 16]>
    %left = pto.move %h : !pto.tile<15x16xbf16, vec, valid = [6, 16]> -> !pto.tile<15x16xbf16, left, valid = [6, 16]>
    %wm = pto.load %w[0, 0] : !pto.tensor<16x16xbf16> -> !pto.tile<16x16xbf16, mat>
    %right = pto.move %wm : !pto.tile<16x16xbf16, mat> -> !pto.tile<16x16xbf16, right>
    %mm = pto.matmul %left, %right : !pto.tile<15x16xbf16, left, valid = [6, 16]>, !pto.tile<16x16xbf16, right> -> !pto.tile<15x16xf32, acc, valid = [6, 16]>
    %o = pto.store %mm, %out[0, 0] : !pto.tile<15x16xf32, acc, valid = [6, 16]>, !pto.tensor<15x16xf32>
    %e = pto.relu %l : !pto.tile<15x16xf32, vec, valid = [6, 16]>
    %o2 = pto.store %e, %out2[0, 0] : !pto.tile<15x16xf32, vec, valid = [6, 16]>, !pto.tensor<15x16xf32>
    func.return %o : !pto.tensor<15x16xf32>
  }
  // Item 3: E-RESHAPE-TRACK ([8,16] -> [1,128] under LEFT_RIGHT) whose input also feeds halved code: the boundary
  // stays a move, the exp takes the lane part (columns sub*8), the reshape runs whole and is lane-sliced.
  // CHECK-LABEL: func.func @reshape_shared_lr
  // CHECK:       %v = pto.move %qk : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
  // CHECK-NEXT:  %[[P:.*]] = pto.slice %v[0, %0] : !pto.tile<8x16xf32, vec> -> !pto.tile<8x8xf32, vec>
  // CHECK-NEXT:  %e = pto.exp %[[P]] : !pto.tile<8x8xf32, vec>
  // CHECK:       %flat = pto.reshape %v : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
  // CHECK-NEXT:  %[[F:.*]] = pto.slice %flat[0, %1] : !pto.tile<1x128xf32, vec> -> !pto.tile<1x64xf32, vec>
  func.func @reshape_shared_lr(%qk: !pto.tile<8x16xf32, acc>, %out: !pto.tensor<8x16xf32> {pto.out}, %out2: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %v = pto.move %qk : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
    %e = pto.exp %v : !pto.tile<8x16xf32, vec>
    %o2 = pto.store %e, %out2[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    %flat = pto.reshape %v : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
    %c = arith.constant 0.5 : f32
    %h = pto.muls %flat, %c : !pto.tile<1x128xf32, vec>, f32
    %back = pto.reshape %h : !pto.tile<1x128xf32, vec> -> !pto.tile<8x16xf32, vec>
    %o = pto.store %back, %out[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o : !pto.tensor<8x16xf32>
  }
  // Items 3 and 4: [16,6] -> [3,32] (E-RESHAPE-TRACK) with a shared input; the 3-row result has no lane window
  // (lane 1's rows [2, 4) pass the box), so it stays whole on both lanes and is stored whole (its tensor has no
  // other store).
  // CHECK-LABEL: func.func @reshape_shared_odd_result
  // CHECK:       %[[P:.*]] = pto.slice %s[%0, 0] : !pto.tile<16x6xf32, vec> -> !pto.tile<8x6xf32, vec>
  // CHECK-NEXT:  %e = pto.exp %[[P]]
  // CHECK:       %r = pto.reshape %s : !pto.tile<16x6xf32, vec> -> !pto.tile<3x32xf32, vec>
  // CHECK:       %m = pto.muls %r, %c : !pto.tile<3x32xf32, vec>, f32
  // CHECK-NEXT:  pto.store %m, %out[0, 0] : !pto.tile<3x32xf32, vec>, !pto.tensor<3x32xf32>
  func.func @reshape_shared_odd_result(%qk: !pto.tile<16x6xf32, acc>, %out: !pto.tensor<3x32xf32> {pto.out}, %out2: !pto.tensor<16x6xf32> {pto.out}) -> !pto.tensor<3x32xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x6xf32, acc> -> !pto.tile<16x6xf32, vec>
    %e = pto.exp %s : !pto.tile<16x6xf32, vec>
    %o2 = pto.store %e, %out2[0, 0] : !pto.tile<16x6xf32, vec>, !pto.tensor<16x6xf32>
    %r = pto.reshape %s : !pto.tile<16x6xf32, vec> -> !pto.tile<3x32xf32, vec>
    %c = arith.constant 2.0 : f32
    %m = pto.muls %r, %c : !pto.tile<3x32xf32, vec>, f32
    %o = pto.store %m, %out[0, 0] : !pto.tile<3x32xf32, vec>, !pto.tensor<3x32xf32>
    func.return %o : !pto.tensor<3x32xf32>
  }
  // The chain of a reshape crosses an scf.if: both branches' C->V moves stay moves (the if result is whole).
  // CHECK-LABEL: func.func @reshape_in_if
  // CHECK:       %a = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
  // CHECK:       %b = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
  // CHECK:       %flat = pto.reshape %v : !pto.tile<16x16xf32, vec> -> !pto.tile<1x256xf32, vec>
  // CHECK-NEXT:  pto.slice %flat[0, %0] : !pto.tile<1x256xf32, vec> -> !pto.tile<1x128xf32, vec>
  func.func @reshape_in_if(%qk: !pto.tile<16x16xf32, acc>, %p: i1, %y: !pto.tensor<16x16xf32>, %out: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %v = scf.if %p -> (!pto.tile<16x16xf32, vec>) {
      %a = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
      scf.yield %a : !pto.tile<16x16xf32, vec>
    } else {
      %b = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
      %n = pto.neg %b : !pto.tile<16x16xf32, vec>
      scf.yield %n : !pto.tile<16x16xf32, vec>
    }
    %flat = pto.reshape %v : !pto.tile<16x16xf32, vec> -> !pto.tile<1x256xf32, vec>
    %c = arith.constant 0.5 : f32
    %h = pto.muls %flat, %c : !pto.tile<1x256xf32, vec>, f32
    %back = pto.reshape %h : !pto.tile<1x256xf32, vec> -> !pto.tile<16x16xf32, vec>
    %o = pto.store %back, %out[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
    func.return %o : !pto.tensor<16x16xf32>
  }
}
