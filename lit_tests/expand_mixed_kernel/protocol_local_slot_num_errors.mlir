// RUN: pypto-opt %s --split-input-file --verify-diagnostics --expand-mixed-kernel

// Rejections of `pto.local_slot_num`: on a5 (whatever its value), above slot_num, and a schedule in which a
// side holds more popped slots at once than the local depth (the pass does not reorder consumers).

builtin.module attributes {pto.target = #pto.target<a5>} {
  // expected-error@+1 {{'pto.local_slot_num' on @on_a5 is not supported on a5}}
  func.func @on_a5(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                   %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.slot_num = 2 : i64, pto.local_slot_num = 2 : i64} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %z_vec = pto.move %z : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %z_vec, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
}

// -----

builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // expected-error@+1 {{'pto.local_slot_num' of @too_deep is 3, more than its slot_num 2}}
  func.func @too_deep(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                      %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.local_slot_num = 3 : i64} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %z_vec = pto.move %z : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %z_vec, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
}

// -----

// Two C2V tiles are consumed together, so the AIV holds two slots at once: a local depth of 1 cannot work.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @two_live(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>,
                      %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.slot_num = 2 : i64, pto.local_slot_num = 1 : i64} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %z = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %z2 = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %a = pto.move %z : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    // expected-error@+1 {{AIV function 'two_live_aiv' holds 2 popped C2V slots at once here, but the local consumer depth is 1}}
    %b = pto.move %z2 : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s = pto.add %a, %b : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %s, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
}
