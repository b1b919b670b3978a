// RUN: pypto-opt %s --split-input-file --verify-diagnostics '--lower-auto-vector-split{fallback=error}'

// Every AUTO-path rejection (reference §6), located at the offending op, with a fix hint.

// E-AUTO-SCOPE: an op with a region other than scf.for / scf.if / scf.while (here scf.index_switch) in an
// AUTO-eligible mixed function. (An scf.execute_region is not one: the pass inlines it first; execute_region.mlir.)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @auto_scope(%qk: !pto.tile<16x16xf32, acc>, %k: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %p = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: function 'auto_scope' declares an AUTO split (pto.split = #pto.split<up_down>) and is a mixed cube/vector kernel, but its body still contains a scope ('scf.index_switch'), which the AUTO split cannot lower. Inline or outline the scope first (the AUTO path descends into scf.for, scf.if and scf.while, and inlines scf.execute_region)}}
    scf.index_switch %k
    case 0 {
      scf.yield
    }
    default {
      scf.yield
    }
    func.return
  }
}

// -----

// E-FULLWIDTH: a V->C move of a full-width vector value (a vec parameter).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @fullwidth_param(%vec: !pto.tile<16x16xf32, vec>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    // expected-error@+1 {{LowerAutoVectorSplit: the V->C boundary pto.move here carries a full-width vector operand 'vec'. pto.aic_gather reassembles the two AIV lanes' per-lane halves}}
    %m = pto.move %vec : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, mat>
    func.return
  }
}

// -----

// E-GATHER-DIM: a reshape moved the split axis to dim 2 of a rank-3 tile.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gather_dim(%qk: !pto.tile<16x4xf32, acc>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x4xf32, acc> -> !pto.tile<16x4xf32, vec>
    %r = pto.reshape %s : !pto.tile<16x4xf32, vec> -> !pto.tile<1x1x64xf32, vec>
    // expected-error@+1 {{LowerAutoVectorSplit: the V->C boundary operand 'r' carries its split on dim 2 of a rank-3 tile, but pto.aic_gather reassembles a 2D tile along dim 0 or dim 1 only}}
    %m = pto.move %r : !pto.tile<1x1x64xf32, vec> -> !pto.tile<1x1x64xf32, mat>
    func.return
  }
}

// -----
// V->C gather of an odd split extent that a transpose moved off the function's axis (the full-width chain of
// whole_transfer.mlir is only taken when the operand's axis is the function's): 2 * ceil(15/2) = 16 columns
// cannot fill the 15-column cube tile.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gather_odd(%x: !pto.tensor<15x32xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %a = pto.load %x[0, 0] : !pto.tensor<15x32xf32> -> !pto.tile<15x32xf32, vec>
    %t = pto.transpose %a : !pto.tile<15x32xf32, vec> -> !pto.tile<32x15xf32, vec>
    // expected-error@+1 {{the V->C boundary operand 't' has an odd split extent (15 on dim 1)}}
    %m = pto.move %t : !pto.tile<32x15xf32, vec> -> !pto.tile<32x15xf32, mat>
    func.return
  }
}

// -----

// A reduction over the split axis is combined across the lanes through a GM workspace (cross_lane_reduce.mlir);
// refused only when its result's valid extent is a run-time value (the workspace loads cannot state it).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @reduce_runtime_valid(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<16x16xf32>, %n: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %l = pto.load %x[0, 0] valid [16, %n] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, vec, valid = [16, ?]>
    // expected-error@+1 {{LowerAutoVectorSplit: reduce op 'pto.col_sum' reduces over the split axis (dim 0), which the lanes combine through a GM workspace, but its result 'c' (!pto.tile<1x16xf32, vec, valid = [1, ?]>) has a run-time valid extent that the workspace loads cannot state}}
    %c = pto.col_sum %l : !pto.tile<16x16xf32, vec, valid = [16, ?]> -> !pto.tile<1x16xf32, vec, valid = [1, ?]>
    func.return
  }
}

// -----

// The same under LEFT_RIGHT: a row reduction whose rows are valid up to a run-time count.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @reduce_runtime_valid_rows(%qk: !pto.tile<16x16xf32, acc>, %m: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %w = pto.set_validshape %s valid [%m, 16] : !pto.tile<16x16xf32, vec> -> !pto.tile<16x16xf32, vec, valid = [?, 16]>
    // expected-error@+1 {{reduce op 'pto.row_max' reduces over the split axis (dim 1), which the lanes combine through a GM workspace, but its result 'c' (!pto.tile<16x1xf32, vec, valid = [?, 1]>) has a run-time valid extent}}
    %c = pto.row_max %w : !pto.tile<16x16xf32, vec, valid = [?, 16]> -> !pto.tile<16x1xf32, vec, valid = [?, 1]>
    func.return
  }
}

// -----

// E-RESHAPE-ODD: an odd split axis (15 rows) reshaped onto a unit dim 0. The input comes out of an scf.while,
// which the full-width chains do not cross, so it cannot be computed whole for the reshape (the cases that can
// are split: reshape_full_width.mlir, whole_lane_parts.mlir).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @reshape_odd(%qk: !pto.tile<15x2xf32, acc>, %c0: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<15x2xf32, acc> -> !pto.tile<15x2xf32, vec>
    %w = scf.while (%t = %s) : (!pto.tile<15x2xf32, vec>) -> (!pto.tile<15x2xf32, vec>) {
      %cond = arith.cmpi slt, %c0, %c0 : index
      scf.condition(%cond) %t : !pto.tile<15x2xf32, vec>
    } do {
    ^bb0(%t2: !pto.tile<15x2xf32, vec>):
      scf.yield %t2 : !pto.tile<15x2xf32, vec>
    }
    // expected-error@+1 {{LowerAutoVectorSplit: pto.reshape moves an ODD split axis (dim 0, extent 15) onto a result whose dim 0 cannot carry it}}
    %r = pto.reshape %w : !pto.tile<15x2xf32, vec> -> !pto.tile<1x30xf32, vec>
    func.return
  }
}

// -----

// The same for a singleton split axis: a [1, 32] C->V boundary (a singleton shard: lane 0 the row, lane 1 an
// empty copy) reshaped.  Its chain runs whole for the reshape where it can (singleton_reshape_whole.mlir); out of
// an scf.while it cannot, and a reshape has no valid operand to state lane 1's empty row.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @reshape_singleton(%qk: !pto.tile<1x32xf32, acc>, %c0: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<1x32xf32, acc> -> !pto.tile<1x32xf32, vec>
    %w = scf.while (%t = %s) : (!pto.tile<1x32xf32, vec>) -> (!pto.tile<1x32xf32, vec>) {
      %cond = arith.cmpi slt, %c0, %c0 : index
      scf.condition(%cond) %t : !pto.tile<1x32xf32, vec>
    } do {
    ^bb0(%t2: !pto.tile<1x32xf32, vec>):
      scf.yield %t2 : !pto.tile<1x32xf32, vec>
    }
    // expected-error@+1 {{LowerAutoVectorSplit: pto.reshape moves an ODD split axis (dim 0, extent 1) onto a result whose dim 0 cannot carry it ([32, 1])}}
    %r = pto.reshape %w : !pto.tile<1x32xf32, vec> -> !pto.tile<32x1xf32, vec>
    func.return
  }
}

// -----

// E-RESHAPE-TRACK: [16, 6] -> [3, 32]: each lane's 8 rows are not one block of a single result dim (and the
// input, out of an scf.while, cannot be computed whole).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @reshape_track(%qk: !pto.tile<16x6xf32, acc>, %c0: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x6xf32, acc> -> !pto.tile<16x6xf32, vec>
    %w = scf.while (%t = %s) : (!pto.tile<16x6xf32, vec>) -> (!pto.tile<16x6xf32, vec>) {
      %cond = arith.cmpi slt, %c0, %c0 : index
      scf.condition(%cond) %t : !pto.tile<16x6xf32, vec>
    } do {
    ^bb0(%t2: !pto.tile<16x6xf32, vec>):
      scf.yield %t2 : !pto.tile<16x6xf32, vec>
    }
    // expected-error@+1 {{LowerAutoVectorSplit: pto.reshape moves the split axis (dim 0) across a layout this pass cannot track under split}}
    %r = pto.reshape %w : !pto.tile<16x6xf32, vec> -> !pto.tile<3x32xf32, vec>
    func.return
  }
}

// -----

// E-RESHAPE-TRACK under LEFT_RIGHT: the row-major [8, 16] -> [1, 128] merges the 8 rows into the split axis, so
// a lane's 8 columns of every row are not one half of the 128 cells; the input cannot be computed whole either.
// The message says why and names the fallback.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @reshape_track_left_right(%qk: !pto.tile<8x16xf32, acc>, %c0: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<8x16xf32, acc> -> !pto.tile<8x16xf32, vec>
    %w = scf.while (%t = %s) : (!pto.tile<8x16xf32, vec>) -> (!pto.tile<8x16xf32, vec>) {
      %cond = arith.cmpi slt, %c0, %c0 : index
      scf.condition(%cond) %t : !pto.tile<8x16xf32, vec>
    } do {
    ^bb0(%t2: !pto.tile<8x16xf32, vec>):
      scf.yield %t2 : !pto.tile<8x16xf32, vec>
    }
    // expected-error@+1 {{LowerAutoVectorSplit: pto.reshape moves the split axis (dim 1) across a layout this pass cannot track under split ([8, 16] -> [1, 128]); each lane's half must be one contiguous block of a single result dim, and the dims before the split axis must keep their product}}
    %r = pto.reshape %w : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
    func.return
  }
}

// -----

// E-RESHAPE-TRACK with dynamic dims: the message writes a dynamic extent as `?`, as the type does.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @reshape_track_dynamic(%qk: !pto.tile<16x?xf32, acc>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x?xf32, acc> -> !pto.tile<16x?xf32, vec>
    // expected-error@+1 {{under split ([16, ?] -> [1, ?]); the result has no dim to carry it}}
    %r = pto.reshape %s : !pto.tile<16x?xf32, vec> -> !pto.tile<1x?xf32, vec>
    func.return
  }
}

// -----

// E-RESHAPE-STRIDE: the ragged 13/16 boundary is balanced with lane_stride 7; the reshape moves the axis.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @reshape_stride(%qk: !pto.tile<16x1xf32, acc, valid = [13, 1]>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x1xf32, acc, valid = [13, 1]> -> !pto.tile<16x1xf32, vec, valid = [13, 1]>
    // expected-error@+1 {{LowerAutoVectorSplit: pto.reshape moves the split axis from dim 0 to dim 1 inside a split region whose ragged boundary was balanced with lane_stride = 7}}
    %r = pto.reshape %s : !pto.tile<16x1xf32, vec, valid = [13, 1]> -> !pto.tile<1x16xf32, vec, valid = [1, 13]>
    func.return
  }
}

// -----

// E-GEN: pto.random under LEFT_RIGHT.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @gen_random(%qk: !pto.tile<16x16xf32, acc>, %seed: i32)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{automatic split-axis halving of 'pto.random' is not supported}}
    %c = pto.random %seed : i32 -> !pto.tile<16x16xf32, vec>
    func.return
  }
}

// -----

// A C->V boundary becomes an aiv_shard, which needs a 2D tile.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @shard_rank(%qk: !pto.tile<2x16x16xf32, acc>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    // expected-error@+1 {{the C->V boundary becomes pto.aiv_shard, which requires a 2D tile, but got rank 3}}
    %s = pto.move %qk : !pto.tile<2x16x16xf32, acc> -> !pto.tile<2x16x16xf32, vec>
    func.return
  }
}

// -----

// A dynamic box on the split axis cannot be halved.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @dynamic_box(%qk: !pto.tile<16x16xf32, acc>, %x: !pto.tensor<?x128xf32>, %n: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{the split axis (dim 0) of 'pto.load' has a dynamic box ('?')}}
    %a = pto.load %x[0, 0] valid [%n, 128] : !pto.tensor<?x128xf32> -> !pto.tile<?x128xf32, vec>
    func.return
  }
}

// -----

// A vector op mixing a per-lane half and a full-width operand.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @mixed_width(%qk: !pto.tile<16x16xf32, acc>, %p: !pto.tile<16x16xf32, vec>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{'pto.add' cannot be halved along the split axis}}
    %a = pto.add %s, %p : !pto.tile<16x16xf32, vec>
    func.return
  }
}

// -----

// A window of the split axis of a per-lane tile whose source cannot be computed whole on both lanes: it is the
// result of an scf.while (whole-source slices, e.g. of a C->V boundary or of a load, are split:
// slice_split_window.mlir).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @slice_split_axis(%qk: !pto.tile<16x16xf32, acc>, %n: index)
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
    // expected-error@+1 {{this pto.slice takes a window of the split axis (dim 0) of the per-lane tile 'r'; each lane only holds its half, so the window would select different rows on the two lanes. Its source is computed whole on both lanes instead (and the window taken as written) only when every producer of it can run whole: back to pto.load, C->V boundaries and generators, through scf.for and scf.if (docs/lower-auto-vector-split.md, full-width chains); here one cannot (a function parameter, an scf.while, a region op or a hand-written transfer on the way). Slice the value before it enters that construct, load the window directly from GM, or slice along the other axis}}
    %t = pto.slice %r#1[4, 0] : !pto.tile<16x16xf32, vec> -> !pto.tile<8x16xf32, vec>
    func.return
  }
}

// -----

// The same under left_right: the split axis is dim 1, so the message speaks of columns.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @slice_split_axis_columns(%qk: !pto.tile<16x16xf32, acc>, %n: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r:2 = scf.while (%i = %c0, %a = %s) : (index, !pto.tile<16x16xf32, vec>) -> (index, !pto.tile<16x16xf32, vec>) {
      %go = arith.cmpi slt, %i, %n : index
      scf.condition(%go) %i, %a : index, !pto.tile<16x16xf32, vec>
    } do {
    ^bb0(%j: index, %b: !pto.tile<16x16xf32, vec>):
      %j1 = arith.addi %j, %c1 : index
      scf.yield %j1, %b : index, !pto.tile<16x16xf32, vec>
    }
    // expected-error@+1 {{this pto.slice takes a window of the split axis (dim 1) of the per-lane tile 'r'; each lane only holds its half, so the window would select different columns on the two lanes. Its source is computed whole}}
    %t = pto.slice %r#1[0, 4] : !pto.tile<16x16xf32, vec> -> !pto.tile<16x8xf32, vec>
    func.return
  }
}

// -----

// A loop-carried tile that enters at full width but is yielded as a per-lane half.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @carried_mismatch(%qk: !pto.tile<16x16xf32, acc>, %p: !pto.tile<16x16xf32, vec>, %n: index)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %p) -> (!pto.tile<16x16xf32, vec>) {
      %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
      // expected-error@+1 {{the tile carried as #0 of this scf.for enters the loop at full width}}
      scf.yield %s : !pto.tile<16x16xf32, vec>
    }
    func.return
  }
}

// -----

// scf.if branches yielding a per-lane half and a full-width tile.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @if_mismatch(%qk: !pto.tile<16x16xf32, acc>, %p: !pto.tile<16x16xf32, vec>, %c: i1)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    // expected-error@+1 {{the branches of this scf.if yield result #0 as}}
    %r = scf.if %c -> (!pto.tile<16x16xf32, vec>) {
      %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
      scf.yield %s : !pto.tile<16x16xf32, vec>
    } else {
      scf.yield %p : !pto.tile<16x16xf32, vec>
    }
    func.return
  }
}

// -----

// Returning a per-lane tile from a split function.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @return_half(%qk: !pto.tile<16x16xf32, acc>) -> !pto.tile<16x16xf32, vec>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %s = pto.move %qk : !pto.tile<16x16xf32, acc> -> !pto.tile<16x16xf32, vec>
    // expected-error@+1 {{this function returns the per-lane tile 's'}}
    func.return %s : !pto.tile<16x16xf32, vec>
  }
}

// -----

// E-SHARD-CODE through a hand-written transfer: 13 of 16 rows with the box partition (an independent load keeps
// it) leaves the lanes 8 and 5 rows, which pto-isa cannot place.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @shard_code(%c: !pto.tile<16x64xf32, acc, valid = [13, 64]>, %x: !pto.tensor<16x64xf32>)
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    // expected-error@+1 {{the Cube -> Vector boundary tile's valid split-axis extent (13 of a 16-wide dim 0) leaves the two AIV lanes 8 and 5 cells}}
    pto.tpush_to_aiv %c {split = 0 : i64} : !pto.tile<16x64xf32, acc, valid = [13, 64]>
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec, valid = [13, 64]>
    %b = pto.load %x[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// Two per-lane stores of one tensor split on different dims (a LEFT_RIGHT reshape round trip [8,16] -> [1,128] ->
// [8,16] regroups the split axis onto the rows): lane 1's columns 8..15 of the first store overlap lane 0's rows
// 0..3 of the second (campaign seed 41).  Straight-line stores are ordered by a lane barrier
// (store_repartition.mlir); in a loop the next iteration's first store would race with this one, so it is refused.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @store_partitions_differ(%c: !pto.tile<8x16xf32, acc>, %scratch: !pto.tensor<8x16xf32> {pto.out},
                                     %out: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<left_right>} {
    %o = pto.store %c, %scratch[0, 0] : !pto.tile<8x16xf32, acc>, !pto.tensor<8x16xf32>
    %x = pto.load %o[0, 0] : !pto.tensor<8x16xf32> -> !pto.tile<8x16xf32, vec>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %res = scf.for %i = %c0 to %c2 step %c1 iter_args(%t = %out) -> (!pto.tensor<8x16xf32>) {
      %o1 = pto.store %x, %t[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
      %r = pto.reshape %x : !pto.tile<8x16xf32, vec> -> !pto.tile<1x128xf32, vec>
      %r2 = pto.reshape %r : !pto.tile<1x128xf32, vec> -> !pto.tile<8x16xf32, vec>
      %y = pto.add %r2, %x : !pto.tile<8x16xf32, vec>
      // expected-error@+1 {{LowerAutoVectorSplit: this pto.store writes 'y', split over the lanes on dim 0 of the tensor, but an earlier store of the same tensor (at}}
      %o2 = pto.store %y, %o1[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
      scf.yield %o2 : !pto.tensor<8x16xf32>
    }
    func.return %res : !pto.tensor<8x16xf32>
  }
}

// -----

// Cross-lane GM race (lane_races.py): the halved tile %e is stored per lane (lane l: rows 8l..8l+7), then rows
// 8..15 are loaded back, halved too (lane l: rows 8+4l..); lane 0 reads rows 8..11, which lane 1 stored, and no
// cube round trip orders the lanes.  (Before, this compiled and the race detector reported it.)
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @cross_lane_reload(%qk: !pto.tile<16x128xf32, acc>, %s: !pto.tensor<16x128xf32> {pto.inout},
                               %out: !pto.tensor<8x128xf32> {pto.out}) -> !pto.tensor<8x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %v = pto.move %qk : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %e = pto.exp %v : !pto.tile<16x128xf32, vec>
    // expected-note@+1 {{the other access (pto.store)}}
    %s1 = pto.store %e, %s[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    // expected-error@+1 {{LowerAutoVectorSplit: after the split each AIV lane runs this pto.load on its own part, and its part reads cells the other lane writes with the pto.store at}}
    %b = pto.load %s1[8, 0] : !pto.tensor<16x128xf32> -> !pto.tile<8x128xf32, vec>
    %r = pto.relu %b : !pto.tile<8x128xf32, vec>
    %o = pto.store %r, %out[0, 0] : !pto.tile<8x128xf32, vec>, !pto.tensor<8x128xf32>
    func.return %o : !pto.tensor<8x128xf32>
  }
}

