builtin.module {
  %0 = pto.bogus_op(%x) : () -> i32
}
