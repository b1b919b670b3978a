// RUN: pypto-opt %s --split-input-file --verify-diagnostics

// scf.execute_region: one block (pto programs have no branch ops, so a second block could never run), ending with
// an scf.yield of its result types. Both are verifier errors at the op, before any pass runs.

builtin.module {
  func.func @two_blocks() -> i32 {
    // expected-error@+1 {{'scf.execute_region' op has 2 blocks, but pto programs have no branch ops (the cf dialect is not loaded), so only its first block could ever run; write its body as one block ending with scf.yield}}
    %r = scf.execute_region -> (i32) {
      %c = arith.constant 1 : i32
      scf.yield %c : i32
    ^bb1:
      %d = arith.constant 2 : i32
      scf.yield %d : i32
    }
    func.return %r : i32
  }
}

// -----

builtin.module {
  func.func @two_blocks_no_results() {
    // expected-error@+1 {{'scf.execute_region' op has 2 blocks}}
    scf.execute_region {
      scf.yield
    ^bb1:
      scf.yield
    }
    func.return
  }
}

// -----

builtin.module {
  func.func @wrong_yield(%x: i32) -> i32 {
    %r = scf.execute_region -> (i32) {
      %i = arith.constant 1 : index
      // expected-error@+1 {{'scf.execute_region' op must end its body region with an scf.yield of its result types (i32), but the region ends with an scf.yield of (index)}}
      scf.yield %i : index
    }
    func.return %r : i32
  }
}
