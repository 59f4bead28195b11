"""Benchmarks of Scorekeeper over HTTP: bench/README.md."""
