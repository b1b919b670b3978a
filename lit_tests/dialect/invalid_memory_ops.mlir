// Verifier errors of the GM and data-movement ops (create_tensor, load, store, move, reshape, transpose,
// transpose_view, slice, set_validshape) and of mixed offset lists: one case per check.

// RUN: pypto-opt %s --split-input-file --verify-diagnostics

func.func @f(%t: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{load has 1 offsets but the source tensor has rank 2}}
  %a = pto.load %t[0] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%t: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{load result element type f16 differs from the tensor's f32}}
  %a = pto.load %t[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf16, vec>
  func.return
}

// -----

func.func @f(%t: !pto.tensor<128xf32>) {
  // expected-error@+1 {{load result has rank 2, more than the source tensor's 1}}
  %a = pto.load %t[0] : !pto.tensor<128xf32> -> !pto.tile<1x128xf32, vec>
  func.return
}

// -----

func.func @f(%t: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{load window [56, 72) on dim 0 lies outside the tensor's extent 64}}
  %a = pto.load %t[56, 0] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%t: !pto.tensor<64x128xf32>, %i: index) {
  // expected-error@+1 {{load window [64, 192) on dim 1 lies outside the tensor's extent 128}}
  %a = pto.load %t[%i, 64] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%t: !pto.tensor<64x128xf32>, %v: index) {
  // expected-error@+1 {{load has 1 valid sizes but the tile has rank 2}}
  %a = pto.load %t[0, 0] valid [%v] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec, valid = [?, 128]>
  func.return
}

// -----

func.func @f(%t: !pto.tensor<64x128xf32>, %v: index) {
  // expected-error@+1 {{load valid size on dim 1 is 100 but the result type's valid extent is 128}}
  %a = pto.load %t[0, 0] valid [%v, 100] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec, valid = [?, 128]>
  func.return
}

// -----

func.func @f(%t: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{load result has a dynamic valid extent; give it as an operand: valid [%v, ...]}}
  %a = pto.load %t[0, 0] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec, valid = [?, 128]>
  func.return
}

// -----

func.func @f(%t: !pto.tensor<64x128xf32>, %x: f32) {
  // expected-error@+1 {{load offsets entries must be index or integer values, got f32}}
  %a = pto.load %t[%x, 0] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%t: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{'?' is not allowed here; pass the dynamic value as an SSA operand}}
  %a = pto.load %t[?, 0] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

// The operand types written after `:` must be the operands' own types (they are checked, not ignored).
func.func @f(%t: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{operand is used with type !pto.tensor<64x64xf32>, but has been previously used or defined with type !pto.tensor<64x128xf32>}}
  %a = pto.load %t[0, 0] : !pto.tensor<64x64xf32> -> !pto.tile<16x64xf32, vec>
  func.return
}

// -----

func.func @f(%t: !pto.tensor<64x128xf32>, %a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{operand is used with type !pto.tile<16x128xf16, vec>, but has been previously used or defined with type !pto.tile<16x128xf32, vec>}}
  %o = pto.store %a, %t[0, 0] : !pto.tile<16x128xf16, vec>, !pto.tensor<64x128xf32>
  func.return
}

// -----

// A dynamic offset has no type in the syntax, so it must name a value defined before the op.
func.func @f(%t: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{%i is used before it is defined; a dynamic offset or size must be defined earlier in the function}}
  %a = pto.load %t[%i, 0] : !pto.tensor<64x128xf32> -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%t: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{load offsets has 1 dynamic entries but 0 SSA operands}}
  %a = "pto.load"(%t) {static_offsets = array<i64: -9223372036854775808, 0>, operandSegmentSizes = array<i32: 1, 0, 0>} : (!pto.tensor<64x128xf32>) -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{operand 'source' must be of type !pto.tensor, got !pto.tile<16x128xf32, vec>}}
  %x = "pto.load"(%a) {static_offsets = array<i64: 0, 0>, operandSegmentSizes = array<i32: 1, 0, 0>} : (!pto.tile<16x128xf32, vec>) -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%t: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{is missing its required attribute 'static_offsets'; add it to the attribute dictionary}}
  %a = "pto.load"(%t) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!pto.tensor<64x128xf32>) -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%l: !pto.tile<16x128xf32, left>, %o: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{stored tile must be in memory space 'vec' or 'acc' or 'mat', but it is in 'left'}}
  %o2 = pto.store %l, %o[0, 0] : !pto.tile<16x128xf32, left>, !pto.tensor<64x128xf32>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>, %o: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{store has 3 offsets but the destination tensor has rank 2}}
  %o2 = pto.store %a, %o[0, 0, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf16, vec>, %o: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{stored tile element type f16 differs from the tensor's f32}}
  %o2 = pto.store %a, %o[0, 0] : !pto.tile<16x128xf16, vec>, !pto.tensor<64x128xf32>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>, %o: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{store result type must equal the destination tensor type}}
  %o2 = "pto.store"(%a, %o) {static_offsets = array<i64: 0, 0>, operandSegmentSizes = array<i32: 1, 1, 0>} : (!pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>) -> !pto.tensor<64x64xf32>
  func.return
}

// -----

func.func @f(%a: !pto.tile<2x16x128xf32, vec>, %o: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{stored tile has rank 3, more than the tensor's 2}}
  %o2 = pto.store %a, %o[0, 0] : !pto.tile<2x16x128xf32, vec>, !pto.tensor<64x128xf32>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>, %o: !pto.tensor<64x128xf32>) {
  // expected-error@+1 {{store window [50, 66) on dim 0 lies outside the tensor's extent 64}}
  %o2 = pto.store %a, %o[50, 0] : !pto.tile<16x128xf32, vec>, !pto.tensor<64x128xf32>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{move cannot change the shape: [16, 128] -> [128, 16]}}
  %b = pto.move %a : !pto.tile<16x128xf32, vec> -> !pto.tile<128x16xf32, mat>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, acc>) {
  // expected-error@+1 {{move cannot change the element type: f32 -> f16}}
  %b = pto.move %a : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf16, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, acc>) {
  // expected-error@+1 {{move cannot change the valid region: [16, 128] -> [8, 128]}}
  %b = pto.move %a : !pto.tile<16x128xf32, acc> -> !pto.tile<16x128xf32, vec, valid = [8, 128]>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{reshape cannot change the element type}}
  %b = pto.reshape %a : !pto.tile<16x128xf32, vec> -> !pto.tile<128x16xf16, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{reshape cannot change the memory space}}
  %b = pto.reshape %a : !pto.tile<16x128xf32, vec> -> !pto.tile<128x16xf32, mat>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{reshape changes the element count: [16, 128] has 2048, [16, 64] has 1024}}
  %b = pto.reshape %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x64xf32, vec>
  func.return
}

// -----

// A reshape has no valid operand: its result's valid region is the type's and must be static.
func.func @f(%a: !pto.tile<1x16xf32, vec, valid = [1, ?]>) {
  // expected-error@+1 {{reshape result valid region [?, 1] has a runtime extent, but a reshape has no valid operand}}
  %b = pto.reshape %a : !pto.tile<1x16xf32, vec, valid = [1, ?]> -> !pto.tile<16x1xf32, vec, valid = [?, 1]>
  func.return
}

// -----

// A statically partially valid source needs a partially valid result type (it states which cells stay valid).
func.func @f(%a: !pto.tile<16x1xf32, vec, valid = [13, 1]>) {
  // expected-error@+1 {{reshape of a partially valid tile (valid [13, 1] of [16, 1]) needs a partially valid result type}}
  %b = pto.reshape %a : !pto.tile<16x1xf32, vec, valid = [13, 1]> -> !pto.tile<1x16xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{'pto.transpose' op axes [0, 0] are not a permutation of the tile's dims}}
  %b = pto.transpose %a {axes = array<i64: 0, 0>} : !pto.tile<16x128xf32, vec> -> !pto.tile<128x16xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{'pto.transpose' op result must have shape [128, 16] (the source [16, 128] permuted by axes [1, 0]), got [16, 128]}}
  %b = pto.transpose %a : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{'pto.transpose_view' op cannot change the element type}}
  %b = pto.transpose_view %a : !pto.tile<16x128xf32, vec> -> !pto.tile<128x16xf16, vec>
  func.return
}

// -----

// transpose_view is zero-copy: a plain (row-major ND) tile read as a row/row fractal-32 tile of the transposed
// shape would be other bytes; the result view must be the source's, transposed (here col/col -> row/row).
func.func @f(%a: !pto.tile<4x32xf8E8M0FNU, vec>) {
  // expected-error@+1 {{'pto.transpose_view' op is a zero-copy view (the source's bytes read in the transposed shape), so its result must be 'vec' with blayout = col_major, slayout = none_box, fractal = 512, pad = null, valid = [32, 4]; got 'vec' with blayout = row_major, slayout = row_major, fractal = 32, pad = null, valid = [32, 4]. To change the layout, pto.move the tile first, or use pto.transpose (a data transpose)}}
  %b = pto.transpose_view %a : !pto.tile<4x32xf8E8M0FNU, vec> -> !pto.tile<32x4xf8E8M0FNU, vec, slayout = row_major, fractal = 32>
  func.return
}

// -----

// The valid region is permuted with the shape.
func.func @f(%a: !pto.tile<16x128xf32, vec, valid = [13, 128]>) {
  // expected-error@+1 {{so its result must be 'vec' with blayout = col_major, slayout = none_box, fractal = 512, pad = null, valid = [128, 13]; got 'vec' with blayout = col_major, slayout = none_box, fractal = 512, pad = null, valid = [128, 16]}}
  %b = pto.transpose_view %a : !pto.tile<16x128xf32, vec, valid = [13, 128]> -> !pto.tile<128x16xf32, vec, blayout = col_major>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{slice has 1 offsets but the tile has rank 2}}
  %b = pto.slice %a[0] : !pto.tile<16x128xf32, vec> -> !pto.tile<16x64xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{slice result must have the source's rank}}
  %b = pto.slice %a[0, 0] : !pto.tile<16x128xf32, vec> -> !pto.tile<2x16x64xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{slice cannot change the element type or memory space}}
  %b = pto.slice %a[0, 0] : !pto.tile<16x128xf32, vec> -> !pto.tile<16x64xf32, mat>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{slice window [96, 160) on dim 1 lies outside the source extent 128}}
  %b = pto.slice %a[0, 96] : !pto.tile<16x128xf32, vec> -> !pto.tile<16x64xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>, %v: index) {
  // expected-error@+1 {{slice valid sizes must match the result type's valid region}}
  %b = pto.slice %a[0, 0] valid [%v, 32] : !pto.tile<16x128xf32, vec> -> !pto.tile<16x64xf32, vec, valid = [?, 64]>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>, %v: index) {
  // expected-error@+1 {{set_validshape may only change the valid region}}
  %b = pto.set_validshape %a valid [%v, 64] : !pto.tile<16x128xf32, vec> -> !pto.tile<16x64xf32, vec, valid = [?, 64]>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>, %v: index) {
  // expected-error@+1 {{set_validshape sizes must match the result type's valid region}}
  %b = pto.set_validshape %a valid [%v, 100] : !pto.tile<16x128xf32, vec> -> !pto.tile<16x128xf32, vec, valid = [?, 128]>
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{result 'result' must be of type !pto.tensor, got !pto.tile<16x128xf32, vec>}}
  %gm = "pto.create_tensor"() : () -> !pto.tile<16x128xf32, vec>
  func.return
}
