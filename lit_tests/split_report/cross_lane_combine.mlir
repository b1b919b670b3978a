// RUN: pypto-opt %S/../../examples/softmax_cols.a2a3.mlir -p 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' --split-report=%t.txt > /dev/null
// RUN: filecheck %s --input-file %t.txt --check-prefixes=CHECK,A2A3
// RUN: pypto-opt %S/../../examples/softmax_cols.a5.mlir -p 'lower-auto-vector-split{fallback=error},expand-mixed-kernel' --split-report=%t.a5.txt > /dev/null
// RUN: filecheck %s --input-file %t.a5.txt --check-prefixes=CHECK,A5
// RUN: pypto-opt %S/../../examples/softmax_cols.a2a3.mlir -p 'lower-auto-vector-split,expand-mixed-kernel' --split-report=%t.json > /dev/null
// RUN: %python -c "import json,sys; ls=json.load(open(sys.argv[1]))['reports'][0]['kernels'][0]['lane_split']; print(ls['cross_lane_combines'], [(c['value'], c['combine'], c['barriers']) for c in ls['combines']])" %t.json | filecheck %s --check-prefix=JSON

// The split report of a kernel whose reductions run over the split axis (examples/softmax_cols.*.mlir: a row
// softmax under left_right): one line per reduction combined across the lanes (the op, the workspace, the
// combine, the barriers), and `cross_lane_combines` in the JSON form (the GM workspace round trips the split
// added: what a choice between the split and the unsplit kernel weighs).  The combined values are whole; the
// partials and the two loaded rows are values the split made.
// A2A3: split report: {{.*}}softmax_cols.a2a3.mlir (target a2a3)
// A5:   split report: {{.*}}softmax_cols.a5.mlir (target a5)
// CHECK-LABEL: kernel @softmax_cols_incore_0: split left_right requested, lane-split
// CHECK-NEXT:  LowerAutoVectorSplit: is lane-split left_right: lane 0 takes the first half of the split axis (rounded up), lane 1 the rest
// CHECK-NEXT:  combined across the lanes: %m = pto.row_max over the split axis (dim 1), each lane's partial through a 2 x [64, 1] GM workspace, max of the two rows, 1 lane barrier(s)
// CHECK-NEXT:  combined across the lanes: %sum = pto.row_sum over the split axis (dim 1), each lane's partial through a 2 x [64, 1] GM workspace, sum of the two rows, 1 lane barrier(s)
// CHECK-NEXT:  halved: %s, %d, %e, %p
// CHECK-NEXT:  whole: %m, %sum
// CHECK-NEXT:  per lane: %subblock_idx, (an unnamed arith.muli result)
// CHECK-NEXT:  made by the split: %m_part, %m_lo, %m_hi, %sum_part, %sum_lo, %sum_hi
// JSON: 2 [('%m', 'max', 1), ('%sum', 'sum', 1)]
