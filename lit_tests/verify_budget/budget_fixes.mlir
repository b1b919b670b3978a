// The kernels of budget_errors.mlir, fixed as the hints say, compile with the budget check on (the default after
// --expand-mixed-kernel) on both targets. Shown: the pipe ring each AIV half reserves in UB and the halves' tiles.
// RUN: pypto-opt %s --split-input-file --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --split-input-file --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5

// Smaller tiles: a 128x128 f32 accumulator (64 KiB). The AIV half holds its 2 x 64 KiB ring plus the 64 KiB
// relu result: 192 KiB, exactly the a2a3 UB.
// A2A3: builtin.module attributes {pto.target = #pto.target<a2a3>}
// A5: builtin.module attributes {pto.target = #pto.target<a5>}
// CHECK-LABEL: func.func @small_aic
// CHECK:         %acc = pto.matmul %a_left, %b_right : !pto.tile<128x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<128x128xf32, acc>
// CHECK-NEXT:    pto.tpush_to_aiv %acc {split = 0 : i64} : !pto.tile<128x128xf32, acc>
// CHECK-LABEL: func.func @small_aiv
// CHECK:         %small_c2v_slot_buffer = pto.reserve_buffer {name = "small_c2v_slot_buffer", size = 131072 : i64, base = -1 : i64} : i32
// CHECK:         pto.aiv_initialize_pipe %small_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64, slot_size = 65536 : i64, slot_num = 2 : i64} : i32, i32
// CHECK:         %r = pto.relu %v : !pto.tile<128x128xf32, vec>
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @small(%a: !pto.tensor<128x64xbf16>, %b: !pto.tensor<64x128xbf16>,
                   %out: !pto.tensor<128x128xf32> {pto.out}) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<128x64xbf16> -> !pto.tile<128x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x128xbf16> -> !pto.tile<64x128xbf16, mat>
    %a_left = pto.move %a_mat : !pto.tile<128x64xbf16, mat> -> !pto.tile<128x64xbf16, left>
    %b_right = pto.move %b_mat : !pto.tile<64x128xbf16, mat> -> !pto.tile<64x128xbf16, right>
    %acc = pto.matmul %a_left, %b_right : !pto.tile<128x64xbf16, left>, !pto.tile<64x128xbf16, right> -> !pto.tile<128x128xf32, acc>
    %v = pto.move %acc : !pto.tile<128x128xf32, acc> -> !pto.tile<128x128xf32, vec>
    %r = pto.relu %v : !pto.tile<128x128xf32, vec>
    %o = pto.store %r, %out[0, 0] : !pto.tile<128x128xf32, vec>, !pto.tensor<128x128xf32>
    func.return %o : !pto.tensor<128x128xf32>
  }
}

// -----

// A shallower ring: @deep with pto.slot_num = 2 (the depth the a2a3 hint names; a5 would take 3) reserves
// 2 x 64 KiB; with the 64 KiB relu result that is 192 KiB.
// CHECK-LABEL: func.func @deep_aic
// CHECK:         pto.aic_initialize_pipe %deep_c2v_slot_buffer_import, %c0_i32 {dir_mask = 1 : i64, slot_size = 65536 : i64, slot_num = 2 : i64} : i32, i32
// CHECK-LABEL: func.func @deep_aiv
// CHECK:         %deep_c2v_slot_buffer = pto.reserve_buffer {name = "deep_c2v_slot_buffer", size = 131072 : i64, base = -1 : i64} : i32
// CHECK:         pto.aiv_initialize_pipe %deep_c2v_slot_buffer, %c0_i32 {dir_mask = 1 : i64, slot_size = 65536 : i64, slot_num = 2 : i64} : i32, i32
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @deep(%a: !pto.tensor<64x64xbf16>, %b: !pto.tensor<64x256xbf16>,
                  %out: !pto.tensor<64x256xf32> {pto.out}) -> !pto.tensor<64x256xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.slot_num = 2 : i64} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<64x64xbf16> -> !pto.tile<64x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x256xbf16> -> !pto.tile<64x256xbf16, mat>
    %a_left = pto.move %a_mat : !pto.tile<64x64xbf16, mat> -> !pto.tile<64x64xbf16, left>
    %b_right = pto.move %b_mat : !pto.tile<64x256xbf16, mat> -> !pto.tile<64x256xbf16, right>
    %acc = pto.matmul %a_left, %b_right : !pto.tile<64x64xbf16, left>, !pto.tile<64x256xbf16, right> -> !pto.tile<64x256xf32, acc>
    %v = pto.move %acc : !pto.tile<64x256xf32, acc> -> !pto.tile<64x256xf32, vec>
    %r = pto.relu %v : !pto.tile<64x256xf32, vec>
    %o = pto.store %r, %out[0, 0] : !pto.tile<64x256xf32, vec>, !pto.tensor<64x256xf32>
    func.return %o : !pto.tensor<64x256xf32>
  }
}

// -----

// Fewer tiles live at once: each 128 KiB accumulator is stored before the next is made (peak 128 KiB of L0C).
// CHECK-LABEL: func.func @three_acc
// CHECK:         %a1 = pto.matmul
// CHECK-NEXT:    %o1 = pto.store %a1, %out[0, 0]
// CHECK-NEXT:    %a2 = pto.matmul
// CHECK-NEXT:    %o2 = pto.store %a2, %o1[128, 0]
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @three_acc(%a: !pto.tensor<128x64xbf16>, %b: !pto.tensor<64x256xbf16>, %out: !pto.tensor<384x256xf32> {pto.out})
      -> !pto.tensor<384x256xf32> attributes {pto.kind = #pto.kind<incore>} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<128x64xbf16> -> !pto.tile<128x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x256xbf16> -> !pto.tile<64x256xbf16, mat>
    %a_left = pto.move %a_mat : !pto.tile<128x64xbf16, mat> -> !pto.tile<128x64xbf16, left>
    %b_right = pto.move %b_mat : !pto.tile<64x256xbf16, mat> -> !pto.tile<64x256xbf16, right>
    %a1 = pto.matmul %a_left, %b_right : !pto.tile<128x64xbf16, left>, !pto.tile<64x256xbf16, right> -> !pto.tile<128x256xf32, acc>
    %o1 = pto.store %a1, %out[0, 0] : !pto.tile<128x256xf32, acc>, !pto.tensor<384x256xf32>
    %a2 = pto.matmul %a_left, %b_right : !pto.tile<128x64xbf16, left>, !pto.tile<64x256xbf16, right> -> !pto.tile<128x256xf32, acc>
    %o2 = pto.store %a2, %o1[128, 0] : !pto.tile<128x256xf32, acc>, !pto.tensor<384x256xf32>
    %a3 = pto.matmul %a_left, %b_right : !pto.tile<128x64xbf16, left>, !pto.tile<64x256xbf16, right> -> !pto.tile<128x256xf32, acc>
    %o3 = pto.store %a3, %o2[256, 0] : !pto.tile<128x256xf32, acc>, !pto.tensor<384x256xf32>
    func.return %o3 : !pto.tensor<384x256xf32>
  }
}

// -----

// Smaller tiles: the vector kernel on 128x128 f32 tiles (three 64 KiB tiles live at the add: 192 KiB).
// CHECK-LABEL: func.func @wide_vec
// CHECK:         %z = pto.add %x, %y : !pto.tile<128x128xf32, vec>
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @wide_vec(%in: !pto.tensor<128x128xf32>, %out: !pto.tensor<128x128xf32> {pto.out}) -> !pto.tensor<128x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x = pto.load %in[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, vec>
    %y = pto.exp %x : !pto.tile<128x128xf32, vec>
    %z = pto.add %x, %y : !pto.tile<128x128xf32, vec>
    %o = pto.store %z, %out[0, 0] : !pto.tile<128x128xf32, vec>, !pto.tensor<128x128xf32>
    func.return %o : !pto.tensor<128x128xf32>
  }
}
