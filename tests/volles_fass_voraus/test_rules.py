"""Setup, turn order and every berth action, with the rulebook's examples and their numbers.

Seats follow the rulebook's three-player example: Benny Blue 0, Gina Green 1, Gerry Gray 2; the
red ship (3) belongs to nobody. Tiles are named as in data.py (L = loading, M = mixed, U = unloading).
"""

import numpy as np
import pytest

from envs.core import check_records
from envs.volles_fass_voraus import data
from envs.volles_fass_voraus.env import GAME

from .helpers import (
    C, E, O, P, SAILOR, TILE, act, berth, deck_of, finish_turn, first_to_move, give_maps, give_sailors, legal, load_deck,
    new_env, put_on_top_of_pile, raw_env, record, space_actions,
)

BENNY, GINA, GERRY, RED = 0, 1, 2, 3


# ---- setup and the order of play ----------------------------------------------------------


def test_start_berths_set_the_money_bags_and_the_red_ship_takes_the_free_berth():
    env = new_env(3)
    state = record(env)
    # Benny on berth 1 starts with 3, Gina on berth 2 with 4, Gerry on berth 4 with 6.
    assert list(state.doubloons[:3]) == [3, 4, 6]
    assert list(state.berth_ship[0]) == [BENNY, GINA, RED, GERRY]


def test_players_choose_start_berths_in_turn_and_only_free_ones():
    env = raw_env(num_players=3)
    env.reset(seed=1)
    state = record(env)
    assert state.phase == E.PH_START_BERTH and state.current_player == 0 and legal(env) == [0, 1, 2, 3]
    act(env, E.A_BERTH + 2)
    assert state.current_player == 1 and legal(env) == [0, 1, 3]
    # Four players: the last one has a single berth left and is placed without a decision.
    env4 = raw_env(num_players=4)
    env4.reset(seed=1)
    act(env4, 3, 2, 1)
    assert list(record(env4).berth_ship[0]) == [3, 2, 1, 0] and record(env4).phase == E.PH_CHOOSE_BERTH


def test_illustrations_a_b_c_order_of_play_and_the_red_ship():
    env = new_env(3)
    state = record(env)
    # A: Benny (westernmost) moves first, then Gina, the red ship, Gerry.
    assert list(state.move_order) == [BENNY, GINA, RED, GERRY]
    assert state.current_player == BENNY and legal(env) == [0, 1, 2, 3]
    # B: Benny takes berth 2, Gina berth 4; the red ship lands on the easternmost free berth (3);
    # Gerry gets the remaining berth 1.
    act(env, E.A_BERTH + 1)
    finish_turn(env, BENNY)
    assert state.current_player == GINA and legal(env)[:4] == [0, 2, 3]
    act(env, E.A_BERTH + 3)
    finish_turn(env, GINA)
    assert state.berth_ship[1, 2] == RED
    if state.leg == 0:
        finish_turn(env)  # Gerry: his only berth is taken for him, then its actions
    assert list(state.berth_ship[1]) == [GERRY, BENNY, RED, GINA]
    # C: the next harbour is left from west to east: Gerry, Benny, the red ship, Gina.
    assert state.leg == 1 and list(state.move_order) == [GERRY, BENNY, RED, GINA]
    assert state.current_player == GERRY


def test_two_player_game_sails_with_two_ships_without_players():
    env = new_env(2)
    state = record(env)
    assert sorted(state.berth_ship[0]) == [0, 1, 2, 3]
    assert state.berth_ship[0, 2] == 2 and state.berth_ship[0, 3] == 3


def test_every_harbour_is_face_up_from_the_setup():
    # "Make each harbor visible only when you have chosen the applicable recess": a tile is turned
    # face up as it is laid, so the whole route is open before the start berths are chosen.
    for num_players in (2, 3, 4):
        env = raw_env(num_players=num_players)
        env.reset(seed=num_players)
        state = record(env)
        assert state.phase == E.PH_START_BERTH and state.revealed.all()


def test_harbours_turn_face_up_as_the_ships_head_for_them_as_an_option():
    env = new_env(3, harbour_reveal="on_approach")
    state = record(env)
    assert list(state.revealed) == [1, 1] + [0] * 25 + [1]
    finish_leg = int(state.leg)
    while state.leg == finish_leg:
        finish_turn(env)
    assert list(state.revealed[:3]) == [1, 1, 1] and not state.revealed[3:27].any()


def test_all_26_tiles_are_laid_exactly_once_into_recesses_of_their_shape():
    for seed in range(20):
        state = record(new_env(4, seed=seed))
        tiles = list(state.harbour_tile)
        assert [data.TILE_SHAPE[t] for t in tiles] == list(data.ROUTE_SHAPES)
        assert sorted(tiles) == list(range(data.NUM_TILES))  # 26 harbour tiles, start and destination
    assert data.ROUTE_SHAPES == (data.SHAPE_START,) + (data.SHAPE_LOAD,) * 8 + (data.SHAPE_MIXED,) * 10 + (
        data.SHAPE_UNLOAD,) * 8 + (data.SHAPE_DEST,)


def test_the_short_route_lays_3_4_3_tiles_and_plays_to_the_end():
    rng = np.random.default_rng(0)
    for seed in range(5):
        env = raw_env(num_players=4, route="short")
        env.reset(seed=seed)
        state = record(env)
        dest = int(data.ROUTE_DEST[data.ROUTE_SHORT])
        shapes = [data.TILE_SHAPE[t] for t in state.harbour_tile[: dest + 1]]
        assert shapes == [data.SHAPE_START] + [data.SHAPE_LOAD] * 3 + [data.SHAPE_MIXED] * 4 + [
            data.SHAPE_UNLOAD] * 3 + [data.SHAPE_DEST]
        assert len(set(state.harbour_tile[: dest + 1])) == dest + 1
        assert (state.harbour_tile[dest + 1:] == -1).all() and not state.revealed[dest + 1:].any()
        assert state.revealed[: dest + 1].all()
        while not state.terminal:
            legal_now = legal(env)
            env.step(legal_now[rng.integers(len(legal_now))])
        assert (state.ship_harbour == dest).all() and state.leg == dest - 1


# ---- loading --------------------------------------------------------------------------------


def gina_at_l1():
    env = new_env(3)
    state = first_to_move(env, GINA, next_tile="L1")  # L1 berth 2: a colourless and an orange barrel for 1
    return env, state


def test_gina_pays_1_to_load_both_barrels():
    env, state = gina_at_l1()
    act(env, E.A_BERTH + 1)
    assert sorted(legal(env)) == [E.A_COLOUR + 1, E.A_COLOUR + 2, E.A_PASS]
    act(env, E.A_COLOUR + 2)
    assert state.doubloons[GINA] == 3 and state.phase == E.PH_LOAD_PLACE
    assert space_actions(env) == list(range(14))  # any free space
    act(env, E.A_SPACE + 5, E.A_COLOUR + 1, E.A_SPACE + 0)
    assert state.doubloons[GINA] == 3
    assert state.deck[GINA, 5] == C and state.deck[GINA, 0] == O
    assert state.current_player != GINA


def test_gina_pays_1_even_for_one_barrel_and_nothing_for_none():
    env, state = gina_at_l1()
    act(env, E.A_BERTH + 1, E.A_COLOUR + 2, E.A_SPACE + 3, E.A_PASS)
    assert state.doubloons[GINA] == 3 and (state.deck[GINA] > 0).sum() == 1
    env, state = gina_at_l1()
    act(env, E.A_BERTH + 1, E.A_PASS)
    assert state.doubloons[GINA] == 4 and (state.deck[GINA] > 0).sum() == 0


def test_loading_needs_the_price_free_space_and_barrels_in_the_supply():
    env, state = gina_at_l1()
    state.doubloons[GINA] = 0
    act(env, E.A_BERTH + 1)  # cannot pay: no decision, nothing loaded
    assert state.current_player != GINA and (state.deck[GINA] > 0).sum() == 0
    env, state = gina_at_l1()
    state.supply[1] = 0
    act(env, E.A_BERTH + 1)
    assert sorted(legal(env)) == [E.A_COLOUR + 2, E.A_PASS]
    env, state = gina_at_l1()
    load_deck(state, GINA, np.array([P] * 10 + [C] * 4, np.int8))
    act(env, E.A_BERTH + 1)
    assert state.current_player != GINA  # full deck: nothing to load


def test_free_loading_berth_costs_nothing():
    env = new_env(3)
    tile, pos = berth("load CC (free), [fish]")
    state = first_to_move(env, BENNY, next_tile=tile)
    act(env, E.A_BERTH + pos, E.A_COLOUR + 2, E.A_SPACE + 0, E.A_COLOUR + 2, E.A_SPACE + 1)
    assert state.doubloons[BENNY] == 3 and list(state.deck[BENNY, :2]) == [C, C]


# ---- unloading ------------------------------------------------------------------------------


def test_gina_unloads_orange_for_3_plus_freezy_1_plus_overnexty_1():
    env = new_env(3)
    state = first_to_move(env, GINA, next_tile="U1")  # U1 berth 3: orange for 3, fish
    load_deck(state, GINA, deck_of((1, O), (8, P)))
    give_sailors(state, GINA, "Freezy Fisher", "Overnexty Plaza")
    before = int(state.doubloons[GINA])
    act(env, E.A_BERTH + 2, E.A_SPACE + 1)
    assert state.doubloons[GINA] - before == 5
    assert state.deck[GINA, 1] == 0 and state.supply[1] == data.BARRELS_PER_COLOUR[1]


def test_rita_unloads_two_orange_for_3_plus_nolly_bolly_6_plus_nexty_2():
    env = new_env(4)
    rita = 3
    state = first_to_move(env, rita, harbour=data.DEST_HARBOUR - 1)  # the destination: berth 2, any two for 3
    load_deck(state, rita, deck_of((0, O), (2, O), (3, P), (9, C)))
    give_sailors(state, rita, "Nolly Orange", "Bolly Orange", "Nexty Plaza")
    before = int(state.doubloons[rita])
    act(env, E.A_BERTH + 1)
    assert space_actions(env) == [0, 2, 3]  # the colourless barrel is blocked by the orange on 2
    act(env, E.A_SPACE + 0)
    assert space_actions(env) == [2, 3] and E.A_PASS not in legal(env)  # both or none: no way back
    act(env, E.A_SPACE + 2)
    assert state.doubloons[rita] - before == 11


def test_two_barrels_shown_means_both_or_none():
    env = new_env(3)
    tile, pos = berth("unload PO -> 8, [fish]")
    state = first_to_move(env, BENNY, next_tile=tile)
    # The orange on 5 is stuck behind the colourless barrel on 1.
    load_deck(state, BENNY, deck_of((0, P), (1, C), (5, O)))
    act(env, E.A_BERTH + pos)
    # The purple alone could come off, but then the orange could not: neither is allowed.
    assert state.current_player != BENNY and state.deck[BENNY, 0] == P and state.doubloons[BENNY] == 3


def test_the_first_barrel_off_can_free_the_second():
    env = new_env(3)
    tile, pos = berth("unload PO -> 8, [fish]")
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, O), (4, P)))  # the purple on 4 touches the orange on 0
    act(env, E.A_BERTH + pos)
    assert space_actions(env) == [0]
    act(env, E.A_SPACE + 0)  # the purple is the only way to finish: it comes off without a decision
    assert state.deck[BENNY].sum() == 0 and state.current_player != BENNY
    assert state.doubloons[BENNY] == 3 + 8  # the berth shows a fish, but Benny has no fisher


def test_unloading_colours_must_match_and_three_colours_mean_any():
    env = new_env(3)
    tile, pos = berth("unload P -> 5")
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, O), (1, C), (2, P)))
    act(env, E.A_BERTH + pos)
    assert space_actions(env) == [2]
    env = new_env(3)
    tile, pos = berth("unload ** -> 6")  # any two barrels for 6
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, O), (1, C), (2, P)))
    act(env, E.A_BERTH + pos)
    assert space_actions(env) == [0, 1, 2]
    act(env, E.A_SPACE + 1)
    assert space_actions(env) == [0, 2]
    act(env, E.A_SPACE + 2)
    assert state.doubloons[BENNY] == 3 + 6 and list(state.deck[BENNY, :3]) == [O, 0, 0]


def test_choosing_not_to_unload():
    env = new_env(3)
    tile, pos = berth("unload P -> 5")
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, P),))
    act(env, E.A_BERTH + pos, E.A_PASS)
    assert state.deck[BENNY, 0] == P and state.doubloons[BENNY] == 3


# ---- hiring sailors -------------------------------------------------------------------------


def test_hiring_a_sailor_draws_the_top_card_face_up():
    env = new_env(3)
    tile, pos = berth("sailor (1), [fish]")
    state = first_to_move(env, BENNY, next_tile=tile)
    put_on_top_of_pile(state, "Isaac Lilaac")
    act(env, E.A_BERTH + pos)
    assert sorted(legal(env)) == [E.A_SAILOR_ONLY, E.A_PASS]
    act(env, E.A_SAILOR_ONLY)
    assert state.sailor_owner[SAILOR["Isaac Lilaac"]] == BENNY and state.doubloons[BENNY] == 2


@pytest.mark.parametrize("choice,sailor,barrel,paid", [
    (E.A_SAILOR_BOTH, True, True, 1), (E.A_SAILOR_ONLY, True, False, 1),
    (E.A_BARREL_ONLY, False, True, 1), (E.A_PASS, False, False, 0)])
def test_sailor_with_barrel_one_price_for_both_or_either(choice, sailor, barrel, paid):
    env = new_env(3)
    tile, pos = berth("sailor+C (1)")  # a sailor and a colourless barrel for 1
    state = first_to_move(env, BENNY, next_tile=tile)
    put_on_top_of_pile(state, "Westy Plaza")
    act(env, E.A_BERTH + pos)
    assert sorted(legal(env)) == [E.A_SAILOR_BOTH, E.A_SAILOR_ONLY, E.A_BARREL_ONLY, E.A_PASS]
    act(env, choice)
    if barrel:
        assert state.phase == E.PH_LOAD_PLACE and state.hand == C
        act(env, E.A_SPACE + 6)
        assert state.deck[BENNY, 6] == C
    assert (state.sailor_owner[SAILOR["Westy Plaza"]] == BENNY) == sailor
    assert state.doubloons[BENNY] == 3 - paid and state.current_player != BENNY


def test_hiring_needs_the_price():
    env = new_env(3)
    tile, pos = berth("sailor+P (2)")
    state = first_to_move(env, BENNY, next_tile=tile)
    state.doubloons[BENNY] = 1
    act(env, E.A_BERTH + pos)
    assert state.current_player != BENNY and (state.sailor_owner == BENNY).sum() == 0


def test_with_the_sailor_pile_empty_only_the_barrel_can_be_had_for_the_full_price():
    # The rulebook is silent on an empty pile; we decided: no sailor, the barrel still for the price.
    env = new_env(3)
    tile, pos = berth("sailor+C (1)")
    state = first_to_move(env, BENNY, next_tile=tile)
    give_sailors(state, GINA, *data.SAILOR_NAMES)  # every card drawn
    assert state.sailors_drawn == data.NUM_SAILORS
    act(env, E.A_BERTH + pos)
    assert sorted(legal(env)) == [E.A_BARREL_ONLY, E.A_PASS]
    act(env, E.A_BARREL_ONLY, E.A_SPACE + 0)
    assert state.deck[BENNY, 0] == C and state.doubloons[BENNY] == 3 - 1 and (state.sailor_owner == BENNY).sum() == 0
    env = new_env(3)
    tile, pos = berth("sailor (1), [fish]")
    state = first_to_move(env, BENNY, next_tile=tile)
    give_sailors(state, GINA, *data.SAILOR_NAMES)
    act(env, E.A_BERTH + pos)  # nothing to hire: no decision, nothing paid
    assert state.current_player != BENNY and state.doubloons[BENNY] == 3


def test_with_the_map_pile_empty_a_map_berth_offers_nothing():
    env = new_env(3)
    tile, pos = berth("1 map (free)")
    state = first_to_move(env, BENNY, next_tile=tile)
    give_maps(state, GINA, range(data.NUM_MAPS))
    act(env, E.A_BERTH + pos)
    assert state.current_player != BENNY and (state.map_owner == BENNY).sum() == 0


def test_a_four_player_voyage_draws_sailors_and_maps_until_the_piles_run_out():
    # Heuristic players who also take every sailor and map they can afford: on the full route the
    # 24 sailor berths and 18 treasure maps on offer outrun the 20 sailors and 16 maps.
    from agents.heuristic.volles_fass_voraus import HeuristicAgent

    for seed in (1, 2):  # (in the game of seed 0 one treasure map stays in the pile)
        env = raw_env(num_players=4)
        env.reset(seed=seed)
        state = record(env)
        agents = [HeuristicAgent(seat) for seat in range(4)]
        for seat, agent in enumerate(agents):
            agent.reset(seat, "volles_fass_voraus_v0", env.config)
        emptied = {"sailors": None, "maps": None}
        while not state.terminal:
            seat, actions = int(state.current_player), legal(env)
            if state.sailors_drawn == data.NUM_SAILORS:
                assert E.A_SAILOR_BOTH not in actions and E.A_SAILOR_ONLY not in actions
            if state.maps_drawn == data.NUM_MAPS:
                assert E.A_TAKE_MAPS not in actions
            env.step(collector_choice(env, agents[seat], seat, actions))
            check_records(GAME, env._states)
            for pile, drawn, size in (("sailors", state.sailors_drawn, data.NUM_SAILORS),
                                      ("maps", state.maps_drawn, data.NUM_MAPS)):
                if drawn == size and emptied[pile] is None:
                    emptied[pile] = int(state.leg)
        assert emptied["sailors"] is not None and emptied["maps"] is not None, emptied


def collector_choice(env, agent, seat, actions):
    """Take any sailor or map offered, head for affordable sailor / map berths, else play the heuristic."""
    state = record(env)
    for action in (E.A_SAILOR_BOTH, E.A_SAILOR_ONLY, E.A_TAKE_MAPS):
        if action in actions:
            return action
    if state.phase == E.PH_CHOOSE_BERTH:
        tile = state.harbour_tile[state.leg + 1]
        for action in actions:
            if action < E.A_SPACE and data.BERTH_KIND[tile, action] in (data.KIND_SAILOR, data.KIND_MAPS) \
                    and state.doubloons[seat] >= data.BERTH_COST[tile, action]:
                return action
    observation = env.observe(f"player_{seat}")
    return agent.act(observation["observation"], observation["action_mask"])


# ---- the sailors' abilities -----------------------------------------------------------------


def test_fishers_pay_1_each_on_a_fish_berth():
    env = new_env(3)
    tile, pos = berth("load C (free), [fish]")
    state = first_to_move(env, BENNY, next_tile=tile)
    give_sailors(state, BENNY, "Freezy Fisher", "Easy Fisher", "Cheesy Fisher")
    act(env, E.A_BERTH + pos, E.A_PASS)
    assert state.doubloons[BENNY] == 3 + 3


def test_fishers_pay_nothing_elsewhere():
    env = new_env(3)
    tile, pos = berth("load OC (1)")  # no fish
    state = first_to_move(env, BENNY, next_tile=tile)
    give_sailors(state, BENNY, "Freezy Fisher")
    act(env, E.A_BERTH + pos, E.A_PASS)
    assert state.doubloons[BENNY] == 3


def test_sail_sisters_pay_2_each_on_a_sail_berth():
    env = new_env(3)
    tile, pos = berth("load C (free), [sail]")
    state = first_to_move(env, BENNY, next_tile=tile)
    give_sailors(state, BENNY, "Sail Sister (1)", "Sail Sister (2)")
    act(env, E.A_BERTH + pos, E.A_PASS)
    assert state.doubloons[BENNY] == 3 + 4


@pytest.mark.parametrize("pays_at_once", [True, False])
def test_a_fisher_hired_on_a_fish_berth(pays_at_once):
    env = new_env(3, hired_sailor_pays_at_once=pays_at_once)
    tile, pos = berth("sailor (1), [fish]")
    state = first_to_move(env, BENNY, next_tile=tile)
    put_on_top_of_pile(state, "Cheesy Fisher")
    act(env, E.A_BERTH + pos, E.A_SAILOR_ONLY)
    assert state.doubloons[BENNY] == 3 - 1 + (1 if pays_at_once else 0)


@pytest.mark.parametrize("plaza,where,barrel,pay", [
    ("Westy Plaza", berth("unload C -> 2"), C, 2), ("Nexty Plaza", ("U1", 1), P, 5),
    ("Overnexty Plaza", ("U1", 2), O, 3), ("Easty Plaza", ("U1", 3), C, 6)])
def test_plaza_family_pays_at_its_berth_position_only(plaza, where, barrel, pay):
    tile, pos = where
    assert data.SAILOR_PLAZA[SAILOR[plaza]] == pos and data.BERTH_PAY[TILE[tile], pos] == pay
    for owned in (True, False):
        env = new_env(3)
        state = first_to_move(env, BENNY, next_tile=tile)
        load_deck(state, BENNY, deck_of((0, barrel), (1, barrel)))
        # Every other Plaza sailor too, to show they pay nothing here.
        others = [name for name in ("Westy Plaza", "Nexty Plaza", "Overnexty Plaza", "Easty Plaza") if name != plaza]
        give_sailors(state, BENNY, *(others + ([plaza] if owned else [])))
        act(env, E.A_BERTH + pos, E.A_SPACE + 0)  # a second barrel (if owed) follows by force
        barrels = int(data.BERTH_NEED[TILE[tile], pos].sum())
        assert (state.deck[BENNY] > 0).sum() == 2 - barrels
        assert state.doubloons[BENNY] == 3 + pay + (barrels if owned else 0)


@pytest.mark.parametrize("names,barrel,bonus", [
    (("Isaac Lilaac",), P, 2), (("Nolly Orange",), O, 1), (("Bolly Orange",), O, 2),
    (("Nolly Orange", "Bolly Orange"), O, 3), (("Kitty Nature",), C, 1), (("Mitty Nature",), C, 1),
    (("Pritty Nature",), C, 2), (("Kitty Nature", "Mitty Nature", "Pritty Nature"), C, 4),
    (("Isaac Lilaac", "Nolly Orange", "Bolly Orange"), C, 0)])
def test_colour_sailors_pay_per_barrel_of_their_colour(names, barrel, bonus):
    env = new_env(3)
    tile, pos = berth("unload ** -> 6")  # any two barrels for 6
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, barrel), (1, barrel)))
    give_sailors(state, BENNY, *names)
    act(env, E.A_BERTH + pos, E.A_SPACE + 0)  # the second barrel follows by force
    assert state.deck[BENNY].sum() == 0 and state.doubloons[BENNY] == 3 + 6 + 2 * bonus


def test_pirates_take_a_barrel_of_the_players_choice_even_a_blocked_one():
    env = new_env(3)
    tile, pos = berth("pirates rob a barrel")
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, C), (4, P)))
    act(env, E.A_BERTH + pos)
    assert state.phase == E.PH_ROB_BARREL and space_actions(env) == [0, 4]
    act(env, E.A_SPACE + 4)  # the purple, stuck behind the colourless barrel
    assert list(state.deck[BENNY, [0, 4]]) == [C, 0] and state.supply[0] == 10


def test_pirates_take_the_only_barrel_without_asking_and_leave_an_empty_deck_alone():
    tile, pos = berth("pirates rob a barrel")
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((9, O),))
    act(env, E.A_BERTH + pos)
    assert state.deck[BENNY].sum() == 0 and state.current_player != BENNY
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=tile)
    act(env, E.A_BERTH + pos)
    assert state.current_player != BENNY and state.doubloons[BENNY] == 3


def test_assecuranza_pit_keeps_the_barrels():
    env = new_env(3)
    tile, pos = berth("pirates rob a barrel")
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, C), (4, P)))
    give_sailors(state, BENNY, "Assecuranza Pit")
    act(env, E.A_BERTH + pos)
    assert (state.deck[BENNY] > 0).sum() == 2 and state.current_player != BENNY


def test_doubloon_robbery_stops_at_zero_and_piranha_pirata_keeps_the_doubloons():
    tile, pos = berth("pirates rob 2")
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=tile)
    act(env, E.A_BERTH + pos)
    assert state.doubloons[BENNY] == 1
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=tile)
    state.doubloons[BENNY] = 1
    act(env, E.A_BERTH + pos)
    assert state.doubloons[BENNY] == 0
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=tile)
    give_sailors(state, BENNY, "Piranha Pirata")
    act(env, E.A_BERTH + pos)
    assert state.doubloons[BENNY] == 3


def test_seasick_sailors_go_back_to_the_box_by_the_players_choice():
    env = new_env(3)
    tile, pos = berth("1 seasick")
    state = first_to_move(env, BENNY, next_tile=tile)
    give_sailors(state, BENNY, "Isaac Lilaac", "Stormy D.")
    act(env, E.A_BERTH + pos)
    assert state.phase == E.PH_SEASICK
    assert sorted(legal(env)) == [E.A_SAILOR + SAILOR["Isaac Lilaac"], E.A_SAILOR + SAILOR["Stormy D."]]
    act(env, E.A_SAILOR + SAILOR["Stormy D."])  # Stormy D. is powerless here
    assert state.sailor_owner[SAILOR["Stormy D."]] == E.OWNER_BOX
    assert state.sailor_owner[SAILOR["Isaac Lilaac"]] == BENNY


def test_seasick_with_too_few_sailors_gives_up_all_of_them():
    env = new_env(3)
    tile, pos = berth("2 seasick")
    state = first_to_move(env, BENNY, next_tile=tile)
    give_sailors(state, BENNY, "Isaac Lilaac")
    act(env, E.A_BERTH + pos)
    assert state.sailor_owner[SAILOR["Isaac Lilaac"]] == E.OWNER_BOX and state.current_player != BENNY


def test_storm_throws_barrels_of_choice_overboard_and_costs_repairs():
    env = new_env(3)
    tile, pos = berth("storm: 1 overboard, repair 1")
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, C), (4, O)))
    act(env, E.A_BERTH + pos)
    assert state.phase == E.PH_STORM_BARREL and space_actions(env) == [0, 4]
    act(env, E.A_SPACE + 4)
    assert list(state.deck[BENNY, [0, 4]]) == [C, 0] and state.doubloons[BENNY] == 2


def test_storm_with_fewer_barrels_empties_the_deck_and_repairs_stop_at_zero():
    env = new_env(3)
    tile, pos = berth("storm: 2 overboard, storm chaos")
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, C), (4, O)))
    act(env, E.A_BERTH + pos)
    assert state.deck[BENNY].sum() == 0
    env = new_env(3)
    tile, pos = berth("repair 2, storm chaos")
    state = first_to_move(env, BENNY, next_tile=tile)
    state.doubloons[BENNY] = 1
    act(env, E.A_BERTH + pos)
    assert state.doubloons[BENNY] == 0


def test_stormy_d_keeps_barrels_and_doubloons():
    env = new_env(3)
    tile, pos = berth("storm: 1 overboard, repair 1")
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, C), (4, O)))
    give_sailors(state, BENNY, "Stormy D.")
    act(env, E.A_BERTH + pos)
    assert (state.deck[BENNY] > 0).sum() == 2 and state.doubloons[BENNY] == 3


CHAOS_MAP = berth("1 map (free), storm chaos")  # storm chaos, then a main action


def test_storm_chaos_exchanges_sailors_of_the_players_choice():
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=CHAOS_MAP[0])
    give_sailors(state, BENNY, "Isaac Lilaac", "Westy Plaza")
    give_sailors(state, GINA, "Nolly Orange")
    give_sailors(state, GERRY, "Easty Plaza", "Kitty Nature")
    act(env, E.A_BERTH + CHAOS_MAP[1])
    assert state.phase == E.PH_CHAOS_TAKE
    assert sorted(legal(env)) == sorted(E.A_SAILOR + SAILOR[n] for n in ("Nolly Orange", "Easty Plaza", "Kitty Nature"))
    act(env, E.A_SAILOR + SAILOR["Kitty Nature"])
    assert state.phase == E.PH_CHAOS_GIVE
    assert sorted(legal(env)) == sorted(E.A_SAILOR + SAILOR[n] for n in ("Isaac Lilaac", "Westy Plaza"))
    act(env, E.A_SAILOR + SAILOR["Westy Plaza"])
    assert state.sailor_owner[SAILOR["Kitty Nature"]] == BENNY
    assert state.sailor_owner[SAILOR["Westy Plaza"]] == GERRY
    assert state.phase == E.PH_MAPS  # then the berth's main action


def test_storm_chaos_is_forced_and_skipped_when_impossible():
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=CHAOS_MAP[0])
    give_sailors(state, BENNY, "Isaac Lilaac")
    give_sailors(state, GINA, "Nolly Orange")
    act(env, E.A_BERTH + CHAOS_MAP[1])  # one card each: the exchange happens without a decision
    assert state.sailor_owner[SAILOR["Isaac Lilaac"]] == GINA and state.sailor_owner[SAILOR["Nolly Orange"]] == BENNY
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=CHAOS_MAP[0])
    give_sailors(state, GINA, "Nolly Orange")
    act(env, E.A_BERTH + CHAOS_MAP[1])  # Benny has no sailor: no exchange
    assert state.phase == E.PH_MAPS and state.sailor_owner[SAILOR["Nolly Orange"]] == GINA


def test_storm_chaos_is_optional_with_stormy_d():
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=CHAOS_MAP[0])
    give_sailors(state, BENNY, "Stormy D.")
    give_sailors(state, GINA, "Nolly Orange")
    act(env, E.A_BERTH + CHAOS_MAP[1])
    assert sorted(legal(env)) == [E.A_SAILOR + SAILOR["Nolly Orange"], E.A_PASS]
    act(env, E.A_PASS)
    assert state.sailor_owner[SAILOR["Stormy D."]] == BENNY and state.phase == E.PH_MAPS


def test_both_exchanged_sailors_work_for_the_rest_of_the_turn():
    # Benny gives Barry Fassel away and takes Farry Bassel: this turn he may still make Barry's
    # move and Farry's move.
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=CHAOS_MAP[0])
    load_deck(state, BENNY, deck_of((0, C),))
    give_sailors(state, BENNY, "Barry Fassel")
    give_sailors(state, GINA, "Farry Bassel")
    # Storm chaos: the exchange of the only two cards is forced, but Barry's moves keep it a decision.
    act(env, E.A_BERTH + CHAOS_MAP[1], E.A_SAILOR + SAILOR["Farry Bassel"], E.A_SAILOR + SAILOR["Barry Fassel"])
    assert state.sailor_owner[SAILOR["Barry Fassel"]] == GINA and state.sailor_owner[SAILOR["Farry Bassel"]] == BENNY
    act(env, E.A_PASS)  # no map
    assert state.phase == E.PH_END_TURN
    moves = [a for a in legal(env) if a >= E.A_MOVE]
    act(env, moves[0])
    assert [a for a in legal(env) if a >= E.A_MOVE], "the second card still has its move"
    act(env, [a for a in legal(env) if a >= E.A_MOVE][0])
    assert state.current_player != BENNY


# ---- treasure maps --------------------------------------------------------------------------


TWO_MAPS = berth("2 maps (1)")


def test_maps_are_drawn_secretly_free_or_for_their_price():
    env = new_env(3)
    tile, pos = berth("1 map (free)")
    state = first_to_move(env, BENNY, next_tile=tile)
    top = int(state.map_deck[state.maps_drawn])
    act(env, E.A_BERTH + pos)
    assert sorted(legal(env)) == [E.A_TAKE_MAPS, E.A_PASS]
    act(env, E.A_TAKE_MAPS)
    assert state.map_owner[top] == BENNY and state.doubloons[BENNY] == 3
    env = new_env(3)
    tile, pos = TWO_MAPS
    state = first_to_move(env, BENNY, next_tile=tile)
    act(env, E.A_BERTH + pos, E.A_TAKE_MAPS)
    assert (state.map_owner == BENNY).sum() == 2 and state.doubloons[BENNY] == 2
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=tile)
    act(env, E.A_BERTH + pos, E.A_PASS)
    assert (state.map_owner == BENNY).sum() == 0 and state.doubloons[BENNY] == 3


def test_a_map_berth_costs_one_doubloon_or_nothing_also_for_two_maps():
    # "If the berth shows 1 doubloon, you pay this doubloon in order to get the treasure-map card. If
    # the berth shows no doubloons, you may take the treasure-map card for free."
    map_berths = [(tile, pos) for tile in range(data.NUM_TILES) for pos in range(data.NUM_BERTHS)
                  if data.BERTH_KIND[tile, pos] == data.KIND_MAPS]
    assert {int(data.BERTH_COST[tile, pos]) for tile, pos in map_berths} == {0, 1}
    two_maps = [(tile, pos) for tile, pos in map_berths if data.BERTH_MAPS[tile, pos] == 2]
    assert {data.tile_name(tile) for tile, _ in two_maps} >= {"M5", "U8"}  # these asked 2 doubloons before
    for tile, pos in two_maps:
        env = new_env(3)
        state = first_to_move(env, BENNY, next_tile=data.tile_name(tile))
        act(env, E.A_BERTH + pos, E.A_TAKE_MAPS)
        assert (state.map_owner == BENNY).sum() == 2 and state.doubloons[BENNY] == 3 - 1, data.tile_name(tile)


def test_maps_need_their_price_and_a_pile():
    tile, pos = TWO_MAPS
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=tile)
    state.doubloons[BENNY] = 0
    act(env, E.A_BERTH + pos)
    assert state.current_player != BENNY and (state.map_owner == BENNY).sum() == 0
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=tile)
    give_maps(state, GINA, range(15))  # one card left in the pile
    act(env, E.A_BERTH + pos, E.A_TAKE_MAPS)
    assert (state.map_owner == BENNY).sum() == 1 and state.maps_drawn == 16
