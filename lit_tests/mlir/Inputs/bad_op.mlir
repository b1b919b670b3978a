builtin.module {
  func.func @f() {
    %0 = "arith.addi"() : () -> i32
    func.return
  }
}
