// Round trip of the MX matmuls (beyond the contract): matmul_mx, matmul_mx_acc, matmul_mx_bias, with f8E4M3FN
// operands and f8E8M0FNU scales in left_scale / right_scale.

// RUN: pypto-opt %s | filecheck %s
// RUN: pypto-opt %s | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | pypto-opt | filecheck %s
// RUN: pypto-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

builtin.module attributes {pto.target = #pto.target<a5>} {
  // CHECK-LABEL: func.func @mx
  // CHECK:      %c = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<16x64xf8E4M3FN, left>, !pto.tile<16x2xf8E8M0FNU, left_scale>, !pto.tile<64x32xf8E4M3FN, right>, !pto.tile<2x32xf8E8M0FNU, right_scale> -> !pto.tile<16x32xf32, acc>
  // CHECK-NEXT: %c2 = pto.matmul_mx_acc %c, %l, %ls, %r, %rs : !pto.tile<16x32xf32, acc>, !pto.tile<16x64xf8E4M3FN, left>, !pto.tile<16x2xf8E8M0FNU, left_scale>, !pto.tile<64x32xf8E4M3FN, right>, !pto.tile<2x32xf8E8M0FNU, right_scale> -> !pto.tile<16x32xf32, acc>
  // CHECK-NEXT: %c3 = pto.matmul_mx_bias %l, %ls, %r, %rs, %b : !pto.tile<16x64xf8E4M3FN, left>, !pto.tile<16x2xf8E8M0FNU, left_scale>, !pto.tile<64x32xf8E4M3FN, right>, !pto.tile<2x32xf8E8M0FNU, right_scale>, !pto.tile<1x32xf32, bias> -> !pto.tile<16x32xf32, acc>
  // GENERIC: "pto.matmul_mx"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!pto.tile<16x64xf8E4M3FN, left>, !pto.tile<16x2xf8E8M0FNU, left_scale>, !pto.tile<64x32xf8E4M3FN, right>, !pto.tile<2x32xf8E8M0FNU, right_scale>) -> !pto.tile<16x32xf32, acc>
  func.func @mx(%l: !pto.tile<16x64xf8E4M3FN, left>, %ls: !pto.tile<16x2xf8E8M0FNU, left_scale>, %r: !pto.tile<64x32xf8E4M3FN, right>, %rs: !pto.tile<2x32xf8E8M0FNU, right_scale>, %b: !pto.tile<1x32xf32, bias>) {
    %c = pto.matmul_mx %l, %ls, %r, %rs : !pto.tile<16x64xf8E4M3FN, left>, !pto.tile<16x2xf8E8M0FNU, left_scale>, !pto.tile<64x32xf8E4M3FN, right>, !pto.tile<2x32xf8E8M0FNU, right_scale> -> !pto.tile<16x32xf32, acc>
    %c2 = pto.matmul_mx_acc %c, %l, %ls, %r, %rs : !pto.tile<16x32xf32, acc>, !pto.tile<16x64xf8E4M3FN, left>, !pto.tile<16x2xf8E8M0FNU, left_scale>, !pto.tile<64x32xf8E4M3FN, right>, !pto.tile<2x32xf8E8M0FNU, right_scale> -> !pto.tile<16x32xf32, acc>
    %c3 = pto.matmul_mx_bias %l, %ls, %r, %rs, %b : !pto.tile<16x64xf8E4M3FN, left>, !pto.tile<16x2xf8E8M0FNU, left_scale>, !pto.tile<64x32xf8E4M3FN, right>, !pto.tile<2x32xf8E8M0FNU, right_scale>, !pto.tile<1x32xf32, bias> -> !pto.tile<16x32xf32, acc>
    func.return
  }
}
