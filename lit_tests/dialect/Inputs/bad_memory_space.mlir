builtin.module {
  func.func @f(%a: !pto.tile<16x128xf32, ub>) {
    func.return
  }
}
