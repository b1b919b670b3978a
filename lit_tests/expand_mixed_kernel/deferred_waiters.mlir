// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s
// RUN: pypto-run --quiet --check-pipeline expand-mixed-kernel %s
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline expand-mixed-kernel -

// The deferred-waiter audit accepts a pto.defer_wait in a single-block pure-vector task launched directly by the
// orchestration code: the kernel becomes an AIV kernel, the wait stays at its entry (both targets). The program
// runs before and after the pass (the orchestration code signals first).
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // CHECK-LABEL: func.func @waiter
  // CHECK-SAME:  pto.kind = #pto.kind<aiv>
  // CHECK-NEXT:  pto.defer_wait %sig[0] {value = 1 : i64} : !pto.tensor<2xi32>
  // CHECK-NEXT:  %t = pto.load %x[0, 0]
  func.func @waiter(%sig: !pto.tensor<2xi32>, %x: !pto.tensor<8x16xf32>, %o: !pto.tensor<8x16xf32> {pto.out}) -> !pto.tensor<8x16xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    pto.defer_wait %sig[0] {value = 1 : i64} : !pto.tensor<2xi32>
    %t = pto.load %x[0, 0] : !pto.tensor<8x16xf32> -> !pto.tile<8x16xf32, vec>
    %e = pto.exp %t : !pto.tile<8x16xf32, vec>
    %o2 = pto.store %e, %o[0, 0] : !pto.tile<8x16xf32, vec>, !pto.tensor<8x16xf32>
    func.return %o2 : !pto.tensor<8x16xf32>
  }
  func.func @main(%x: !pto.tensor<8x16xf32>) -> !pto.tensor<8x16xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %sig = pto.create_tensor : !pto.tensor<2xi32>
    %o = pto.create_tensor : !pto.tensor<8x16xf32>
    %peer = arith.constant 0 : index
    pto.notify %sig[0] to %peer : !pto.tensor<2xi32>
    %r = func.call @waiter(%sig, %x, %o) : (!pto.tensor<2xi32>, !pto.tensor<8x16xf32>, !pto.tensor<8x16xf32>) -> !pto.tensor<8x16xf32>
    func.return %r : !pto.tensor<8x16xf32>
  }
}
