// Malformed and invalid !pto.tensor / !pto.tile types and #pto attributes: each is a located error at the type
// (never an internal error).  One case per check in dialects/pto_types.py.

// RUN: pypto-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{unknown memory space 'ub', expected one of: vec, mat, left, right, acc, bias, left_scale, right_scale}}
func.func @f(%a: !pto.tile<16x128xf32, ub>) {
  func.return
}

// -----

// expected-error@+1 {{expected ', <memory space>' after the element type, e.g. !pto.tile<16x128xf32, vec>}}
func.func @f(%a: !pto.tile<16x128xf32>) {
  func.return
}

// -----

// expected-error@+1 {{unknown blayout 'zigzag', expected one of: none_box, row_major, col_major}}
func.func @f(%a: !pto.tile<16x128xf32, vec, blayout = zigzag>) {
  func.return
}

// -----

// expected-error@+1 {{unknown slayout 'nz', expected one of: none_box, row_major, col_major}}
func.func @f(%a: !pto.tile<16x128xf32, mat, slayout = nz>) {
  func.return
}

// -----

// expected-error@+1 {{unknown pad 'one', expected one of: null, zero, max, min}}
func.func @f(%a: !pto.tile<16x128xf32, vec, pad = one>) {
  func.return
}

// -----

// expected-error@+1 {{unknown tile view field 'color', expected blayout, slayout, fractal, pad or valid}}
func.func @f(%a: !pto.tile<16x128xf32, vec, color = red>) {
  func.return
}

// -----

// expected-error@+1 {{tile view field 'pad' given twice}}
func.func @f(%a: !pto.tile<16x128xf32, vec, pad = zero, pad = max>) {
  func.return
}

// -----

// expected-error@+1 {{tile fractal size (bytes) must be a positive integer}}
func.func @f(%a: !pto.tile<16x128xf32, vec, fractal = 0>) {
  func.return
}

// -----

// expected-error@+1 {{tile fractal size (bytes) must be a positive integer}}
func.func @f(%a: !pto.tile<16x128xf32, vec, fractal = -512>) {
  func.return
}

// -----

// expected-error@+1 {{tile valid extent 17 on dim 0 exceeds the dimension 16; a valid extent must lie in [0, 16] or be '?'}}
func.func @f(%a: !pto.tile<16x128xf32, vec, valid = [17, 128]>) {
  func.return
}

// -----

// expected-error@+1 {{tile valid extent 130 on dim 1 exceeds the dimension 128}}
func.func @f(%a: !pto.tile<16x128xf32, vec, valid = [?, 130]>) {
  func.return
}

// -----

// expected-error@+1 {{tile valid region has 1 extents but the tile has rank 2; give one per dim}}
func.func @f(%a: !pto.tile<16x128xf32, vec, valid = [16]>) {
  func.return
}

// -----

// expected-error@+1 {{!pto.tile element type must be an integer or float type (f32, bf16, i8, ...), got index}}
func.func @f(%a: !pto.tile<16x128xindex, vec>) {
  func.return
}

// -----

// expected-error@+1 {{!pto.tensor element type must be an integer or float type (f32, bf16, i8, ...), got !pto.tensor<2xf32>}}
func.func @f(%a: !pto.tensor<16x!pto.tensor<2xf32>>) {
  func.return
}

// -----

// expected-error@+1 {{unknown tensor layout 'zz', expected one of: nd, dn, nz, mx_a_zz, mx_b_nn}}
func.func @f(%a: !pto.tensor<16x128xf32, zz>) {
  func.return
}

// -----

// The MX scale layouts belong to 2-D f8E8M0FNU scale tensors.
// expected-error@+1 {{!pto.tensor layout 'mx_a_zz' is an MX scale layout (mx_a_zz: the [M, K/32] left scale, mx_b_nn: the [K/32, N] right scale): it needs a 2-D f8E8M0FNU tensor, got 2-D f32}}
func.func @f(%a: !pto.tensor<16x128xf32, mx_a_zz>) {
  func.return
}

// -----

// expected-error@+1 {{it needs a 2-D f8E8M0FNU tensor, got 3-D f8E8M0FNU}}
func.func @f(%a: !pto.tensor<2x16x4xf8E8M0FNU, mx_b_nn>) {
  func.return
}

// -----

// expected-error@+1 {{Expected shape type}}
func.func @f(%a: !pto.tile<16x128x, vec>) {
  func.return
}

// -----

// expected-error@+1 {{'pto.tilee' is not registered}}
func.func @f(%a: !pto.tilee<16x128xf32, vec>) {
  func.return
}

// -----

// expected-error@+1 {{unknown pto.target value 'a9', expected one of: a2a3, a5}}
builtin.module attributes {pto.target = #pto.target<a9>} {}

// -----

// expected-error@+1 {{unknown pto.kind value 'cube', expected one of: opaque, orchestration, incore, aic, aiv, group, spmd, inline}}
func.func @f() attributes {pto.kind = #pto.kind<cube>} {
  func.return
}

// -----

// expected-error@+1 {{unknown pto.split value 'diag', expected one of: none, up_down, left_right}}
func.func @f() attributes {pto.split = #pto.split<diag>} {
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{unknown split mode 'diag', expected one of: none, up_down, left_right}}
  pto.split_aiv_scope diag (%aiv_id) {
    pto.yield
  }
  func.return
}
