"""Bit-mask helpers the engines share (numba)."""

from numba import njit


@njit(cache=True, inline="always")
def count_bits(mask):
    """How many bits of the non-negative int ``mask`` are set."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n
