"""The generator: uniformity of randint and shuffle (chi-square), seeding, record-held state."""

import itertools

import numpy as np
import pytest
from numba import njit

from envs.core.rng import RNG, choice, derive_seed, randint, randrange, seed_rng, shuffle, uniform

# 99.9% quantiles of chi-square: a correct generator fails one of these about once in 1000 runs,
# and the seeds are fixed, so the outcome is repeatable.
CHI2_999 = {5: 20.52, 9: 27.88, 23: 49.73}


@njit(cache=True)
def _draw_ints(seed, n, count):
    rec = np.zeros(1, RNG)
    seed_rng(rec[0], seed)
    out = np.empty(count, np.int64)
    for i in range(count):
        out[i] = randint(rec[0], n)
    return out


@njit(cache=True)
def _shuffled_permutations(seed, n, trials):
    rec = np.zeros(1, RNG)
    seed_rng(rec[0], seed)
    arr = np.empty(n, np.int64)
    perms = np.empty((trials, n), np.int64)
    for t in range(trials):
        for i in range(n):
            arr[i] = i
        shuffle(rec[0], arr, n)
        for i in range(n):
            perms[t, i] = arr[i]
    return perms


def chi_square(observed):
    expected = observed.sum() / observed.size
    return float(((observed - expected) ** 2 / expected).sum())


def test_randint_is_uniform():
    draws = _draw_ints(123, 10, 200_000)
    assert draws.min() == 0 and draws.max() == 9
    assert chi_square(np.bincount(draws, minlength=10)) < CHI2_999[9]


def test_randint_is_uniform_for_a_range_that_does_not_divide_two_to_the_53():
    draws = _draw_ints(7, 6, 120_000)
    assert chi_square(np.bincount(draws, minlength=6)) < CHI2_999[5]


def test_shuffle_gives_every_permutation_equally_often():
    perms = _shuffled_permutations(99, 4, 240_000)
    index = {p: i for i, p in enumerate(itertools.permutations(range(4)))}
    counts = np.zeros(24, np.int64)
    for row in perms:
        counts[index[tuple(row)]] += 1
    assert counts.min() > 0
    assert chi_square(counts) < CHI2_999[23]


def test_uniform_floats_lie_in_unit_interval_with_mean_one_half():
    rec = np.zeros(1, RNG)
    seed_rng(rec[0], 5)
    values = np.array([uniform(rec[0]) for _ in range(20_000)])
    assert values.min() >= 0.0 and values.max() < 1.0
    assert abs(values.mean() - 0.5) < 0.01


def test_choice_picks_only_nonzero_entries_uniformly():
    rec = np.zeros(1, RNG)
    seed_rng(rec[0], 1)
    mask = np.array([0, 1, 0, 1, 1, 0], np.int8)
    picks = np.array([choice(rec[0], mask) for _ in range(30_000)])
    assert set(np.unique(picks)) == {1, 3, 4}
    assert chi_square(np.bincount(picks, minlength=6)[[1, 3, 4]]) < 13.82  # chi2(2) 99.9%
    assert choice(rec[0], np.zeros(4, np.int8)) == -1


def test_choice_is_the_kth_nonzero_entry_for_k_drawn_by_randint():
    """choice searches by blocks of entries; it must pick what a scan one entry at a time picks
    (the k-th non-zero entry, k = randint(count)), or every seeded trajectory would change."""
    rng = np.random.default_rng(0)
    mine, ref = np.zeros(1, RNG), np.zeros(1, RNG)
    seed_rng(mine[0], 11)
    seed_rng(ref[0], 11)
    for _ in range(2000):
        size = int(rng.integers(1, 600))
        mask = (rng.random(size) < rng.random() ** 3).astype(np.int8) * rng.integers(1, 4, size).astype(np.int8)
        nonzero = np.flatnonzero(mask)
        expected = nonzero[randint(ref[0], len(nonzero))] if len(nonzero) else -1
        assert choice(mine[0], mask) == expected
        assert mine["rng"][0] == ref["rng"][0]


def test_randrange_includes_both_ends():
    rec = np.zeros(1, RNG)
    seed_rng(rec[0], 2)
    values = {randrange(rec[0], 33, 45) for _ in range(5000)}
    assert values == set(range(33, 46))


def test_same_seed_same_stream_and_the_state_is_the_record_field():
    a, b = np.zeros(1, RNG), np.zeros(1, RNG)
    seed_rng(a[0], 42)
    seed_rng(b[0], 42)
    assert a["rng"][0] != 0
    assert [randint(a[0], 1000) for _ in range(10)] == [randint(b[0], 1000) for _ in range(10)]
    copy = a.copy()  # copying the record copies its random future
    assert [randint(a[0], 1000) for _ in range(10)] == [randint(copy[0], 1000) for _ in range(10)]


@pytest.mark.parametrize("seed", [0, 1, 2**63, 2**64 - 1])
def test_every_seed_gives_a_working_nonzero_state(seed):
    rec = np.zeros(1, RNG)
    seed_rng(rec[0], np.uint64(seed))
    assert rec["rng"][0] != 0
    assert len({randint(rec[0], 2**40) for _ in range(50)}) > 45


def test_derived_seeds_differ_by_index_and_counter_and_fit_in_63_bits():
    seeds = {int(derive_seed(9, i, k)) for i in range(50) for k in range(50)}
    assert len(seeds) == 2500
    assert max(seeds) < 2**63
