"""Benchmark scripts; each writes benchmarks/results/<name>.md (and a PNG). Run them with `make bench`."""
