// RUN: pypto-opt %s -p 'lower-auto-vector-split{fallback=unsplit remarks=false},expand-mixed-kernel' --split-report=%t.txt > /dev/null
// RUN: filecheck %s --input-file %t.txt --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir -p 'lower-auto-vector-split{fallback=unsplit remarks=false},expand-mixed-kernel' --split-report=%t.a5.txt > /dev/null
// RUN: filecheck %s --input-file %t.a5.txt --check-prefixes=CHECK,A5
// RUN: pypto-opt %s -p 'lower-auto-vector-split{fallback=unsplit remarks=false},expand-mixed-kernel' --split-report=%t.json > /dev/null
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); print(sorted(k['kernel'] for k in r['reports'][0]['kernels']))" %t.json | filecheck %s --check-prefix=JSON

// The split report (`--split-report=FILE`, text unless FILE ends in .json): per mixed kernel, what the two
// passes decided and why. Shown here, one kernel each: a lane split (lane status of each value, the boundary
// with its split code, the pipe and its ring), a fallback to unsplit (the op that forced it and the reason),
// and a GM fence (the hazard it closes, with both accesses). The report is the same on both targets except for
// the target's name: the decisions here do not depend on it.
// JSON: ['col_reduce', 'fenced', 'softmax']

// The text form starts with a key to its words (lane split, halved, whole, per lane, cube, boundary).
// A2A3: split report: {{.*}}decisions.mlir{{.*}} (target a2a3)
// A5:   split report: {{.*}}decisions.mlir{{.*}} (target a5)
// CHECK-NEXT: key: lane split = the vector part runs on both AIV lanes, each on its half of the split axis
// CHECK-NEXT:      halved = a vector tile cut to one lane's half; whole = the same full tile on both lanes
builtin.module attributes {pto.target = #pto.target<a2a3>} {

  // The headline says what was asked and what was done; the lane split says how the lanes share the axis; a
  // value without a name is named by the op that makes it.
  // CHECK-LABEL: kernel @softmax: split up_down requested, lane-split
  // CHECK-NEXT:  LowerAutoVectorSplit: is lane-split up_down: lane 0 takes the first half of the split axis (rounded up), lane 1 the rest
  // CHECK-NEXT:  halved: %s, %m, %d, %e
  // CHECK-NEXT:  per lane: %subblock_idx, (an unnamed arith.muli result)
  // CHECK-NEXT:  cube: %q_mat, %k_mat, %q_left, %k_right, %scores
  // CHECK-NEXT:  boundary pto.aiv_shard at {{.*}}decisions.mlir{{.*}}:[[# @LINE + 13]]:5: split code 1 (up_down), !pto.tile<64x128xf32, acc> -> !pto.tile<32x128xf32, vec>
  // CHECK-NEXT:  pipe 0 c2v: depth 2, slot 32768 B; 65536 B ring in vec (AIV); 2 transfers
  // One tile crosses the pipe: a deeper ring cannot help, so the depth is not chosen (no run is needed).
  // CHECK-NEXT:  ring depth 2 (the default, not chosen): each ring carries at most 1 tile per run, so no push waits for a slot at depth 2
  // CHECK-NEXT:  result: @softmax_aic, @softmax_aiv, @softmax
  func.func @softmax(%q: !pto.tensor<64x128xbf16>, %k: !pto.tensor<128x128xbf16>,
                     %out: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %q_mat = pto.load %q[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %k_mat = pto.load %k[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %q_left = pto.move %q_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, left>
    %k_right = pto.move %k_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %scores = pto.matmul %q_left, %k_right : !pto.tile<64x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<64x128xf32, acc>
    %s = pto.move %scores : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
    %m = pto.row_max %s : !pto.tile<64x128xf32, vec> -> !pto.tile<64x1xf32, vec>
    %d = pto.row_expand_sub %s, %m : !pto.tile<64x128xf32, vec>, !pto.tile<64x1xf32, vec>
    %e = pto.exp %d : !pto.tile<64x128xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %o : !pto.tensor<64x128xf32>
  }

  // A column reduction under up_down whose result has a run-time valid extent (the lanes' partials cannot be
  // combined): with fallback=unsplit the kernel is compiled unsplit, and the report says which op forced it and why.
  // A kernel that fell back does not read as split: its headline says it was compiled unsplit.
  // CHECK-LABEL: kernel @col_reduce: split up_down requested, compiled unsplit (the split fell back)
  // CHECK-NEXT:  LowerAutoVectorSplit: falls back to unsplit because of 'pto.col_sum' at {{.*}}decisions.mlir{{.*}}:[[# @LINE + 8]]:5: reduce op 'pto.col_sum' reduces over the split axis (dim 0)
  // CHECK-NEXT:  pipe 0 c2v: depth 2, slot 2048 B; 4096 B ring in vec (AIV); 2 transfers
  // CHECK-NEXT:  ring depth 2 (the default, not chosen): each ring carries at most 1 tile per run, so no push waits for a slot at depth 2
  // CHECK-NEXT:  result: @col_reduce_aic, @col_reduce_aiv, @col_reduce
  func.func @col_reduce(%qk: !pto.tile<16x32xf32, acc>, %n: index, %out: !pto.tensor<1x32xf32> {pto.out})
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x32xf32, acc> -> !pto.tile<16x32xf32, vec>
    %w = pto.set_validshape %v valid [16, %n] : !pto.tile<16x32xf32, vec> -> !pto.tile<16x32xf32, vec, valid = [16, ?]>
    %s = pto.col_sum %w : !pto.tile<16x32xf32, vec, valid = [16, ?]> -> !pto.tile<1x32xf32, vec, valid = [1, ?]>
    %o = pto.store %s, %out[0, 0] : !pto.tile<1x32xf32, vec, valid = [1, ?]>, !pto.tensor<1x32xf32>
    func.return
  }

  // A vector store read back by a cube load through GM: ExpandMixedKernel writes a V->C fence, and the report
  // names the hazard (RAW on %s) and both accesses.
  // CHECK-LABEL: kernel @fenced: no lane split requested (compiled unsplit)
  // CHECK-NEXT:  LowerAutoVectorSplit: is left alone: no split requested (pto.split absent or none)
  // CHECK-NEXT:  fence v2c: RAW on %s (aiv pto.store at {{.*}}decisions.mlir{{.*}}:[[# @LINE + 9]]:5 before aic pto.load at {{.*}}decisions.mlir{{.*}}:[[# @LINE + 11]]:5)
  // CHECK-NEXT:  pipe 0 v2c: depth 2, slot 1024 B; 2048 B ring in mat (AIC); 2 transfers
  // CHECK-NEXT:  ring depth 2 (the default, not chosen): each ring carries at most 1 tile per run, so no push waits for a slot at depth 2
  // CHECK-NEXT:  result: @fenced_aic, @fenced_aiv, @fenced
  func.func @fenced(%x: !pto.tensor<16x16xf32>, %s: !pto.tensor<16x16xf32> {pto.inout},
                    %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %v = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec>
    %e = pto.exp %v : !pto.tile<16x16xf32, vec>
    %s1 = pto.store %e, %s[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>

    %m = pto.load %s1[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %o2 = pto.store %m, %o[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}
