// ../execute_region.mlir with the two results of the loop body's scf.execute_region yielded in the other order.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @k(%q: !pto.tensor<64x128xf32>, %kt: !pto.tensor<128x128xf32>, %d: !pto.tensor<64x128xf32> {pto.out}) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<incore>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %q_mat = pto.load %q[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, mat>
    %k_mat = pto.load %kt[0, 0] : !pto.tensor<128x128xf32> -> !pto.tile<128x128xf32, mat>
    %sv, %sc = scf.execute_region -> (!pto.tile<64x128xf32, vec>, !pto.tile<64x128xf32, acc>) {
      %q_left = pto.move %q_mat : !pto.tile<64x128xf32, mat> -> !pto.tile<64x128xf32, left>
      %k_right = pto.move %k_mat : !pto.tile<128x128xf32, mat> -> !pto.tile<128x128xf32, right>
      %mm = pto.matmul %q_left, %k_right : !pto.tile<64x128xf32, left>, !pto.tile<128x128xf32, right> -> !pto.tile<64x128xf32, acc>
      %mv = pto.move %mm : !pto.tile<64x128xf32, acc> -> !pto.tile<64x128xf32, vec>
      scf.yield %mv, %mm : !pto.tile<64x128xf32, vec>, !pto.tile<64x128xf32, acc>
    }
    %acc = scf.for %i = %c0 to %c2 step %c1 iter_args(%s = %sv) -> (!pto.tile<64x128xf32, vec>) {
      %e, %x = scf.execute_region -> (!pto.tile<64x128xf32, vec>, !pto.tile<64x128xf32, vec>) {
        %ex = pto.relu %s : !pto.tile<64x128xf32, vec>
        %ld = pto.load %q[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<64x128xf32, vec>
        scf.yield %ld, %ex : !pto.tile<64x128xf32, vec>, !pto.tile<64x128xf32, vec>
      }
      %n = pto.sub %e, %x : !pto.tile<64x128xf32, vec>
      scf.yield %n : !pto.tile<64x128xf32, vec>
    }
    %d_1 = pto.store %acc, %d[0, 0] : !pto.tile<64x128xf32, vec>, !pto.tensor<64x128xf32>
    func.return %d_1 : !pto.tensor<64x128xf32>
  }
  func.func @main(%q: !pto.tensor<64x128xf32>, %kt: !pto.tensor<128x128xf32>) -> !pto.tensor<64x128xf32>
      attributes {pto.kind = #pto.kind<orchestration>} {
    %d = pto.create_tensor : !pto.tensor<64x128xf32>
    %r = func.call @k(%q, %kt, %d) : (!pto.tensor<64x128xf32>, !pto.tensor<128x128xf32>, !pto.tensor<64x128xf32>) -> !pto.tensor<64x128xf32>
    func.return %r : !pto.tensor<64x128xf32>
  }
}
