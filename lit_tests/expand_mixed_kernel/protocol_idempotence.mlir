// Idempotence and the verifier on the protocol tests of this folder (both targets where they apply): the
// expanded output passes --verify-mixed-kernel-expanded, and running the pass again on it changes nothing.
// RUN: pypto-opt %S/protocol_setup.mlir --split-input-file --expand-mixed-kernel > %t.protocol_setup.1
// RUN: pypto-opt %t.protocol_setup.1 --split-input-file --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.protocol_setup.2
// RUN: diff %t.protocol_setup.1 %t.protocol_setup.2
// RUN: pypto-opt %S/protocol_tfree.mlir --split-input-file --expand-mixed-kernel > %t.protocol_tfree.1
// RUN: pypto-opt %t.protocol_tfree.1 --split-input-file --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.protocol_tfree.2
// RUN: diff %t.protocol_tfree.1 %t.protocol_tfree.2
// RUN: pypto-opt %S/protocol_gm_sync.mlir --split-input-file --expand-mixed-kernel > %t.protocol_gm_sync.1
// RUN: pypto-opt %t.protocol_gm_sync.1 --split-input-file --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.protocol_gm_sync.2
// RUN: diff %t.protocol_gm_sync.1 %t.protocol_gm_sync.2
// RUN: pypto-opt %S/protocol_local_slot_num.mlir --split-input-file --expand-mixed-kernel > %t.protocol_local_slot_num.1
// RUN: pypto-opt %t.protocol_local_slot_num.1 --split-input-file --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.protocol_local_slot_num.2
// RUN: diff %t.protocol_local_slot_num.1 %t.protocol_local_slot_num.2
// RUN: pypto-opt %S/protocol_manual_push.mlir --split-input-file --expand-mixed-kernel > %t.protocol_manual_push.1
// RUN: pypto-opt %t.protocol_manual_push.1 --split-input-file --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.protocol_manual_push.2
// RUN: diff %t.protocol_manual_push.1 %t.protocol_manual_push.2
// RUN: sed 's/a2a3/a5/' %S/protocol_setup.mlir | pypto-opt --split-input-file --expand-mixed-kernel > %t.protocol_setup.a5.1
// RUN: pypto-opt %t.protocol_setup.a5.1 --split-input-file --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.protocol_setup.a5.2
// RUN: diff %t.protocol_setup.a5.1 %t.protocol_setup.a5.2
// RUN: sed 's/a2a3/a5/' %S/protocol_gm_sync.mlir | pypto-opt --split-input-file --expand-mixed-kernel > %t.protocol_gm_sync.a5.1
// RUN: pypto-opt %t.protocol_gm_sync.a5.1 --split-input-file --expand-mixed-kernel --verify-mixed-kernel-expanded > %t.protocol_gm_sync.a5.2
// RUN: diff %t.protocol_gm_sync.a5.1 %t.protocol_gm_sync.a5.2

builtin.module {}
