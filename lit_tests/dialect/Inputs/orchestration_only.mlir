builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @main(%x: !pto.tensor<16x128xf32>) -> !pto.tensor<16x128xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    func.return %x : !pto.tensor<16x128xf32>
  }
}
