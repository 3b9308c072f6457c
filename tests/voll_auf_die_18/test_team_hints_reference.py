"""The argue hints (``engine.team_hints``, behind ``infos["hints"]`` and the ``hint_slots`` /
``hint_argue`` blocks) and the team count (``engine.team_search``, behind ``argument_search``)
against the computation they replaced: every seat's options from its own subset readings at every
Nazi, and a count table filled over every sum 0-31. The engine reads each seat's subsets once a
view, skips the count where a bit table shows no team, and fills the table only up to the highest
target; hints, counts and chosen teams must stay identical."""

import numpy as np
from numba import njit

from envs.voll_auf_die_18 import engine as E

from .test_exchange_gains_reference import CASES, random_positions


@njit
def reference_seat_options(kind, relax, colours, values, halves, usable, allowed, banned, out_mask, out_value,
                           out_talent):
    """The options of one seat at one Nazi, read off its accepted cards alone."""
    normal = np.empty(E.NUM_SUBSETS, np.int64)
    talent = np.empty(E.NUM_SUBSETS, np.int64)
    E.subset_readings(kind, colours, values, halves, E.cards_accepted(colours, values, usable, allowed, banned),
                      normal, talent)
    n = 0
    for s in range(E.NUM_SUBSETS):
        readings = normal[s] | (talent[s] if relax else np.int64(0))
        if readings == 0:
            continue
        for v in range(1, E.MAX_VALUE):
            if (readings >> v & 1) and n < out_mask.shape[0]:
                out_mask[n] = E.SUBSETS[s]
                out_value[n] = v
                out_talent[n] = 0 if (normal[s] >> v & 1) else 1
                n += 1
    return n


@njit
def reference_team_search(targets, min_new, can_join, must_join, opt_value, opt_count, solution_option):
    """The count table over every sum 0-31 and member count, then the team with the fewest members."""
    seats = can_join.shape[0]
    ways = np.zeros((seats + 1, 32, seats + 1), np.int64)
    ways[seats, 0, 0] = 1
    for seat in range(seats - 1, -1, -1):
        for total in range(32):
            for members in range(seats + 1):
                count = 0
                if not must_join[seat]:
                    count += ways[seat + 1, total, members]
                if can_join[seat] and members > 0:
                    for o in range(opt_count[seat]):
                        v = opt_value[seat, o]
                        if v <= total:
                            count += ways[seat + 1, total - v, members - 1]
                ways[seat, total, members] = min(count, 1 << 40)
    solutions = 0
    best_members, best_total = -1, -1
    for total in range(32):
        if targets >> total & 1:
            for members in range(min_new, seats + 1):
                if ways[0, total, members] > 0:
                    solutions += ways[0, total, members]
                    if best_members < 0 or members < best_members:
                        best_members, best_total = members, total
    solution_option[:] = -1
    if best_members >= 0:
        total, members = best_total, best_members
        for seat in range(seats):
            if not must_join[seat] and ways[seat + 1, total, members] > 0:
                continue
            for o in range(opt_count[seat]):
                v = opt_value[seat, o]
                if members > 0 and v <= total and ways[seat + 1, total - v, members - 1] > 0:
                    solution_option[seat] = o
                    total -= v
                    members -= 1
                    break
    return solutions


def compare_slot(r, viewer, slot, cards, hint, ways, checked):
    """The reference hint of one slot against the engine's, and the engine's team_search on the same
    options against the reference count and team (with every smallest team size, not just this one)."""
    num = int(r["num_players"])
    nazi = E.nazi_in_slot(r, slot)
    if nazi < 0:
        assert ways[slot] == 0 and not hint[slot].any()
        return
    allowed, banned, everyone = E.nazi_rules(r, nazi)
    options = np.zeros((3, num, E.MAX_OPTIONS), np.int64)
    per_seat = np.zeros((4, num), np.int64)
    members = 0
    for seat in range(num):
        laid = r["contrib"][nazi, seat]
        members += laid
        if not laid:
            per_seat[0, seat] = reference_seat_options(r["character"][seat], r["talent_ready"][seat], *cards[:, seat],
                                                       allowed, banned, options[0, seat], options[1, seat],
                                                       options[2, seat])
        per_seat[1, seat] = 0 if laid else 1
        per_seat[2, seat] = everyone if not laid else 0
    targets = E._targets(E.NAZI_IQ[nazi], r["pool_fixed"][nazi], r["pool_readings"][nazi])
    fewest = max(0, E.min_team(r) - members)
    count = reference_team_search(targets, fewest, per_seat[1], per_seat[2], options[1], per_seat[0], per_seat[3])
    assert ways[slot] == min(count, 32767), (slot, ways[slot], count)
    expected = [options[0, seat, per_seat[3, seat]] if per_seat[3, seat] >= 0 else 0 for seat in range(num)]
    assert [hint[slot, (seat - viewer) % num] for seat in range(num)] == expected
    scratch = np.full((num + 1, 32, num + 1), 7, np.int64)  # (stale scratch must not matter)
    for min_new in range(num + 1):
        want, have = np.zeros(num, np.int64), np.zeros(num, np.int64)
        reference = reference_team_search(targets, min_new, per_seat[1], per_seat[2], options[1], per_seat[0], want)
        assert E.team_search(targets, min_new, per_seat[1], per_seat[2], options[1], per_seat[0], scratch, have) \
            == reference
        assert np.array_equal(want, have)
    checked["slots"] += 1
    checked["teams"] += int(count > 0)


def test_hints_and_team_counts_equal_the_full_search():
    checked = {"views": 0, "slots": 0, "teams": 0}
    hint, ways = np.zeros((E.NUM_SLOTS, E.MAX_PLAYERS), np.int8), np.zeros(E.NUM_SLOTS, np.int16)
    for case in CASES:
        num = case[0]
        for states in random_positions(*case):
            r = states[0]
            for viewer in range(num):
                E.hints(states, viewer, hint, ways)
                cards = np.zeros((4, num, 4), np.int8)
                for seat in range(num):
                    E._seat_cards(r, seat, viewer, cards[0, seat], cards[1, seat], cards[2, seat], cards[3, seat])
                for slot in range(E.NUM_SLOTS):
                    compare_slot(r, viewer, slot, cards, hint, ways, checked)
                checked["views"] += 1
    assert checked["teams"] > 100 and checked["slots"] > checked["teams"], checked
