"""Treasure maps, the end of the game, placings and the optional shaping reward."""

import itertools

import numpy as np
import pytest

from envs.volles_fass_voraus import data, engine

from .helpers import E, act, first_to_move, give_maps, load_deck, deck_of, new_env, record, O


def brute_force_sets(counts):
    """Try every way of putting the items into groups of different kinds; the best total."""
    items = [kind for kind, count in enumerate(counts) for _ in range(count)]
    best = 0

    def place(i, groups):
        nonlocal best
        if i == len(items):
            best = max(best, sum(int(data.SET_VALUE[len(g)]) for g in groups))
            return
        for g in groups:
            if items[i] not in g:
                g.add(items[i])
                place(i + 1, groups)
                g.remove(items[i])
        groups.append({items[i]})
        place(i + 1, groups)
        groups.pop()

    place(0, [])
    return best


def test_item_sets_table_is_optimal_for_every_collection():
    for counts in itertools.product(range(data.MAX_ITEM_COPIES + 1), repeat=data.NUM_ITEMS):
        expected = brute_force_sets(counts)
        assert data.BEST_ITEM_SETS[data.item_code(counts)] == expected, counts
        assert engine.best_item_sets(np.array(counts, np.int64)) == expected


def test_set_values_from_the_rulebook():
    assert list(data.SET_VALUE) == [0, 1, 3, 6, 10, 15]
    assert brute_force_sets((1, 1, 1, 1, 1)) == 15 and brute_force_sets((2, 0, 0, 0, 0)) == 2


def test_gina_treasure_10_plus_3_plus_chest_3_plus_blank_0_is_16():
    env = new_env(3)
    state = record(env)
    compass, spyglass, sextant, parrot = 0, 2, 4, 6          # set A: four different items
    compass2, spyglass2 = 1, 3                                # set B: two different items
    chest_of_3, blank = 11, 14
    assert data.MAP_CHEST[chest_of_3] == 3 and data.MAP_ITEM[blank] == -1 and data.MAP_CHEST[blank] == 0
    give_maps(state, 1, [compass, spyglass, sextant, parrot, compass2, spyglass2, chest_of_3, blank])
    assert engine.treasure_value(state, 1) == 16


def test_maps_are_scored_at_the_destination_and_added_to_the_doubloons():
    env = new_env(3)
    state = first_to_move(env, 0, harbour=data.DEST_HARBOUR - 1)
    give_maps(state, 0, [0, 2, 13])  # two different items (3) and a chest of 5
    give_maps(state, 2, [15])       # a blank
    doubloons = [int(d) for d in state.doubloons[:3]]
    while not state.terminal:
        act(env, E.A_PASS if E.A_PASS in env.legal_actions() else env.legal_actions()[0])
    assert list(state.treasure[:3]) == [8, 0, 0]
    assert int(state.doubloons[0]) == doubloons[0] + 8


def finish(doubloons, berths):
    env = new_env(len(doubloons))
    state = record(env)
    state.map_owner[:] = engine.OWNER_DECK
    for seat, (money, berth) in enumerate(zip(doubloons, berths)):
        state.doubloons[seat] = money
        state.ship_berth[seat] = berth
    state.reward[:] = 0
    engine.finish_game(state)
    assert state.terminal and state.current_player == -1
    return [float(r) for r in state.reward[: len(doubloons)]]


def test_placings_spread_from_plus_one_to_minus_one():
    assert finish([20, 5, 12, 9], [0, 1, 2, 3]) == pytest.approx([1, -1, 1 / 3, -1 / 3])
    assert finish([4, 9], [3, 0]) == [-1, 1]


def test_ties_go_to_the_ship_further_west_at_the_destination():
    assert finish([10, 10, 5], [2, 1, 0]) == pytest.approx([0, 1, -1])
    assert finish([7, 7, 7, 7], [3, 0, 2, 1]) == pytest.approx([-1, 1, -1 / 3, 1 / 3])


def test_outcome_reward_only_at_the_end_without_shaping():
    env = new_env(3)
    first_to_move(env, 0, next_tile="L1")
    act(env, E.A_BERTH + 1, E.A_COLOUR + 1)  # pays 1 doubloon
    assert all(r == 0 for r in env.rewards.values())


def test_doubloon_shaping_rewards_every_change():
    env = new_env(3, doubloon_shaping=0.25)
    state = first_to_move(env, 0, next_tile="U1")
    load_deck(state, 0, deck_of((1, O),))
    act(env, E.A_BERTH + 1)  # berth 2 of U1 wants purple: no decision, the turn passes
    assert env.rewards["player_0"] == 0
    env = new_env(3, doubloon_shaping=0.25)
    state = first_to_move(env, 0, next_tile="U1")
    load_deck(state, 0, deck_of((1, O),))
    act(env, E.A_BERTH + 2, E.A_PASS)
    assert env.rewards["player_0"] == 0
    env = new_env(3, doubloon_shaping=0.25)
    state = first_to_move(env, 0, next_tile="U1")
    load_deck(state, 0, deck_of((1, O),))
    act(env, E.A_BERTH + 2, E.A_SPACE + 1)  # orange for 3
    assert env.rewards["player_0"] == pytest.approx(0.75)
    assert env.rewards["player_1"] == 0


def test_bad_shaping_values_are_rejected():
    with pytest.raises(ValueError):
        new_env(3, doubloon_shaping=-1)
    with pytest.raises(ValueError):
        new_env(3, doubloon_shaping="yes")
