"""The deck: barrel geometry (which barrels can be pulled off) and Barry Fassel / Farry Bassel."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.volles_fass_voraus import data, engine

from .helpers import (
    barry_moves, move_action,
    C, E, O, P, SAILOR, act, berth, deck_of, first_to_move, give_sailors, legal, load_deck, mask_bits, new_env,
    space_actions,
)


def swept_path_is_clear(deck, i, step=0.005):
    """A slow, independent check: slide barrel ``i``'s circle back in small steps past the dock and
    look for any moment it comes within one diameter of another barrel's centre."""
    x, y = data.SPACE_X[i], data.SPACE_Y[i]
    t = y
    while t >= -2 * data.BARREL_DIAMETER:
        for j in range(data.NUM_SPACES):
            if j != i and deck[j] and math.hypot(data.SPACE_X[j] - x, data.SPACE_Y[j] - t) <= data.BARREL_DIAMETER:
                return False
        t -= step
    return True


def test_deck_layout_is_a_staggered_grid_of_fourteen_spaces():
    assert data.NUM_SPACES == 14 and data.ROW_SIZES == (4, 3, 4, 3)
    # Alternate rows are shifted by half a pitch; barrels on neighbouring spaces never overlap.
    assert data.SPACE_X[4] - data.SPACE_X[0] == pytest.approx(0.5)
    for a in range(14):
        for b in range(a + 1, 14):
            assert math.hypot(data.SPACE_X[a] - data.SPACE_X[b], data.SPACE_Y[a] - data.SPACE_Y[b]) > 0.8


def test_benny_purple_barrel_passes_the_orange_and_the_other_purples_are_stuck():
    # Purple on 8 (third row) has a clear corridor: the orange on 0 stands one pitch to the side.
    # The purple on 6 would touch the colourless barrel on 3, the one on 11 the purple on 8, the
    # one on 10 the purple on 6.
    deck = deck_of((0, O), (3, C), (6, P), (8, P), (10, P), (11, P))
    free = engine.extractable(deck)
    assert mask_bits(free) == [0, 3, 8]
    for i in range(14):
        if deck[i]:
            assert bool((free >> i) & 1) == swept_path_is_clear(deck, i)


def test_benny_unloads_the_free_purple_barrel_for_5():
    env = new_env(3)
    state = first_to_move(env, seat=0, next_tile="U1")  # U1, berth 2: unload a purple barrel for 5
    load_deck(state, 0, deck_of((0, O), (3, C), (6, P), (8, P), (10, P), (11, P)))
    state.doubloons[0] = 3
    act(env, E.A_BERTH + 1)
    assert state.phase == E.PH_UNLOAD and space_actions(env) == [8]
    assert E.A_PASS in legal(env)
    act(env, E.A_SPACE + 8)
    assert state.doubloons[0] == 8 and state.deck[0, 8] == 0 and state.deck[0, 6] == P


def test_gerry_colourless_barrel_touches_the_purple_and_stays():
    deck = deck_of((4, P), (7, C))
    assert mask_bits(engine.extractable(deck)) == [4]
    env = new_env(3)
    tile, pos = berth("unload C -> 2")
    state = first_to_move(env, seat=2, next_tile=tile)
    load_deck(state, 2, deck)
    state.doubloons[2] = 6
    act(env, E.A_BERTH + pos)
    # Nothing can be unloaded, so there is no decision: the turn passes and the barrel stays.
    assert state.current_player != 2
    assert state.doubloons[2] == 6 and state.deck[2, 7] == C


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=14, max_size=14))
def test_extractable_matches_a_step_by_step_sweep(barrels):
    deck = np.array(barrels, np.int8)
    free = engine.extractable(deck)
    for i in range(14):
        expected = bool(deck[i]) and swept_path_is_clear(deck, i, step=0.02)
        assert bool((free >> i) & 1) == expected, (barrels, i)


def test_front_row_is_always_free_and_a_full_deck_frees_only_the_front_row():
    assert mask_bits(engine.extractable(np.full(14, C, np.int8))) == [0, 1, 2, 3]
    assert engine.extractable(np.zeros(14, np.int8)) == 0


# ---- Barry Fassel / Farry Bassel ------------------------------------------------------------


def neighbours(space):
    return sorted(int(b) for a, b in zip(data.MOVE_FROM, data.MOVE_TO) if a == space)


def test_adjacency_includes_diagonals_but_not_two_rows_apart():
    assert neighbours(5) == [1, 2, 4, 6, 8, 9]  # same row and the diagonal ones in front and behind
    assert neighbours(0) == [1, 4]
    assert 8 not in neighbours(1)  # straight ahead, two rows up: not adjacent
    assert data.NUM_MOVES == 56


def test_barry_slide_frees_a_blocked_barrel_for_unloading():
    env = new_env(3)
    tile, pos = berth("unload C -> 2")
    state = first_to_move(env, seat=2, next_tile=tile)
    load_deck(state, 2, deck_of((4, P), (7, C)))
    give_sailors(state, 2, "Barry Fassel")
    state.doubloons[2] = 6
    # Moves are offered while choosing the berth ...
    assert (4, 5) in barry_moves(env) and (7, 11) in barry_moves(env)
    act(env, E.A_BERTH + pos)
    # ... and at the berth: the colourless barrel is stuck, but the player may still slide first.
    assert state.phase == E.PH_UNLOAD and space_actions(env) == []
    act(env, move_action(4, 5))
    assert state.deck[2, 4] == 0 and state.deck[2, 5] == P
    assert space_actions(env) == [7]
    act(env, E.A_SPACE + 7)
    assert state.doubloons[2] == 8
    # One move per card per turn: nothing left, so the turn ended by itself.
    assert state.current_player != 2


def test_swaps_are_offered_once_per_pair_and_never_between_equal_barrels():
    env = new_env(3)
    state = first_to_move(env, seat=0, next_tile="U1")
    load_deck(state, 0, deck_of((0, P), (1, O), (4, O)))
    give_sailors(state, 0, "Farry Bassel")
    moves = barry_moves(env)
    assert (0, 1) in moves and (1, 0) not in moves  # purple <-> orange: one action for the swap
    assert (1, 4) not in moves and (4, 1) not in moves  # orange <-> orange would change nothing
    assert (0, 4) in moves and (4, 0) not in moves
    assert (1, 2) in moves and (4, 5) in moves  # slides onto free adjacent spaces
    act(env, move_action(0, 1))
    assert state.deck[0, 0] == O and state.deck[0, 1] == P


def test_each_card_allows_one_move_per_turn_and_refreshes_next_turn():
    env = new_env(3)
    state = first_to_move(env, seat=0, next_tile="L1")
    load_deck(state, 0, deck_of((0, P), (1, O)))
    give_sailors(state, 0, "Barry Fassel", "Farry Bassel")
    act(env, move_action(0, 4))
    assert barry_moves(env), "Farry still has his move"
    act(env, move_action(1, 5))
    assert barry_moves(env) == []
    assert state.sailor_uses[SAILOR["Barry Fassel"]] == 1 and state.sailor_uses[SAILOR["Farry Bassel"]] == 1
    # Berth 4 of L1 loads a purple and an orange barrel for 1: take the purple, place it, stop.
    act(env, E.A_BERTH + 3, E.A_COLOUR + 0, E.A_SPACE + 0, E.A_PASS)
    assert state.current_player != 0
    while state.current_player != 0:
        act(env, legal(env)[0])
    assert state.sailor_uses[SAILOR["Barry Fassel"]] == 0 and barry_moves(env)


def test_more_moves_per_card_as_an_option():
    env = new_env(3, fassel_moves_per_turn=2)
    state = first_to_move(env, seat=0, next_tile="L1")
    load_deck(state, 0, deck_of((0, P),))
    give_sailors(state, 0, "Barry Fassel")
    act(env, move_action(0, 4), move_action(4, 5))
    assert state.deck[0, 5] == P and barry_moves(env) == []


def test_end_of_turn_offers_the_remaining_moves():
    env = new_env(3)
    tile, pos = berth("load P (1), [sail]")
    state = first_to_move(env, seat=0, next_tile=tile)
    load_deck(state, 0, deck_of((0, P),))
    give_sailors(state, 0, "Barry Fassel")
    act(env, E.A_BERTH + pos, E.A_COLOUR + 0, E.A_SPACE + 1)  # load the purple for 1 onto space 1
    # Nothing more to load, but Barry's move keeps the decision open; passing ends the loading.
    assert state.phase == E.PH_LOAD_PICK and legal(env)[0] == E.A_PASS
    act(env, E.A_PASS)
    assert state.phase == E.PH_END_TURN and state.current_player == 0
    assert E.A_PASS in legal(env) and barry_moves(env)
    act(env, move_action(1, 5))
    assert state.current_player != 0


def test_moves_between_the_two_barrels_of_a_pair_keep_the_second_one_reachable():
    env = new_env(3)
    tile, pos = berth("unload CC -> 4")
    state = first_to_move(env, seat=0, next_tile=tile)
    load_deck(state, 0, deck_of((0, C), (1, C), (4, P)))
    give_sailors(state, 0, "Barry Fassel")
    act(env, E.A_BERTH + pos)
    assert space_actions(env) == [0, 1]
    act(env, E.A_SPACE + 0)
    assert space_actions(env) == [1] and E.A_PASS not in legal(env)
    # Sliding the purple onto space 0 would not block space 1 (one pitch aside) ...
    assert (4, 0) in barry_moves(env)
    # ... but swapping the colourless barrel behind the purple would make the pair impossible.
    assert (1, 5) in barry_moves(env) and (1, 4) not in barry_moves(env)
    act(env, E.A_SPACE + 1)
    assert state.doubloons[0] >= 3
