// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel --split-report=%t.txt > /dev/null
// RUN: filecheck %s --input-file %t.txt --check-prefixes=CHECK,A2A3
// RUN: sed 's/a2a3/a5/' %s > %t.a5.mlir
// RUN: pypto-opt %t.a5.mlir --lower-auto-vector-split --expand-mixed-kernel --split-report=%t.a5.txt > /dev/null
// RUN: filecheck %s --input-file %t.a5.txt --check-prefixes=CHECK,A5
// RUN: pypto-opt %s -p 'lower-auto-vector-split,expand-mixed-kernel{skew=off},skew-cross-core-pipeline{distance=2}' --split-report=%t.explicit.txt > /dev/null
// RUN: filecheck %s --input-file %t.explicit.txt --check-prefix=EXPLICIT
// RUN: pypto-opt %s --lower-auto-vector-split '--expand-mixed-kernel{skew=off}' --split-report=%t.off.txt > /dev/null
// RUN: filecheck %s --input-file %t.off.txt --check-prefix=OFF
// RUN: pypto-opt %s --lower-auto-vector-split --expand-mixed-kernel --split-report=%t.json > /dev/null
// RUN: %python -c "import json,sys; k=json.load(open(sys.argv[1]))['reports'][0]['kernels'][0]['skew']; print(k['skewed'], k['distance'], k['depth_before'], k['depth_after'], k['makespan_before'], k['makespan_after'], [t['distance'] for t in k['tried']])" %t.json | filecheck %s --check-prefix=JSON
// The skewed outputs run before and after the pipeline (both targets).
// RUN: pypto-run --quiet --entry rt --check-pipeline lower-auto-vector-split,expand-mixed-kernel %s
// RUN: pypto-run --quiet --entry rt --check-pipeline lower-auto-vector-split,expand-mixed-kernel %t.a5.mlir

// The split report's skew line (docs/pypto-opt.md, "Split report"): which loop ExpandMixedKernel's skew choice
// skewed, by how many iterations (D), which side runs ahead, how a remainder is handled, the least depth the skew
// needs, the ring depth before and after, the modelled cycles before (unskewed, at the depth the ring-depth
// choice kept) and after, and every distance tried with its modelled cycles per ring depth.  @rt is a round trip
// of 4 iterations: D = 1 and 2 are tried (trip >= 2D).  On a2a3 D = 1 at depth 2 is as fast as any; on a5 D = 2 at
// depth 3 is more than 1 % faster than D = 1, so the ring deepens with it.
// CHECK-LABEL: kernel @rt: split up_down requested, lane-split
// A2A3:        pipe 0 c2v+v2c: depth 2, slot 16384 B; 32768 B ring in mat (AIC); 32768 B ring in vec (AIV); 6 transfers
// A2A3-NEXT:   ring depth 2: deeper rings do not shorten the modelled makespan (modelled cycles per depth: 2: 8837, 3: 8837, 4: 8837)
// A2A3-NEXT:   skew: scf.for at {{.*}}skew.mlir:[[# @LINE + 27]]:5 skewed by 1 iteration (the AIV (vector) runs ahead, remainder: none-needed, needs depth >= 1), ring depth 2: modelled cycles 8837 -> 5831 (tried, cycles per depth: D=1: 2: 5831, 3: 5831, 4: 5831; D=2: 2: 6181, 3: 5831, 4: 5831)
// A5:          pipe 0 c2v+v2c: depth 3, slot 16384 B; 49152 B ring in mat (AIC); 49152 B ring in vec (AIV); 6 transfers
// A5-NEXT:     ring depth 2: deeper rings do not shorten the modelled makespan (modelled cycles per depth: 2: 4200, 3: 4200, 4: 4200)
// A5-NEXT:     skew: scf.for at {{.*}}skew.mlir{{.*}}:[[# @LINE + 24]]:5 skewed by 2 iterations (the AIV (vector) runs ahead, remainder: none-needed, needs depth >= 1), ring depth 2 -> 3: modelled cycles 4200 -> 2739 (tried, cycles per depth: D=1: 2: 2945, 3: 2945, 4: 2945; D=2: 2: 2840, 3: 2739, 4: 2739)
// CHECK-NEXT:  result: @rt_aic, @rt_aiv, @rt
// JSON: True 1 2 2 8837 5831 [1, 2]
//
// The explicit pass (`skew-cross-core-pipeline{distance=2}` after `expand-mixed-kernel{skew=off}`) reports what it
// did, without modelled cycles (it times nothing):
// EXPLICIT-LABEL: kernel @rt:
// EXPLICIT:       ring depth 2: deeper rings do not shorten the modelled makespan
// EXPLICIT-NEXT:  skew: scf.for at {{.*}}skew.mlir:[[# @LINE + 16]]:5 skewed by 2 iterations (the AIV (vector) runs ahead, remainder: none-needed, needs depth >= 1), ring depth 2{{$}}
// With skew=off, no skew line:
// OFF-LABEL: kernel @rt:
// OFF:       ring depth 2:
// OFF-NOT:   skew:
builtin.module attributes {pto.target = #pto.target<a2a3>} {
  func.func @rt(%x: !pto.tensor<128x128xf32>, %w: !pto.tensor<128x128xbf16>,
                %out_0: !pto.tensor<32x128xf32> {pto.out}) -> !pto.tensor<32x128xf32>
      attributes {pto.kind = #pto.kind<incore>, pto.split = #pto.split<up_down>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %w_mat = pto.load %w[0, 0] : !pto.tensor<128x128xbf16> -> !pto.tile<128x128xbf16, mat>
    %w_right = pto.move %w_mat : !pto.tile<128x128xbf16, mat> -> !pto.tile<128x128xbf16, right>
    %init = pto.full %zero : f32 -> !pto.tile<32x128xf32, vec>
    %acc = scf.for %i = %c0 to %c128 step %c32 iter_args(%sum = %init) -> (!pto.tile<32x128xf32, vec>) {
      %x_vec = pto.load %x[%i, 0] : !pto.tensor<128x128xf32> -> !pto.tile<32x128xf32, vec>
      %x_bf = pto.cast %x_vec : !pto.tile<32x128xf32, vec> -> !pto.tile<32x128xbf16, vec>
      %x_left = pto.move %x_bf : !pto.tile<32x128xbf16, vec> -> !pto.tile<32x128xbf16, left>
      %y_acc = pto.matmul %x_left, %w_right : !pto.tile<32x128xbf16, left>, !pto.tile<128x128xbf16, right> -> !pto.tile<32x128xf32, acc>
      %term = pto.move %y_acc : !pto.tile<32x128xf32, acc> -> !pto.tile<32x128xf32, vec>
      %next = pto.add %sum, %term : !pto.tile<32x128xf32, vec>
      scf.yield %next : !pto.tile<32x128xf32, vec>
    }
    %out_1 = pto.store %acc, %out_0[0, 0] : !pto.tile<32x128xf32, vec>, !pto.tensor<32x128xf32>
    func.return %out_1 : !pto.tensor<32x128xf32>
  }
}
