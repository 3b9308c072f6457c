"""Setup and the first phase, "building the motorbike" (rulebook III and IV): dealing, the face-up
card, taking and discarding, knocking and the last turns, the rotating start."""

import numpy as np
import pytest

from envs.volle_socke import engine as E
from envs.volle_socke.data import NUM_KINDS

from .helpers import discard, kind_totals, legal, make, record


@pytest.mark.parametrize("num_players,cards", [(2, 10), (3, 10), (4, 8), (5, 8), (8, 8)])
def test_deal(num_players, cards):
    env = make(num_players)
    rec = record(env)
    assert rec["hand"][:num_players].sum(axis=1).tolist() == [cards] * num_players
    assert rec["hand"][num_players:].sum() == 0
    assert rec["discard_size"] == 1 and rec["discard_seen"][0] == E.ALL_SEATS  # one card face up
    assert rec["deck_size"] == 110 - cards * num_players - 1
    assert (kind_totals(rec) == np.array(E.COUNTS)).all()
    assert rec["phase"] == E.PH_DRAW and rec["current_player"] == 0 and rec["round_index"] == 0


def test_a_turn_takes_one_card_then_discards_one_face_up():
    env = make(4)
    rec = record(env)
    assert legal(env) == {E.DRAW_PILE, E.DRAW_FACE_UP}
    top = int(rec["deck"][rec["deck_size"] - 1])
    before = rec["hand"][0].copy()
    env.step(E.DRAW_PILE)
    assert rec["hand"][0, top] == before[top] + 1 and rec["phase"] == E.PH_DISCARD
    assert rec["current_player"] == 0
    # Discard any hand card (knocking is also allowed now).
    assert legal(env) == {E.KNOCK} | {discard(k) for k in range(NUM_KINDS) if rec["hand"][0, k]}
    kind = int(np.flatnonzero(rec["hand"][0])[0])
    env.step(discard(kind))
    assert rec["discard"][rec["discard_size"] - 1] == kind
    assert rec["discard_seen"][rec["discard_size"] - 1] == E.ALL_SEATS
    assert rec["hand"][0].sum() == 8 and rec["current_player"] == 1 and rec["phase"] == E.PH_DRAW


def test_taking_the_face_up_card_shows_the_others_what_you_took():
    env = make(4)
    rec = record(env)
    face_up = int(rec["discard"][0])
    env.step(E.DRAW_FACE_UP)
    assert rec["discard_size"] == 0 and rec["known"][0, face_up] == 1
    views = env.observation_layout.views(env.observe("player_1")["observation"])
    assert views["known_hands"][3, face_up] == 1  # seat 0 is three places after seat 1
    # Discarding it again face up: the others no longer know of it in the hand.
    env.step(discard(face_up))
    assert rec["known"][0].sum() == 0


def test_the_next_seat_may_take_the_card_just_discarded():
    env = make(3)
    rec = record(env)
    env.step(E.DRAW_PILE)
    kind = int(np.flatnonzero(rec["hand"][0])[-1])
    env.step(discard(kind))
    assert E.DRAW_FACE_UP in legal(env)
    env.step(E.DRAW_FACE_UP)
    assert rec["known"][1, kind] == 1


def test_knocking_only_between_taking_and_discarding():
    env = make(4)
    assert E.KNOCK not in legal(env)
    env.step(E.DRAW_PILE)
    assert E.KNOCK in legal(env)


def _first_discard(env):
    rec = record(env)
    return discard(int(np.flatnonzero(rec["hand"][rec["current_player"]])[0]))


def test_after_a_knock_every_other_seat_has_exactly_one_more_turn():
    env = make(4)
    rec = record(env)
    for _ in range(2):  # seats 0 and 1 play a normal turn
        env.step(E.DRAW_PILE)
        env.step(_first_discard(env))
    env.step(E.DRAW_PILE)                 # seat 2 takes and knocks
    env.step(E.KNOCK)
    assert rec["knocker"] == 2 and E.KNOCK not in legal(env)
    assert rec["final_owed"][:4].tolist() == [1, 1, 0, 1]
    env.step(_first_discard(env))         # ...and discards: its turn is over
    order = []
    while rec["phase"] in (E.PH_DRAW, E.PH_DISCARD):
        order.append(int(rec["current_player"]))
        env.step(E.DRAW_PILE)
        assert E.KNOCK not in legal(env)  # nobody knocks twice
        env.step(_first_discard(env))
    assert order == [3, 0, 1]
    assert rec["phase"] in (E.PH_LAYOUT, E.PH_TURN, E.PH_DRAW)


def test_whoever_takes_the_last_card_of_the_draw_pile_must_knock():
    env = make(2)
    rec = record(env)
    while rec["deck_size"] > 1:
        env.step(E.DRAW_PILE)
        env.step(_first_discard(env))
    env.step(E.DRAW_PILE)
    assert rec["deck_size"] == 0 and legal(env) == {E.KNOCK}
    seat = int(rec["current_player"])
    env.step(E.KNOCK)
    env.step(_first_discard(env))
    # The last turn can only take the face-up card.
    assert rec["current_player"] == 1 - seat and legal(env) == {E.DRAW_FACE_UP}


def test_lay_out_starts_with_the_knocker():
    env = make(4)
    rec = record(env)
    env.step(E.DRAW_PILE)
    env.step(_first_discard(env))
    env.step(E.DRAW_PILE)
    env.step(E.KNOCK)                     # seat 1 knocks
    for _ in range(4):
        env.step(_first_discard(env))
        if rec["phase"] == E.PH_DRAW:
            env.step(E.DRAW_PILE)
    assert rec["phase"] in (E.PH_LAYOUT, E.PH_TURN)
    # The first seat asked to lay out is the knocker, unless it cannot (then it is out).
    if rec["status"][1] == E.OUT:
        assert rec["current_player"] != 1
    else:
        assert rec["current_player"] == 1 and rec["phase"] == E.PH_LAYOUT


def test_the_starting_seat_rotates_each_round():
    env = make(3, num_rounds=4)
    rec = record(env)
    starters = []
    while not rec["terminal"]:
        if rec["phase"] == E.PH_DRAW and rec["knocker"] < 0 and rec["deck_size"] == 110 - 31:
            starters.append(int(rec["current_player"]))
        actions = sorted(legal(env))
        # knock at once, lay out the first legal card, pass in the contest
        action = E.KNOCK if E.KNOCK in actions else E.PASS if E.PASS in actions else actions[0]
        env.step(action)
    assert starters == [0, 1, 2, 0]
