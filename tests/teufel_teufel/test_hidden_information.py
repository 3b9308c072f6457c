"""Hidden information: a seat's observation (and legal actions) do not change when only what it
cannot know changes, i.e. when the face-down cards it cannot place are permuted among their
squares within their group (the cards never seen since the deal; each devil move's cards)."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envs import teufel_teufel_v0
from envs.core import kernels
from envs.teufel_teufel import data as D
from envs.teufel_teufel import engine as E

from .helpers import observation, person, record, sq, table


def play_randomly(num_players, seed, steps):
    env = teufel_teufel_v0.env(num_players=num_players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if any(env.terminations.values()) or any(env.truncations.values()):
            break
        env.step(int(rng.choice(env.legal_actions())))
    return env


def permute_unseen(states, seat, rng):
    """Permute, within each group, the face-down cards ``seat`` cannot place (squares and a devil
    move's hand alike); which seats peeked at a square stays with the square (that is public).
    Returns how many cards moved."""
    state = states[0]
    moved = 0
    for group in range(D.NUM_CARDS + 1):
        cards = [c for c in range(D.NUM_CARDS)
                 if state["group"][c] == group and not state["card_up"][c] and not state["known"][seat, c]]
        if len(cards) < 2:
            continue
        places = []
        for card in cards:
            square = int(state["card_square"][card])
            places.append(square if square >= 0 else -1 - list(state["held"][: state["held_count"]]).index(card))
        shuffled = list(rng.permutation(cards))
        moved += sum(a != b for a, b in zip(cards, shuffled))
        peeks = state["known"][:, cards].copy()  # who looked at a square stays with the square
        for i, (card, place) in enumerate(zip(shuffled, places)):
            state["card_square"][card] = max(place, -1)
            state["known"][:, card] = peeks[:, i]
            if place >= 0:
                state["board"][place] = card
            else:
                state["held"][-1 - place] = card
    return moved


def view(states, seat):
    obs = np.zeros(E.LAYOUT.size, np.float32)
    mask = np.zeros(D.NUM_ACTIONS, np.int8)
    kernels.view_one(states, seat, obs, mask)
    return obs, mask


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(num_players=st.integers(2, 6), seed=st.integers(0, 10_000), steps=st.integers(0, 600),
       seat=st.integers(0, 5), shuffle_seed=st.integers(0, 2**32 - 1))
def test_permuting_unseen_cards_changes_nothing_a_seat_observes(num_players, seed, steps, seat, shuffle_seed):
    seat %= num_players
    env = play_randomly(num_players, seed, steps)
    states = env.unwrapped.get_state()
    before = view(states, seat)
    permute_unseen(states, seat, np.random.default_rng(shuffle_seed))
    after = view(states, seat)
    np.testing.assert_array_equal(before[0], after[0])
    np.testing.assert_array_equal(before[1], after[1])


def test_the_permutation_does_reach_what_another_seat_peeked_at():
    """The check above can fail: the card seat 1 peeked at is replaced when seat 0's unseen cards
    are permuted, and seat 1's observation sees the change (seat 0 only sees that 1 peeked)."""
    env = table(2, cards={"c3": person(1, "E")}, discs={0: "a1", 1: "g7"})
    states = env.unwrapped.get_state()
    states[0]["known"][1, person(1, "E")] = 1
    before = view(states, 1)[0]
    assert view(states, 0)[0][E.LAYOUT.offset("peeked") + D.NUM_SQUARES + sq("c3")] == 1
    moved = permute_unseen(states, 0, np.random.default_rng(0))
    assert moved > 0 and states[0]["board"][sq("c3")] != person(1, "E")
    assert not np.array_equal(before, view(states, 1)[0])


def test_a_peek_shows_only_in_the_peekers_observation():
    env = table(3, cards={"b1": D.FIRST_TOWER_CARD, "f4": person(2, "B")}, discs={0: "a1", 1: "g7", 2: "g1"})
    env.step(sq("b1"))  # the tower
    others = [{k: observation(env, s)[k].copy() for k in ("cards", "certain")} for s in (1, 2)]
    assert observation(env, 0)["certain"][sq("f4")] == 0
    env.step(sq("f4"))
    assert observation(env, 0)["certain"][sq("f4")] == 1
    for seat, before in zip((1, 2), others):
        for block in ("cards", "certain"):
            np.testing.assert_array_equal(observation(env, seat)[block], before[block])


def test_the_shuffled_order_of_a_devil_moves_hand_is_hidden_from_the_mover_too():
    env = table(2, cards={"b1": person(1, "A"), "c1": D.FIRST_DEVIL_CARD}, up=("b1", "c1"),
                discs={0: "a1", 1: "g7"}, devils={0: 1})
    env.step(D.BEGIN_DEVIL_MOVE)
    env.step(sq("b1"))
    env.step(sq("c1"))
    env.step(D.DONE_PICKING)
    states = env.unwrapped.get_state()
    swapped = states.copy()
    swapped[0]["held"][:2] = swapped[0]["held"][1::-1]
    for seat in (0, 1):
        np.testing.assert_array_equal(view(states, seat)[0], view(swapped, seat)[0])
    assert record(env)["held_count"] == 2


def test_mid_move_a_seat_sees_nothing_of_the_cards_it_cannot_place():
    env = table(3, cards={"b1": person(2, "D")}, empty=("a1",), discs={0: "a1", 1: "g7", 2: "g1"},
                letters={0: "D"})
    env.step(sq("b1"))
    states = env.unwrapped.get_state()
    assert states[0]["phase"] == D.GO_ON
    for seat in range(3):
        before = view(states, seat)
        moved = permute_unseen(states, seat, np.random.default_rng(seat))
        after = view(states, seat)
        assert moved > 0
        np.testing.assert_array_equal(before[0], after[0])
        np.testing.assert_array_equal(before[1], after[1])
