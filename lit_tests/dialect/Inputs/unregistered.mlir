// Input of driver_options.mlir: an op of a dialect pypto-opt does not know.
func.func @f() {
    "mydialect.op"() {note = "kept"} : () -> ()
  func.return
}
