builtin.module {
  func.func @k(%a: index) -> index attributes {pto.kind = #pto.kind<incore>} {
    func.return %a : index
  }
}
