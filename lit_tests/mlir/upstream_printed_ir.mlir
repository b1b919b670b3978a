// RUN: not pypto-opt %s --split-input-file --mlir-print-debuginfo 2>/dev/null | filecheck %s
// RUN: not pypto-opt %s --split-input-file -o /dev/null 2>&1 | filecheck %s --check-prefix=ERR

// IR exactly as upstream `mlir-opt --allow-unregistered-dialect --mlir-print-debuginfo` prints a `pto` module
// (captured from MLIR 22, so this test runs without the `mlir` extra): `builtin.module` elided, `%0`/`%arg0`
// names, attributes sorted, `pto` ops in generic form, and locations as `#loc` aliases defined *after* the
// module. pypto-opt reads it, resolves the aliases and keeps every location.

#loc2 = loc(unknown)
module attributes {pto.target = #pto.target<a5>} {
  func.func @compute_incore_0(%arg0: !pto.tensor<16x128xbf16> loc(unknown), %arg1: !pto.tensor<128x128xbf16> loc(unknown), %arg2: !pto.tensor<16x128xf32> {pto.out} loc(unknown)) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<incore>} {
    %0 = "pto.load"(%arg0) {operandSegmentSizes = array<i32: 1, 0, 0>, static_offsets = array<i64: 0, 0>} : (!pto.tensor<16x128xbf16>) -> !pto.tile<16x128xbf16, mat> loc(#loc3)
    %1 = "pto.load"(%arg1) {operandSegmentSizes = array<i32: 1, 0, 0>, static_offsets = array<i64: 0, 0>} : (!pto.tensor<128x128xbf16>) -> !pto.tile<128x128xbf16, mat> loc(#loc4)
    %2 = "pto.move"(%0) : (!pto.tile<16x128xbf16, mat>) -> !pto.tile<16x128xbf16, left> loc(#loc5)
    %3 = "pto.move"(%1) : (!pto.tile<128x128xbf16, mat>) -> !pto.tile<128x128xbf16, right> loc(#loc6)
    %4 = "pto.matmul"(%2, %3) : (!pto.tile<16x128xbf16, left>, !pto.tile<128x128xbf16, right>) -> !pto.tile<16x128xf32, acc> loc(#loc7)
    %5 = "pto.move"(%4) : (!pto.tile<16x128xf32, acc>) -> !pto.tile<16x128xf32, vec> loc(#loc8)
    %6 = "pto.store"(%5, %arg2) {operandSegmentSizes = array<i32: 1, 1, 0>, static_offsets = array<i64: 0, 0>} : (!pto.tile<16x128xf32, vec>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> loc(#loc9)
    return %6 : !pto.tensor<16x128xf32> loc(#loc10)
  } loc(#loc1)
  func.func @main(%arg0: !pto.tensor<16x128xbf16> loc(unknown), %arg1: !pto.tensor<128x128xbf16> loc(unknown)) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %0 = "pto.create_tensor"() : () -> !pto.tensor<16x128xf32> loc(#loc12)
    %1 = call @compute_incore_0(%arg0, %arg1, %0) : (!pto.tensor<16x128xbf16>, !pto.tensor<128x128xbf16>, !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> loc(#loc13)
    return %1 : !pto.tensor<16x128xf32> loc(#loc14)
  } loc(#loc11)
} loc(#loc)
#loc = loc("seed_example1.a5.mlir":3:1)
#loc1 = loc("seed_example1.a5.mlir":4:3)
#loc3 = loc("seed_example1.a5.mlir":7:5)
#loc4 = loc("seed_example1.a5.mlir":8:5)
#loc5 = loc("seed_example1.a5.mlir":9:5)
#loc6 = loc("seed_example1.a5.mlir":10:5)
#loc7 = loc("seed_example1.a5.mlir":11:5)
#loc8 = loc("seed_example1.a5.mlir":12:5)
#loc9 = loc("seed_example1.a5.mlir":13:5)
#loc10 = loc("seed_example1.a5.mlir":14:5)
#loc11 = loc("seed_example1.a5.mlir":16:3)
#loc12 = loc("seed_example1.a5.mlir":18:5)
#loc13 = loc("seed_example1.a5.mlir":19:5)
#loc14 = loc("seed_example1.a5.mlir":20:5)

// CHECK:       builtin.module attributes {pto.target = #pto.target<a5>} {
// CHECK-LABEL: func.func @compute_incore_0
// CHECK-SAME:    %arg2: !pto.tensor<16x128xf32> {pto.out}
// CHECK-SAME:    attributes {pto.kind = #pto.kind<incore>}
// CHECK:       %0 = pto.load %arg0[0, 0] : !pto.tensor<16x128xbf16> -> !pto.tile<16x128xbf16, mat> loc("seed_example1.a5.mlir":7:5)
// CHECK:       pto.matmul {{.*}} loc("seed_example1.a5.mlir":11:5)
// CHECK:       %6 = pto.store %5, %arg2[0, 0] : {{.*}} loc("seed_example1.a5.mlir":13:5)
// CHECK:       func.return %6 {{.*}} loc("seed_example1.a5.mlir":14:5)
// CHECK:       } loc("seed_example1.a5.mlir":4:3)
// CHECK-LABEL: func.func @main
// CHECK:       pto.create_tensor : !pto.tensor<16x128xf32> loc("seed_example1.a5.mlir":18:5)
// CHECK:       func.call @compute_incore_0(%arg0, %arg1, %0) {{.*}} loc("seed_example1.a5.mlir":19:5)
// CHECK:       } loc("seed_example1.a5.mlir":3:1)

// -----

// Locations upstream builds when it merges ops (CSE: `fused`, inlining: `callsite`, names: `"name"(..)`),
// as aliases that refer to earlier aliases. The verifier reports an error at the location the alias names,
// i.e. at the op's place in the original source, not in this file.
module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%arg0: !pto.tile<16x128xf32, vec> loc(unknown)) -> !pto.tile<16x128xf32, vec> attributes {pto.kind = #pto.kind<aiv>} {
    %cst = arith.constant 2.000000e+00 : f32 loc(#loc2)
    %0 = "pto.muls"(%arg0, %cst) : (!pto.tile<16x128xf32, vec>, f32) -> !pto.tile<16x128xf32, vec> loc(#loc5)
    %1 = "pto.exp"(%0) : (!pto.tile<16x128xf32, vec>) -> !pto.tile<16x64xf32, vec> loc(#loc7)
    return %0 : !pto.tile<16x128xf32, vec> loc(#loc3)
  } loc(#loc1)
} loc(#loc)
#loc = loc("kernel.py":1:1)
#loc1 = loc("kernel.py":2:1)
#loc2 = loc("kernel.py":3:9)
#loc3 = loc("kernel.py":9:5)
#loc4 = loc("kernel.py":7:5)
#loc5 = loc(fused[#loc2, #loc3])
#loc6 = loc(callsite(#loc4 at #loc2))
#loc7 = loc("e"(#loc6))

// ERR: kernel.py:7:5: error: 'pto.exp' op {{.*}}!pto.tile<16x64xf32, vec>
