"""The stuck search's shortcut (:func:`hand_teams_fit`): before searching, lost_reason asks whether a
team can convince a Nazi coming face up with each seat laying from its own hand. It only saves
work: on states from random play (which uses the emergency redraw early, so the stuck search runs
often) lost_reason answers as the searches alone do, every hand team found is one the full search
finds, and card_options lists a hand's argumentations exactly as it lists them among all cards."""

import numpy as np
import pytest

from envs.core.vector import VectorGame
from envs.voll_auf_die_18 import engine as E

ENV_ID = "voll_auf_die_18_v0"


def played_states(players, chapter, seed, games=12, warmup=40, chunks=12, steps=4):
    """Non-terminal records from random play."""
    vg = VectorGame(ENV_ID, games, seed=seed, num_players=players, chapter=chapter)
    vg.reset()
    vg.random_steps(warmup, False)
    out = []
    for _ in range(chunks):
        vg.random_steps(steps, False)
        states = vg.get_state()
        out.extend(states[i] for i in range(games) if not states[i].terminal)
    return out


def searches_only(state):
    """lost_reason as it was before the shortcut: the quick searches, then the full ones (the
    other ways to lose, which the shortcut does not touch, as lost_reason answers them)."""
    if state.convinced == 18 or not E.talent_goal_reachable(state) or not E.can_still_win(state):
        return int(E.lost_reason(state))
    cards = np.zeros(E.NUM_ARG, np.int64)
    n = E.closed_cards(state, cards)
    if n < 0 or E._stack_cards(state) == 0:
        return int(E.lost_reason(state))
    nazis = np.zeros(18, np.int64)
    count = E.coming_face_up(state, nazis)
    for j in range(count):
        if E.quick_fit(state, nazis[j:j + 1], 1, cards, n):
            return E.END_NONE
    for j in range(count):
        if E.full_fit(state, nazis[j:j + 1], 1, cards, n) != 0:
            return E.END_NONE
    return E.END_STUCK


def listed(kind, relax, cards, n, allowed, banned):
    """card_options over ``cards[:n]`` as a set of (card ids, value)."""
    bits = np.empty(E.MAX_CARD_OPTIONS, np.int64)
    values = np.empty(E.MAX_CARD_OPTIONS, np.int64)
    end = E.card_options(kind, relax, cards, n, allowed, banned, bits, values, 0)
    if end < 0:
        return None
    return {(frozenset(int(cards[i]) for i in range(n) if bits[o] >> i & 1), int(values[o])) for o in range(end)}


# Chapters 1 and 6 (no expansion from the stacks) reach the stuck search with stacks left; 19 may; 9 only
# once the stacks are empty (the shortcut's path untouched).
CASES = [(2, 1, 11), (3, 1, 12), (4, 1, 13), (5, 1, 14), (4, 6, 15), (2, 6, 16), (3, 19, 17), (4, 9, 18)]


@pytest.mark.parametrize("players,chapter,seed", CASES)
def test_hand_teams_change_no_answer(players, chapter, seed):
    stuck = found = 0
    for state in played_states(players, chapter, seed):
        assert int(E.lost_reason(state)) == searches_only(state)
        cards = np.zeros(E.NUM_ARG, np.int64)
        n = E.closed_cards(state, cards)
        if n < 0 or n > 64 or E._stack_cards(state) == 0 or state.convinced == 18:
            continue
        stuck += 1
        nazis = np.zeros(18, np.int64)
        for j in range(E.coming_face_up(state, nazis)):
            if E.hand_teams_fit(state, nazis[j:j + 1].copy(), 1):
                found += 1
                assert E.full_fit(state, nazis[j:j + 1].copy(), 1, cards, n) != 0
    if chapter in (1, 6):
        assert stuck > 0 and found > 0, "the shortcut never ran: the test proves nothing"


@pytest.mark.parametrize("players,chapter,seed", CASES)
def test_a_hand_lists_as_among_all_cards(players, chapter, seed):
    """The lemma behind the shortcut: for every seat and Nazi rules in play, card_options over the
    seat's hand (ids ascending) gives exactly the argumentations over all closed cards that use
    only hand cards."""
    for state in played_states(players, chapter, seed, chunks=3)[:8]:
        cards = np.zeros(E.NUM_ARG, np.int64)
        n = E.closed_cards(state, cards)
        if n < 0 or n > 64:
            continue
        relax = (state.labels & E.D.L_TALENTS) != 0
        rules = {E.nazi_rules(state, nazi)[:2] for nazi in range(18) if state.nazi_at[nazi] != E.NAZI_CONVINCED}
        for allowed, banned in rules:
            for seat in range(players):
                hand = np.array(sorted(c for c in state.hand[seat] if 0 <= c < E.NUM_ARG), np.int64)
                kind = int(state.character[seat])
                among_all = listed(kind, relax, cards, n, allowed, banned)
                if among_all is None:  # more than MAX_CLOSED cards fit: the search knows nothing
                    continue
                own = listed(kind, relax, hand, len(hand), allowed, banned)
                assert own == {(used, v) for used, v in among_all if used <= set(hand.tolist())}


@pytest.mark.parametrize("players,chapter,seed", CASES + [(3, 4, 19), (4, 11, 20), (2, 18, 21), (5, 19, 22)])
def test_shared_listings_answer_as_each_search(players, chapter, seed):
    """quick_fit_any / full_fit_any (Nazis with the same rules share the listed argumentations) answer
    as quick_fit / full_fit asked for each Nazi coming face up alone."""
    searched = 0
    for state in played_states(players, chapter, seed):
        cards = np.zeros(E.NUM_ARG, np.int64)
        n = E.closed_cards(state, cards)
        if n < 0:
            continue
        nazis = np.zeros(18, np.int64)
        count = E.coming_face_up(state, nazis)
        quick = any(E.quick_fit(state, nazis[j:j + 1].copy(), 1, cards, n) for j in range(count))
        full = any(E.full_fit(state, nazis[j:j + 1].copy(), 1, cards, n) != 0 for j in range(count))
        assert bool(E.quick_fit_any(state, nazis, count, cards, n)) == quick
        assert bool(E.full_fit_any(state, nazis, count, cards, n)) == full
        searched += 1
    if chapter in (1, 6):
        assert searched > 0
