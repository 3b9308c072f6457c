"""Two barrels shown: both or none, in any order, with Barry Fassel / Farry Bassel between them.

Rulebook: "If 2 barrels are depicted, you may not unload just a single barrel, but must unload
BOTH – in any order", and of Barry and Farry: "You may use an ability of Barry and Farry – at any
time during your turn. Through this action, you might be able to unload a barrel (right now or
later) that you couldn't get off the deck before." So the first barrel of a pair may come off when
the moves still to be made this turn can reach a matching second one, and once it is off the
player must never be left with half a pair. The engine's predicate (``engine.can_complete``) is
checked here against a brute-force search over the real deck and the moves the rules allow.
"""

import numpy as np
import pytest

from envs.volles_fass_voraus import data

from .helpers import (
    barry_moves, move_action,
    E, O, P, SAILOR, TILE, act, berth, deck_of, first_to_move, give_sailors, legal, load_deck, mask_bits, new_env,
    record, space_actions,
)

BENNY = 0
PP = berth("unload PP -> 10")
PAIR_BERTHS = [berth(text) for text in ("unload PP -> 10", "unload PO -> 9", "unload CC -> 4", "unload ** -> 6",
                                        "unload OO -> 7", "unload PC -> 8")]


def auditor_position(env, *sailors):
    """Benny about to dock at "unload PP -> 10": purple barrels on 9 and 10, an orange one on 3."""
    tile, pos = PP
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((9, P), (10, P), (3, O)))
    give_sailors(state, BENNY, *sailors)
    return state, pos


# ---- the auditor's position ------------------------------------------------------------------


def test_a_barry_move_between_the_two_barrels_of_a_pair():
    # The purple on 9 is blocked only by barrels on 2, 5, 6 (all free), the one on 10 by 3 and 6:
    # the orange on 3 keeps the purple on 10 on deck.
    assert mask_bits(E.BLOCKERS[9]) == [2, 5, 6] and mask_bits(E.BLOCKERS[10]) == [3, 6]
    env = new_env(3)
    state, pos = auditor_position(env, "Barry Fassel")
    act(env, E.A_BERTH + pos)
    assert state.phase == E.PH_UNLOAD and space_actions(env) == [9] and E.A_PASS in legal(env)
    act(env, E.A_SPACE + 9)
    # Half the pair is off: no way back, and only the moves that bring the other purple within reach.
    assert state.current_player == BENNY and state.unloaded == 1
    assert space_actions(env) == [] and E.A_PASS not in legal(env)
    assert barry_moves(env) == [(3, 2), (10, 9)]
    act(env, move_action(3, 2))  # the orange onto 2, out of the purple on 10's way
    # The purple on 10 was then the only way on: it came off without a decision, and the turn ended.
    assert state.current_player != BENNY and state.doubloons[BENNY] == 3 + 10
    assert np.flatnonzero(state.deck[BENNY]).tolist() == [2] and state.deck[BENNY, 2] == O


def test_the_slide_first_blocks_the_other_purple_and_without_barry_the_pair_is_refused():
    env = new_env(3)
    state, pos = auditor_position(env, "Barry Fassel")
    act(env, E.A_BERTH + pos, move_action(3, 2))  # frees the purple on 10, but now blocks the one on 9
    assert state.current_player != BENNY and state.doubloons[BENNY] == 3  # only passing was left
    assert state.deck[BENNY, 9] == P and state.deck[BENNY, 10] == P
    env = new_env(3)
    state, pos = auditor_position(env)  # no Barry: the purple on 10 cannot be reached
    act(env, E.A_BERTH + pos)
    assert state.current_player != BENNY and state.doubloons[BENNY] == 3 and state.deck[BENNY, 9] == P


def test_a_move_made_earlier_in_the_turn_is_not_there_between_the_barrels():
    env = new_env(3)
    state, pos = auditor_position(env, "Barry Fassel")
    act(env, move_action(9, 5))  # Barry's move spent while choosing the berth (the purple on 5 is free too)
    act(env, E.A_BERTH + pos)
    assert state.current_player != BENNY and state.doubloons[BENNY] == 3


# ---- the rule, by brute force on the real deck -------------------------------------------------


def rule_moves(deck):
    """The moves the rules allow on ``deck``: a barrel onto a free adjacent space, or two adjacent
    barrels of different colours swapped (swaps of equal barrels change nothing)."""
    out = []
    for k in range(data.NUM_MOVES):
        a, b = int(data.MOVE_FROM[k]), int(data.MOVE_TO[k])
        if deck[a] and (not deck[b] or (a < b and deck[a] != deck[b])):
            out.append(k)
    return out


def moved(deck, k):
    deck = list(deck)
    a, b = int(data.MOVE_FROM[k]), int(data.MOVE_TO[k])
    deck[a], deck[b] = deck[b], deck[a]
    return tuple(deck)


def free_spaces(deck):
    occ = sum(1 << i for i in range(data.NUM_SPACES) if deck[i])
    return [i for i in range(data.NUM_SPACES) if deck[i] and not occ & int(E.BLOCKERS[i])]


def fitting(need, taken=None):
    """Barrel codes (1 + colour) ``need`` (purple, orange, colourless, any) still takes after ``taken``."""
    need = list(need)
    if taken is not None:
        need[taken if need[taken] > 0 else 3] -= 1
    return {1, 2, 3} if need[3] > 0 else {c + 1 for c in range(3) if need[c] > 0}


def reachable(deck, codes, moves):
    """Can at most ``moves`` moves make a barrel of ``codes`` extractable? (breadth first, every deck)"""
    frontier, seen = {tuple(deck)}, {tuple(deck)}
    for step in range(moves + 1):
        if any(d[i] in codes for d in frontier for i in free_spaces(d)):
            return True
        if step == moves:
            return False
        frontier = {m for d in frontier for m in (moved(d, k) for k in rule_moves(d)) if m not in seen}
        seen |= frontier
    return False


def moves_left(state, seat):
    return sum(int(state.fassel_limit) - int(state.sailor_uses[card])
               for card in (SAILOR["Barry Fassel"], SAILOR["Farry Bassel"]) if state.sailor_owner[card] == seat)


def random_pair_positions(rng, sailors, limit, count):
    """Benny docked at a pair berth with a random deck and ``sailors``, at least one first barrel
    offered; half of them (when found) positions where a move between the barrels is needed."""
    out = []
    tries = 0
    while len(out) < count and tries < 40 * count:
        tries += 1
        tile, pos = PAIR_BERTHS[rng.integers(len(PAIR_BERTHS))]
        env = new_env(3, seed=int(rng.integers(1000)), fassel_moves_per_turn=limit)
        state = first_to_move(env, BENNY, next_tile=tile)
        spaces = rng.choice(data.NUM_SPACES, size=rng.integers(3, 9), replace=False)
        load_deck(state, BENNY, deck_of(*[(int(s), int(rng.integers(1, 4))) for s in spaces]))
        give_sailors(state, BENNY, *sailors)
        deck = tuple(int(b) for b in state.deck[BENNY])
        need = [int(k) for k in data.BERTH_NEED[TILE[tile], pos]]
        needs_a_move = any(deck[s] in fitting(need) and not reachable(deck[:s] + (0,) + deck[s + 1:],
                                                                     fitting(need, deck[s] - 1), 0)
                           for s in free_spaces(deck))
        if sailors and not needs_a_move and len(out) % 2 == 0 and tries < 30 * count:
            continue
        act(env, E.A_BERTH + pos)
        if state.current_player == BENNY and state.phase == E.PH_UNLOAD and space_actions(env):
            out.append((env, need))
    return out


@pytest.mark.parametrize("sailors,limit", [(("Barry Fassel",), 1), (("Barry Fassel", "Farry Bassel"), 1),
                                           (("Farry Bassel",), 2), ((), 1)])
def test_the_first_barrel_is_offered_exactly_when_the_moves_left_can_reach_a_second(sailors, limit):
    rng = np.random.default_rng(len(sailors) * 10 + limit)
    positions = random_pair_positions(rng, sailors, limit, 12)
    assert len(positions) == 12
    needed_a_move = 0
    for env, need in positions:
        state = record(env)
        deck = tuple(int(b) for b in state.deck[BENNY])
        moves = moves_left(state, BENNY)
        assert moves == len(sailors) * limit
        expected = []
        for s in free_spaces(deck):
            if deck[s] in fitting(need):
                rest = deck[:s] + (0,) + deck[s + 1:]
                if reachable(rest, fitting(need, deck[s] - 1), moves):
                    expected.append(s)
                    needed_a_move += not reachable(rest, fitting(need, deck[s] - 1), 0)
        assert space_actions(env) == expected, (deck, need)
    if sailors:
        assert needed_a_move > 0, "no position needed a move between the barrels"


@pytest.mark.parametrize("sailors,limit", [(("Barry Fassel",), 1), (("Barry Fassel", "Farry Bassel"), 1),
                                           (("Barry Fassel",), 2)])
def test_a_started_pair_never_strands_the_player(sailors, limit):
    # Every continuation of every first barrel, to the end of the pair: each position on the way is
    # one check_state accepts, offers no pass, offers exactly the second barrels that can come off
    # and the moves after which the moves left can still reach one; and the pair always ends
    # with both barrels off.
    rng = np.random.default_rng(100 + len(sailors) * 10 + limit)
    finished = 0
    for env, need in random_pair_positions(rng, sailors, limit, 8):
        state = record(env)
        barrels = int((state.deck[BENNY] > 0).sum())
        paid = int(state.doubloons[BENNY])
        start = env.get_state()
        stack = []
        for action in legal(env):
            if E.A_SPACE <= action < E.A_COLOUR:  # every first barrel offered
                env.set_state(start)
                env.step(action)
                stack.append(env.get_state())
        seen = set()
        while stack:
            position = stack.pop()
            env.set_state(position)  # checked (check_state) on the way in
            if state.current_player != BENNY or state.phase != E.PH_UNLOAD:
                assert int((state.deck[BENNY] > 0).sum()) == barrels - 2 and state.doubloons[BENNY] > paid
                finished += 1
                continue
            assert state.unloaded == 1
            key = (bytes(state.deck[BENNY]), bytes(state.sailor_uses))
            if key in seen:
                continue
            seen.add(key)
            deck = tuple(int(b) for b in state.deck[BENNY])
            codes = fitting([int(k) for k in state.need])
            moves = moves_left(state, BENNY)
            actions = legal(env)
            assert actions and E.A_PASS not in actions, deck
            assert space_actions(env) == [s for s in free_spaces(deck) if deck[s] in codes]
            expected_moves = sorted(E.A_MOVE + k for k in rule_moves(deck) if moves > 0
                                    and reachable(moved(deck, k), codes, moves - 1))
            assert [a for a in actions if a >= E.A_MOVE] == expected_moves, deck
            for action in actions:
                env.set_state(position)
                env.step(action)
                stack.append(env.get_state())
    assert finished > 0
