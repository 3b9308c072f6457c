"""The engine contract: STATE_BOUNDS, check_state (every invariant broken once on purpose) and
playout_value. Long random play passing check_records after every step is in test_invariants."""

import numpy as np
import pytest

from envs.core import InvalidStateError, check_records
from envs.core.game import engine_function
from envs.volles_fass_voraus import data, engine
from envs.volles_fass_voraus.env import GAME

from .helpers import (
    C, E, O, P, act, berth, deck_of, first_to_move, give_sailors, load_deck, new_env, raw_env, record,
)


def test_check_state_and_playout_value_are_registered():
    assert engine_function(E.STATE, "check_state") is engine.check_state
    assert engine_function(E.STATE, "playout_value") is engine.playout_value
    assert set(E.STATE_BOUNDS) == {n for n in E.STATE.names} - {"rng", "num_players", "current_player", "terminal",
                                                                   "step_count", "reward"}


# ---- positions to break ------------------------------------------------------------------------


def choosing_berth():
    """Mid-voyage, Benny to choose his berth in the next harbour."""
    env = new_env(3)
    first_to_move(env, 0, next_tile="L1")
    return env


def loading():
    """Benny at "load OC (1)", to pick a barrel (nothing paid yet)."""
    env = new_env(3)
    first_to_move(env, 0, next_tile="L1")
    act(env, E.A_BERTH + 1)
    assert record(env).phase == E.PH_LOAD_PICK
    return env


def placing():
    env = loading()
    act(env, E.A_COLOUR + 2)
    assert record(env).phase == E.PH_LOAD_PLACE
    return env


def unloading():
    env = new_env(3)
    tile, pos = berth("unload ** -> 6")
    state = first_to_move(env, 0, next_tile=tile)
    load_deck(state, 0, deck_of((0, P), (1, O), (2, C)))
    act(env, E.A_BERTH + pos, E.A_SPACE + 0)  # one of the two barrels off
    assert state.phase == E.PH_UNLOAD and state.unloaded == 1
    return env


def unloading_with_barry():
    """Benny at "unload PP -> 10" with one purple off; the other is out of reach but for Barry's move."""
    env = new_env(3)
    tile, pos = berth("unload PP -> 10")
    state = first_to_move(env, 0, next_tile=tile)
    load_deck(state, 0, deck_of((9, P), (10, P), (3, O)))  # the orange on 3 blocks the purple on 10
    give_sailors(state, 0, "Barry Fassel")
    act(env, E.A_BERTH + pos, E.A_SPACE + 9)
    assert state.phase == E.PH_UNLOAD and state.unloaded == 1 and not engine.extractable(state.deck[0]) >> 10 & 1
    return env


def robbed():
    env = new_env(3)
    tile, pos = berth("pirates rob a barrel")
    state = first_to_move(env, 0, next_tile=tile)
    load_deck(state, 0, deck_of((0, P), (1, O)))
    act(env, E.A_BERTH + pos)
    assert state.phase == E.PH_ROB_BARREL
    return env


def storm_chaos():
    env = new_env(3)
    tile, pos = berth("1 map (free), storm chaos")
    state = first_to_move(env, 0, next_tile=tile)
    give_sailors(state, 0, "Isaac Lilaac")
    give_sailors(state, 1, "Nolly Orange", "Kitty Nature")
    act(env, E.A_BERTH + pos)
    assert state.phase == E.PH_CHAOS_TAKE
    return env


def start_berths():
    env = raw_env(num_players=3)
    env.reset(seed=0)
    act(env, E.A_BERTH + 2)
    return env


def short_route():
    return new_env(3, route="short")


def game_over():
    env = raw_env(num_players=2, route="short")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    while not record(env).terminal:
        actions = env.legal_actions()
        env.step(actions[rng.integers(len(actions))])
    return env


def _move_a_waiting_ship_ahead(s):
    ship = s.move_order[3]
    free = int(np.flatnonzero(s.berth_ship[s.leg + 1] == E.FREE)[0])
    s.berth_ship[s.ship_harbour[ship], s.ship_berth[ship]] = E.FREE
    s.berth_ship[s.leg + 1, free] = ship
    s.ship_harbour[ship], s.ship_berth[ship] = s.leg + 1, free


def _swap_moved_ships(s):
    s.move_order[0], s.move_order[1] = s.move_order[1], s.move_order[0]


def _fill_the_deck(s):
    for space in range(data.NUM_SPACES):
        if s.deck[0, space] == 0:
            colour = int(np.argmax(s.supply))
            s.supply[colour] -= 1
            s.deck[0, space] = colour + 1


def _hold_a_barrel_while_choosing(s):
    s.supply[0] -= 1
    s.hand = 1


def _empty_the_deck(s):
    for space in range(data.NUM_SPACES):
        if s.deck[0, space]:
            s.supply[s.deck[0, space] - 1] += 1
            s.deck[0, space] = 0


def _lose_a_barrel(s):
    s.supply[s.deck[0, 1] - 1] += 1
    s.deck[0, 1] = 0


def _box_the_others_sailors(s):
    for card in range(data.NUM_SAILORS):
        if s.sailor_owner[card] >= 1:
            s.sailor_owner[card] = E.OWNER_BOX


BREAKS = [  # (problem, position, how to break it)
    (E.BAD_TILES, choosing_berth, lambda s: s.harbour_tile.__setitem__(2, s.harbour_tile[3])),
    (E.BAD_TILES, short_route, lambda s: s.harbour_tile.__setitem__(20, 5)),
    (E.BAD_REVEALED, choosing_berth, lambda s: s.revealed.__setitem__(0, 0)),
    (E.BAD_REVEALED, short_route, lambda s: s.revealed.__setitem__(15, 1)),
    (E.BAD_BARRELS, choosing_berth, lambda s: s.supply.__setitem__(0, s.supply[0] - 1)),
    (E.BAD_EMPTY_SEAT, choosing_berth, lambda s: s.doubloons.__setitem__(3, 1)),
    (E.BAD_BERTHS, choosing_berth, lambda s: s.berth_ship.__setitem__((s.ship_harbour[0], s.ship_berth[0]), E.FREE)),
    (E.BAD_LEG, short_route, lambda s: setattr(s, "leg", 11)),
    (E.BAD_POSITIONS, choosing_berth, _move_a_waiting_ship_ahead),
    (E.BAD_POSITIONS, game_over, lambda s: setattr(s, "leg", 3)),
    (E.BAD_MOVE_ORDER, choosing_berth, lambda s: s.move_order.__setitem__(1, s.move_order[0])),
    (E.BAD_MOVE_ORDER, choosing_berth, lambda s: s.move_order.__setitem__(slice(2, 4), s.move_order[2:4][::-1].copy())),
    (E.BAD_CURRENT, choosing_berth, lambda s: setattr(s, "current_player", 1)),
    (E.BAD_SAILOR_PILE, choosing_berth, lambda s: s.sailor_owner.__setitem__(s.sailor_deck[5], 1)),
    (E.BAD_MAP_PILE, choosing_berth, lambda s: s.map_deck.__setitem__(0, s.map_deck[1])),
    (E.BAD_TREASURE, choosing_berth, lambda s: s.treasure.__setitem__(0, 2)),
    (E.BAD_TERMINAL, loading, lambda s: setattr(s, "phase", E.PH_OVER)),
    (E.BAD_START, start_berths, lambda s: s.doubloons.__setitem__(0, 4)),
    (E.BAD_START, start_berths, lambda s: s.doubloons.__setitem__(1, 4)),
    (E.BAD_DOUBLOONS, choosing_berth, lambda s: s.doubloons.__setitem__(0, data.DOUBLOON_BOUND[0, s.leg] + 1)),
    (E.BAD_BERTH_PHASE, loading, lambda s: setattr(s, "phase", E.PH_SAILOR)),
    (E.BAD_STAGE, loading, lambda s: setattr(s, "stage", E.ST_ARRIVE)),
    (E.BAD_PENDING, choosing_berth, lambda s: setattr(s, "load_paid", 1)),
    (E.BAD_PENDING, choosing_berth, _hold_a_barrel_while_choosing),
    (E.BAD_HAND, placing, _fill_the_deck),
    (E.BAD_LOADING, loading, lambda s: s.load_left.__setitem__(1, 0)),
    (E.BAD_UNLOADING, unloading, lambda s: setattr(s, "unloaded", 0)),
    (E.BAD_UNLOADING, unloading, _empty_the_deck),  # the pair's second barrel is gone
    (E.BAD_UNLOADING, unloading_with_barry, lambda s: s.sailor_uses.__setitem__(0, 1)),  # Barry's move spent
    (E.BAD_GIVE_UP, robbed, lambda s: give_sailors(s, 0, "Assecuranza Pit")),
    (E.BAD_GIVE_UP, robbed, _lose_a_barrel),  # one barrel left: nothing to choose
    (E.BAD_CHAOS, storm_chaos, _box_the_others_sailors),
    (E.BAD_CHAOS_GIVEN, choosing_berth, lambda s: setattr(s, "chaos_given", 0)),
    (E.BAD_FASSEL, choosing_berth, lambda s: s.sailor_uses.__setitem__(5, 1)),
]


def test_every_problem_is_broken_on_purpose_below():
    assert {code for code, _, _ in BREAKS} == set(range(1, len(E.STATE_PROBLEMS)))


@pytest.mark.parametrize("code,position,breaking", BREAKS,
                         ids=[f"{E.STATE_PROBLEMS[c][:40]}-{p.__name__}" for c, p, _ in BREAKS])
def test_a_broken_invariant_is_rejected_with_its_message(code, position, breaking):
    env = position()
    good = env.get_state()
    check_records(GAME, good)
    bad = good.copy()
    breaking(bad[0])
    assert engine.check_state(bad[0]) == code, E.STATE_PROBLEMS[engine.check_state(bad[0])]
    with pytest.raises(InvalidStateError) as error:
        check_records(GAME, bad)
    assert E.STATE_PROBLEMS[code] in str(error.value)


@pytest.mark.parametrize("field", sorted(E.STATE_BOUNDS))
def test_every_field_out_of_its_bounds_is_rejected(field):
    env = choosing_berth()
    bad = env.get_state()
    low, high = E.STATE_BOUNDS[field]
    kind = bad.dtype[field].base
    value = high + 1 if np.issubdtype(kind, np.floating) or high < np.iinfo(kind).max else low - 1
    if not np.issubdtype(kind, np.floating) and value < np.iinfo(kind).min:
        pytest.skip(f"{field}: every value of its type is in bounds")
    view = bad[field]
    view[(0,) * view.ndim] = value
    with pytest.raises(InvalidStateError, match=field):
        check_records(GAME, bad)


# ---- playout_value -------------------------------------------------------------------------------


def values_of(state):
    values = np.zeros(E.MAX_PLAYERS, np.float32)
    engine.playout_value(state, values)
    return values


def test_playout_value_is_zero_once_the_game_is_over():
    env = raw_env(num_players=3)
    env.reset(seed=0)
    state = record(env)
    rng = np.random.default_rng(0)
    while not state.terminal:
        actions = env.legal_actions()
        env.step(actions[rng.integers(len(actions))])
    assert not values_of(state).any()


def test_playout_value_is_an_expected_placing_on_the_reward_scale():
    env = choosing_berth()
    state = record(env)
    values = values_of(state)
    assert np.all(np.abs(values[:3]) <= 1) and abs(values[:3].sum()) < 1e-5 and not values[3:].any()
    # More doubloons, cargo or treasure: a better expected placing.
    richer = env.get_state()
    richer[0].doubloons[1] += 5
    assert values_of(richer[0])[1] > values[1]
    laden = env.get_state()
    load_deck(laden[0], 1, deck_of((0, P), (1, P)))
    assert values_of(laden[0])[1] > values[1]


def test_playout_value_sharpens_towards_the_destination():
    env = new_env(3)
    state = first_to_move(env, 0, harbour=data.DEST_HARBOUR - 1)
    state.doubloons[:3] = (40, 30, 20)
    late = values_of(state)
    early = choosing_berth()
    early_state = record(early)
    early_state.doubloons[:3] = (40, 30, 20)
    assert late[0] > values_of(early_state)[0] > 0 and late[0] > 0.9 and late[2] < -0.9


def test_playout_value_adds_the_shaping_of_the_cargo():
    plain, shaped = choosing_berth(), new_env(3, doubloon_shaping=0.5)
    first_to_move(shaped, 0, next_tile="L1")
    for env in (plain, shaped):
        load_deck(record(env), 0, deck_of((0, P),))
    gain = values_of(record(shaped))[0] - values_of(record(plain))[0]
    assert gain == pytest.approx(0.5 * 0.5 * data.BARREL_PRICE[0], rel=1e-5)
