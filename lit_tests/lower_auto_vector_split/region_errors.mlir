// RUN: pypto-opt %s --split-input-file --verify-diagnostics --lower-auto-vector-split

// Every rejection of the split_aiv_scope region path: AivSplitValid (a)-(h) first, then the per-form checks.

// (h) a region needs a function marked pto.split_aiv.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @no_split_aiv(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    // expected-error@+1 {{AivSplitValid: 'pto.split_aiv_scope' opens a CORE_GROUP-level region}}
    %r = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      pto.yield %o : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// (a) cube work inside a region.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @cube_in_region(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      // expected-error@+1 {{AivSplitValid: cube op 'pto.matmul' inside a pto.split_aiv_scope region}}
      %acc2 = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
      pto.yield %o : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// (b) a reduction over the region's split axis would be partial.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @reduce_split_axis(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
      // expected-error@+1 {{AivSplitValid: reduce op 'pto.col_sum' reduces over the split axis (dim 0) inside a pto.split_aiv_scope up_down region}}
      %s = pto.col_sum %h : !pto.tile<8x128xf32, vec> -> !pto.tile<1x128xf32, vec>
      pto.yield %o : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// (c) boundary ops belong inside a region.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @shard_outside(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    // expected-error@+1 {{AivSplitValid: 'pto.aiv_shard' must appear inside a pto.split_aiv_scope region}}
    %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %e = pto.exp %h : !pto.tile<8x128xf32, vec>
      %o2 = pto.store %e, %o[0, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// (d) memory contract: aiv_shard takes an acc tile.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @shard_of_mat(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      // expected-error@+1 {{AivSplitValid: 'pto.aiv_shard' operand is in 'mat', but it transfers a cube accumulator result to the AIV lanes and requires 'acc'}}
      %h = pto.aiv_shard %b_mat {split = 1 : i64} : !pto.tile<64x128xbf16, mat> -> !pto.tile<32x128xbf16, vec>
      pto.yield %o : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// (e) vector work outside every region (the load before it is exempt).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @vector_outside(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %x = pto.load %o[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    // expected-error@+1 {{AivSplitValid: vector op 'pto.exp' sits outside every pto.split_aiv_scope region of split_aiv function @vector_outside}}
    %e = pto.exp %x : !pto.tile<16x128xf32, vec>
    %r = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %o2 = pto.store %e, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// (f) an implicit V->C crossing: a per-lane value read on the cube lane outside the region.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @implicit_v2c(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %v = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tile<8x128xf32, vec>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
      %e = pto.exp %h : !pto.tile<8x128xf32, vec>
      pto.yield %e : !pto.tile<8x128xf32, vec>
    }
    // expected-error@+1 {{AivSplitValid: %v is defined inside a pto.split_aiv_scope region but 'pto.move' reads it on the CUBE lane outside}}
    %m = pto.move %v : !pto.tile<8x128xf32, vec> -> !pto.tile<8x128xf32, mat>
    %r = pto.store %acc, %o[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// (g) an implicit C->V crossing inside a task-parallel region.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @implicit_c2v(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      // expected-error@+1 {{AivSplitValid: %acc is produced on the CUBE lane by 'pto.matmul' outside every pto.split_aiv_scope region, and 'pto.move' reads it inside the region without a boundary op; hand it to the lanes with pto.aiv_shard with split = 0}}
      %v = pto.move %acc : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %o2 = pto.store %v, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// A task-parallel region has no split axis: its shard must keep the full shape (split = 0).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @task_shard_split(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      // expected-error@+1 {{LowerAutoVectorSplit: 'pto.aiv_shard' with split = 1 inside a mode none (task-parallel) pto.split_aiv_scope region}}
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
      %o2 = pto.store %h, %o[0, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// E-MIXED: a generator is accepted for itself, but it does not vouch for its consumers.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @mixed_generator(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
      %f = arith.constant 1.0 : f32
      %z = pto.full %f : f32 -> !pto.tile<8x128xf32, vec>
      // expected-error@+1 {{LowerAutoVectorSplit: a pto.split_aiv_scope region mixes explicit pto.aiv_shard/pto.aic_gather boundary ops with plain full-width vector op(s) [pto.add]}}
      %y = pto.add %z, %z : !pto.tile<8x128xf32, vec>
      %s = pto.add %h, %y : !pto.tile<8x128xf32, vec>
      %o2 = pto.store %s, %o[0, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// E-MIXED: a load addressed by the lane id is per-lane; one that is not is full width, and a lane-derived valid extent does not launder it.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @mixed_unaddressed_load(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %mine = pto.load %o[%row, 0] : !pto.tensor<16x128xf32> -> !pto.tile<8x128xf32, vec>
      // expected-error@+1 {{full-width vector op(s) [pto.load, pto.set_validshape]}}
      %same = pto.load %o[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<8x128xf32, vec>
      %laundered = pto.set_validshape %same valid [%row, 128] : !pto.tile<8x128xf32, vec> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
      %s = pto.add %h, %mine : !pto.tile<8x128xf32, vec>
      %o2 = pto.store %s, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// E-TRANSPOSE: the hazard is checked with the region's own split axis.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @transpose_hazard(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
      // expected-error@+1 {{LowerAutoVectorSplit: a pto.split_aiv_scope up_down region contains a pto.transpose (result %t) that swaps the split axis (dim 0, extent 8)}}
      %t = pto.transpose %h : !pto.tile<8x128xf32, vec> -> !pto.tile<128x8xf32, vec>
      pto.yield %o : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// E-CARRY: a ragged per-lane value cannot be carried around a loop.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @carry(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat, valid = [13, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat, valid = [13, 64]> -> !pto.tile<16x64xbf16, left, valid = [13, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left, valid = [13, 64]>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc, valid = [13, 128]>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<8x128xf32, vec, valid = [7, 128]>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      // expected-error@+1 {{LowerAutoVectorSplit: pto.split_aiv_scope: carrying a per-lane cross-core value across a scf.for boundary is not supported: %h}}
      %x = scf.for %i = %c0 to %c4 step %c1 iter_args(%it = %h) -> (!pto.tile<8x128xf32, vec, valid = [7, 128]>) {
        %e = pto.exp %it : !pto.tile<8x128xf32, vec, valid = [7, 128]>
        scf.yield %e : !pto.tile<8x128xf32, vec, valid = [7, 128]>
      }
      pto.yield %o : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// E-GATHER-PARTIAL: a gather of partial halves would leave a hole between the lanes.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gather_partial(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %x = pto.load %o[%row, 0] valid [5, 128] : !pto.tensor<16x128xf32> -> !pto.tile<8x128xf32, vec, valid = [5, 128]>
      // expected-error@+1 {{LowerAutoVectorSplit: pto.split_aiv_scope: pto.aic_gather re-joins the two lanes positionally, but each lane's valid row extent (5 of 8) covers only part of its half}}
      %g = pto.aic_gather %x {split = 1 : i64} : !pto.tile<8x128xf32, vec, valid = [5, 128]> -> !pto.tile<16x128xf32, mat>
      pto.yield %o : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// E-CHAIN-STORE: lane 1 of 8-of-16 rows is empty, so the store is guarded; a store chained on it cannot be.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @chain_store(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat, valid = [8, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat, valid = [8, 64]> -> !pto.tile<16x64xbf16, left, valid = [8, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left, valid = [8, 64]>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc, valid = [8, 128]>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc, valid = [8, 128]> -> !pto.tile<8x128xf32, vec>
      // expected-error@+1 {{LowerAutoVectorSplit: pto.split_aiv_scope: a store whose result feeds another store cannot be guarded against an empty lane}}
      %o2 = pto.store %h, %o[0, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      %o3 = pto.store %h, %o2[8, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o3 : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// E-VALID-RESHAPE: the lanes' different valid extents cannot be carried through a reshape.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @valid_reshape(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat, valid = [13, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat, valid = [13, 64]> -> !pto.tile<16x64xbf16, left, valid = [13, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left, valid = [13, 64]>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc, valid = [13, 128]>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc, valid = [13, 128]> -> !pto.tile<8x128xf32, vec, valid = [7, 128]>
      // expected-error@+1 {{LowerAutoVectorSplit: pto.split_aiv_scope: 'pto.reshape' reshapes the logical valid region of a per-lane cross-core value}}
      %w = pto.reshape %h : !pto.tile<8x128xf32, vec, valid = [7, 128]> -> !pto.tile<4x256xf32, vec, valid = [3, 256]>
      pto.yield %o : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// E-REGION-SCOPE: a region left inside a task-parallel region (spliced unlowered).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @nested_in_task(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      // expected-error@+1 {{LowerAutoVectorSplit: this pto.split_aiv_scope region is nested inside a task-parallel (mode none) region}}
      %in = pto.split_aiv_scope up_down (%lane) -> (!pto.tensor<16x128xf32>) {
        %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
        %o2 = pto.store %h, %o[0, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
        pto.yield %o2 : !pto.tensor<16x128xf32>
      }
      pto.yield %in : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// E-REGION-SCOPE: a region left inside an explicit-boundary region.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @nested_in_explicit(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 2 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<16x64xf32, vec>
      %c64 = arith.constant 64 : index
      %col = arith.muli %aiv_id, %c64 : index
      %o2 = pto.store %h, %o[0, %col] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x128xf32>
      // expected-error@+1 {{nested inside an explicit-boundary region}}
      %in = pto.split_aiv_scope none (%lane) -> (!pto.tensor<16x128xf32>) {
        pto.yield %o2 : !pto.tensor<16x128xf32>
      }
      pto.yield %in : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// E-REGION-SCOPE: a region inside an op the region lowering does not enter (it descends into scf.for, scf.if and
// scf.while, and inlines scf.execute_region first; region_execute_region.mlir): here an scf.index_switch case.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @nested_in_switch(%p: !pto.tensor<16x64xf32>, %q: !pto.tensor<16x64xf32> {pto.out}, %k: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    scf.index_switch %k
    case 1 {
      // expected-error@+1 {{LowerAutoVectorSplit: this pto.split_aiv_scope region is nested inside a scope ('scf.index_switch'), which the region lowering does not enter (it descends into scf.for, scf.if and scf.while, and inlines scf.execute_region), so it cannot be lowered and would reach ExpandMixedKernel as a region; move the region out of that op}}
      %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x64xf32>) {
        %x = pto.load %p[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
        %q2 = pto.store %x, %q[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
        pto.yield %q2 : !pto.tensor<16x64xf32>
      }
      scf.yield
    }
    default {
      scf.yield
    }
    func.return
  }
}

// -----

// An op with a region other than scf.for / scf.if / scf.while (and scf.execute_region, inlined first) inside a
// full-width data-parallel region: its body cannot be halved.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @switch_in_data_parallel(%p: !pto.tensor<16x64xf32>, %q: !pto.tensor<16x64xf32> {pto.out}, %k: index) -> !pto.tensor<16x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x64xf32>) {
      %x = pto.load %p[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
      // expected-error@+1 {{LowerAutoVectorSplit: 'scf.index_switch' holds a region this pass cannot lower inside a data-parallel pto.split_aiv_scope region; the region lowering only descends into scf.for, scf.if, scf.while and inner pto.split_aiv_scope regions (and inlines scf.execute_region first)}}
      scf.index_switch %k
      case 1 {
        %y = pto.neg %x : !pto.tile<16x64xf32, vec>
        scf.yield
      }
      default {
        scf.yield
      }
      %q2 = pto.store %x, %q[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
      pto.yield %q2 : !pto.tensor<16x64xf32>
    }
    func.return %r : !pto.tensor<16x64xf32>
  }
}

// -----

// E-TRANSPOSE in a full-width data-parallel region: checked with the region's own axis (dim 1 for
// left_right), on the types the author wrote.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @transpose_full_width(%p: !pto.tensor<16x64xf32>, %q: !pto.tensor<64x16xf32> {pto.out}) -> !pto.tensor<64x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %r = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tensor<64x16xf32>) {
      %x = pto.load %p[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
      // expected-error@+1 {{a pto.split_aiv_scope left_right region contains a pto.transpose (result %t) that swaps the split axis (dim 1, extent 64)}}
      %t = pto.transpose %x : !pto.tile<16x64xf32, vec> -> !pto.tile<64x16xf32, vec>
      %q2 = pto.store %t, %q[0, 0] : !pto.tile<64x16xf32, vec>, !pto.tensor<64x16xf32>
      pto.yield %q2 : !pto.tensor<64x16xf32>
    }
    func.return %r : !pto.tensor<64x16xf32>
  }
}

// -----

// A halved tile cannot leave its data-parallel region: the tracking is region-local.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @yield_half(%p: !pto.tensor<16x64xf32>, %q: !pto.tensor<16x64xf32> {pto.out}) -> !pto.tensor<16x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tile<16x64xf32, vec>) {
      %x = pto.load %p[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
      %e = pto.exp %x : !pto.tile<16x64xf32, vec>
      // expected-error@+1 {{LowerAutoVectorSplit: result #0 of this up_down region is the per-lane half %e}}
      pto.yield %e : !pto.tile<16x64xf32, vec>
    }
    %q2 = pto.store %r, %q[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
    func.return %q2 : !pto.tensor<16x64xf32>
  }
}

// -----

// (b) also applies to a full-width data-parallel region: a row reduction under left_right is partial.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @reduce_full_width(%p: !pto.tensor<16x64xf32>, %q: !pto.tensor<16x1xf32> {pto.out}) -> !pto.tensor<16x1xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %r = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tensor<16x1xf32>) {
      %x = pto.load %p[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
      // expected-error@+1 {{AivSplitValid: reduce op 'pto.row_sum' reduces over the split axis (dim 1)}}
      %s = pto.row_sum %x : !pto.tile<16x64xf32, vec> -> !pto.tile<16x1xf32, vec>
      %q2 = pto.store %s, %q[0, 0] : !pto.tile<16x1xf32, vec>, !pto.tensor<16x1xf32>
      pto.yield %q2 : !pto.tensor<16x1xf32>
    }
    func.return %r : !pto.tensor<16x1xf32>
  }
}

// -----

// A gather that re-joins ragged lanes must say the joined valid extent when its tile leaves the region.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gather_type(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x15xbf16>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x15xbf16> -> !pto.tile<64x15xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x15xbf16, mat> -> !pto.tile<64x15xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x15xbf16, right> -> !pto.tile<16x15xf32, acc>
    %g_full = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tile<16x16xf32, mat>) {
      %h = pto.aiv_shard %acc {split = 2 : i64} : !pto.tile<16x15xf32, acc> -> !pto.tile<16x8xf32, vec>
      // expected-error@+1 {{LowerAutoVectorSplit: pto.split_aiv_scope: pto.aic_gather joins lanes whose valid extents add up to 15 on dim 1, but its result type says 16 and the tile leaves the region}}
      %g = pto.aic_gather %h {split = 2 : i64} : !pto.tile<16x8xf32, vec> -> !pto.tile<16x16xf32, mat>
      pto.yield %g : !pto.tile<16x16xf32, mat>
    }
    %o2 = pto.store %g_full, %o[0, 0] : !pto.tile<16x16xf32, mat>, !pto.tensor<16x16xf32>
    func.return %o2 : !pto.tensor<16x16xf32>
  }
}

// -----

// (g) for a cube tile passed in as an argument, moved to the vector side inside a task-parallel region.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @cube_arg(%m: !pto.tile<16x64xf32, mat>, %o: !pto.tensor<16x64xf32> {pto.out}) -> !pto.tensor<16x64xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %r = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x64xf32>) {
      // expected-error@+1 {{AivSplitValid: %m is produced on the CUBE lane by a function argument outside every pto.split_aiv_scope region, and 'pto.move' reads it inside the region without a boundary op}}
      %v = pto.move %m : !pto.tile<16x64xf32, mat> -> !pto.tile<16x64xf32, vec>
      %o2 = pto.store %v, %o[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
      pto.yield %o2 : !pto.tensor<16x64xf32>
    }
    func.return %r : !pto.tensor<16x64xf32>
  }
}

// -----

// E-CARRY through scf.while: the ragged per-lane value enters the loop as its carried initial value.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @carry_while(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}, %go: i1) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat, valid = [15, 64]>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat, valid = [15, 64]> -> !pto.tile<16x64xbf16, left, valid = [15, 64]>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left, valid = [15, 64]>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc, valid = [15, 128]>
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %h = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc, valid = [15, 128]> -> !pto.tile<8x128xf32, vec, valid = [?, 128]>
      // expected-error@+1 {{LowerAutoVectorSplit: pto.split_aiv_scope: carrying a per-lane cross-core value across a scf.while boundary is not supported: %h}}
      %w = scf.while (%t = %h) : (!pto.tile<8x128xf32, vec, valid = [?, 128]>) -> !pto.tile<8x128xf32, vec, valid = [?, 128]> {
        scf.condition(%go) %t : !pto.tile<8x128xf32, vec, valid = [?, 128]>
      } do {
      ^bb0(%t2: !pto.tile<8x128xf32, vec, valid = [?, 128]>):
        %e = pto.exp %t2 : !pto.tile<8x128xf32, vec, valid = [?, 128]>
        scf.yield %e : !pto.tile<8x128xf32, vec, valid = [?, 128]>
      }
      pto.yield %o : !pto.tensor<16x128xf32>
    }
    func.return %r : !pto.tensor<16x128xf32>
  }
}

// -----

// Cross-lane GM order: after an up_down region in which each lane stores its 8 rows of %o, a full-width load of
// %o runs on both lanes; nothing orders lane 0's load after lane 1's store (pto has no AIV<->AIV barrier), so it
// is rejected at the load (the interpreter's race detector reports the flattened form: test_interp_mutations.py).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @load_after_region(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}, %p: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r1 = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %rows = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %o2 = pto.store %rows, %o[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    // expected-error@+1 {{LowerAutoVectorSplit: this pto.load runs at full width on both AIV lanes after a pto.split_aiv_scope region (up_down) in which each lane writes only its own part of the tensor '%o'; the lanes are not synchronised when a region ends (pto has no barrier between the two AIV lanes), so each lane reads the cells the other lane writes}}
    %full = pto.load %r1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %p2 = pto.store %full, %p[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %p2 : !pto.tensor<16x128xf32>
  }
}

// -----

// The same order when the region's per-lane write is a communication op: a pto.tile_put into %o (to peer rank 0,
// this device) writes each lane's rows just as a pto.store does; the check reads every op's GmAccess trait.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @load_after_region_put(%a: !pto.tensor<16x64xbf16>, %b: !pto.tensor<64x128xbf16>, %o: !pto.tensor<16x128xf32> {pto.out}, %p: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<16x64xbf16> -> !pto.tile<16x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_l = pto.move %a_mat : !pto.tile<16x64xbf16, mat> -> !pto.tile<16x64xbf16, left>
    %b_r = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_l, %b_r : !pto.tile<16x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %r1 = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16x128xf32>) {
      %rows = pto.aiv_shard %acc {split = 1 : i64} : !pto.tile<16x128xf32, acc> -> !pto.tile<8x128xf32, vec>
      %c8 = arith.constant 8 : index
      %row = arith.muli %aiv_id, %c8 : index
      %rank = arith.constant 0 : index
      // expected-note@+1 {{the region's per-lane pto.tile_put of that tensor}}
      %o2 = pto.tile_put %rows, %o[%row, 0] to %rank : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
      pto.yield %o2 : !pto.tensor<16x128xf32>
    }
    // expected-error@+1 {{LowerAutoVectorSplit: this pto.load runs at full width on both AIV lanes after a pto.split_aiv_scope region (up_down) in which each lane writes only its own part of the tensor '%o'; the lanes are not synchronised when a region ends (pto has no barrier between the two AIV lanes), so each lane reads the cells the other lane writes}}
    %full = pto.load %r1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %p2 = pto.store %full, %p[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %p2 : !pto.tensor<16x128xf32>
  }
}

// -----

// The same order inside a loop: the full-width store of %q comes first in the body, but the next iteration's
// store overwrites the rows the other lane stored in the task-parallel region of this one.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @store_before_region_in_loop(%x: !pto.tensor<16x128xf32>, %q: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %res = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %q) -> (!pto.tensor<16x128xf32>) {
      %full = pto.load %x[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
      // expected-error@+1 {{LowerAutoVectorSplit: this pto.store runs at full width on both AIV lanes after a pto.split_aiv_scope region (none) in which each lane writes only its own part of the tensor '%q'; the lanes are not synchronised when a region ends (pto has no barrier between the two AIV lanes), so each lane overwrites the cells the other lane writes}}
      %t1 = pto.store %full, %t[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      %t2 = pto.split_aiv_scope none (%aiv_id) -> (!pto.tensor<16x128xf32>) {
        %c8 = arith.constant 8 : index
        %row = arith.muli %aiv_id, %c8 : index
        %mine = pto.load %x[%row, 0] : !pto.tensor<16x128xf32> -> !pto.tile<8x128xf32, vec>
        %s = pto.add %mine, %mine : !pto.tile<8x128xf32, vec>
        %t3 = pto.store %s, %t1[%row, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<16x128xf32>
        pto.yield %t3 : !pto.tensor<16x128xf32>
      }
      scf.yield %t2 : !pto.tensor<16x128xf32>
    }
    func.return %res : !pto.tensor<16x128xf32>
  }
}

// -----

// A whole tile with no lane part (a rank-1 tile: never halved) stored twice to one tensor inside a region: both
// lanes would store it, in no defined order.  The AUTO path has lane 0 store it between lane barriers
// (whole_store_one_writer.mlir); a region does not place barriers, so it stays refused.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @region_whole_store_twice(%p: !pto.tensor<16xf32>, %q: !pto.tensor<16xf32> {pto.out}) -> !pto.tensor<16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split_aiv} {
    %r = pto.split_aiv_scope up_down (%aiv_id) -> (!pto.tensor<16xf32>) {
      %x = pto.load %p[0] : !pto.tensor<16xf32> -> !pto.tile<16xf32, vec>
      // expected-error@+1 {{this pto.store writes 'x' (!pto.tile<16xf32, vec>), which is never halved (a rank-1 tile: both lanes hold it whole) and has no lane part on dim 0, so both lanes would store the whole tile; another store writes the same tensor, and the two lanes' stores have no defined order}}
      %q1 = pto.store %x, %q[0] : !pto.tile<16xf32, vec>, !pto.tensor<16xf32>
      %e = pto.exp %x : !pto.tile<16xf32, vec>
      %q2 = pto.store %e, %q1[0] : !pto.tile<16xf32, vec>, !pto.tensor<16xf32>
      pto.yield %q2 : !pto.tensor<16xf32>
    }
    func.return %r : !pto.tensor<16xf32>
  }
}
