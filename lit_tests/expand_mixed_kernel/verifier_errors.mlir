// RUN: pypto-opt %s --split-input-file --verify-diagnostics --verify-mixed-kernel-expanded

// The MixedKernelExpanded verifier (reference §7.1) on hand-written AIC/AIV kernels, one case per error:
// each violation is reported at the offending op.  `--verify-mixed-kernel-expanded` runs the same check
// the expand pass runs on its own output.

// A valid hand-written C2V pair: no error.
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
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 1. An incore function still mixing cube and vector ops.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @mixed(%x: !pto.tensor<16x64xf32>) attributes {pto.kind = #pto.kind<incore>} {
    %a = pto.load %x[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, mat>
    // expected-error@+1 {{InCore function 'mixed' contains both Cube and Vector tile ops (should have been expanded)}}
    %v = pto.load %x[0, 0] : !pto.tensor<16x64xf32> -> !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 2. A vector-side pop inside an AIC function.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    // expected-error@+1 {{'pto.tpop_from_aic' is an AIV-side op and cannot appear in AIC function 'f_aic'}}
    %bad = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 3. An AIV pop that does not land in vec.
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
    // expected-error@+1 {{AIV function 'f_aiv' requires pto.tpop_from_aic result in memory space 'vec', got 'mat'}}
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, mat>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, mat>
    func.return
  }
}

// -----

// 4. An explicit local_slot_num on a5.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    // expected-error@+1 {{'pto.aic_initialize_pipe' sets local_slot_num, which a5 does not support}}
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64, local_slot_num = 2 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 5. local_slot_num above the implicit slot_num (8 for one direction).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    // expected-error@+1 {{'pto.aic_initialize_pipe' local_slot_num 9 exceeds the effective slot_num 8}}
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, local_slot_num = 9 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 6. An inactive direction given a real buffer instead of the 0 placeholder.
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
    // expected-error@+1 {{'pto.aiv_initialize_pipe' v2c operand must be the `arith.constant 0 : i32` placeholder: dir_mask 1 leaves V2C inactive}}
    pto.aiv_initialize_pipe %rb, %rb {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 7. An active direction given the 0 placeholder.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    // expected-error@+1 {{'pto.aic_initialize_pipe' c2v operand must be the result of 'pto.import_peer_buffer'}}
    pto.aic_initialize_pipe %c0, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 8. Fewer reserve_buffer ops than the initialized directions require.
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
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    // expected-error@+1 {{Function 'f_aiv' has fewer 'pto.reserve_buffer' calls (1) than initialized pipe directions require (2)}}
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64, id = 1 : i64} : i32, i32
    func.return
  }
}

// -----

// 9. More import_peer_buffer ops than the initialized directions require.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    // expected-error@+1 {{Function 'f_aic' has more 'pto.import_peer_buffer' calls (2) than initialized pipe directions require (1)}}
    %ib2 = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
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
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 10. A cross-core tile of non-static size.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %t = pto.create : !pto.tile<?x64xf32, acc>
    // expected-error@+1 {{AIC function 'f_aic' uses cross-core tile ops with non-static tile size; auto pipe setup requires statically known tile shapes}}
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<?x64xf32, acc>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 11. The pipe is initialized only after the first cross-core op (setup must dominate).
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
    // expected-error@+1 {{AIV function 'f_aiv' uses cross-core tile ops but has no 'pto.aiv_initialize_pipe' call before them}}
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 12. A cross-core op on a pipe id no initializer sets up.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xf32, acc>
    // expected-error@+1 {{AIC function 'f_aic' uses pipe id 3 but no 'pto.aic_initialize_pipe' with id 3 comes before it}}
    pto.tpush_to_aiv %t {split = 0 : i64, id = 3 : i64} : !pto.tile<16x64xf32, acc>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// A valid hand-written V2C pair: no error.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @g_aic() attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "g_v2c", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x64xbf16, mat>
    pto.tfree_to_aiv %p : !pto.tile<16x64xbf16, mat>
    func.return
  }
  func.func @g_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %ib = pto.import_peer_buffer {name = "g_v2c", peer_func = @g_aic} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xbf16, vec, blayout = col_major, slayout = row_major>
    pto.tpush_to_aic %t {split = 0 : i64} : !pto.tile<16x64xbf16, vec, blayout = col_major, slayout = row_major>
    func.return
  }
}

// -----

// 13. A V2C pop in an AIC function whose setup has no reserve_buffer.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    // expected-error@+1 {{AIC function 'f_aic' uses V2C cross-core ops but has no 'pto.reserve_buffer' before them}}
    %q = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x64xbf16, mat>
    pto.tfree_to_aiv %q : !pto.tile<16x64xbf16, mat>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 14. A V2C push in an AIV function whose setup has no import_peer_buffer.
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
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    %n = pto.create : !pto.tile<16x64xbf16, vec, blayout = col_major, slayout = row_major>
    // expected-error@+1 {{AIV function 'f_aiv' uses V2C cross-core ops but has no 'pto.import_peer_buffer' before them}}
    pto.tpush_to_aic %n {split = 0 : i64} : !pto.tile<16x64xbf16, vec, blayout = col_major, slayout = row_major>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 14b. A direction the op's pipe does not enable (its V2C buffer belongs to pipe 1, the pop uses pipe 0).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %rb1 = pto.reserve_buffer {name = "f_v2c", size = 8192 : i64, base = -1 : i64} : i32
    pto.aic_initialize_pipe %c0, %rb1 {dir_mask = 2 : i64, slot_size = 4096 : i64, slot_num = 2 : i64, id = 1 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    // expected-error@+1 {{AIC function 'f_aic' uses V2C cross-core ops but its 'pto.aic_initialize_pipe' at}}
    %q = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<16x64xbf16, mat>
    pto.tfree_to_aiv %q : !pto.tile<16x64xbf16, mat>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 15. A tile larger than the slot.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x128xf32, acc>
    // expected-error@+1 {{'pto.tpush_to_aiv' moves a tile of 8192 bytes, which does not fit the pipe's slot_size 4096}}
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 16. A tfree of a slot already released (double free).
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
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    // expected-error@+1 {{'pto.tfree_to_aic' without a matching outstanding tpop on the same tile value in this block}}
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 17. A tfree of the wrong kind for the pop.
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
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    // expected-error@+1 {{must be matched with 'pto.tfree_to_aic' on the same tile value, not 'pto.tfree_to_aiv'}}
    pto.tfree_to_aiv %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 18. A popped tile read after its slot was released.
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
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %s = pto.reshape %p : !pto.tile<16x64xf32, vec> -> !pto.tile<64x16xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    // expected-error@+1 {{'pto.exp' reads a popped tile after its slot was released by 'pto.tfree_to_aic'}}
    %e = pto.exp %s : !pto.tile<64x16xf32, vec>
    func.return
  }
}

// -----

// 19. A pop that is never freed.
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
    // expected-error@+1 {{AIV function 'f_aiv' uses pto.tpop_from_aic but has no matching 'pto.tfree_to_aic' call}}
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 20. More popped slots held at once than the explicit local depth.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64, local_slot_num = 1 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 4096 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64, local_slot_num = 1 : i64} : i32, i32
    %p0 = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    // expected-error@+1 {{AIV function 'f_aiv' holds 2 popped C2V slots at once here, but the local consumer depth is 1 (local_slot_num = 1 on its 'pto.aiv_initialize_pipe')}}
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p0 : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 21. An import whose peer function does not exist.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    // expected-error@+1 {{'pto.import_peer_buffer' peer_func @f_vec does not exist}}
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_vec} : i32
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
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 22. An import of a buffer the peer does not reserve.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    // expected-error@+1 {{'pto.import_peer_buffer' imports 'f_c2v_typo', but @f_aiv has no 'pto.reserve_buffer' named 'f_c2v_typo'}}
    %ib = pto.import_peer_buffer {name = "f_c2v_typo", peer_func = @f_aiv} : i32
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
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 23. Peer initializers that disagree.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "f_c2v", peer_func = @f_aiv} : i32
    %c0 = arith.constant 0 : i32
    // expected-error@+1 {{'pto.aic_initialize_pipe' disagrees with its peer 'pto.aiv_initialize_pipe' in @f_aiv on slot_num (4 here, 2 there)}}
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 4 : i64} : i32, i32
    %t = pto.create : !pto.tile<16x64xf32, acc>
    pto.tpush_to_aiv %t {split = 0 : i64} : !pto.tile<16x64xf32, acc>
    func.return
  }
  func.func @f_aiv() attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "f_c2v", size = 8192 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 24. A reserve smaller than slot_size x depth.
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
    // expected-error@+1 {{'pto.reserve_buffer' 'f_c2v' holds 4096 bytes, but its pipe needs slot_size x depth = 4096 x 2 = 8192 bytes}}
    %rb = pto.reserve_buffer {name = "f_c2v", size = 4096 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 4096 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    func.return
  }
}

// -----

// 25. A tfree inside a nested block for a pop of the outer block (pairs are matched per block).
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
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x64xf32, vec>
    %e = pto.exp %p : !pto.tile<16x64xf32, vec>
    %one = arith.constant 1 : index
    scf.for %i = %one to %one step %one {
      // expected-error@+1 {{'pto.tfree_to_aic' without a matching outstanding tpop on the same tile value in this block}}
      pto.tfree_to_aic %p : !pto.tile<16x64xf32, vec>
    }
    func.return
  }
}
