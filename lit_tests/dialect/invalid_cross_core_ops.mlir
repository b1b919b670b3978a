// Verifier errors of the cross-core ops: aiv_shard / aic_gather (split range, memory spaces, shapes,
// lane_stride), split_aiv_scope / pto.yield, the transfer ops (split codes 0-4, id, lane_stride, memory
// space) and the pipe setup ops (dir_mask 1-3, sizes, slot counts): one case per check.

// RUN: pypto-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: !pto.tile<128x128xf32, acc>) {
  // expected-error@+1 {{'pto.aiv_shard' op attribute 'split' must be in [0, 2], got 3}}
  %h = pto.aiv_shard %a {split = 3 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<64x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<128x128xf32, acc>) {
  // expected-error@+1 {{'pto.aiv_shard' op is missing its required attribute 'split'; add it to the attribute dictionary}}
  %h = pto.aiv_shard %a : !pto.tile<128x128xf32, acc> -> !pto.tile<64x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<128x128xf32, vec>) {
  // expected-error@+1 {{aiv_shard operand must be a cube-side tile, but it is in 'vec'}}
  %h = pto.aiv_shard %a {split = 1 : i64} : !pto.tile<128x128xf32, vec> -> !pto.tile<64x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<128x128xf32, acc>) {
  // expected-error@+1 {{aiv_shard result must be in memory space 'vec', but it is in 'mat'}}
  %h = pto.aiv_shard %a {split = 1 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<64x128xf32, mat>
  func.return
}

// -----

func.func @f(%a: !pto.tile<128x128xf32, acc>) {
  // expected-error@+1 {{aiv_shard cannot change the element type}}
  %h = pto.aiv_shard %a {split = 1 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<64x128xf16, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<128x128xf32, acc>) {
  // expected-error@+1 {{aiv_shard with split = 0 must keep the shape: [128, 128] -> [64, 128]}}
  %h = pto.aiv_shard %a {split = 0 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<64x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<2x128x128xf32, acc>) {
  // expected-error@+1 {{aiv_shard with a split needs a 2-D tile, got rank 3}}
  %h = pto.aiv_shard %a {split = 1 : i64} : !pto.tile<2x128x128xf32, acc> -> !pto.tile<2x64x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<128x128xf32, acc>) {
  // expected-error@+1 {{aiv_shard result must have shape [128, 64] (each lane's half of [128, 128] along dim 1 for split = 2), got [64, 128]}}
  %h = pto.aiv_shard %a {split = 2 : i64} : !pto.tile<128x128xf32, acc> -> !pto.tile<64x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, mat>) {
  // expected-error@+1 {{aiv_shard lane_stride 9 exceeds the lane box 8}}
  %h = pto.aiv_shard %a {split = 1 : i64, lane_stride = 9 : i64} : !pto.tile<16x128xf32, mat> -> !pto.tile<8x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, mat>) {
  // expected-error@+1 {{'pto.aiv_shard' op attribute 'lane_stride' must be >= 1, got 0}}
  %h = pto.aiv_shard %a {split = 1 : i64, lane_stride = 0 : i64} : !pto.tile<16x128xf32, mat> -> !pto.tile<8x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<64x128xf32, vec>) {
  // expected-error@+1 {{'pto.aic_gather' op attribute 'split' must be in [0, 2], got -1}}
  %g = pto.aic_gather %a {split = -1 : i64} : !pto.tile<64x128xf32, vec> -> !pto.tile<128x128xf32, mat>
  func.return
}

// -----

func.func @f(%a: !pto.tile<64x128xf32, acc>) {
  // expected-error@+1 {{aic_gather operand must be in memory space 'vec', but it is in 'acc'}}
  %g = pto.aic_gather %a {split = 1 : i64} : !pto.tile<64x128xf32, acc> -> !pto.tile<128x128xf32, mat>
  func.return
}

// -----

func.func @f(%a: !pto.tile<64x128xf32, vec>) {
  // expected-error@+1 {{aic_gather result must be in memory space 'mat', but it is in 'left'}}
  %g = pto.aic_gather %a {split = 1 : i64} : !pto.tile<64x128xf32, vec> -> !pto.tile<128x128xf32, left>
  func.return
}

// -----

func.func @f(%a: !pto.tile<64x128xf32, vec>) {
  // expected-error@+1 {{aic_gather cannot change the element type}}
  %g = pto.aic_gather %a {split = 1 : i64} : !pto.tile<64x128xf32, vec> -> !pto.tile<128x128xf16, mat>
  func.return
}

// -----

func.func @f(%a: !pto.tile<64x128xf32, vec>) {
  // expected-error@+1 {{aic_gather with split = 0 must keep the shape: [64, 128] -> [128, 128]}}
  %g = pto.aic_gather %a {split = 0 : i64} : !pto.tile<64x128xf32, vec> -> !pto.tile<128x128xf32, mat>
  func.return
}

// -----

func.func @f(%a: !pto.tile<128xf32, vec>) {
  // expected-error@+1 {{aic_gather with a split needs a 2-D tile, got rank 1}}
  %g = pto.aic_gather %a {split = 1 : i64} : !pto.tile<128xf32, vec> -> !pto.tile<256xf32, mat>
  func.return
}

// -----

func.func @f(%a: !pto.tile<64x128xf32, vec>) {
  // expected-error@+1 {{aic_gather result must have shape [128, 128] (both lanes' [64, 128] joined along dim 0 for split = 1), got [64, 256]}}
  %g = pto.aic_gather %a {split = 1 : i64} : !pto.tile<64x128xf32, vec> -> !pto.tile<64x256xf32, mat>
  func.return
}

// -----

func.func @f() {
  %r = pto.split_aiv_scope up_down (%aiv_id) -> (index) {
    // expected-error@+1 {{pto.yield has 1 values but 2 types}}
    pto.yield %aiv_id : index, index
  }
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{split_aiv_scope body must end with pto.yield}}
  "pto.split_aiv_scope"() ({
  ^bb0(%aiv_id: index):
    %x = pto.create : !pto.tile<16x16xf32, vec>
  }) {mode = #pto.split<none>} : () -> ()
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{split_aiv_scope body must have exactly one 'index' argument (the lane id)}}
  "pto.split_aiv_scope"() ({
  ^bb0(%aiv_id: i32):
    pto.yield
  }) {mode = #pto.split<none>} : () -> ()
  func.return
}

// -----

func.func @f(%t: !pto.tensor<16x16xf32>) {
  // expected-error@+1 {{split_aiv_scope yields (index) but its results are (!pto.tensor<16x16xf32>); the pto.yield types must match the result types}}
  %r = pto.split_aiv_scope left_right (%aiv_id) -> (!pto.tensor<16x16xf32>) {
    pto.yield %aiv_id : index
  }
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{'pto.split_aiv_scope' op attribute 'mode' must be #pto.split<none|up_down|left_right>, got 1 : i64}}
  "pto.split_aiv_scope"() ({
  ^bb0(%aiv_id: index):
    pto.yield
  }) {mode = 1 : i64} : () -> ()
  func.return
}

// -----

// Split codes on transfer ops are 0..4.
func.func @f(%a: !pto.tile<16x128xf32, acc>) {
  // expected-error@+1 {{'pto.tpush_to_aiv' op attribute 'split' must be in [0, 4], got 5}}
  pto.tpush_to_aiv %a {split = 5 : i64} : !pto.tile<16x128xf32, acc>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{'pto.tpush_to_aic' op attribute 'split' must be in [0, 4], got -1}}
  pto.tpush_to_aic %a {split = -1 : i64} : !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{'pto.tpop_from_aic' op attribute 'split' must be in [0, 4], got 7}}
  %p = pto.tpop_from_aic {split = 7 : i64} : !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{'pto.tpop_from_aiv' op attribute 'split' must be in [0, 4], got 5}}
  %p = pto.tpop_from_aiv {split = 5 : i64} : !pto.tile<16x128xf32, mat>
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{'pto.tpop_from_aiv' op is missing its required attribute 'split'; add it to the attribute dictionary}}
  %p = pto.tpop_from_aiv : !pto.tile<16x128xf32, mat>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, acc>) {
  // expected-error@+1 {{'pto.tpush_to_aiv' op attribute 'id' must be >= 0, got -2}}
  pto.tpush_to_aiv %a {split = 0 : i64, id = -2 : i64} : !pto.tile<16x128xf32, acc>
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{'pto.tpop_from_aic' op attribute 'lane_stride' must be >= 1, got 0}}
  %p = pto.tpop_from_aic {split = 1 : i64, lane_stride = 0 : i64} : !pto.tile<8x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, acc>) {
  // expected-error@+1 {{invalid attribute value "x": expected an integer attribute (e.g. 0 : i64)}}
  pto.tpush_to_aiv %a {split = "x"} : !pto.tile<16x128xf32, acc>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, acc>) {
  // expected-error@+1 {{'pto.tpush_to_aiv' op attribute 'split' must be an integer attribute (e.g. 0 : i64), got "x"}}
  "pto.tpush_to_aiv"(%a) {split = "x"} : (!pto.tile<16x128xf32, acc>) -> ()
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{tpush_to_aiv sends a cube-side tile, but its operand is in 'vec'}}
  pto.tpush_to_aiv %a {split = 0 : i64} : !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, acc>) {
  // expected-error@+1 {{tpush_to_aic operand must be in memory space 'vec', but it is in 'acc'}}
  pto.tpush_to_aic %a {split = 0 : i64} : !pto.tile<16x128xf32, acc>
  func.return
}

// -----

func.func @f(%a: !pto.tile<16x128xf32, vec>) {
  // expected-error@+1 {{'pto.tfree_to_aic' op attribute 'id' must be >= 0, got -1}}
  pto.tfree_to_aic %a {id = -1 : i64} : !pto.tile<16x128xf32, vec>
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{'pto.reserve_buffer' op attribute 'size' must be >= 1, got 0}}
  %rb = pto.reserve_buffer {name = "f_c2v_slot_buffer", size = 0 : i64, base = -1 : i64} : i32
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{'pto.reserve_buffer' op attribute 'base' must be >= -1, got -2}}
  %rb = pto.reserve_buffer {name = "f_c2v_slot_buffer", size = 1024 : i64, base = -2 : i64} : i32
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{'pto.reserve_buffer' op is missing its required attribute 'name'; add it to the attribute dictionary}}
  %rb = pto.reserve_buffer {size = 1024 : i64, base = -1 : i64} : i32
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{invalid attribute value "f_aiv": expected a symbol reference (e.g. @f_aiv)}}
  %ib = pto.import_peer_buffer {name = "f_c2v_slot_buffer", peer_func = "f_aiv"} : i32
  func.return
}

// -----

func.func @f(%b: i32) {
  // expected-error@+1 {{'pto.aic_initialize_pipe' op attribute 'dir_mask' must be in [1, 3], got 0}}
  pto.aic_initialize_pipe %b, %b {dir_mask = 0 : i64, slot_size = 8192 : i64} : i32, i32
  func.return
}

// -----

func.func @f(%b: i32) {
  // expected-error@+1 {{'pto.aiv_initialize_pipe' op attribute 'dir_mask' must be in [1, 3], got 4}}
  pto.aiv_initialize_pipe %b, %b {dir_mask = 4 : i64, slot_size = 8192 : i64} : i32, i32
  func.return
}

// -----

func.func @f(%b: i32) {
  // expected-error@+1 {{'pto.aiv_initialize_pipe' op attribute 'slot_size' must be >= 1, got 0}}
  pto.aiv_initialize_pipe %b, %b {dir_mask = 1 : i64, slot_size = 0 : i64} : i32, i32
  func.return
}

// -----

func.func @f(%b: i32) {
  // expected-error@+1 {{'pto.aic_initialize_pipe' op attribute 'slot_num' must be >= 1, got 0}}
  pto.aic_initialize_pipe %b, %b {dir_mask = 1 : i64, slot_size = 8192 : i64, slot_num = 0 : i64} : i32, i32
  func.return
}

// -----

func.func @f(%b: i32) {
  // expected-error@+1 {{'pto.aic_initialize_pipe' op attribute 'local_slot_num' must be >= 1, got 0}}
  pto.aic_initialize_pipe %b, %b {dir_mask = 1 : i64, slot_size = 8192 : i64, local_slot_num = 0 : i64} : i32, i32
  func.return
}

// -----

func.func @f(%b: i32) {
  // expected-error@+1 {{'pto.aiv_initialize_pipe' op attribute 'id' must be >= 0, got -1}}
  pto.aiv_initialize_pipe %b, %b {dir_mask = 1 : i64, slot_size = 8192 : i64, id = -1 : i64} : i32, i32
  func.return
}

// -----

func.func @f(%b: i32) {
  // expected-error@+1 {{'pto.aic_initialize_pipe' op local_slot_num 4 exceeds slot_num 2}}
  pto.aic_initialize_pipe %b, %b {dir_mask = 3 : i64, slot_size = 8192 : i64, slot_num = 2 : i64, local_slot_num = 4 : i64} : i32, i32
  func.return
}

// -----

func.func @f(%b: index) {
  // expected-error@+1 {{operand 'c2v_buffer' must be of type i32, got index}}
  "pto.aic_initialize_pipe"(%b, %b) {dir_mask = 1 : i64, slot_size = 8192 : i64} : (index, index) -> ()
  func.return
}

// -----

func.func @f() {
  // expected-error@+1 {{'pto.import_peer_buffer' op attribute 'peer_func' must be a symbol reference (e.g. @f_aiv), got "f_aiv"}}
  %ib = "pto.import_peer_buffer"() {name = "f_c2v_slot_buffer", peer_func = "f_aiv"} : () -> i32
  func.return
}
