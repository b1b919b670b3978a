// RUN: pypto-opt %s | filecheck %s
// RUN: pypto-opt %s | pypto-opt | filecheck %s

// The canonical printer leaves out view fields equal to the memory space's implicit view.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @implicit_views
  func.func @implicit_views(%a: !pto.tile<16x128xbf16, mat, blayout = col_major, slayout = row_major>,
                            %b: !pto.tile<16x128xf32, vec, blayout = col_major>) {
    // CHECK-SAME: %a: !pto.tile<16x128xbf16, mat>
    // CHECK-SAME: %b: !pto.tile<16x128xf32, vec, blayout = col_major>
    func.return
  }
}
