// A GM store whose window leaves the tensor is an error of the run, located at the store and naming the lane,
// never a silent write (interpreter/gm.py, `window`).  The kernel is what LowerAutoVectorSplit made of a
// `pto.full` of 15 rows before its lanes were narrowed (issue 40): each lane's tile claims its whole 8-row box,
// so lane 1 writes rows [8, 16) of a 15-row tensor.  An unsplit store past the end fails the same way.
// RUN: not pypto-run --entry lanes %s 2>&1 | filecheck %s --check-prefix=LANES
// LANES: store_out_of_bounds.mlir:[[# @LINE + 10]]:5: error: store window [8, 16) on dim 0 lies outside the tensor's extent 15 (on @lanes lane 1)
// RUN: not pypto-run --entry cols %s 2>&1 | filecheck %s --check-prefix=COLS
// COLS: store_out_of_bounds.mlir:[[# @LINE + 16]]:5: error: store window [17, 34) on dim 1 lies outside the tensor's extent 33 (on @cols)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @lanes(%f: f32, %out: !pto.tensor<15x16xf32> {pto.inout}) -> !pto.tensor<15x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>, pto.split_aiv} {
    %subblock_idx = pto.get_subblock_idx : index
    %c8 = arith.constant 8 : index
    %row = arith.muli %subblock_idx, %c8 : index
    %z = pto.full %f : f32 -> !pto.tile<8x16xf32, vec>
    %o = pto.store %z, %out[%row, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<15x16xf32>
    func.return %o : !pto.tensor<15x16xf32>
  }
  func.func @cols(%f: f32, %out: !pto.tensor<1x33xf32> {pto.out}) -> !pto.tensor<1x33xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c17 = arith.constant 17 : index
    %z = pto.full %f : f32 -> !pto.tile<1x17xf32, vec>
    %a = pto.store %z, %out[0, 0] : !pto.tile<1x17xf32, vec>, !pto.tensor<1x33xf32>
    %o = pto.store %z, %a[0, %c17] : !pto.tile<1x17xf32, vec>, !pto.tensor<1x33xf32>
    func.return %o : !pto.tensor<1x33xf32>
  }
}
