// Input of driver_usage_errors.mlir: the middle chunk is empty.
func.func @before() {
  func.return
}
// -----

// just a comment
// -----
func.func @after() {
  func.return
}
