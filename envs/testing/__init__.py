"""Fixtures for testing the shared machinery: two toy games small enough to check by hand.

They live under ``envs/`` (not ``tests/``) so that the numba cache key covers them, and are not
registered as env ids.
"""
