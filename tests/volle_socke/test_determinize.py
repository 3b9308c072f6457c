"""determinize(state, seat, seed): resamples exactly what ``seat`` cannot know."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.core import kernels
from envs.volle_socke import engine as E
from envs.volle_socke.data import ENGINE_10, ENGINE_50, FRONT, LACH, REAR_1, TURBO, TUV
from envs.volle_socke.env import raw_env

from .helpers import contest_position, discard, record
from .test_layout import layout_position
from .test_random_play import check_invariants


def random_position(num_players, seed, steps):
    rng = np.random.default_rng(seed)
    env = raw_env(num_players=num_players)
    env.reset(seed=seed)
    rec = record(env)
    for _ in range(steps):
        if rec["terminal"]:
            break
        legal = env.legal_actions()
        env.step(legal[rng.integers(len(legal))])
    return env


def determinized(env, seat, seed):
    state = env.get_state()
    kernels.determinize_one(state, seat, np.uint64(seed))
    other = raw_env(num_players=env.num_players)
    other.set_state(state)
    return other


@settings(max_examples=30, deadline=None)
@given(num_players=st.integers(2, 8), seed=st.integers(0, 2**32), steps=st.integers(0, 700))
def test_the_seat_sees_the_same_and_the_game_stays_consistent(num_players, seed, steps):
    env = random_position(num_players, seed, steps)
    for seat in range(num_players):
        other = determinized(env, seat, seed + seat)
        check_invariants(other)
        agent = f"player_{seat}"
        np.testing.assert_array_equal(env.observe(agent)["observation"], other.observe(agent)["observation"])
        np.testing.assert_array_equal(env.observe(agent)["action_mask"], other.observe(agent)["action_mask"])
        mine, theirs = env.get_state()[0], other.get_state()[0]
        assert (mine["hand"][seat] == theirs["hand"][seat]).all()
        assert (mine["known"] == theirs["known"]).all() and (mine["bike"] == theirs["bike"]).all()
        assert (theirs["hand"] >= theirs["known"]).all()


def test_it_changes_what_the_seat_cannot_know():
    env = random_position(4, seed=3, steps=6)
    rec = env.get_state()[0]
    assert rec["phase"] <= E.PH_DISCARD and rec["deck_size"] > 20
    hands, decks = set(), set()
    for seed in range(8):
        other = determinized(env, 0, seed).get_state()[0]
        hands.add(other["hand"][1:4].tobytes())
        decks.add(other["deck"][: other["deck_size"]].tobytes())
        # The multiset of hidden cards is kept.
        hidden = (other["hand"][1:4].sum(axis=0)
                  + np.bincount(other["deck"][: other["deck_size"]], minlength=26))
        assert (hidden == rec["hand"][1:4].sum(axis=0)
                + np.bincount(rec["deck"][: rec["deck_size"]], minlength=26)).all()
    assert len(hands) == 8 and len(decks) == 8


def test_known_cards_and_own_face_down_discards_stay():
    env = contest_position(3, hands={0: [ENGINE_10, LACH], 1: [TUV, TURBO, ENGINE_50], 2: [TURBO, LACH]},
                           bikes={s: [FRONT, ENGINE_10, REAR_1] for s in range(3)})
    rec = record(env)
    rec["known"][1, TURBO] = 1                 # seats 1 and 2 took a Turbo face up
    rec["known"][2, TURBO] = 1
    env.step(discard(ENGINE_10))               # seat 0 discards face down
    env.step(discard(ENGINE_50))               # seat 1 discards face down: was it the Turbo?
    assert rec["known"][1, TURBO] == 0 and rec["known"][2, TURBO] == 1
    for seed in range(10):
        seen_by_0 = determinized(env, 0, seed).get_state()[0]
        assert seen_by_0["hand"][2, TURBO] >= 1 and seen_by_0["hand"][2].sum() == 2
        assert seen_by_0["hand"][1].sum() == 2
        assert seen_by_0["discard"][0] == ENGINE_10   # its own face-down card
    changed = {int(determinized(env, 0, seed).get_state()[0]["discard"][1]) for seed in range(20)}
    assert len(changed) > 1                           # seat 1's face-down card is unknown to seat 0
    assert {int(determinized(env, 1, seed).get_state()[0]["discard"][1]) for seed in range(5)} == {ENGINE_50}


def test_a_seat_laying_out_still_can_after_determinizing():
    hands = {0: [FRONT, ENGINE_50, REAR_1, ENGINE_10], 1: [FRONT, ENGINE_50, REAR_1, LACH]}
    env = layout_position(hands, knocker=1)
    assert record(env)["current_player"] == 1 and record(env)["phase"] == E.PH_LAYOUT
    for seed in range(30):
        other = determinized(env, 0, seed)
        assert E._can_complete(other.get_state()[0], 1, -1, -1)
        assert other.legal_actions()


def test_the_generator_is_reseeded():
    env = random_position(3, seed=5, steps=10)
    a, b = determinized(env, 0, 1), determinized(env, 0, 2)
    assert a.get_state()["rng"][0] != env.get_state()["rng"][0]
    assert a.get_state()["rng"][0] != b.get_state()["rng"][0]
    assert determinized(env, 0, 1).get_state().tobytes() == a.get_state().tobytes()


@pytest.mark.parametrize("num_players", [2, 5])
def test_determinizations_are_uniform_over_one_hidden_card(num_players):
    # Seat 0 sees its hand; a hidden card of seat 1 is equally likely any of the unseen cards.
    env = random_position(num_players, seed=9, steps=0)
    rec = env.get_state()[0]
    unseen = (E.COUNTS - rec["hand"][0] - np.bincount(rec["discard"][:1], minlength=26)).astype(float)
    counts = np.zeros(26)
    trials = 3000
    for seed in range(trials):
        state = env.get_state()
        kernels.determinize_one(state, 0, np.uint64(seed))
        counts += state["hand"][0, 1] / state["hand"][0, 1].sum()
    expected = unseen / unseen.sum() * trials
    chi2 = ((counts - expected) ** 2 / np.maximum(expected, 1e-9))[expected > 0].sum()
    assert chi2 < 60  # 25 degrees of freedom: the 99.99% quantile is about 58
