"""The engine contract: STATE_BOUNDS and check_state accept every record play reaches and reject
each broken invariant with its own message; playout_value is on the reward scale."""

import re

import numpy as np
import pytest

from envs.core import InvalidStateError, check_records
from envs.core.vector import VectorGame
from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E
from envs.voll_auf_die_18.env import GAME

from .helpers import arrange, argue, nazi_id, play, rec, table

HEADER = {"rng", "num_players", "current_player", "terminal", "step_count", "reward"}


def test_every_field_has_bounds_and_every_code_a_text():
    assert set(E.STATE_BOUNDS) == set(E.STATE.names) - HEADER
    assert E.STATE_PROBLEMS[0] == "ok" and len(set(E.STATE_PROBLEMS)) == len(E.STATE_PROBLEMS)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_random_games_pass_at_every_step(num_players):
    """Batches of random games in numba (chapters with talents, Razupaltuff, Krapotke's dice, Blind
    Trust, five stacks, swaps; both timings), every record checked after every step."""
    for chapter, options in ((1, {}), (7, {"timing": "step"}), (10, {"communication": "none"}), (17, {}), (19, {})):
        vg = VectorGame("voll_auf_die_18_v0", 6, seed=10 * num_players + chapter, num_players=num_players,
                        chapter=chapter, **options)
        vg.reset()
        for _ in range(120):
            vg.random_steps(1)
            check_records(GAME, vg.get_state())


# ---- each invariant broken once ---------------------------------------------------------------


def pool_env():
    """Kangaroo has laid R1 + R5 at the IQ-20 Nazi in space 1 (her hand slots 0 and 1 are empty)."""
    env = table(characters=["kangaroo", "kleinkuenstler"], freeze=False)  # (frozen clocks are out of bounds)
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, bib=["G6"],
            nazis={0: 23, 1: 20})
    play(env, argue(1, (0, 1)))
    r = rec(env)
    assert r["pool_count"][nazi_id(20)] == 1 and (r["hand"][0, :2] == -1).all()
    return env


def some_bib_card(r):
    return int(np.flatnonzero(r["card_loc"][: E.NUM_ARG] == E.LOC_BIB)[0])


def bib_card_to_hand(r):
    card = some_bib_card(r)
    r["card_loc"][card], r["card_seat"][card], r["hand"][0, 0] = E.LOC_HAND, 0, card
    r["bib_count"] -= 1


def full_pool(r):
    nazi = nazi_id(20)
    r["contrib_value"][nazi, 0] = r["pool_fixed"][nazi] = 20


BREAKS = {
    "not the chapter's": lambda r: r.__setitem__("labels", r["labels"] | D.L_BLIND),
    "number of Argument stacks": lambda r: r.__setitem__("num_stacks", D.RUN_OUT_STACKS),
    "character of its own": lambda r: r["character"].__setitem__(1, r["character"][0]),
    "entries past its length": lambda r: r["stack"].__setitem__((0, r["stack_len"][0]), some_bib_card(r)),
    "a hand slot holds a card": lambda r: r["hand"].__setitem__((1, 3), r["stack"][0, 0]),
    "talent space holds": lambda r: r["talent_len"].__setitem__(0, 1),
    "not accounted for exactly once": lambda r: r["card_loc"].__setitem__(some_bib_card(r), E.LOC_NONE),
    "Razupaltuff": lambda r: r["card_loc"].__setitem__(D.NUM_ARGUMENTS, E.LOC_DISCARD),
    "bib_count": lambda r: r.__setitem__("bib_count", r["bib_count"] + 1),
    "more than 4 cards": bib_card_to_hand,
    "hand_known is set": lambda r: r["hand_known"].__setitem__((0, 0), 1),
    "the Nazis are not": lambda r: r.__setitem__("convinced", r["convinced"] + 1),
    "a Nazi lies on a side": lambda r: r["nasty"].__setitem__(0, 1),
    "game runs on": lambda r: r.__setitem__("clock", D.CHAPTER_SECONDS),
    "a pool is inconsistent": lambda r: r["pool_fixed"].__setitem__(nazi_id(20), 7),
    "a pool sits full": full_pool,
    "Krapotke's dice": lambda r: (r["die_value"].__setitem__(0, 6), r["die_status"].__setitem__(0, E.DIE_FREE)),
    "an offer is": lambda r: (r["offer_to"].__setitem__(1, 1), r["offer_card"].__setitem__(1, r["hand"][1, 0])),
    "end_reason": lambda r: r.__setitem__("end_reason", E.END_TIME),
    "a talent is": lambda r: r["talent_ready"].__setitem__(0, 1),
    "the clock disagrees": lambda r: r.__setitem__("clock", r["clock"] + 1),
    "cached masks": lambda r: r["mask"].__setitem__((0, E.A_EMERGENCY), 1 - r["mask"][0, E.A_EMERGENCY]),
}


def problem(key):
    return next(text for text in E.STATE_PROBLEMS if key in text)


def test_every_check_is_broken_by_one_case_below():
    assert [problem(key) for key in BREAKS] == list(E.STATE_PROBLEMS[1:])


@pytest.mark.parametrize("key", list(BREAKS))
def test_a_broken_invariant_is_rejected_with_its_message(key):
    env = pool_env()
    state = env._states.copy()
    check_records(GAME, state)
    BREAKS[key](state[0])
    text = problem(key)
    with pytest.raises(InvalidStateError, match="record invalid: " + re.escape(text)):
        check_records(GAME, state)
    assert int(E.check_state(state[0])) == E.STATE_PROBLEMS.index(text)
    check_records(GAME, env._states)


def test_a_field_out_of_bounds_is_named():
    state = pool_env()._states.copy()
    state[0]["hand"][1, 2] = E.NUM_CARDS
    with pytest.raises(InvalidStateError, match=re.escape(f"hand[1, 2]={E.NUM_CARDS} outside [-1, {E.NUM_CARDS - 1}]")):
        check_records(GAME, state)


# ---- playout_value ------------------------------------------------------------------------------


def value(env):
    values = np.zeros(int(rec(env)["num_players"]), np.float32)
    E.playout_value(rec(env), values)
    return values


def test_playout_value_is_shared_on_the_reward_scale_and_grows_with_progress():
    env = table(num_players=3)
    start = value(env)
    assert len(set(start.tolist())) == 1 and -1 <= start[0] <= 1
    arrange(env, nazis={0: 23, 1: 20}, convinced=list(range(6, 18)))
    ahead = value(env)
    assert ahead[0] > start[0] and ahead[0] <= 1
    late = rec(env).copy()
    late["clock"] = 900
    values = np.zeros(3, np.float32)
    E.playout_value(late, values)
    assert values[0] < ahead[0], "the same progress later in the chapter is worth less"


def test_playout_value_is_zero_once_the_game_is_over():
    env = table()
    rec(env)["terminal"] = 1
    assert not value(env).any()
