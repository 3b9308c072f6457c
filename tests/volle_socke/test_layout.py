"""Laying out the motorbikes at the start of the horsepower contest (rulebook V): the knocker first,
at least front wheel, engine and rear wheel, and a seat that cannot is out of the round."""

import numpy as np

from envs.testing import install_unchecked
from envs.volle_socke import engine as E
from envs.volle_socke.data import (
    ENGINE_10, ENGINE_50, ENGINE_100, FLAT_FRONT, FRONT, LACH, NUM_KINDS, PUMP, REAR_1, ROLE_ENGINE, ROLE_FRONT,
    ROLE_REAR, SPARE_0, TURBO, TUV, WOODEN_FRONT,
)

from .helpers import contest_position, discard, fit, give, kind_totals, legal, misery, record

REAR_4 = REAR_1 + 3


def layout_position(hands, knocker, num_players=None, **config):
    """The last building turn (of the seat before the knocker) is about to discard ``hands[last][-1]``;
    after that discard, laying out begins."""
    num_players = num_players or len(hands)
    last = (knocker - 1) % num_players
    env = contest_position(num_players, hands=hands, check=False, **config)
    # Hands smaller than a real deal keep these scenarios readable, but a discarding seat with four
    # cards is no record set_state accepts; so the test writes the live record and installs it
    # unchecked.
    r = record(env)
    r["phase"] = E.PH_DISCARD
    r["status"][:] = E.BUILDING
    r["knocker"] = knocker
    r["current_player"] = last
    r["turn_seat"] = last
    r["final_owed"][:] = 0
    r["final_owed"][last] = 1
    install_unchecked(env, r)
    env.step(discard(hands[last][-1]))
    return env


FULL = [FRONT, ENGINE_50, REAR_1]


def test_the_knocker_lays_out_first_then_the_others_in_turn():
    hands = {0: FULL + [ENGINE_10], 1: FULL + [ENGINE_10], 2: FULL + [ENGINE_10]}
    env = layout_position(hands, knocker=1)
    rec = record(env)
    order = []
    while rec["phase"] == E.PH_LAYOUT:
        seat = int(rec["current_player"])
        order.append(seat)
        for action in (fit(FRONT), fit(ENGINE_50), fit(REAR_1), E.FINISH_LAYOUT):
            env.step(action)
    assert order == [1, 2, 0]
    # The knocker plays the first card of the contest.
    assert rec["phase"] == E.PH_TURN and rec["current_player"] == 1
    assert (rec["status"][:3] == E.IN_CONTEST).all()


def test_finish_only_with_front_wheel_engine_and_rear_wheel():
    env = layout_position({0: FULL + [TURBO, ENGINE_10], 1: FULL + [ENGINE_10]}, knocker=0)
    assert E.FINISH_LAYOUT not in legal(env)
    env.step(fit(FRONT))
    assert fit(FRONT) not in legal(env)  # one front wheel
    env.step(fit(TURBO))                 # more than three cards may be laid out
    env.step(fit(ENGINE_50))
    assert E.FINISH_LAYOUT not in legal(env)
    env.step(fit(ENGINE_10))             # engines add up
    env.step(fit(REAR_1))
    assert E.FINISH_LAYOUT in legal(env)
    assert E.bike_value(record(env), 0) == (50 + 10) * 2 * 1


def test_cards_that_would_leave_no_bike_cannot_be_laid_out():
    # One spare part must become the missing rear wheel: it cannot go in as an engine or front.
    env = layout_position({0: [FRONT, ENGINE_50, SPARE_0], 1: FULL + [ENGINE_10]}, knocker=0)
    assert fit(SPARE_0, ROLE_REAR) in legal(env)
    assert fit(SPARE_0, ROLE_ENGINE) not in legal(env) and fit(SPARE_0, ROLE_FRONT) not in legal(env)
    env.step(fit(SPARE_0, ROLE_REAR))
    env.step(fit(FRONT))
    env.step(fit(ENGINE_50))
    assert legal(env) == {E.FINISH_LAYOUT}
    assert E.bike_value(record(env), 0) == 50 * 4   # a spare part is a 4th-gear rear wheel


def test_a_flat_front_wheel_can_be_laid_out_and_pumped_up():
    env = layout_position({0: [FLAT_FRONT, ENGINE_100, REAR_4, PUMP], 1: FULL + [ENGINE_10]}, knocker=0)
    rec = record(env)
    assert fit(PUMP) not in legal(env)   # nothing flat yet
    for action in (fit(FLAT_FRONT), fit(ENGINE_100), fit(REAR_4)):
        env.step(action)
    assert rec["flat_tyre"][0] == 1 and E.bike_value(rec, 0) == 0
    env.step(fit(PUMP))
    assert rec["flat_tyre"][0] == 0 and E.bike_value(rec, 0) == 400
    assert rec["discard"][rec["discard_size"] - 1] == PUMP


def test_a_seat_that_cannot_lay_out_is_out_and_shows_its_hand():
    hands = {0: FULL + [ENGINE_10], 1: [FRONT, ENGINE_100, LACH, TUV, WOODEN_FRONT], 2: FULL + [ENGINE_10]}
    env = layout_position(hands, knocker=0)
    rec = record(env)
    for action in (fit(FRONT), fit(ENGINE_50), fit(REAR_1), E.FINISH_LAYOUT):
        env.step(action)
    # Seat 1 has no rear wheel: it is skipped, out of the round, and its hand is known to all.
    assert rec["status"][1] == E.OUT and rec["current_player"] == 2
    assert (rec["known"][1] == rec["hand"][1]).all() and rec["hand"][1].sum() == 5
    views = env.observation_layout.views(env.observe("player_0")["observation"])
    assert views["known_hands"][1].tolist() == rec["hand"][1].tolist()
    assert views["status"][1].tolist() == [0, 0, 1]
    for action in (fit(FRONT), fit(ENGINE_50), fit(REAR_1), E.FINISH_LAYOUT):
        env.step(action)
    # In the contest the out seat never gets a turn, and it cannot be the target of misery cards.
    give(rec, 0, TUV)
    assert misery(TUV, 2) in legal(env) and misery(TUV, 1) not in legal(env)
    seats = []
    for action in (discard(ENGINE_10), E.PASS, E.PASS):
        seats.append(int(rec["current_player"]))
        env.step(action)
    assert seats == [0, 2, 0] and rec["round_index"] == 1


def test_when_nobody_can_lay_out_the_round_scores_zero_for_all():
    hands = {0: [FRONT, FRONT, TURBO], 1: [ENGINE_10, ENGINE_10, LACH]}
    env = layout_position(hands, knocker=0, num_rounds=2)
    rec = record(env)
    assert rec["round_index"] == 1 and rec["phase"] == E.PH_DRAW
    assert rec["round_scores"][:2, 0].tolist() == [0, 0]


def test_laying_out_keeps_every_card():
    hands = {0: FULL + [ENGINE_10], 1: FULL + [ENGINE_10]}
    env = layout_position(hands, knocker=1)
    rec = record(env)
    for action in (fit(FRONT), fit(ENGINE_50), fit(REAR_1), E.FINISH_LAYOUT):
        env.step(action)
        assert (kind_totals(rec) == E.COUNTS).all()
    assert rec["bike"][1].sum() == 3 and rec["hand"][1].sum() == 1
    assert np.array_equal(rec["hand"][1], np.eye(NUM_KINDS, dtype=np.int8)[ENGINE_10])
