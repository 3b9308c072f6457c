"""The engine contract's checks and estimate: records the rules can reach pass ``check_records``
after every step of long random play; each invariant of ``check_state`` broken once on purpose
is rejected with its own message (nothing crashes); ``playout_value`` ranks seats by progress on
the reward scale."""

import re

import numpy as np
import pytest

from envs import teufel_teufel_v0
from envs.core import InvalidStateError, check_records, kernels
from envs.core.vector import VectorGame
from envs.teufel_teufel import data as D
from envs.teufel_teufel import engine as E

from .helpers import DEVILS, TOWERS, person, sq, table

GAME = teufel_teufel_v0.GAME


def code_of(records):
    codes = np.zeros(len(records), np.int64)
    kernels.check_batch(records, codes)
    return int(codes[0])


# ---- reachable records pass ----------------------------------------------------------------


@pytest.mark.parametrize("num_players,revisits", [(2, True), (3, False), (4, True), (5, True), (6, False)])
def test_every_record_of_long_random_play_passes(num_players, revisits):
    env = teufel_teufel_v0.env(num_players=num_players, chain_revisits=revisits)
    rng = np.random.default_rng(num_players)
    steps, chains = 0, 0
    while steps < 3000:
        env.reset(seed=int(rng.integers(2**31)))
        check_records(GAME, env.unwrapped.get_state())
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(env.legal_actions())))
            steps += 1
            record = env.unwrapped.get_state()
            chains += record[0]["phase"] == D.GO_ON
            check_records(GAME, record)
    assert chains > 0, "random play reaches the middle of a chain"


def test_a_batch_of_random_games_passes_at_every_checkpoint():
    vg = VectorGame("teufel_teufel_v0", 256, seed=3, num_players=3)
    vg.reset()
    for _ in range(100):
        vg.random_steps(20, observe=False)
        check_records(GAME, vg.get_state())


def test_a_game_ended_by_a_forfeit_passes():
    env = teufel_teufel_v0.env(num_players=3, illegal_action="penalize")
    env.reset(seed=0)
    env.step(D.PASS)  # not legal while placing: the game ends, -1 for the offender
    record = env.unwrapped.get_state()
    assert record[0]["terminal"] == 1
    check_records(GAME, record)


# ---- each invariant broken once ------------------------------------------------------------


def turn_record(**kwargs):
    """Seat 0 to move in a three-player game (cards face down unless ``up``)."""
    options = {"discs": {0: "a1", 1: "g7", 2: "g1"}, **kwargs}
    return table(3, **options).unwrapped.get_state()


def after(env, *actions):
    for action in actions:
        env.step(action)
    return env.unwrapped.get_state()


def devil_move_hand():
    env = table(3, cards={"b1": person(1, "A"), "c1": DEVILS[0]}, up=("b1", "c1"),
                discs={0: "a1", 1: "g7", 2: "g1"}, devils={0: 1})
    return after(env, D.BEGIN_DEVIL_MOVE, sq("b1"), sq("c1"), D.DONE_PICKING)


def placing():
    env = teufel_teufel_v0.env(num_players=3)
    env.reset(seed=0)
    return env.unwrapped.get_state()


def breaking(record, change):
    change(record[0])
    return record


def swap_board(s):
    a, b = s["board"][sq("b1")], s["board"][sq("c1")]
    s["board"][sq("b1")], s["board"][sq("c1")] = b, a


def card_to_devil_space(s):
    card = s["board"][sq("b1")]
    s["board"][sq("b1")], s["board"][D.DEVIL_SPACE], s["card_square"][card] = -1, card, D.DEVIL_SPACE


def card_vanishes(s):
    card = s["board"][sq("b1")]
    s["board"][sq("b1")], s["card_square"][card] = -1, -1


def leave_without_letters(s):
    s["status"][2], s["disc"][2], s["departures"] = E.LEFT, -1, 1


def set_fields(**values):
    def change(s):
        for name, value in values.items():
            s[name] = value
    return change


def set_item(name, index, value):
    def change(s):
        s[name][index] = value
    return change


def go_on_from_a_face_down_card(s):
    s["phase"], s["move_from"] = D.GO_ON, sq("b1")
    s["move_turned"][sq("a1")] = 1


BROKEN = {  # code: (how to get a record, what to break)
    1: (turn_record, set_item("known", (4, 0), 1)),
    2: (turn_record, swap_board),
    3: (turn_record, card_to_devil_space),
    4: (turn_record, card_vanishes),
    5: (devil_move_hand, lambda s: s["card_up"].__setitem__(s["held"][0], 1)),
    6: (turn_record, set_item("letters", (0, 0), 1)),
    7: (turn_record, set_fields(devils_home=3)),
    8: (turn_record, leave_without_letters),
    9: (turn_record, set_fields(departures=1)),
    10: (turn_record, lambda s: s["disc"].__setitem__(slice(0, 3), sq("g7"))),
    11: (turn_record, set_item("disc", 2, -1)),
    12: (turn_record, set_fields(phase=D.OVER)),
    13: (turn_record, set_item("status", 2, E.LOST)),
    14: (turn_record, lambda s: s["card_up"].__setitem__(slice(None), 1)),
    15: (turn_record, set_fields(turn_owner=4)),
    16: (turn_record, set_fields(current_player=1)),
    17: (turn_record, set_fields(phase=D.FLIP, flips_left=2)),
    18: (placing, set_item("disc", 1, sq("g7"))),
    19: (turn_record, set_fields(phase=D.SWAP_SECOND)),
    20: (turn_record, set_fields(picked_count=1)),
    21: (turn_record, set_fields(phase=D.DEVIL_PLACE)),
    22: (lambda: turn_record(cards={"b1": TOWERS[0], "c1": TOWERS[1]}, up=("b1", "c1")),
         set_fields(phase=D.DEVIL_PICK)),
    23: (turn_record, set_fields(phase=D.TOWER_PEEK)),
    24: (turn_record, set_fields(handover_target=1)),
    25: (turn_record, set_fields(phase=D.STEAL)),
    26: (turn_record, set_fields(letters_to_lose=1)),
    27: (turn_record, set_fields(flips_left=1)),
    28: (turn_record, set_fields(move_from=0)),
    29: (turn_record, go_on_from_a_face_down_card),
}


def test_every_problem_has_a_broken_record():
    assert sorted(BROKEN) == list(range(1, len(E.STATE_PROBLEMS)))


@pytest.mark.parametrize("code", sorted(BROKEN))
def test_a_broken_invariant_is_rejected_with_its_message(code):
    make, change = BROKEN[code]
    record = make()
    check_records(GAME, record)  # valid before
    record = breaking(record, change)
    assert code_of(record) == code
    with pytest.raises(InvalidStateError, match=re.escape(E.STATE_PROBLEMS[code])):
        check_records(GAME, record)


@pytest.mark.parametrize("field,value", [("devils", 2), ("board", 42), ("phase", D.NUM_PHASES), ("move_from", 49),
                                         ("letter_reward", 2.0), ("chain_revisits", 2)])
def test_a_field_out_of_its_bounds_is_rejected_before_the_rules(field, value):
    record = turn_record()
    record[field].reshape(-1)[0] = value  # the first element of the field
    with pytest.raises(InvalidStateError, match=f"{field}.*outside"):
        check_records(GAME, record)


# ---- playout_value -------------------------------------------------------------------------


def values_of(record):
    values = np.zeros(D.MAX_PLAYERS, np.float32)
    E.playout_value(record[0], values)
    return values


def test_an_even_table_shares_the_rewards_still_to_come():
    env = teufel_teufel_v0.env(num_players=4)
    env.reset(seed=0)
    values = values_of(env.unwrapped.get_state())
    np.testing.assert_allclose(values[:4], 0.5)  # three leave (+1), one loses (-1): nobody ahead yet
    assert not values[4:].any()


def test_progress_ranks_the_seats_and_a_devil_counts_against_you():
    record = table(4, discs={0: "a1", 1: "g7", 2: "g1", 3: "a7"}, letters={0: "ABCDE", 1: "AB", 2: "AB"},
                   devils={1: 1}).unwrapped.get_state()
    values = values_of(record)
    # Progress 5, 1, 2, 0: seat 0 and seat 2 take the two +1s ahead, seat 1 the third, seat 3 the -1,
    # shrunk towards the mean 0.5 by (5 - 0) / 6.
    confidence = 5 / 6
    np.testing.assert_allclose(values[:4], 0.5 + confidence * (np.array([1, 1, 1, -1]) - 0.5), rtol=1e-6)
    assert values[:4].sum() == pytest.approx(2.0)
    assert (np.abs(values) <= 1).all()


def test_ranked_rewards_and_seats_off_the_board():
    record = table(4, discs={0: "a1", 2: "g1", 3: "a7"}, letters={0: "ABC", 1: "ABCDEF"}, left=(1,),
                   rewards="ranked").unwrapped.get_state()
    values = values_of(record)
    # One has left: the placings still to come are 1/3 (second out), -1/3 (third) and -1 (last).
    assert values[1] == 0.0
    confidence = 3 / 6
    mean = (1 / 3 - 1 / 3 - 1) / 3
    np.testing.assert_allclose(values[0], mean + confidence * (1 / 3 - mean), atol=1e-6)
    np.testing.assert_allclose(values[[2, 3]], mean + confidence * ((-1 / 3 - 1) / 2 - mean), atol=1e-6)


def test_a_finished_game_has_nothing_to_come():
    env = table(2, cards={"b1": person(0, "F")}, up=("b1",), discs={0: "a1", 1: "g7"}, letters={0: "ABCDE"})
    env.step(sq("b1"))
    assert not values_of(env.unwrapped.get_state()).any()
