// RUN: not pypto-run %s --check-pipeline expand-mixed-kernel 2>&1 | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | not pypto-run - --check-pipeline expand-mixed-kernel 2>&1 | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-run %s --quiet --check-pipeline expand-mixed-kernel --no-verify-budget

// `pypto-run --check-pipeline` runs the memory budget check pypto-opt runs after expand-mixed-kernel
// (docs/memory-budget.md), so a kernel pypto-opt rejects as over budget does not "pass" the check; as with
// pypto-opt, --no-verify-budget turns it off (the interpreter has no memory limits, so the check then passes).
// The kernel is lit_tests/verify_budget/budget_errors.mlir's first: a 512 KiB accumulator.
// CHECK:      check of pipeline 'expand-mixed-kernel' FAILED (pass)
// CHECK-NEXT: the pipeline rejects the program:
// CHECK-NEXT: {{.*}}:[[# @LINE + 11]]:5: error: @big_aic is over its memory budget: acc (L0C) of the AIC core needs 524288 bytes (512 KiB) at its peak
// A2A3-SAME:  more than the 131072 bytes (128 KiB) it has on a2a3
// A5-SAME:    more than the 262144 bytes (256 KiB) it has on a5
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
