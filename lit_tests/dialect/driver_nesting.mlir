// Deeply nested regions: 500 nested scf.if parse, verify and print (the nesting survives the round trip); a
// nesting too deep for the parser (20000 levels) is a located error with exit status 1, never a traceback.
// The inputs are generated into temporary files.

// RUN: %python -c "import sys; n = 500; sys.stdout.write('func.func @deep(' + chr(37) + 'c: i1) {\n' + (('scf.if ' + chr(37) + 'c {\n') * n) + ('}\n' * n) + '  func.return\n}\n')" > %t.500.mlir
// RUN: pypto-opt %t.500.mlir | filecheck %s --check-prefix=DEEP
// RUN: pypto-opt %t.500.mlir | pypto-opt --mlir-print-op-generic | pypto-opt | filecheck %s --check-prefix=DEEP
// RUN: pypto-opt %t.500.mlir | grep -c "scf.if" | filecheck %s --check-prefix=COUNT
// DEEP-LABEL: func.func @deep(%c: i1) {
// DEEP-NEXT:    scf.if %c {
// DEEP-NEXT:      scf.if %c {
// DEEP:         func.return
// COUNT: 500

// RUN: %python -c "import sys; n = 20000; sys.stdout.write('func.func @deep(' + chr(37) + 'c: i1) {\n' + (('scf.if ' + chr(37) + 'c {\n') * n) + ('}\n' * n) + '  func.return\n}\n')" > %t.20000.mlir
// RUN: not pypto-opt %t.20000.mlir 2>&1 | filecheck %s --check-prefix=TOO-DEEP
// TOO-DEEP: 20000.mlir:1:1: error: input nests too deeply to be processed; reduce the nesting of regions
// TOO-DEEP-NOT: Traceback
// TOO-DEEP-NOT: internal compiler error
