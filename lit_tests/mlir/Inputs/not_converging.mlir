// Folding needs two rounds of canonicalization here (the second addi folds only after the first), so
// `canonicalize{max-iterations=1 test-convergence=true}` fails: an upstream pass failure to compare with ours.
func.func @f() -> i32 {
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  %d = arith.addi %c, %b : i32
  func.return %d : i32
}
