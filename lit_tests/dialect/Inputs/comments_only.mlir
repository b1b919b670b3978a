// Input of driver_usage_errors.mlir: only comments.

// Nothing else.
