"""Benchmarks: one module per operator on the shared harness."""
