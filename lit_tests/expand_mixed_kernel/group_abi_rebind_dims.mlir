// RUN: pypto-opt %s --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A5
// RUN: pypto-opt %s --expand-mixed-kernel | pypto-opt --expand-mixed-kernel | filecheck %s --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline expand-mixed-kernel -
// RUN: sed 's/a2a3/a5/' %s | pypto-run --quiet --check-pipeline lower-auto-vector-split,expand-mixed-kernel -
// The a2a3 input cannot run as written (its AIV member is unmarked, see group_abi.mlir): its output is compared
// with the a5 input, which has the same semantics.
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %s --expand-mixed-kernel > %t.a2a3.out.mlir
// RUN: pypto-run --quiet %t.a5.mlir --compare-with %t.a2a3.out.mlir

// Phase 4 re-binds dynamic dimensions (seed: a member's Tensor[[8, N]] given the Group's Tensor[[8, t + 32]]
// uses t + 32 everywhere).  In pto a member parameter !pto.tensor<16x?xf32> receives the Group's
// !pto.tensor<16x16xf32> through a pto.tensor_cast (func.call needs equal types); the rebuilt member takes the
// Group's parameter and type, and its aliases (loop carry, store result, branch result, declared result) follow.
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  // A helper the member calls keeps its own signature: the member passes the re-bound tensor through a cast.
  // CHECK-LABEL: func.func @load_rows(%t: !pto.tensor<16x?xf32>) -> !pto.tile<16x16xf32, vec>
  func.func @load_rows(%t: !pto.tensor<16x?xf32>) -> !pto.tile<16x16xf32, vec> attributes {pto.kind = #pto.kind<inline>} {
    %l = pto.load %t[0, 0] : !pto.tensor<16x?xf32> -> !pto.tile<16x16xf32, vec>
    func.return %l : !pto.tile<16x16xf32, vec>
  }
  // CHECK-LABEL: func.func @cube(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out})
  func.func @cube(%a: !pto.tensor<16x16xf32>) attributes {pto.kind = #pto.kind<aic>} {
    %ib = pto.import_peer_buffer {name = "g_c2v", peer_func = @vec} : i32
    %c0 = arith.constant 0 : i32
    pto.aic_initialize_pipe %ib, %c0 {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %xm = pto.load %a[0, 0] : !pto.tensor<16x16xf32> -> !pto.tile<16x16xf32, mat>
    %xl = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, left>
    %xr = pto.move %xm : !pto.tile<16x16xf32, mat> -> !pto.tile<16x16xf32, right>
    %z = pto.matmul %xl, %xr : !pto.tile<16x16xf32, left>, !pto.tile<16x16xf32, right> -> !pto.tile<16x16xf32, acc>
    pto.tpush_to_aiv %z {split = 0 : i64} : !pto.tile<16x16xf32, acc>
    func.return
  }
  // The member's ? dimensions are bound to the Group's 16: parameters, the loop carry, the store result, the scf.if
  // result and the declared result take !pto.tensor<16x16xf32>; the helper call gets a cast back to its parameter type.
  // CHECK-LABEL: func.func @vec(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x16xf32>
  // A2A3-SAME:   attributes {pto.kind = #pto.kind<aiv>, pto.dual_aiv_dispatch}
  // A5-SAME:     attributes {pto.kind = #pto.kind<aiv>}
  // CHECK:       %{{.*}} = pto.tensor_cast %x : !pto.tensor<16x16xf32> -> !pto.tensor<16x?xf32>
  // CHECK-NEXT:  %t1 = func.call @load_rows(%{{.*}}) : (!pto.tensor<16x?xf32>) -> !pto.tile<16x16xf32, vec>
  // CHECK:       %res = scf.for %i = %i0 to %i2 step %i1 iter_args(%acc = %o) -> (!pto.tensor<16x16xf32>) {
  // CHECK-NEXT:    %o2 = pto.store %s, %acc[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x16xf32>
  // CHECK-NEXT:    scf.yield %o2 : !pto.tensor<16x16xf32>
  // CHECK:       %fin = scf.if %true -> (!pto.tensor<16x16xf32>) {
  // CHECK:       func.return %fin : !pto.tensor<16x16xf32>
  func.func @vec(%out: !pto.tensor<16x?xf32> {pto.out}, %a: !pto.tensor<16x?xf32>) -> !pto.tensor<16x?xf32> attributes {pto.kind = #pto.kind<aiv>} {
    %rb = pto.reserve_buffer {name = "g_c2v", size = 2048 : i64, base = -1 : i64} : i32
    %c0 = arith.constant 0 : i32
    pto.aiv_initialize_pipe %rb, %c0 {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 2 : i64} : i32, i32
    %p = pto.tpop_from_aic {split = 0 : i64} : !pto.tile<16x16xf32, vec>
    %t1 = func.call @load_rows(%a) : (!pto.tensor<16x?xf32>) -> !pto.tile<16x16xf32, vec>
    %s = pto.add %p, %t1 : !pto.tile<16x16xf32, vec>
    pto.tfree_to_aic %p : !pto.tile<16x16xf32, vec>
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %i2 = arith.constant 2 : index
    %res = scf.for %i = %i0 to %i2 step %i1 iter_args(%acc = %out) -> (!pto.tensor<16x?xf32>) {
      %o2 = pto.store %s, %acc[0, 0] : !pto.tile<16x16xf32, vec>, !pto.tensor<16x?xf32>
      scf.yield %o2 : !pto.tensor<16x?xf32>
    }
    %true = arith.constant true
    %fin = scf.if %true -> (!pto.tensor<16x?xf32>) {
      scf.yield %res : !pto.tensor<16x?xf32>
    } else {
      scf.yield %out : !pto.tensor<16x?xf32>
    }
    func.return %fin : !pto.tensor<16x?xf32>
  }
  // The Group's casts are gone (the members take its parameters); its own users of the member result keep the
  // type they had, through a cast back.
  // CHECK-LABEL: func.func @g(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x?xf32>
  // CHECK-NEXT:  func.call @cube(%x, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> ()
  // CHECK-NEXT:  %r = func.call @vec(%x, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32>
  // CHECK-NEXT:  %[[R:.*]] = pto.tensor_cast %r : !pto.tensor<16x16xf32> -> !pto.tensor<16x?xf32>
  // CHECK-NEXT:  func.return %[[R]] : !pto.tensor<16x?xf32>
  func.func @g(%x: !pto.tensor<16x16xf32>, %o: !pto.tensor<16x16xf32> {pto.out}) -> !pto.tensor<16x?xf32>
      attributes {pto.kind = #pto.kind<group>} {
    func.call @cube(%x) : (!pto.tensor<16x16xf32>) -> ()
    %od = pto.tensor_cast %o : !pto.tensor<16x16xf32> -> !pto.tensor<16x?xf32>
    %xd = pto.tensor_cast %x : !pto.tensor<16x16xf32> -> !pto.tensor<16x?xf32>
    %r = func.call @vec(%od, %xd) : (!pto.tensor<16x?xf32>, !pto.tensor<16x?xf32>) -> !pto.tensor<16x?xf32>
    func.return %r : !pto.tensor<16x?xf32>
  }
  func.func @main(%x: !pto.tensor<16x16xf32>) -> !pto.tensor<16x16xf32> attributes {pto.kind = #pto.kind<orchestration>} {
    %o = pto.create_tensor : !pto.tensor<16x16xf32>
    %r = func.call @g(%x, %o) : (!pto.tensor<16x16xf32>, !pto.tensor<16x16xf32>) -> !pto.tensor<16x?xf32>
    %rs = pto.tensor_cast %r : !pto.tensor<16x?xf32> -> !pto.tensor<16x16xf32>
    func.return %rs : !pto.tensor<16x16xf32>
  }
}
