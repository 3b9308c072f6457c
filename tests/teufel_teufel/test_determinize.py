"""determinize(state, seat, seed): every face-down card ``seat`` cannot place is reshuffled within
its group (never-seen cards among themselves, each devil move's cards among themselves), what
the seat knows stays, and the generator is reseeded so no true future leaks."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envs import teufel_teufel_v0
from envs.core import check_records, kernels
from envs.teufel_teufel import data as D

from .helpers import person, record, sq, table
from .test_hidden_information import play_randomly, view
from .test_invariants import check_invariants


def determinized(states, seat, seed):
    copy = states.copy()
    kernels.determinize_one(copy, seat, np.uint64(seed))
    return copy


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(num_players=st.integers(2, 6), seed=st.integers(0, 10_000), steps=st.integers(0, 500),
       seat=st.integers(0, 5), det_seed=st.integers(0, 2**62))
def test_determinize_keeps_the_seats_view_and_the_invariants(num_players, seed, steps, seat, det_seed):
    seat %= num_players
    states = play_randomly(num_players, seed, steps).unwrapped.get_state()
    after = determinized(states, seat, det_seed)
    for a, b in zip(view(states, seat), view(after, seat)):
        np.testing.assert_array_equal(a, b)
    check_invariants(after[0])
    check_records(teufel_teufel_v0.GAME, after)
    state, new = states[0], after[0]
    placed = (state["card_up"] == 1) | (state["known"][seat] == 1)
    np.testing.assert_array_equal(state["card_square"][placed], new["card_square"][placed])
    np.testing.assert_array_equal(state["group"], new["group"])


def test_determinize_resamples_what_the_seat_cannot_know():
    states = play_randomly(3, 1, 40).unwrapped.get_state()
    boards = {determinized(states, 0, s)[0]["board"].tobytes() for s in range(8)}
    assert len(boards) == 8


def test_the_initial_deal_is_resampled_uniformly():
    env = table(2, discs={0: "a1", 1: "g7"})
    states = env.unwrapped.get_state()
    corner_devils, runs = 0, 4200
    for s in range(runs):
        card = determinized(states, 0, s)[0]["board"][sq("a2")]
        corner_devils += D.FIRST_DEVIL_CARD <= card < D.FIRST_TOWER_CARD
    expected = runs * 4 / 42
    assert abs(corner_devils - expected) < 5 * np.sqrt(expected * (1 - 4 / 42))


def test_a_devil_moves_cards_are_shuffled_only_among_themselves():
    env = table(2, cards={"b1": person(1, "A"), "c1": D.FIRST_DEVIL_CARD}, up=("b1", "c1"),
                discs={0: "a1", 1: "g7"}, devils={0: 1})
    for action in (D.BEGIN_DEVIL_MOVE, sq("b1"), sq("c1"), D.DONE_PICKING, sq("b1"), sq("b7")):
        env.step(action)
    states = env.unwrapped.get_state()
    seen = set()
    for s in range(40):
        board = determinized(states, 1, s)[0]["board"]
        pair = (int(board[sq("b1")]), int(board[sq("b7")]))
        assert set(pair) == {person(1, "A"), D.FIRST_DEVIL_CARD}
        seen.add(pair)
    assert len(seen) == 2


def test_what_others_peeked_at_stays_with_the_square_and_the_seats_own_peeks_stay_put():
    env = table(3, cards={"c3": person(2, "D"), "e5": person(0, "B")}, discs={0: "a1", 1: "g7", 2: "g1"})
    state = record(env)
    state["known"][1, person(2, "D")] = 1  # seat 1 looked at c3
    state["known"][0, person(0, "B")] = 1  # seat 0 looked at e5
    states = env.unwrapped.get_state()
    moved = 0
    for s in range(10):
        new = determinized(states, 0, s)[0]
        assert new["board"][sq("e5")] == person(0, "B")
        assert new["known"][1, new["board"][sq("c3")]] == 1 and new["known"][1].sum() == 1
        moved += new["board"][sq("c3")] != person(2, "D")
    assert moved > 0


def test_determinize_reseeds_the_generator():
    states = play_randomly(2, 3, 30).unwrapped.get_state()
    other = states.copy()
    other["rng"] = 12345  # a different true future
    a, b = determinized(states, 1, 77), determinized(other, 1, 77)
    assert a.tobytes() == b.tobytes()
    assert determinized(states, 1, 78).tobytes() != a.tobytes()


def test_mid_move_the_chain_stays_and_only_unseen_cards_move():
    env = table(2, cards={"b1": person(2, "D"), "c1": person(3, "D")}, empty=("a1",), discs={0: "a1", 1: "g7"},
                letters={0: "D"})
    env.step(sq("b1"))
    env.step(sq("c1"))
    states = env.unwrapped.get_state()
    for seat in (0, 1):
        new = determinized(states, seat, 5)
        check_records(teufel_teufel_v0.GAME, new)
        for field in ("phase", "move_from", "move_turned", "disc"):
            np.testing.assert_array_equal(new[0][field], states[0][field])
        for square in ("b1", "c1"):
            assert new[0]["board"][sq(square)] == states[0]["board"][sq(square)]
        assert new[0]["board"].tobytes() != states[0]["board"].tobytes()
        np.testing.assert_array_equal(view(states, seat)[0], view(new, seat)[0])
