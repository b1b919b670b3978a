// Printed IR parses back to the same text (issue 14): the fuzzer's print -> parse -> print check on two inputs
// that used to fail it.
// RUN: pypto-opt %s | pypto-opt | filecheck %s
// RUN: pypto-opt %s -o %t.1 && pypto-opt %t.1 -o %t.2 && diff %t.1 %t.2
// RUN: %python -m pypto_mlir.fuzz check %s

builtin.module attributes {pto.target = #pto.target<a2a3>, note = "héllo 中  "} {
  // A non-ASCII string is printed with escapes of its UTF-8 bytes; they read back as the same string (xDSL's
  // lexer took them for bytes, which a string attribute such as `name` rejects). Invalid UTF-8 stays bytes.
  // CHECK: builtin.module attributes {pto.target = #pto.target<a2a3>, note = "h\C3\A9llo \E4\B8\AD \E2\80\A8"}
  // CHECK: bytes = "\FF"
  // CHECK: pto.import_peer_buffer {name = "\E2\80\A8f_c2v", peer_func = @f_aiv} : i32
  func.func @f_aic() attributes {pto.kind = #pto.kind<aic>, bytes = "\FF"} {
    %ib = pto.import_peer_buffer {name = " f_c2v", peer_func = @f_aiv} : i32
    func.return
  }

  // An scf.execute_region without results is printed without its (empty) scf.yield; reading it adds it back.
  // CHECK-LABEL: func.func @exec
  // CHECK-NEXT:    scf.execute_region {
  // CHECK-NEXT:    }
  // CHECK-NEXT:    scf.execute_region {
  // CHECK-NEXT:      %c = arith.constant 1 : i32
  // CHECK-NEXT:    }
  func.func @exec() {
    scf.execute_region {
      scf.yield
    }
    scf.execute_region {
      %c = arith.constant 1 : i32
      scf.yield
    }
    func.return
  }
}
