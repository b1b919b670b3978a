// Input of driver_verify_diagnostics.mlir: the first chunk's annotation does not match, the second chunk
// reports an error nobody expected, the third expects an error that is not produced.
func.func @wrong_text(%a: !pto.tile<16x128xf32, acc>) {
  // expected-error@+1 {{split must be small}}
  pto.tpush_to_aiv %a {split = 9 : i64} : !pto.tile<16x128xf32, acc>
  func.return
}

// -----

func.func @unexpected(%a: !pto.tile<16x128xf32, acc>) {
  pto.tpush_to_aiv %a {split = 9 : i64} : !pto.tile<16x128xf32, acc>
  func.return
}

// -----

func.func @not_produced(%a: !pto.tile<16x128xf32, acc>) {
  // expected-error@+1 {{anything}}
  pto.tpush_to_aiv %a {split = 0 : i64} : !pto.tile<16x128xf32, acc>
  func.return
}
