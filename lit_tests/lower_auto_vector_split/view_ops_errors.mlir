// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'

// Rejections of the halving of pto.reinterpret_view, pto.extract and pto.gather_row (both targets), located at
// the op, with a fix hint.

// E-REINTERP: a reinterpret_view whose result shape is not the inferred one (16x16xf32 as i16 is 16x32).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @reinterp_explicit(%x: !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: pto.reinterpret_view with an explicit shape inside a split kernel must match its auto-inferred shape ([16, 32] for [16, 16] viewed as i16), got [32, 16]}}
    %b = pto.reinterpret_view %xv : !pto.tile<16x16xf32, vec> -> !pto.tile<32x16xi16, vec>
    func.return
  }
}

// -----

// E-REINTERP-STATIC: a full-width source is viewed and then lane-sliced, which needs a static shape.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @reinterp_dynamic(%v: !pto.tile<?x16xf32, vec>, %x: !pto.tensor<16x16xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xv = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: pto.reinterpret_view over a full-width source requires a static split extent and a static target shape (got [?, 32])}}
    %b = pto.reinterpret_view %v : !pto.tile<?x16xf32, vec> -> !pto.tile<?x32xi16, vec>
    func.return
  }
}

// -----

// A per-lane half that is not a whole number of the new elements: 3 i16 columns per lane are 1.5 f32.  (A source
// the pass can compute whole is viewed whole instead, and a view only viewed again is folded into its users -
// reinterpret_width.mlir; an scf.while on the way is not followed.)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @reinterp_width(%x: !pto.tensor<16x6xi16>, %c: i1)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x6xi16> -> !pto.tile<16x6xi16, mat>
    %xv0 = pto.move %xm : !pto.tile<16x6xi16, mat> -> !pto.tile<16x6xi16, vec>
    %xv = scf.while (%a = %xv0) : (!pto.tile<16x6xi16, vec>) -> (!pto.tile<16x6xi16, vec>) {
      scf.condition(%c) %a : !pto.tile<16x6xi16, vec>
    } do {
    ^bb0(%a2: !pto.tile<16x6xi16, vec>):
      scf.yield %a2 : !pto.tile<16x6xi16, vec>
    }
    // expected-error@+1 {{pto.reinterpret_view changes the element width along the split axis (dim 1) of the per-lane tile 'xv': each lane's [16, 3] x i16 is not half of the [16, 3] x f32 view, so the lanes' byte windows would not line up. The source is computed whole on both lanes instead}}
    %b = pto.reinterpret_view %xv : !pto.tile<16x6xi16, vec> -> !pto.tile<16x3xf32, vec>
    func.return
  }
}

// -----

// An extract that windows the split axis of a per-lane tile whose source cannot be computed whole on both lanes
// (an scf.while result; a whole source is split like a pto.slice window: extract_split_window.mlir).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @extract_split_window(%qk: !pto.tile<16x16xf32, acc>, %n: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r:2 = scf.while (%i = %c0, %a = %s) : (index, !pto.tile<16x16xf32, vec>) -> (index, !pto.tile<16x16xf32, vec>) {
      %go = arith.cmpi slt, %i, %n : index
      scf.condition(%go) %i, %a : index, !pto.tile<16x16xf32, vec>
    } do {
    ^bb0(%j: index, %b: !pto.tile<16x16xf32, vec>):
      %e = pto.exp %b : !pto.tile<16x16xf32, vec>
      %j1 = arith.addi %j, %c1 : index
      scf.yield %j1, %e : index, !pto.tile<16x16xf32, vec>
    }
    // expected-error@+1 {{LowerAutoVectorSplit: this pto.extract takes a window of the split axis (dim 0) of the per-lane tile 'r'}}
    %e = pto.extract %r#1[4, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
    func.return
  }
}

// -----

// An extract window of the split axis whose extent does not halve evenly (an extract reads whole windows), of a
// source the pass cannot compute whole (a vec parameter; a source it computes whole is extracted whole instead:
// odd_window_whole.mlir).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @extract_odd_window(%qk: !pto.tile<16x16xf32, acc>, %xv: !pto.tile<16x16xf32, vec>, %out: !pto.tensor<5x16xf32> {pto.out}) -> !pto.tensor<5x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: this pto.extract's split extent (5) does not halve evenly; an extract reads whole windows}}
    %e = pto.extract %xv[4, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<5x16xf32, vec>
    %o = pto.store %e, %out[0, 0] : !pto.tile<5x16xf32, vec>, !pto.tensor<5x16xf32>
    func.return %o : !pto.tensor<5x16xf32>
  }
}

// -----

// gather_row from a source split on its rows: the indices address the whole source. (A source the pass can
// compute whole, back to its loads and C->V boundaries, is kept whole instead - reference PR #2585, tested in
// reference_pr2585_fullwidth_reshape_gather.mlir; an scf.while on the way is not followed.)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gather_split_rows(%x: !pto.tensor<16x16xf32>, %i: !pto.tile<8x1xi32, vec>, %c: i1)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xv0 = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, vec>
    %xv = scf.while (%a = %xv0) : (!pto.tile<16x16xf32, vec>) -> (!pto.tile<16x16xf32, vec>) {
      scf.condition(%c) %a : !pto.tile<16x16xf32, vec>
    } do {
    ^bb0(%a2: !pto.tile<16x16xf32, vec>):
      scf.yield %a2 : !pto.tile<16x16xf32, vec>
    }
    // expected-error@+1 {{LowerAutoVectorSplit: pto.gather_row reads rows of 'xv' by index, but that tile is split on its rows (UP_DOWN)}}
    %g = pto.gather_row %xv, %i[0] : !pto.tile<16x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
    func.return
  }
}

// -----

// The same under LEFT_RIGHT, where a reshape round trip [8, 16] -> [1, 128] -> [8, 16] regroups the split axis onto
// the rows of the table (issue 43, class 8).  A table the pass can compute whole is kept whole
// (gather_row_regrouped.mlir); one behind an scf.while (here carrying the lanes' halves of the flat tile) is not.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gather_regrouped_rows(%x: !pto.tensor<8x16xf32>, %i: !pto.tile<6x1xi32, vec>, %c: i1)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %xm = pto.load %x[0, 0] : !pto.tensor<8x16xf32> -> !pto.tile<8x16xf32, mat>
    %xv0 = pto.move %xm : !pto.tile<8x16xf32, mat> -> !pto.tile<8x16xf32, vec>
    %flat0 = pto.reshape %xv0 : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
    %flat = scf.while (%a = %flat0) : (!pto.tile<1x128xf32, vec>) -> (!pto.tile<1x128xf32, vec>) {
      scf.condition(%c) %a : !pto.tile<1x128xf32, vec>
    } do {
    ^bb0(%a2: !pto.tile<1x128xf32, vec>):
      scf.yield %a2 : !pto.tile<1x128xf32, vec>
    }
    %t = pto.reshape %flat : !pto.tile<1x128xf32, vec> -> !pto.tile<8x16xf32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: pto.gather_row reads rows of 't' by index, but that tile is split on its rows (UP_DOWN)}}
    %g = pto.gather_row %t, %i[0] : !pto.tile<8x16xf32, vec>, !pto.tile<6x1xi32, vec> -> !pto.tile<6x16xf32, vec>
    func.return
  }
}

// -----

// E-MIXED: in an explicit-boundary region, an extract whose offsets do not use the lane id is full width (a lane
// id in another operand does not count: here it only feeds the gather_row's index tile, not its offset).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @not_lane_addressed(%a: !pto.tensor<16x16xf32>, %b: !pto.tile<16x16xf32, vec>, %i: !pto.tile<8x1xi32, vec>)
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %am0 = pto.load %a[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %al = pto.move %am0 : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %ar = pto.move %am0 : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %am = pto.matmul %al, %ar : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    pto.split_aiv_scope up_down (%aiv_id) {
      %h = pto.aiv_shard %am {split = 1 : i64} : !pto.tile<16x16xf32, acc> -> !pto.tile<8x16xf32, vec>
      // expected-error@+1 {{LowerAutoVectorSplit: a pto.split_aiv_scope region mixes explicit pto.aiv_shard/pto.aic_gather boundary ops with plain full-width vector op(s) [pto.extract, pto.gather_row]}}
      %e = pto.extract %b[0, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
      %g = pto.gather_row %b, %i[0] : !pto.tile<16x16xf32, vec>, !pto.tile<8x1xi32, vec> -> !pto.tile<8x16xf32, vec>
      pto.yield
    }
    func.return
  }
}
