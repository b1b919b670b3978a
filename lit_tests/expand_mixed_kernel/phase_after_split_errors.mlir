// RUN: pypto-opt %s --verify-diagnostics --insert-tfree
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --verify-diagnostics --insert-tfree
// RUN: pypto-opt %s --verify-diagnostics --setup-pipes
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --verify-diagnostics --setup-pipes
// RUN: pypto-opt %s --verify-diagnostics --normalize-group-abi
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --verify-diagnostics --normalize-group-abi
// RUN: pypto-opt %s --verify-diagnostics --adapt-manual-pushes
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --verify-diagnostics --adapt-manual-pushes
// RUN: pypto-opt %s --verify-diagnostics --choose-ring-depth
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --verify-diagnostics --choose-ring-depth
// RUN: not pypto-opt %s --setup-pipes 2>&1 | filecheck %s

// The phases after split-mixed-kernel work on the AIC / AIV kernels it makes. Run alone on a module that still
// has an incore kernel (here the fenced mixed kernel insert-gm-fences leaves), each says so at the kernel and
// names the passes to run first; the message is the same but for the phase's name (the last RUN line shows it
// in full for setup-pipes). The same on both targets.
// CHECK: :[[# @LINE + 3]]:3: error: setup-pipes: '@k' is still an incore kernel, but this phase works on the AIC / AIV kernels that split-mixed-kernel makes of it; run --split-mixed-kernel (after --insert-gm-fences) before --setup-pipes, or run the whole --expand-mixed-kernel
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // expected-error@+1 {{is still an incore kernel, but this phase works on the AIC / AIV kernels that split-mixed-kernel makes of it; run --split-mixed-kernel (after --insert-gm-fences) before}}
  func.func @k(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32> {pto.inout}, %out: !pto.tensor<16x128xf32> {pto.out}) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<incore>} {
    %x_mat = pto.load %x[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat>
    %x_left = pto.move %x_mat : !pto.tile<16x128xbf16, mat> -> !pto.tile<16x128xbf16, left>
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %y = pto.matmul %x_left, %w_right : !pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<16x128xf32, acc>
    %ws_1 = pto.store %y, %ws[0, 0] : !pto.tile<16x128xf32, acc>, !pto.tensor<16x128xf32>
    pto.tpush_to_aiv %y {split = 0 : i64} : !pto.tile<16x128xf32, acc>
    %ws_gm_sync = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x128xf32, vec>
    %v = pto.load %ws_1[0, 0] : !pto.tensor<16x128xf32> -> !pto.tile<16x128xf32, vec>
    %y_vec = pto.move %y : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec>
    %s = pto.add %v, %y_vec : !pto.tile<16x128xf32, vec>
    %out_1 = pto.store %s, %out[0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>
    func.return %out_1 : !pto.tensor<16x128xf32>
  }
  func.func @main(%x: !pto.tensor<16x128xbf16>, %w: !pto.tensor<128x128xbf16>, %ws: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %out = pto.create_tensor : !pto.tensor<16x128xf32>
    %r = func.call @k(%x, %w, %ws, %out) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32>
    func.return %r : !pto.tensor<16x128xf32>
  }
}
