// RUN: pypto-opt %s --split-input-file --verify-diagnostics --expand-mixed-kernel

// Hand-written MX scale pushes that AdaptManualVtoCPush cannot plan (a5): each is a located error at the push,
// never a guessed layout -- a missing peer (the V2C buffer is no import; the import names no AIC function; the
// AIC reserves no such ring), a non-unique initializer, a push/pop count mismatch, a split mismatch, a split
// through the scale-group axis, a push that is not the popped scale, and a slot too small for the carrier.
// The V2C buffer is not an import: no way to the consumer.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @k_aic() attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "k_v2c", size = 256 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    pto.tfree_to_aiv %p : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    func.return
  }
  func.func @k_aiv(%s8: !pto.tile<32x4xf8E8M0FNU, vec>) attributes {pto.kind = #pto.kind<aiv>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    pto.aiv_initialize_pipe %c0, %c1 {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    // expected-error@+1 {{is not a pto.import_peer_buffer, so the AIC function that pops it cannot be found}}
    pto.tpush_to_aic %s8 {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec>
    func.return
  }
}

// -----

// The import names a function that does not exist.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @k_aic() attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "k_v2c", size = 256 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    pto.tfree_to_aiv %p : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    func.return
  }
  func.func @k_aiv(%s8: !pto.tile<32x4xf8E8M0FNU, vec>) attributes {pto.kind = #pto.kind<aiv>} {
    %ib = pto.import_peer_buffer {name = "k_v2c", peer_func = @nowhere} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    // expected-error@+1 {{but the peer of V2C pipe 0 (peer_func @nowhere of the pto.import_peer_buffer at}}
    pto.tpush_to_aic %s8 {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec>
    func.return
  }
}

// -----

// The peer reserves no ring of that name.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @k_aic() attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "other", size = 256 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    pto.tfree_to_aiv %p : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    func.return
  }
  func.func @k_aiv(%s8: !pto.tile<32x4xf8E8M0FNU, vec>) attributes {pto.kind = #pto.kind<aiv>} {
    %ib = pto.import_peer_buffer {name = "k_v2c", peer_func = @k_aic} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    // expected-error@+1 {{this MX scale push needs a pto.reserve_buffer named 'k_v2c' in its peer, but @k_aic has none; reserve the V2C ring 'k_v2c' in @k_aic}}
    pto.tpush_to_aic %s8 {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec>
    func.return
  }
}

// -----

// Two AIV initializers of pipe 0.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @k_aic() attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "k_v2c", size = 256 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    pto.tfree_to_aiv %p : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    func.return
  }
  func.func @k_aiv(%s8: !pto.tile<32x4xf8E8M0FNU, vec>) attributes {pto.kind = #pto.kind<aiv>} {
    %ib = pto.import_peer_buffer {name = "k_v2c", peer_func = @k_aic} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    // expected-error@+1 {{this MX scale push needs exactly one pto.aiv_initialize_pipe of V2C pipe 0, but @k_aiv has 2}}
    pto.tpush_to_aic %s8 {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec>
    func.return
  }
}

// -----

// Two pushes on the pipe, one pop.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @k_aic() attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "k_v2c", size = 256 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    pto.tfree_to_aiv %p : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    func.return
  }
  func.func @k_aiv(%s8: !pto.tile<32x4xf8E8M0FNU, vec>) attributes {pto.kind = #pto.kind<aiv>} {
    %ib = pto.import_peer_buffer {name = "k_v2c", peer_func = @k_aic} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    // expected-error@+1 {{V2C pipe 0 has 2 pto.tpush_to_aic in @k_aiv but 1 pto.tpop_from_aiv in @k_aic; pushes and pops pair up in order}}
    pto.tpush_to_aic %s8 {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec>
    pto.tpush_to_aic %s8 {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec>
    func.return
  }
}

// -----

// The push carries split 1, its pop split 0.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @k_aic() attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "k_v2c", size = 256 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    pto.tfree_to_aiv %p : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    func.return
  }
  func.func @k_aiv(%a8: !pto.tile<16x4xf8E8M0FNU, vec>) attributes {pto.kind = #pto.kind<aiv>} {
    %ib = pto.import_peer_buffer {name = "k_v2c", peer_func = @k_aic} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    // expected-error@+1 {{this MX scale push carries split = 1 (up_down) but its consumer, the pto.tpop_from_aiv at}}
    pto.tpush_to_aic %a8 {split = 1 : i64} : !pto.tile<16x4xf8E8M0FNU, vec>
    func.return
  }
}

// -----

// split = 2 on a row/row scale cuts its scale groups.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @k_aic() attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "k_v2c", size = 256 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aiv {split = 2 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    pto.tfree_to_aiv %p : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    func.return
  }
  func.func @k_aiv(%a8: !pto.tile<32x2xf8E8M0FNU, vec>) attributes {pto.kind = #pto.kind<aiv>} {
    %ib = pto.import_peer_buffer {name = "k_v2c", peer_func = @k_aic} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    // expected-error@+1 {{this MX scale push carries split = 2 (left_right); the FIFO holds the row/row carrier, and for a row/row scale that split cuts the logical scale along its scale-group axis (dim 1)}}
    pto.tpush_to_aic %a8 {split = 2 : i64} : !pto.tile<32x2xf8E8M0FNU, vec>
    func.return
  }
}

// -----

// The push sends a 16x4 tile, the pop takes a 32x4 scale.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @k_aic() attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "k_v2c", size = 256 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    pto.tfree_to_aiv %p : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    func.return
  }
  func.func @k_aiv(%a8: !pto.tile<16x4xf8E8M0FNU, vec>) attributes {pto.kind = #pto.kind<aiv>} {
    %ib = pto.import_peer_buffer {name = "k_v2c", peer_func = @k_aic} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 128 : i64, slot_num = 2 : i64} : i32, i32
    // expected-error@+1 {{this push sends !pto.tile<16x4xf8E8M0FNU, vec>, but its consumer, the pto.tpop_from_aiv at}}
    pto.tpush_to_aic %a8 {split = 0 : i64} : !pto.tile<16x4xf8E8M0FNU, vec>
    func.return
  }
}

// -----

// The 128-byte carrier does not fit a 64-byte slot.
builtin.module attributes {pto.target = #pto.target<a5>} {
  func.func @k_aic() attributes {pto.kind = #pto.kind<aic>} {
    %rb = pto.reserve_buffer {name = "k_v2c", size = 256 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %c0, %rb {dir_mask = 2 : i64, slot_size = 64 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aiv {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    pto.tfree_to_aiv %p : !pto.tile<32x4xf8E8M0FNU, mat, blayout = row_major, fractal = 32>
    func.return
  }
  func.func @k_aiv(%s8: !pto.tile<32x4xf8E8M0FNU, vec>) attributes {pto.kind = #pto.kind<aiv>} {
    %ib = pto.import_peer_buffer {name = "k_v2c", peer_func = @k_aic} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %c0, %ib {dir_mask = 2 : i64, slot_size = 64 : i64, slot_num = 2 : i64} : i32, i32
    // expected-error@+1 {{is 128 bytes, but V2C pipe 0 has slot_size = 64; raise the slot_size of both initialize_pipe ops}}
    pto.tpush_to_aic %s8 {split = 0 : i64} : !pto.tile<32x4xf8E8M0FNU, vec>
    func.return
  }
}
