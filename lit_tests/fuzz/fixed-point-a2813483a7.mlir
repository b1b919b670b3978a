// fuzz finding: fixed-point at reparse-input (1 input(s) in the campaign; first: seed 300, input 50889), shrunk
//   printed IR does not parse back: error: invalid block name in region with named arguments
//   (an `scf.while` whose `before` region is `{ }` verified; the verifier now asks for a terminator)
// Regression test once fixed (the oracle must report nothing):
// RUN: %python -m pypto_mlir.fuzz check %s
builtin.module {
  func.func @f(%x: i32) -> i32 {
    %w = scf.while (%t = %x) : (i32) -> i32 {
    } do {
    ^bb0(%t2: i32):
      scf.yield %t2 : i32
    }
    func.return %w : i32
  }
}
