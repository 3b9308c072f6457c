"""The hot path: the argument search against a brute-force oracle written independently here, and
the pooled relaxation behind "can no longer convince" against exhaustive enumeration."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

SUBSETS = [s for s in range(16) if bin(s).count("1") >= 2]


def oracle_values(kind, relax, cards):
    """{(value, needs_talent)} for the cards [(colour, value, half)] of one argumentation."""
    k = len(cards)
    colours = [c for c, _, _ in cards]
    values = [v for _, v, _ in cards]
    if kind == D.MARIA:
        normal, talent = set(), set()
        if k in (2, 4):
            if k == 2:
                pairings = [((0, 1),)]
            else:
                pairings = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
            for pairing in pairings:
                digit_sets = [[d for d in range(10) if D.PAIR_DIGITS[cards[a][2], cards[b][2]] >> d & 1]
                              for a, b in pairing]
                for ds in itertools.product(*digit_sets):
                    if sum(ds) > 0:
                        normal.add(sum(ds))
        if k == 3 and relax:
            for single in range(3):
                a, b = [i for i in range(3) if i != single]
                for d in range(10):
                    if D.PAIR_DIGITS[cards[a][2], cards[b][2]] >> d & 1 and d + values[single] > 0:
                        talent.add(d + values[single])
        return {(v, 0) for v in normal} | {(v, 1) for v in talent - normal}

    def ok(idx):
        col = [colours[i] for i in idx]
        val = sorted(values[i] for i in idx)
        if kind == D.KANGAROO:
            return len(set(col)) == 1
        if kind == D.OTTO_VON:
            return len(set(val)) == 1
        if kind == D.FRIEDRICH_WILHELM:
            return len(set(col)) == len(col)
        if kind == D.HERTA:
            return len({v % 2 for v in val}) == 1
        if kind in (D.KLEINKUENSTLER, D.KRAPOTKE):
            straight = len(set(val)) == len(val) and val[-1] - val[0] == len(val) - 1
            if kind == D.KRAPOTKE:
                return straight or len(set(val)) == 1
            return straight
        return False

    everyone = tuple(range(k))
    if kind == D.GOD:
        normal, relaxed = k == 2, k in (3, 4)
    elif kind == D.KLEINKUENSTLER:
        normal = ok(everyone)
        val = sorted(values)
        relaxed = len(set(val)) == k and val[-1] - val[0] == k
    else:
        normal = ok(everyone)
        relaxed = any(ok(tuple(i for i in everyone if i != skip)) for skip in everyone) if k >= 2 else False
        if kind == D.FRIEDRICH_WILHELM:  # one colour twice (the rest distinct)
            relaxed = len(set(colours)) == k - 1
    if normal:
        return {(sum(values), 0)}
    if relaxed and relax:
        return {(sum(values), 1)}
    return set()


def oracle_options(kind, relax, hand, usable, allowed, banned):
    options = []
    for subset in SUBSETS:
        members = [i for i in range(4) if subset >> i & 1]
        if not all(usable[i] and allowed >> hand[i][0] & 1 and not banned >> hand[i][1] & 1 for i in members):
            continue
        for value, talent in sorted(oracle_values(kind, relax, [hand[i] for i in members])):
            options.append((subset, value, talent))
    return options


def oracle_count(iq, allowed, banned, min_team, everyone, kinds, relax, hands, usable, fixed, readings, laid):
    targets = {iq - fixed} if readings == 0 else {iq - fixed - m for m in range(32) if readings >> m & 1}
    per_seat = []
    for seat in range(len(kinds)):
        opts = [] if laid[seat] else oracle_options(kinds[seat], relax[seat], hands[seat], usable[seat], allowed,
                                                    banned)
        must = everyone and not laid[seat]
        per_seat.append(([] if must else [None]) + opts)
    members0 = sum(laid)
    count, best = 0, None
    for combo in itertools.product(*per_seat):
        chosen = [c for c in combo if c is not None]
        if sum(v for _, v, _ in chosen) in targets and members0 + len(chosen) >= min_team:
            count += 1
            best = len(chosen) if best is None else min(best, len(chosen))
    return count, best


card_st = st.tuples(st.integers(0, 3), st.integers(1, 6), st.integers(0, D.NUM_HALVES - 1))
seat_st = st.tuples(st.sampled_from(range(D.NUM_CHARACTERS)), st.booleans(), st.lists(card_st, min_size=4, max_size=4),
                    st.lists(st.booleans(), min_size=4, max_size=4), st.booleans())


@settings(max_examples=300, deadline=None)
@given(seats=st.lists(seat_st, min_size=2, max_size=4), iq=st.integers(6, 23), allowed=st.integers(1, 15),
       banned=st.sampled_from([0, 0, 0b110, 0b11000, 1 << 6]), min_team=st.sampled_from([1, 2]),
       everyone=st.booleans(), fixed=st.integers(0, 5), maria_pool=st.sampled_from([0, 0, 1 << 3 | 1 << 5]))
def test_argument_search_matches_brute_force(seats, iq, allowed, banned, min_team, everyone, fixed, maria_pool):
    num = len(seats)
    kinds = np.array([s[0] for s in seats], np.int8)
    relax = np.array([s[1] for s in seats], np.int8)
    hands = [s[2] for s in seats]
    usable = np.array([[int(u) for u in s[3]] for s in seats], np.int8)
    laid = np.array([int(s[4]) for s in seats], np.int8)
    if laid.all():
        laid[0] = 0
    colours = np.array([[c for c, _, _ in h] for h in hands], np.int8)
    values = np.array([[v for _, v, _ in h] for h in hands], np.int8)
    halves = np.array([[x for _, _, x in h] for h in hands], np.int8)
    solution = np.zeros(num, np.int8)
    count = E.argument_search(iq, allowed, banned, min_team, int(everyone), kinds, relax, colours, values, halves,
                              usable, fixed, maria_pool, laid, solution)
    expected, fewest = oracle_count(iq, allowed, banned, min_team, everyone, list(kinds), list(relax), hands,
                                    usable, fixed, maria_pool, list(laid))
    assert count == expected
    if expected:
        members = [seat for seat in range(num) if solution[seat]]
        assert len(members) == fewest, "the reported team is one of the smallest"
        opts = [oracle_options(kinds[s], relax[s], hands[s], usable[s], allowed, banned) for s in range(num)]
        sums = [{v for m, v, _ in opts[s] if m == solution[s]} for s in members]
        targets = {iq - fixed} if maria_pool == 0 else {iq - fixed - m for m in range(32) if maria_pool >> m & 1}
        assert any(sum(c) in targets for c in itertools.product(*sums)), "the reported team hits the IQ"
        assert not any(laid[s] for s in members)
    else:
        assert not solution.any()


def test_rulebook_examples_through_the_search():
    """Kangaroo 1+5 (6) and Kleinkünstler 2-3-4-5 (14) make 20 together; Krapotke's 2-2 is 4."""
    kinds = np.array([D.KANGAROO, D.KLEINKUENSTLER], np.int8)
    colours = np.array([[0, 0, 1, 3], [0, 1, 2, 3]], np.int8)
    values = np.array([[1, 5, 2, 3], [2, 3, 4, 5]], np.int8)
    halves = np.zeros((2, 4), np.int8)
    usable = np.ones((2, 4), np.int8)
    none = np.zeros(2, np.int8)
    solution = np.zeros(2, np.int8)
    assert E.argument_search(20, 15, 0, 1, 0, kinds, none, colours, values, halves, usable, 0, 0, none, solution) >= 1
    assert list(solution) == [0b0011, 0b1111]
    assert E.argument_search(6, 15, 0, 1, 0, kinds, none, colours, values, halves, usable, 0, 0, none, solution) >= 1
    assert list(solution) == [0b0011, 0]
    kinds = np.array([D.KRAPOTKE, D.KANGAROO], np.int8)
    dice = np.array([[2, 2, 5, 1], [1, 1, 6, 6]], np.int8)
    colours = np.array([[0, 1, 2, 3], [0, 0, 0, 0]], np.int8)
    assert E.argument_search(6, 15, 0, 2, 0, kinds, none, colours, dice, halves, usable, 0, 0, none, solution) >= 1
    assert list(solution) == [0b0011, 0b0011], "pair of 2s (4) + 1 + 1"


# ---- the pooled relaxation -----------------------------------------------------------------------


def exact_reach(kind, talented, pool):
    """Every value ``kind`` can argue from up to 4 cards of ``pool`` [(colour, value, half)]."""
    reach = set()
    for k in (2, 3, 4):
        for idx in itertools.combinations(range(len(pool)), k):
            chosen = [pool[i] for i in idx]
            reach |= {v for v, _ in oracle_values(kind, talented, chosen)}
    return reach


@settings(max_examples=120, deadline=None)
@given(kind=st.sampled_from([k for k in range(D.NUM_CHARACTERS) if k != D.KRAPOTKE]), talented=st.booleans(),
       pool=st.lists(card_st, min_size=0, max_size=8))
def test_pooled_values_over_approximate_every_real_argumentation(kind, talented, pool):
    counts = np.zeros((4, 7), np.int64)
    halves = np.zeros(D.NUM_HALVES, np.int64)
    for c, v, h in pool:
        counts[c, v] += 1
        halves[h] += 1
    reach = E.pooled_values(kind, talented, counts, halves, np.ones(4, np.int64), 0)
    for value in exact_reach(kind, talented, pool):
        assert reach >> value & 1, f"{D.CHARACTER_IDS[kind]} reaches {value} with {pool}"


def test_pooled_values_krapotke_reaches_his_pasch_and_straights():
    reach = E.pooled_values(D.KRAPOTKE, False, np.zeros((4, 7), np.int64), np.zeros(D.NUM_HALVES, np.int64),
                            np.ones(4, np.int64), 0)
    for value in (2, 4, 10, 20, 3, 9, 14):         # 1-1, 2-2, 5-5, 5-5-5-5, 1-2, 2-3-4, 2-3-4-5
        assert reach >> value & 1
    assert not reach >> 21 & 1 and not reach >> 1 & 1
    one_die = E.pooled_values(D.KRAPOTKE, True, np.zeros((4, 7), np.int64), np.zeros(D.NUM_HALVES, np.int64),
                              np.array([1, 0, 0, 0], np.int64), 0)
    assert one_die == 0, "one usable die cannot argue"


def test_team_reaches():
    reach = np.array([1 << 6, 1 << 14], np.int64)
    assert E.team_reaches(20, reach, 1, 0, 2) and E.team_reaches(6, reach, 1, 0, 2)
    assert not E.team_reaches(6, reach, 2, 0, 2), "never alone"
    assert not E.team_reaches(6, reach, 1, 1, 2), "all against one"
    assert E.team_reaches(20, reach, 2, 1, 2)


@pytest.mark.parametrize("kind", [k for k in range(D.NUM_CHARACTERS) if k not in (D.MARIA, D.KRAPOTKE)])
def test_packed_counts_read_the_rules_as_rule_status_does(kind):
    """code_status (the rule read off the summed CARD_CODEs) agrees with rule_status on 2-4 Arguments."""
    rng = np.random.default_rng(kind)
    for _ in range(4000):
        k = int(rng.integers(2, 5))
        members = rng.choice(D.NUM_ARGUMENTS, k, replace=False)
        colours = np.zeros(4, np.int64)
        values = np.zeros(4, np.int64)
        colours[:k] = D.CARD_COLOUR[members]
        values[:k] = D.CARD_VALUE[members]
        code = int(E.CARD_CODE[members].sum())
        assert E.code_status(kind, code, k) == E.rule_status(kind, colours, values, (1 << k) - 1)
        assert code >> E.CODE_SUM == values.sum()


@pytest.mark.parametrize("kind", [k for k in range(D.NUM_CHARACTERS) if k not in (D.MARIA, D.KRAPOTKE)])
def test_a_set_that_may_not_grow_has_no_larger_argumentation(kind):
    """code_may_grow (the pruning of card_options) says no only when no 3 or 4 Arguments containing
    the set argue for the character, with and without the talent."""
    rng = np.random.default_rng(100 + kind)
    for _ in range(3000):
        k = int(rng.integers(2, 4))
        members = rng.choice(D.NUM_ARGUMENTS, 4, replace=False)
        code = int(E.CARD_CODE[members[:k]].sum())
        for relax in (False, True):
            if not E.code_may_grow(kind, relax, code, k):
                for size in range(k + 1, 5):
                    grown = int(E.CARD_CODE[members[:size]].sum())
                    assert not E._code_fits(kind, relax, grown, size), (members, k, size, relax)
