// verify-budget (on by default after --expand-mixed-kernel) rejects kernels whose AIC or AIV half does not fit
// its core's memories: each error names the space, the core, the peak, the capacity, the buffers live at the
// peak (notes, largest first) and a fix. Both targets: a2a3 (UB 192 KiB, L0C 128 KiB) and a5 (UB 256 KiB,
// L0C 256 KiB). The fixed kernels compile in budget_fixes.mlir.
// RUN: not pypto-opt %s --split-input-file --expand-mixed-kernel 2>&1 | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | not pypto-opt --split-input-file --expand-mixed-kernel 2>&1 | filecheck %s --check-prefixes=CHECK,A5
// The check runs as its own pass too, and --no-verify-budget turns the default one off.
// RUN: pypto-opt %s --split-input-file --expand-mixed-kernel --no-verify-budget | filecheck %s --check-prefix=OFF
// RUN: not pypto-opt %s --split-input-file --expand-mixed-kernel --no-verify-budget --verify-budget 2>&1 | filecheck %s --check-prefixes=CHECK,A2A3

// A 512x256 f32 accumulator (512 KiB) pushed to the vector side: over L0C on the AIC, and its 2-slot C->V ring
// (2 x 512 KiB = 1 MiB, reserved in the AIV's UB) is over UB; no ring depth can fit a 512 KiB slot.
// CHECK: :[[# @LINE + 17]]:5: error: @big_aic is over its memory budget: acc (L0C) of the AIC core needs 524288 bytes (512 KiB) at its peak (524288 bytes of live tiles),
// A2A3-SAME: more than the 131072 bytes (128 KiB) it has on a2a3; use smaller tiles
// A5-SAME: more than the 262144 bytes (256 KiB) it has on a5; use smaller tiles
// CHECK: :[[# @LINE + 14]]:5: note: %acc (!pto.tile<512x256xf32, acc>): 524288 bytes, live at the peak
// CHECK: note: also over budget: @big_aiv is over its memory budget: vec (UB) of the AIV core needs 1572864 bytes (1536 KiB) at its peak (524288 bytes of live tiles + 1048576 bytes of pipe ring)
// A2A3-SAME: more than the 196608 bytes (192 KiB) it has on a2a3; use smaller tiles: even a one-slot ring (524288 bytes, pto.slot_num / pto.local_slot_num = 1 on @big) does not fit
// A5-SAME: more than the 262144 bytes (256 KiB) it has on a5; use smaller tiles: even a one-slot ring (524288 bytes, pto.slot_num = 1 on @big) does not fit
// OFF-LABEL: func.func @big_aiv
// OFF: pto.reserve_buffer {name = "big_c2v_slot_buffer", size = 1048576 : i64, base = -1 : i64}
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @big(%a: !pto.tensor<512x64xbf16>, %b: !pto.tensor<64x256xbf16>,
                 %out: !pto.tensor<512x256xf32> {pto.out}) -> !pto.tensor<512x256xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<512x64xbf16> -> !pto.tile<512x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x256xbf16> -> !pto.tile<64x256xbf16, mat>
    %a_left = pto.move %a_mat : !pto.tile<512x64xbf16, mat> -> !pto.tile<512x64xbf16, left>
    %b_right = pto.move %b_mat : !pto.tile<64x256xbf16, mat> -> !pto.tile<64x256xbf16, right>
    %acc = pto.matmul %a_left, %b_right : !pto.tile<512x64xbf16, left>, !pto.tile<64x256xbf16, right> -> !pto.tile<512x256xf32, acc>
    %v = pto.move %acc : !pto.tile<512x256xf32, acc> -> !pto.tile<512x256xf32, vec>
    %r = pto.relu %v : !pto.tile<512x256xf32, vec>
    %o = pto.store %r, %out[0, 0] : !pto.tile<512x256xf32, vec>, !pto.tensor<512x256xf32>
    func.return %o : !pto.tensor<512x256xf32>
  }
}

// -----

// A 64 KiB accumulator fits L0C, but pto.slot_num = 4 reserves a 4 x 64 KiB ring in UB; with the 64 KiB relu
// result live at once that is 320 KiB. The hint says which depth fits.
// CHECK: :[[# @LINE + 15]]:5: error: @deep_aiv is over its memory budget: vec (UB) of the AIV core needs 327680 bytes (320 KiB) at its peak (65536 bytes of live tiles + 262144 bytes of pipe ring)
// A2A3-SAME: more than the 196608 bytes (192 KiB) it has on a2a3; use smaller tiles, or a shallower ring: the ring holds 4 slots of 65536 bytes, and pto.slot_num = 2 (or pto.local_slot_num = 2, which shrinks only the on-chip ring and keeps the GM ring at slot_num) on @deep would fit
// A5-SAME: more than the 262144 bytes (256 KiB) it has on a5; use smaller tiles, or a shallower ring: the ring holds 4 slots of 65536 bytes, and pto.slot_num = 3 on @deep would fit
// CHECK: note: ring "deep_c2v_slot_buffer": 262144 bytes, reserved for the whole function (the pipe's slot ring)
// CHECK: :[[# @LINE + 11]]:5: note: %r (!pto.tile<64x256xf32, vec>): 65536 bytes, live at the peak
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @deep(%a: !pto.tensor<64x64xbf16>, %b: !pto.tensor<64x256xbf16>,
                  %out: !pto.tensor<64x256xf32> {pto.out}) -> !pto.tensor<64x256xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.slot_num = 4 : i64} {
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

// L0C by tiles alone (a cube-only kernel, no pipe): three 128 KiB accumulators live at once.
// CHECK: :[[# @LINE + 14]]:5: error: @three_acc is over its memory budget: acc (L0C) of the AIC core needs 393216 bytes (384 KiB) at its peak (393216 bytes of live tiles)
// CHECK-SAME: ; use smaller tiles (fewer or smaller tiles live at once in acc (L0C))
// CHECK: :[[# @LINE + 10]]:5: note: %a1 (!pto.tile<128x256xf32, acc>): 131072 bytes, live at the peak
// CHECK: :[[# @LINE + 10]]:5: note: %a2 (!pto.tile<128x256xf32, acc>): 131072 bytes, live at the peak
// CHECK: :[[# @LINE + 10]]:5: note: %a3 (!pto.tile<128x256xf32, acc>): 131072 bytes, live at the peak
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @three_acc(%a: !pto.tensor<128x64xbf16>, %b: !pto.tensor<64x256xbf16>, %out: !pto.tensor<384x256xf32> {pto.out})
      -> !pto.tensor<384x256xf32> attributes {pto.kind = #pto.kind<incore>} {
    %a_mat = pto.load %a[0, 0] : !pto.tensor<128x64xbf16> -> !pto.tile<128x64xbf16, mat>
    %b_mat = pto.load %b[0, 0] : !pto.tensor<64x256xbf16> -> !pto.tile<64x256xbf16, mat>
    %a_left = pto.move %a_mat : !pto.tile<128x64xbf16, mat> -> !pto.tile<128x64xbf16, left>
    %b_right = pto.move %b_mat : !pto.tile<64x256xbf16, mat> -> !pto.tile<64x256xbf16, right>
    %a1 = pto.matmul %a_left, %b_right : !pto.tile<128x64xbf16, left>, !pto.tile<64x256xbf16, right> -> !pto.tile<128x256xf32, acc>
    %a2 = pto.matmul %a_left, %b_right : !pto.tile<128x64xbf16, left>, !pto.tile<64x256xbf16, right> -> !pto.tile<128x256xf32, acc>
    %a3 = pto.matmul %a_left, %b_right : !pto.tile<128x64xbf16, left>, !pto.tile<64x256xbf16, right> -> !pto.tile<128x256xf32, acc>
    %o1 = pto.store %a1, %out[0, 0] : !pto.tile<128x256xf32, acc>, !pto.tensor<384x256xf32>
    %o2 = pto.store %a2, %o1[128, 0] : !pto.tile<128x256xf32, acc>, !pto.tensor<384x256xf32>
    %o3 = pto.store %a3, %o2[256, 0] : !pto.tile<128x256xf32, acc>, !pto.tensor<384x256xf32>
    func.return %o3 : !pto.tensor<384x256xf32>
  }
}

// -----

// UB by tiles alone (a vector-only kernel): %x, %y and %z (128 KiB each) are live at the add.
// CHECK: :[[# @LINE + 10]]:5: error: @wide_vec is over its memory budget: vec (UB) of the AIV core needs 393216 bytes (384 KiB) at its peak (393216 bytes of live tiles)
// CHECK-SAME: ; use smaller tiles (fewer or smaller tiles live at once in vec (UB))
// CHECK: note: %x (!pto.tile<256x128xf32, vec>): 131072 bytes, live at the peak
// CHECK: note: %y (!pto.tile<256x128xf32, vec>): 131072 bytes, live at the peak
// CHECK: note: %z (!pto.tile<256x128xf32, vec>): 131072 bytes, live at the peak
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @wide_vec(%in: !pto.tensor<256x128xf32>, %out: !pto.tensor<256x128xf32> {pto.out}) -> !pto.tensor<256x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %x = pto.load %in[0, 0] : !pto.tensor<256x128xf32> -> !pto.tile<256x128xf32, vec>
    %y = pto.exp %x : !pto.tile<256x128xf32, vec>
    %z = pto.add %x, %y : !pto.tile<256x128xf32, vec>
    %o = pto.store %z, %out[0, 0] : !pto.tile<256x128xf32, vec>, !pto.tensor<256x128xf32>
    func.return %o : !pto.tensor<256x128xf32>
  }
}
