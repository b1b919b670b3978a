// Input of driver_options.mlir.
func.func @one() {
  func.return
}
// -----

func.func @two() {
  func.return
}

// -----
func.func @three() {
  func.return
}
