"""The observation's ``ahead`` block: the berths of the harbour the ships of this leg head for, as
fixed rows (what a berth action 0-3 chooses from), and only what the seat may see.

Seats as in test_rules.py: Benny 0, Gina 1, Gerry 2; the red ship (3) belongs to nobody.
"""

import numpy as np

from envs.volles_fass_voraus import data

from .helpers import (C, E, O, P, TILE, act, berth, deck_of, first_to_move, give_sailors, load_deck, new_env,
                      raw_env, record)
from .test_invariants import observation, random_positions

BENNY, GINA, GERRY, RED = 0, 1, 2, 3


def ahead(env, seat):
    return E.LAYOUT.views(env.observe(f"player_{seat}")["observation"])["ahead"]


def test_the_block_names_its_features():
    assert E.AHEAD_FEATURE_NAMES[: E.BERTH_FEATURES] == E.BERTH_FEATURE_NAMES
    assert E.AHEAD_FEATURE_NAMES[E.AF_FREE] == "free" and E.AHEAD_FEATURE_NAMES[E.AF_SHIP] == "ship you"
    assert E.AHEAD_FEATURE_NAMES[E.AF_AFFORD] == "affordable" and E.AHEAD_FEATURE_NAMES[E.AF_UNLOAD] == "unloadable"
    assert E.AHEAD_FEATURE_NAMES[E.AF_ARRIVAL : E.AF_FACE_UP] == ("arrival pay", "sheltered", "plaza pay", "loadable")
    assert E.AHEAD_FEATURE_NAMES[E.AF_FACE_UP] == "face up"
    assert E.LAYOUT.shape("ahead") == (data.NUM_BERTHS, E.AHEAD_FEATURES)


def test_the_harbour_ahead_berth_by_berth_in_the_rulebook_start():
    env = new_env(3)  # Benny 1 (3 doubloons), Gina 2 (4), red 3, Gerry 4 (6): Benny moves first into harbour 1
    state = record(env)
    assert state.phase == E.PH_CHOOSE_BERTH and state.current_player == BENNY and state.leg == 0
    tile = int(state.harbour_tile[1])
    for seat in (BENNY, GINA, GERRY):
        rows = ahead(env, seat)
        view = E.LAYOUT.views(env.observe(f"player_{seat}")["observation"])
        np.testing.assert_array_equal(rows[:, : E.BERTH_FEATURES], view["berths"][1])  # the harbour ahead
        np.testing.assert_array_equal(rows[:, : E.BERTH_FEATURES],
                                      E.TILE_FEATURES[tile].reshape(data.NUM_BERTHS, E.BERTH_FEATURES))
        assert rows[:, E.AF_FREE].tolist() == [1, 1, 1, 1]  # nobody has sailed yet
        assert not rows[:, E.AF_SHIP : E.AF_SHIP + 4].any()
        assert rows[:, E.AF_FACE_UP].tolist() == [1, 1, 1, 1]
        money = int(state.doubloons[seat])
        assert rows[:, E.AF_AFFORD].tolist() == [float(money >= data.BERTH_COST[tile, pos])
                                                  for pos in range(data.NUM_BERTHS)]
        assert not rows[:, E.AF_UNLOAD].any()  # empty decks deliver nothing


def test_a_docked_ship_takes_its_berth_seen_relative_to_the_observer():
    env = new_env(3)
    state = record(env)
    act(env, E.A_BERTH + 2)  # Benny docks on berth 3 of harbour 1
    while state.current_player == BENNY:  # and ends his turn as quietly as he may
        env.step(E.A_PASS if E.A_PASS in env.legal_actions() else env.legal_actions()[0])
    assert state.berth_ship[1, 2] == BENNY
    for seat, relative in ((BENNY, 0), (GINA, 2), (GERRY, 1)):  # Benny sits 0, 2 and 1 seats after them
        rows = ahead(env, seat)
        assert rows[:, E.AF_FREE].tolist() == [1, 1, 0, 1]
        assert rows[2, E.AF_SHIP : E.AF_SHIP + 4].tolist() == [float(k == relative) for k in range(4)]


def test_start_berths_show_the_start_harbour():
    env = raw_env(num_players=3)
    env.reset(seed=0)
    env.step(E.A_BERTH + 1)  # Benny takes start berth 2
    state = record(env)
    assert state.phase == E.PH_START_BERTH and state.current_player == GINA
    rows = ahead(env, GINA)
    np.testing.assert_array_equal(rows[:, : E.BERTH_FEATURES],
                                  E.TILE_FEATURES[data.START_TILE_ID].reshape(data.NUM_BERTHS, E.BERTH_FEATURES))
    assert rows[:, E.AF_FREE].tolist() == [1, 0, 1, 1]
    assert rows[1, E.AF_SHIP + 2] == 1  # Benny is two seats after Gina
    assert rows[:, E.BERTH_FEATURE_NAMES.index("start doubloons")].tolist() == [3, 4, 5, 6]


def test_unloadable_reads_the_observers_deck_and_the_all_or_none_rule():
    tile, pos = berth("unload PO -> 8, [fish]")
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, P), (1, C), (5, O)))  # the orange on 5 is stuck behind the colourless on 1
    load_deck(state, GINA, deck_of((0, O), (4, P)))  # the orange on 0 comes off first and frees the purple
    assert ahead(env, BENNY)[pos, E.AF_UNLOAD] == 0
    assert ahead(env, GINA)[pos, E.AF_UNLOAD] == 1
    assert ahead(env, GERRY)[pos, E.AF_UNLOAD] == 0  # an empty deck
    act(env, E.A_BERTH + pos)  # the rules agree: Benny delivers nothing
    assert state.deck[BENNY, 0] == P and state.doubloons[BENNY] == 3


OWN_TERMS = slice(E.AF_ARRIVAL, E.AF_FACE_UP)  # arrival pay, sheltered, plaza pay, loadable


def test_own_sailors_terms_berth_by_berth():
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile="U2")  # pirates rob 2 | unload O -> 3, [sail] | sailor (1) |
    assert state.harbour_tile[state.leg + 1] == TILE["U2"]  # unload PO -> 8, [fish]
    give_sailors(state, BENNY, "Freezy Fisher", "Easy Fisher", "Sail Sister (1)", "Piranha Pirata", "Nexty Plaza",
                 "Easty Plaza")
    give_sailors(state, GERRY, "Assecuranza Pit", "Stormy D.")  # nothing to shelter from here
    assert ahead(env, BENNY)[:, OWN_TERMS].tolist() == [[0, 1, 0, 0],   # Piranha keeps the doubloons
                                                        [2, 0, 1, 0],   # the sail sister pays 2; Nexty Plaza
                                                        [0, 0, 0, 0],
                                                        [2, 0, 1, 0]]   # two fishers; Easty Plaza
    assert not ahead(env, GINA)[:, OWN_TERMS].any()
    assert not ahead(env, GERRY)[:, OWN_TERMS].any()


def test_loadable_counts_the_barrels_the_supply_and_the_deck_allow():
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile="L6")  # sailor (2) | load OC (1) | load CC (free), [fish] |
    loadable = E.AF_LOADABLE                             # load POC (2)
    assert ahead(env, BENNY)[:, loadable].tolist() == [0, 2, 2, 3]
    load_deck(state, BENNY, deck_of(*[(space, O) for space in range(E.NUM_SPACES - 2)]))  # room for two
    assert ahead(env, BENNY)[:, loadable].tolist() == [0, 2, 2, 2]
    state.supply[2] = 0  # no colourless barrel left
    assert ahead(env, GINA)[:, loadable].tolist() == [0, 1, 0, 2]
    assert ahead(env, BENNY)[:, loadable].tolist() == [0, 1, 0, 2]


def test_can_deliver_matches_the_unloading_rules():
    need = np.array([1, 1, 0, 0], np.int8)  # purple and orange
    assert not E.can_deliver(deck_of((0, P), (1, C), (5, O)), need)
    assert E.can_deliver(deck_of((0, O), (4, P)), need)
    assert E.can_deliver(deck_of((0, O), (2, P)), need)
    assert not E.can_deliver(deck_of((0, O), (2, O)), need)  # two oranges, no purple
    assert E.can_deliver(deck_of((0, O), (2, O)), np.array([0, 1, 0, 1], np.int8))  # orange and any
    assert E.can_deliver(deck_of((9, C),), np.array([0, 0, 0, 1], np.int8))
    assert not E.can_deliver(deck_of(), np.array([0, 0, 0, 1], np.int8))
    assert not E.can_deliver(deck_of((0, P),), np.zeros(4, np.int8))  # nothing asked: not an unloading berth
    deck = deck_of((0, O), (4, P))
    E.can_deliver(deck, need)
    np.testing.assert_array_equal(deck, deck_of((0, O), (4, P)))  # left as it was


def test_a_face_down_harbour_ahead_shows_only_its_ships():
    # Play reveals the harbour ahead as the ships set off for it (option harbour_reveal="on_approach"),
    # so the block is always face up in play; a record with it face down reads no tile at all.
    env = new_env(3, harbour_reveal="on_approach")
    state = record(env)
    rec = env._states[0:1].copy()
    rec[0].revealed[1] = 0
    for seat in range(3):
        rows = E.LAYOUT.views(observation(rec, seat))["ahead"]
        assert not rows[:, : E.BERTH_FEATURES].any()
        assert not rows[:, E.AF_AFFORD :].any()
        assert rows[:, E.AF_FREE].tolist() == [1, 1, 1, 1]
    other = rec.copy()
    other[0].harbour_tile[1] = next(t for t in range(data.SHAPE_FIRST[data.TILE_SHAPE[state.harbour_tile[1]]],
                                                     data.NUM_TILES) if t != state.harbour_tile[1]
                                    and data.TILE_SHAPE[t] == data.TILE_SHAPE[state.harbour_tile[1]])
    for seat in range(3):
        np.testing.assert_array_equal(observation(rec, seat), observation(other, seat))


def test_the_block_is_always_face_up_in_play_and_matches_the_harbour_ahead():
    for rec in random_positions(4, 30, seed=11, harbour_reveal="on_approach"):
        state = rec[0]
        harbour = E.START_HARBOUR if state.phase == E.PH_START_BERTH else state.leg + 1
        for seat in range(4):
            view = E.LAYOUT.views(observation(rec, seat))
            assert view["ahead"][:, E.AF_FACE_UP].all()
            np.testing.assert_array_equal(view["ahead"][:, : E.BERTH_FEATURES], view["berths"][harbour])
            free = (state.berth_ship[harbour] == E.FREE).astype(np.float32)
            np.testing.assert_array_equal(view["ahead"][:, E.AF_FREE], free)
            assert (view["ahead"][:, E.AF_FREE : E.AF_SHIP + 4].sum(axis=1) == 1).all()
