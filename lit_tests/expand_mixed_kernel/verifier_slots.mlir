// RUN: pypto-opt %s --split-input-file --verify-diagnostics --verify-mixed-kernel-expanded

// The MixedKernelExpanded verifier follows a popped slot exactly as tfree placement does (analysis/slots.py):
// through views, scf.if / scf.for / scf.while results and loop arguments, and out of the block through its
// terminator.  Each case is a hand-written unsafe variant that tfree placement never emits, rejected at the
// op that reads the released slot; the last cases are safe variants that are accepted.

// 1. The tfree moved above a use of an scf.if result that carries the slot.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    func.return
  }
  func.func @f_aiv(%flag: i1) attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %v = scf.if %flag -> (!pto.tile<16x64xf32, vec>) {
      scf.yield %p : !pto.tile<16x64xf32, vec>
    } else {
      %r = pto.reshape %p : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf32, vec>
      scf.yield %r : !pto.tile<16x64xf32, vec>
    }
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    // expected-error@+1 {{'pto.exp' reads a popped tile after its slot was released by 'pto.tfree_to_aic' at}}
    %e = pto.exp %v : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 1b. An scf.if that yields the popped tile in one branch only *may* hold the slot: the tfree before the yield of
// its result, which the next iteration and the code after the loop read, is rejected.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xf32, acc>
    %lo = arith.constant 0 : index
    %hi = arith.constant 4 : index
    %st = arith.constant 1 : index
    scf.for %i = %lo to %hi step %st {
      pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    }
    func.return
  }
  func.func @f_aiv(%flag: i1) attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %init = pto.create : !pto.tile<16x64xf32, vec>
    %lo = arith.constant 0 : index
    %hi = arith.constant 4 : index
    %st = arith.constant 1 : index
    %last = scf.for %i = %lo to %hi step %st iter_args(%prev = %init) -> (!pto.tile<16x64xf32, vec>) {
      %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
      %sel = scf.if %flag -> (!pto.tile<16x64xf32, vec>) {
        scf.yield %p : !pto.tile<16x64xf32, vec>
      } else {
        scf.yield %prev : !pto.tile<16x64xf32, vec>
      }
      pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
      // expected-error@+1 {{'scf.yield' passes a popped tile (operand #0) out of its block, where result #0 of the scf.for (after the loop) still reads it, but its slot is released by 'pto.tfree_to_aic' at}}
      scf.yield %sel : !pto.tile<16x64xf32, vec>
    }
    %e = pto.exp %last : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 2. `tfree_to_aic %t` then `scf.yield %t`, and the loop result is read after the loop (issue hazard 4).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %lb = arith.constant 0 : index
    %ub = arith.constant 4 : index
    %st = arith.constant 1 : index
    scf.for %i = %lb to %ub step %st {
      %t = pto.create : !pto.tile<16x64xf32, acc>
      pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    }
    func.return
  }
  func.func @f_aiv(%o: !pto.tensor<16x64xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %lb = arith.constant 0 : index
    %ub = arith.constant 4 : index
    %st = arith.constant 1 : index
    %init = pto.create : !pto.tile<16x64xf32, vec>
    %last = scf.for %i = %lb to %ub step %st iter_args(%prev = %init) -> (!pto.tile<16x64xf32, vec>) {
      %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
      pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
      // expected-error@+1 {{'scf.yield' passes a popped tile (operand #0) out of its block, where result #0 of the scf.for (after the loop) still reads it, but its slot is released by 'pto.tfree_to_aic' at}}
      scf.yield %p : !pto.tile<16x64xf32, vec>
    }
    %o1 = pto.store %last, %o[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
    func.return
  }
}

// -----

// 3. The same, but the next iteration reads the carried tile (the loop result is unused).
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %lb = arith.constant 0 : index
    %ub = arith.constant 4 : index
    %st = arith.constant 1 : index
    scf.for %i = %lb to %ub step %st {
      %t = pto.create : !pto.tile<16x64xf32, acc>
      pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    }
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %lb = arith.constant 0 : index
    %ub = arith.constant 4 : index
    %st = arith.constant 1 : index
    %init = pto.create : !pto.tile<16x64xf32, vec>
    %last = scf.for %i = %lb to %ub step %st iter_args(%prev = %init) -> (!pto.tile<16x64xf32, vec>) {
      %e = pto.exp %prev : !pto.tile<16x64xf32, vec>
      %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
      %s = pto.slice %p[0, 0] : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf32, vec>
      pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
      // expected-error@+1 {{'scf.yield' passes a popped tile (operand #0) out of its block, where the next iteration's iter_arg still reads it}}
      scf.yield %s : !pto.tile<16x64xf32, vec>
    }
    func.return
  }
}

// -----

// 4. A use after the free inside a nested loop that reads the loop result carrying the slot.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %lb = arith.constant 0 : index
    %ub = arith.constant 4 : index
    %st = arith.constant 1 : index
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %r = scf.for %i = %lb to %ub step %st iter_args(%a = %p) -> (!pto.tile<16x64xf32, vec>) {
      scf.yield %a : !pto.tile<16x64xf32, vec>
    }
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    // expected-error@+1 {{'scf.for' reads a popped tile after its slot was released by 'pto.tfree_to_aic' at}}
    %r2 = scf.for %i = %lb to %ub step %st iter_args(%a = %p) -> (!pto.tile<16x64xf32, vec>) {
      %e = pto.exp %r : !pto.tile<16x64xf32, vec>
      scf.yield %a : !pto.tile<16x64xf32, vec>
    }
    func.return
  }
}

// -----

// 5. Ring depth (no local_slot_num): the AIV holds 3 popped tiles at once on a ring of slot_num 2, so the
// cube could never push the third one: both cores would hang.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %a = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %b = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    // expected-error@+1 {{AIV function 'f_aiv' holds 3 popped C2V slots at once here, but the ring has only 2 slots (slot_num = 2 on its 'pto.aiv_initialize_pipe'): the producer could never push this tile}}
    %c = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %s = pto.add %a, %b : !pto.tile<16x64xf32, vec>
    %s2 = pto.add %s, %c : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %a : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %b : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %c : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 6. Accepted: the freed tile is yielded, but nothing reads it afterwards (dead loop result, unread iter_arg),
// and a copy (pto.move) passed out live is not the slot.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %lb = arith.constant 0 : index
    %ub = arith.constant 4 : index
    %st = arith.constant 1 : index
    scf.for %i = %lb to %ub step %st {
      %t = pto.create : !pto.tile<16x64xf32, acc>
      pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
      pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    }
    func.return
  }
  func.func @f_aiv(%o: !pto.tensor<16x64xf32>) attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %lb = arith.constant 0 : index
    %ub = arith.constant 4 : index
    %st = arith.constant 1 : index
    %init = pto.create : !pto.tile<16x64xf32, vec>
    %dead, %kept = scf.for %i = %lb to %ub step %st iter_args(%prev = %init, %k = %init) -> (!pto.tile<16x64xf32, vec>, !pto.tile<16x64xf32, vec>) {
      %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
      %q = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
      %q_copy = pto.move %q : !pto.tile<16x64xf32, vec> -> !pto.tile<16x64xf32, vec>
      pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
      pto.tfree_to_aic %q : !pto.tile<16x64xf32, vec>
      scf.yield %p, %q_copy : !pto.tile<16x64xf32, vec>, !pto.tile<16x64xf32, vec>
    }
    %o1 = pto.store %kept, %o[0, 0] : !pto.tile<16x64xf32, vec>, !pto.tensor<16x64xf32>
    func.return
  }
}
