"""determinize: a sample keeps everything the seat knows (its observation and mask are identical),
changes what it cannot know, keeps every invariant, and starts a fresh random future."""

import numpy as np
import pytest

from envs.testing.play import random_action
from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

from .helpers import check_invariants, table


def played(num_players, chapter, seed, communication="full", steps=12):
    env = table(num_players=num_players, chapter=chapter, seed=seed, freeze=False, communication=communication)
    rng = np.random.default_rng(seed)
    observations = {a: env.observe(a) for a in env.agents}
    for _ in range(steps):
        if not env.agents:
            break
        observations, *_ = env.step({a: random_action(observations[a], rng) for a in env.agents})
    return env


def sample(env, seat, seed):
    record = env.get_state()
    E.determinize(record[0], seat, seed)
    return record


def seat_view(record, seat):
    obs = np.zeros(E.LAYOUT.size, np.float32)
    E.observe(record[0], seat, obs)
    return obs, record[0]["mask"][seat].copy()


CASES = [(2, 1, "full"), (3, 1, "none"), (3, 6, "full"), (2, 10, "full"), (4, 17, "none"), (3, 18, "none"),
         (5, 12, "none"), (3, 9, "full"), (3, 3, "none"), (4, 18, "full")]


@pytest.mark.parametrize("num_players,chapter,communication", CASES)
def test_determinize_keeps_the_seats_view_and_the_invariants(num_players, chapter, communication):
    env = played(num_players, chapter, seed=chapter, communication=communication)
    if not env.agents:
        pytest.skip("the random game ended early")
    truth = env.get_state()
    for seat in range(num_players):
        for seed in range(4):
            record = sample(env, seat, 100 + seed)
            obs, mask = seat_view(record, seat)
            true_obs, true_mask = seat_view(truth, seat)
            np.testing.assert_array_equal(obs, true_obs)
            np.testing.assert_array_equal(mask, true_mask)
            check_invariants(record[0])
            assert record["rng"][0] != truth["rng"][0]


def test_determinize_changes_what_the_seat_cannot_know():
    env = played(3, 1, seed=3, communication="none")
    truth = env.get_state()
    stacks, others, own = set(), set(), set()
    for seed in range(8):
        record = sample(env, 0, seed)
        stacks.add(record["stack"][0].tobytes())
        others.add(record["hand"][0, 1:3].tobytes())
        own.add(record["hand"][0, 0].tobytes())
        assert record["nazi_stack"][0, record["nazi_stack_len"][0] - 1] == truth["nazi_stack"][
            0, truth["nazi_stack_len"][0] - 1], "the stack's top Nazi is face up"
    assert len(stacks) > 1, "the stacks' order is resampled"
    assert len(others) > 1, "without communication the other hands' fronts are resampled"
    assert own == {truth["hand"][0, 0].tobytes()}, "the seat's own hand stays"


def test_determinize_keeps_visible_hands_with_full_communication():
    env = played(3, 1, seed=4)
    truth = env.get_state()
    for seed in range(5):
        record = sample(env, 1, seed)
        np.testing.assert_array_equal(record["hand"], truth["hand"])
        np.testing.assert_array_equal(record["card_loc"][0, record["card_loc"][0] != E.LOC_STACK],
                                      truth["card_loc"][0, truth["card_loc"][0] != E.LOC_STACK])


def test_blind_seat_samples_its_own_fronts_but_keeps_their_backs_until_told():
    env = played(3, 10, seed=5)
    r = env._states[0]
    seat = [s for s in range(3) if r["character"][s] != D.GOD][0]
    r["hand_known"][seat] = 0
    E.refresh(r)
    truth = env.get_state()
    fronts = set()
    for seed in range(10):
        record = sample(env, seat, seed)
        cards = record["hand"][0, seat]
        true_cards = truth["hand"][0, seat]
        for c, t in zip(cards, true_cards, strict=True):
            assert (c < 0) == (t < 0)
            if 0 <= t < D.NUM_ARGUMENTS:
                assert D.CARD_BACK[c] == D.CARD_BACK[t]
        fronts.add(cards.tobytes())
    assert len(fronts) > 1
    r["hand_known"][seat] = r["hand"][seat] >= 0   # a team-mate told her
    E.refresh(r)
    truth = env.get_state()
    for seed in range(5):
        np.testing.assert_array_equal(sample(env, seat, seed)["hand"][0, seat], truth["hand"][0, seat])


def test_same_seed_same_sample_and_the_next_nazi_is_still_to_come():
    env = played(2, 1, seed=7)
    a, b = sample(env, 0, 42), sample(env, 0, 42)
    assert a.tobytes() == b.tobytes()
    for seed in range(20):
        record = sample(env, 0, seed)
        assert record["next_nazi"][0] > record["clock"][0]
        assert record["next_nazi"][0] <= record["last_nazi"][0] + D.NAZI_EVERY[1]
