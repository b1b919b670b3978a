// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s

// tfree insertion (reference §4.2), the same on both targets: every tpop gets exactly one tfree of its side's
// kind on the popped value, placed after the last use in its block — following view aliases (slice, reshape)
// and scf.if results —, after a loop that uses it, right after an unused tpop, right before a trailing
// yield that is the last use; a tile the yield passes on to a live reader (loop result, if result) is copied
// first; a hand-written tfree that comes too early is moved.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // Aliases: the slot stays in use while the slice/reshape views of the popped tile are read.
  // CHECK-LABEL: func.func @aliases_aiv(
  // CHECK:      %z_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %s = pto.slice %z_vec
  // CHECK-NEXT: %r = pto.reshape %s
  // CHECK-NEXT: %e = pto.exp %r
  // CHECK-NEXT: pto.tfree_to_aic %z_vec : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT: %e2 = pto.exp %e
  // CHECK-NOT:  pto.tfree_to_aic
  // CHECK:      func.return
  func.func @aliases(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                     %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %z_vec = pto.move %z : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s = pto.slice %z_vec[0, 0] : !pto.tile<16x128xf32, vec> -> !pto.tile<16x64xf32, vec>
    %r = pto.reshape %s : !pto.tile<16x64xf32, vec> -> !pto.tile<64x16xf32, vec>
    %e = pto.exp %r : !pto.tile<64x16xf32, vec>
    %e2 = pto.exp %e : !pto.tile<64x16xf32, vec>
    %back = pto.reshape %e2 : !pto.tile<64x16xf32, vec> -> !pto.tile<16x64xf32, vec>
    %out_1 = pto.store %back, %out[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }

  // An scf.if whose branches both yield the popped tile (or a view of it) extends its life to the if's users.
  // CHECK-LABEL: func.func @through_if_aiv(
  // CHECK:      %z_vec = pto.tpop_from_aic
  // CHECK:      %v = scf.if
  // CHECK-NOT:  pto.tfree_to_aic
  // CHECK:      %e = pto.exp %v
  // CHECK-NEXT: pto.tfree_to_aic %z_vec
  func.func @through_if(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                        %out: !pto.tensor<16x128xf32> {pto.out}, %flag: i1) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %z_vec = pto.move %z : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %v = scf.if %flag -> (!pto.tile<16x128xf32, vec>) {
      scf.yield %z_vec : !pto.tile<16x128xf32, vec>
    } else {
      %t = pto.reshape %z_vec : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf32, vec>
      scf.yield %t : !pto.tile<16x128xf32, vec>
    }
    %e = pto.exp %v : !pto.tile<16x128xf32, vec>
    %e2 = pto.exp %e : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %e2, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }

  // A tile popped before a loop and read inside it is freed after the loop; the pops inside the loop body
  // are freed inside it, after their last use there.  %unused is popped but its only reader is dead on the
  // AIV: its slot is released right after the pop.
  // CHECK-LABEL: func.func @after_loop_aiv(
  // CHECK:      %bias = pto.tpop_from_aic
  // CHECK-NEXT: %unused = pto.tpop_from_aic
  // CHECK-NEXT: pto.tfree_to_aic %unused
  // CHECK-NEXT: %res = scf.for
  // CHECK-NEXT:   %part_vec = pto.tpop_from_aic
  // CHECK-NEXT:   %sum = pto.add %part_vec, %bias
  // CHECK-NEXT:   pto.tfree_to_aic %part_vec
  // CHECK-NEXT:   %o2 = pto.store %sum
  // CHECK-NEXT:   scf.yield %o2
  // CHECK-NEXT: }
  // CHECK-NEXT: pto.tfree_to_aic %bias
  // CHECK-NOT:  pto.tfree_to_aic
  // CHECK:      func.return
  func.func @after_loop(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                        %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %bias = pto.move %z : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %unused = pto.move %z : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %dead = pto.exp %unused : !pto.tile<16x128xf32, vec>
    %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %out) -> (!pto.tensor<16x128xf32>) {
      %part = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
      %part_vec = pto.move %part : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %sum = pto.add %part_vec, %bias : !pto.tile<16x128xf32, vec>
      %o2 = pto.store %sum, %o[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
      scf.yield %o2 : !pto.tensor<16x128xf32>
    }
    %c9 = arith.constant 9 : index
    func.return %res : !pto.tensor<16x128xf32>
  }

  // The yield passes the popped tile out of the loop and the loop result %last is read after the loop: the
  // slot cannot be freed while %last still names it (the cube would refill it), so the yield passes a copy and
  // the slot is freed right after the copy, before the yield.  The store after the loop reads the copy.
  // CHECK-LABEL: func.func @before_yield_aiv(
  // CHECK:      %last = scf.for
  // CHECK-NEXT:   %part_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:   %part_vec_copy = pto.move %part_vec : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:   pto.tfree_to_aic %part_vec : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:   scf.yield %part_vec_copy
  // CHECK:      pto.store %last, %out[0, 0]
  func.func @before_yield(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                          %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %init = pto.create : !pto.tile<16x128xf32, vec>
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%prev = %init) -> (!pto.tile<16x128xf32, vec>) {
      %part = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
      %part_vec = pto.move %part : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      scf.yield %part_vec : !pto.tile<16x128xf32, vec>
    }
    %out_1 = pto.store %last, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }

  // An scf.if that yields the popped tile in one branch and the loop-carried tile in the other *may* hold the
  // slot: its result is carried to the next iteration and read after the loop, so the yield passes a copy and
  // the slot is freed after the copy.  (Before, only an if whose two branches both yield the slot counted, the
  // tfree came before the yield of %sel, and %last named a slot the cube had refilled: execution reported a use
  // after free.)
  // CHECK-LABEL: func.func @maybe_slot_aiv(
  // CHECK:      %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %init)
  // CHECK-NEXT:   %part_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK:        %sel = scf.if %cond
  // CHECK-NEXT:     scf.yield %part_vec
  // CHECK-NEXT:   } else {
  // CHECK-NEXT:     scf.yield %t
  // CHECK-NEXT:   }
  // CHECK-NEXT:   %sel_copy = pto.move %sel : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:   pto.tfree_to_aic %part_vec : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:   scf.yield %sel_copy
  // CHECK:      pto.exp %last
  func.func @maybe_slot(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                        %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %init = pto.create : !pto.tile<16x128xf32, vec>
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %init) -> (!pto.tile<16x128xf32, vec>) {
      %part = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
      %part_vec = pto.move %part : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      %cond = arith.cmpi eq, %i, %c1 : index
      %sel = scf.if %cond -> (!pto.tile<16x128xf32, vec>) {
        scf.yield %part_vec : !pto.tile<16x128xf32, vec>
      } else {
        scf.yield %t : !pto.tile<16x128xf32, vec>
      }
      scf.yield %sel : !pto.tile<16x128xf32, vec>
    }
    %e = pto.exp %last : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %e, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }

  // A tile popped inside a branch and passed out as the scf.if result, read after the if: the branch frees its
  // slot, so it passes a copy.
  // CHECK-LABEL: func.func @out_of_branch_aiv(
  // CHECK:      %v = scf.if %flag
  // CHECK-NEXT:   %z_vec = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NEXT:   %z_vec_copy = pto.move %z_vec
  // CHECK-NEXT:   pto.tfree_to_aic %z_vec
  // CHECK-NEXT:   scf.yield %z_vec_copy
  // CHECK:      %e = pto.exp %v
  func.func @out_of_branch(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                           %out: !pto.tensor<16x128xf32> {pto.out}, %flag: i1) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %v = scf.if %flag -> (!pto.tile<16x128xf32, vec>) {
      %z = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
      %z_vec = pto.move %z : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
      scf.yield %z_vec : !pto.tile<16x128xf32, vec>
    } else {
      %c = pto.create : !pto.tile<16x128xf32, vec>
      scf.yield %c : !pto.tile<16x128xf32, vec>
    }
    %e = pto.exp %v : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %e, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }

  // AIC side: a V->C pop is freed after the move that places it in `left` (the carrier chain).
  // CHECK-LABEL: func.func @v2c_carrier_aic(
  // CHECK:      %x_left_mat = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x128xbf16, mat>
  // CHECK-NEXT: %x_left = pto.move %x_left_mat
  // CHECK-NEXT: pto.tfree_to_aiv %x_left_mat : !pto.tile<16x128xbf16, mat>
  func.func @v2c_carrier(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                         %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_vec = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, vec>
    %x_left = pto.move %x_vec : !pto.tile<16x128xbf16, vec> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %out_1 = pto.store %z, %out[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }

  // A hand-written tfree that comes too early, on a view of the popped tile, is moved after the last use and
  // rewritten to free the popped tile itself (its attributes kept); no second tfree is added.
  // CHECK-LABEL: func.func @too_early_aiv(
  // CHECK:      %z_vec = pto.tpop_from_aic
  // CHECK-NEXT: %s = pto.reshape %z_vec
  // CHECK-NEXT: %e = pto.exp %s
  // CHECK-NEXT: pto.tfree_to_aic %z_vec {id = 0 : i64} : !pto.tile<16x128xf32, vec>
  // CHECK-NOT:  pto.tfree_to_aic
  // CHECK:      func.return
  func.func @too_early(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                       %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %z_vec = pto.move %z : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s = pto.reshape %z_vec : !pto.tile<16x128xf32, vec> -> !pto.tile<128x16xf32, vec>
    pto.tfree_to_aic %s {id = 0 : i64} : !pto.tile<128x16xf32, vec>
    %e = pto.exp %s : !pto.tile<128x16xf32, vec>
    %b = pto.reshape %e : !pto.tile<128x16xf32, vec> -> !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %b, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
}
