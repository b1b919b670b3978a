"""Program sources for the interpreter's pass checks: the pass lit-test corpus and random kernels."""
