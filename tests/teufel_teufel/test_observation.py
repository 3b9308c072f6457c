"""What a seat observes: its own point of view (relative seats and colours) and its beliefs
about face-down cards (exact where it peeked, uniform over a group where it cannot know)."""

import numpy as np
import pytest

from envs import teufel_teufel_v0
from envs.teufel_teufel import data as D
from envs.teufel_teufel import engine as E

from .helpers import DEVILS, TOWERS, observation, person, record, sq, table


def test_layout_blocks_and_size():
    env = teufel_teufel_v0.env()
    assert env.observation_space("player_0")["observation"].shape == (E.LAYOUT.size,)
    assert E.LAYOUT.shape("cards") == (49, 38) and E.LAYOUT.shape("discs") == (6, 49)


def test_players_and_colours_are_seen_relative_to_the_observer():
    cards = {"b1": person(1, "A"), "c1": person(4, "B")}
    env = table(3, cards=cards, up=("b1", "c1"), discs={0: "a1", 1: "g7", 2: "g1"},
                letters={0: "A", 1: "BC"}, devils={2: 1})
    seen = {seat: observation(env, seat) for seat in range(3)}
    assert seen[1]["letters"][0].tolist() == [0, 1, 1, 0, 0, 0]
    assert seen[1]["letters"][2].tolist() == [1, 0, 0, 0, 0, 0], "seat 0 is two seats after seat 1"
    assert seen[0]["devils"].tolist() == [0, 0, 1, 0, 0, 0] and seen[2]["devils"][0] == 1
    assert seen[0]["discs"][1, sq("g7")] == 1 and seen[1]["discs"][0, sq("g7")] == 1
    # Colour 1's A: own colour (type 0) for seat 1, one colour on for seat 0, two for seat 2.
    assert seen[1]["cards"][sq("b1")].argmax() == 0
    assert seen[0]["cards"][sq("b1")].argmax() == 6
    assert seen[2]["cards"][sq("b1")].argmax() == 12
    assert all(seen[s]["cards"][sq("c1")].argmax() == 4 * 6 + 1 for s in range(3)), "unused colours stay put"
    assert seen[0]["players"][:3].tolist() == [[1, 0, 0]] * 3 and not seen[0]["players"][3:].any()
    assert seen[2]["turn"].tolist() == [0, 1, 0, 0, 0, 0] and seen[0]["turn"][0] == 1


def test_a_face_down_card_nobody_has_seen_is_a_uniform_mix_of_all_unseen_cards():
    env = teufel_teufel_v0.env(num_players=2)
    env.reset(seed=3)
    view = observation(env, 0)
    down = record(env)["board"] >= 0
    assert view["squares"][down, 1].all() and view["squares"][D.DEVIL_SPACE, 3] == 1
    beliefs = view["cards"][down]
    np.testing.assert_allclose(beliefs.sum(axis=1), 1.0, rtol=1e-6)
    np.testing.assert_allclose(beliefs[:, D.TYPE_DEVIL], 4 / 42, rtol=1e-6)
    np.testing.assert_allclose(beliefs[:, D.TYPE_TOWER], 2 / 42, rtol=1e-6)
    np.testing.assert_allclose(beliefs[:, :36], 1 / 42, rtol=1e-6)
    assert not view["cards"][~down].any() and not view["certain"].any()
    assert view["face_down"][0] == 42 and view["devils_home"][0] == 4 and (view["supply"] == 6).all()


def test_face_up_cards_leave_the_mix_of_the_rest():
    env = table(2, cards={"b1": DEVILS[0], "c1": DEVILS[1]}, up=("b1", "c1"), discs={0: "a1", 1: "g7"})
    view = observation(env, 0)
    assert view["certain"][sq("b1")] == 1 and view["cards"][sq("b1"), D.TYPE_DEVIL] == 1
    assert view["cards"][sq("e5"), D.TYPE_DEVIL] == pytest.approx(2 / 40)
    assert view["face_down"][0] == 40


def test_elimination_within_a_devil_move_group_makes_the_last_card_certain():
    env = table(2, cards={"b1": TOWERS[0], "c1": person(1, "A"), "e1": TOWERS[1]}, up=("c1", "e1"),
                discs={0: "a1", 1: "g7"}, devils={0: 1})
    env.step(D.BEGIN_DEVIL_MOVE)
    env.step(sq("c1"))
    env.step(sq("e1"))
    view = observation(env, 0)
    assert view["selected"][sq("c1")] == 1 and view["selected"][sq("e1")] == 1
    env.step(D.DONE_PICKING)
    view = observation(env, 1)
    assert view["shuffled"][D.TYPE_TOWER] == 1 and view["shuffled"][0] == 1 and view["to_place"][0] == 2
    env.step(sq("c1"))
    view = observation(env, 1)
    assert view["shuffled"][D.TYPE_TOWER] == 1 and view["shuffled"][0] == 1 and view["to_place"][0] == 1
    env.step(sq("e1"))
    env.step(sq("b7"))  # player 1 moves away
    state = record(env)
    # player 0's tower peek at c1 tells it both cards of the pair.
    state["known"][0, state["board"][sq("c1")]] = 1
    view = observation(env, 0)
    assert view["certain"][sq("c1")] == 1 and view["certain"][sq("e1")] == 1
    other = state["board"][sq("e1")]
    assert view["cards"][sq("e1")].argmax() == E.card_type(other, 0, 2)
    assert observation(env, 1)["certain"][sq("e1")] == 0


def test_the_fellow_choosing_lost_letters_is_acting_while_it_is_still_the_movers_turn():
    env = table(3, empty=("b1",), discs={0: "a1", 1: "b1", 2: "g7"}, devils={0: 1, 1: 1}, letters={1: "ABCD"})
    env.step(sq("b1"))
    env.step(D.HAND_OVER)
    view = observation(env, 1)
    assert view["acting"][0] == 1 and view["turn"][2] == 1 and view["letters_to_lose"][0] == 2
    assert view["phase"][D.LOSE_LETTER] == 1


def test_the_precomputed_card_types_match_card_type():
    for n in range(2, 7):
        for seat in range(n):
            types = [E.card_type(card, seat, n) for card in range(D.NUM_CARDS)]
            assert E.SEEN_TYPES[n, seat].tolist() == types
            assert types[person(seat, "C")] == 2, "your own colour is colour 0"


def test_mid_move_every_seat_sees_where_the_move_began_and_what_it_turned():
    cards = {"b1": person(2, "D"), "c1": person(3, "D")}
    env = table(3, cards=cards, empty=("a1",), discs={0: "a1", 1: "g7", 2: "g1"}, letters={0: "D"})
    env.step(sq("b1"))
    env.step(sq("c1"))
    for seat in range(3):
        view = observation(env, seat)
        assert view["phase"][D.GO_ON] == 1 and view["acting"][(0 - seat) % 3] == 1
        assert np.flatnonzero(view["move_from"]).tolist() == [sq("a1")]
        assert np.flatnonzero(view["move_turned"]).tolist() == [sq("b1"), sq("c1")]
        assert view["certain"][sq("b1")] == 1 and view["squares"][sq("c1"), 2] == 1, "turned cards are face up"
        assert view["cards"][sq("c1")].argmax() == E.card_type(person(3, "D"), seat, 3)
    env.step(D.STOP_HERE)
    view = observation(env, 1)
    assert not view["move_from"].any() and not view["move_turned"].any(), "the move is over"
