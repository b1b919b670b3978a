// Idempotence and the verifier on the protocol tests of this folder (both targets where they apply): the
// expanded output passes the MixedKernelExpanded verifier, and expanding it again changes nothing.
// RUN: pypto-opt %S/protocol_setup.mlir --split-input-file --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: pypto-opt %S/protocol_tfree.mlir --split-input-file --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: pypto-opt %S/protocol_gm_sync.mlir --split-input-file --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: pypto-opt %S/protocol_local_slot_num.mlir --split-input-file --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: pypto-opt %S/protocol_manual_push.mlir --split-input-file --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: sed 's/a2a3/a5/' %S/protocol_setup.mlir | pypto-opt --split-input-file --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: sed 's/a2a3/a5/' %S/protocol_tfree.mlir | pypto-opt --split-input-file --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: sed 's/a2a3/a5/' %S/protocol_gm_sync.mlir | pypto-opt --split-input-file --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// RUN: sed 's/a2a3/a5/' %S/protocol_manual_push.mlir | pypto-opt --split-input-file --expand-mixed-kernel | %python %S/Inputs/expand_again.py | filecheck %s
// CHECK: expand_again: {{[0-9]+}} chunk(s) unchanged

builtin.module {}
