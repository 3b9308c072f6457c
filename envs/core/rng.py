"""The random generator every engine uses: xorshift64* whose whole state is one record field.

The state lives in the ``rng`` field (uint64, never zero) of the game record, so copying a
record copies its random future, a seed fixes a whole trajectory, and a batch of records is a
batch of independent streams. Every function takes the record (or any record with an ``rng``
field, such as :data:`RNG`) and advances it in place.

Quality: xorshift64* (Vigna, 2016) has period 2**64 - 1 and passes BigCrush except for the
low bits' linear-complexity tests; we only use the top 53 bits of each output.
:func:`randint` rejects the few values that would bias ``n`` buckets, so it is exactly
uniform, and :func:`shuffle` (Fisher-Yates over it) gives every permutation the same
probability; ``tests/core/test_rng.py`` checks both with chi-square tests over many draws.

Seeds go through splitmix64 so that neighbouring seeds (0, 1, 2, ...) start far apart.
"""

import warnings

import numba
import numpy as np
from numba import njit

# numpy scalars warn on the intended wrap-around of 64-bit multiplication; this only matters
# when NUMBA_DISABLE_JIT=1 runs the same functions as plain Python.
if numba.config.DISABLE_JIT:
    warnings.filterwarnings("ignore", message="overflow encountered in scalar", category=RuntimeWarning)

#: A record holding a generator of its own: for streams that are not part of a game
#: (the random actions of :meth:`envs.core.vector.VectorGame.random_steps`). ``stream`` numbers
#: it; it also keeps the dtype from being a prefix of a game record, which numba would treat as
#: an (experimental) record subtype and share compiled code across.
RNG = np.dtype((np.record, [("rng", np.uint64), ("stream", np.int64)]))

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STAR = np.uint64(0x2545F4914F6CDD1D)
_TOP53 = 1 << 53


@njit(cache=True)
def splitmix64(x):
    """One splitmix64 output for input ``x`` (a uint64): a strong 64-bit mixer."""
    z = np.uint64(x) + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def derive_seed(seed, index, counter):
    """A seed for stream ``(index, counter)`` of ``seed``: used for the episodes of a batch."""
    z = splitmix64(np.uint64(seed))
    z = splitmix64(z ^ np.uint64(index))
    return splitmix64(z ^ np.uint64(counter)) >> np.uint64(1)


@njit(cache=True)
def seed_rng(state, seed):
    """Start the record's generator from ``seed`` (any integer 0 <= seed < 2**64)."""
    z = splitmix64(np.uint64(seed))
    if z == np.uint64(0):
        z = _GOLDEN
    state.rng = z


@njit(cache=True)
def next_u64(state):
    """The next 64 random bits of the record's generator."""
    x = state.rng
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state.rng = x
    return x * _STAR


@njit(cache=True)
def _next53(state):
    return np.int64(next_u64(state) >> np.uint64(11))


@njit(cache=True)
def uniform(state):
    """A float in [0, 1) with 53 random bits."""
    return _next53(state) / _TOP53


@njit(cache=True)
def randint(state, n):
    """An integer in [0, n), exactly uniform (rejection of the biased tail). ``n`` >= 1."""
    r = _next53(state)
    if r >= _TOP53 - n:  # (below that no draw is in the tail: its bound is worked out only near it)
        limit = _TOP53 - (_TOP53 % n)
        while r >= limit:
            r = _next53(state)
    return r % n


@njit(cache=True)
def randrange(state, low, high):
    """An integer in [low, high], both ends included."""
    return low + randint(state, high - low + 1)


@njit(cache=True)
def shuffle(state, arr, n):
    """Fisher-Yates shuffle of ``arr[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = randint(state, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


CHOICE_BLOCK = 16  # choice skips the mask this many entries at a time


@njit(cache=True, inline="always")
def _count_legal(mask, start, stop):
    """The non-zero entries of ``mask[start:stop]``. The count is kept in 32 bits: the compiler then
    adds 8 entries per vector instruction where a 64-bit count takes 4 (and many more widenings)."""
    count = np.int32(0)
    for i in range(start, stop):
        count = np.int32(count + (mask[i] != 0))
    return count


@njit(cache=True)
def choice(state, mask):
    """Index of a uniformly chosen non-zero entry of ``mask``; -1 when all are zero.

    The ``k``-th non-zero entry for ``k = randint(count)``. The search for it counts whole blocks
    of :data:`CHOICE_BLOCK` entries (a loop the compiler vectorises) and steps into the block that
    holds it: the same entry as a scan one entry at a time, in a fraction of the time for the long,
    mostly empty masks of the larger action spaces."""
    n = mask.shape[0]
    count = _count_legal(mask, 0, n)
    if count == 0:
        return -1
    k = randint(state, int(count))  # (an int: as a numpy int32, plain Python's randint bound would overflow)
    start = 0
    while start + CHOICE_BLOCK <= n:
        in_block = _count_legal(mask, start, start + CHOICE_BLOCK)
        if k < in_block:
            break
        k -= in_block
        start += CHOICE_BLOCK
    for i in range(start, n):
        if mask[i] != 0:
            if k == 0:
                return i
            k -= 1
    return -1
