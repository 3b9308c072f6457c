"""Invariants checked at every step of long random play, and hidden information: a seat's
observation does not change when only what it cannot see changes."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.volle_socke import engine as E
from envs.volle_socke.data import FIXED_ROLE, NUM_KINDS, SPARE_0
from envs.volle_socke.env import raw_env

from .helpers import kind_totals, record, valid

LOW, HIGH = E.LAYOUT.low, E.LAYOUT.high


def wheels(rec, seat, role):
    count = 0
    for kind in np.flatnonzero(rec["bike"][seat]):
        spare = SPARE_0 <= kind < SPARE_0 + 6
        if (rec["spare_role"][kind - SPARE_0] if spare else FIXED_ROLE[kind]) == role:
            count += rec["bike"][seat, kind]
    return count


def check_invariants(env):
    rec = record(env)
    n = int(rec["num_players"])
    valid(env)  # the engine's own check_state (and the field bounds) agree
    # The 110 cards, kind by kind, across draw pile, discard pile, hands, bikes and cards in play.
    assert (kind_totals(rec) == E.COUNTS).all()
    assert (rec["hand"] >= 0).all() and (rec["bike"] >= 0).all()
    assert (rec["known"] <= rec["hand"]).all() and (rec["known"] >= 0).all()
    assert rec["hand"][n:].sum() == 0 and rec["bike"][n:].sum() == 0
    assert (rec["hand"].sum(axis=1) <= E.MAX_HAND).all()
    # The discard pile's per-kind caches match the pile.
    size = int(rec["discard_size"])
    public = rec["discard_seen"][:size] == E.ALL_SEATS
    assert (np.bincount(rec["discard"][:size][public], minlength=NUM_KINDS) == rec["discard_public"]).all()
    for seat in range(n):
        mine = rec["discard_seen"][:size] == (1 << seat)
        assert (np.bincount(rec["discard"][:size][mine], minlength=NUM_KINDS) == rec["discard_private"][seat]).all()
    assert (public | np.isin(rec["discard_seen"][:size], [1 << s for s in range(n)])).all()
    for seat in range(n):
        assert wheels(rec, seat, 0) <= 1 and wheels(rec, seat, 1) <= 1
        if rec["flat_tyre"][seat]:
            assert wheels(rec, seat, 0) == 1
    phase = int(rec["phase"])
    if phase in (E.PH_DRAW, E.PH_DISCARD):
        assert (rec["status"][:n] == E.BUILDING).all() and rec["bike"].sum() == 0
        assert rec["discard_seen"][size - 1] == E.ALL_SEATS or phase == E.PH_DISCARD
    if phase >= E.PH_TURN and phase != E.PH_OVER:
        assert 0 <= rec["pass_streak"] < (rec["status"][:n] == E.IN_CONTEST).sum()
        assert rec["status"][rec["turn_seat"]] == E.IN_CONTEST
    for seat in range(n):
        laying_out = phase == E.PH_LAYOUT and seat == rec["current_player"]
        if rec["status"][seat] != E.IN_CONTEST and not laying_out:
            assert rec["bike"][seat].sum() == 0
    if rec["terminal"]:
        assert rec["current_player"] == -1
    else:
        assert env.legal_actions(), "the seat to act has a legal action"
    for agent in env.possible_agents:
        obs = env.observe(agent)["observation"]
        assert ((obs >= LOW) & (obs <= HIGH)).all(), np.flatnonzero((obs < LOW) | (obs > HIGH))


CONFIGS = [dict(), dict(own_bike="add", her_choice="attacker"), dict(flat_front="half", num_rounds=3),
           dict(her_choice="attacker", round_rewards=True, refill_from_hand=True)]


@pytest.mark.parametrize("num_players", range(2, 9))
def test_invariants_hold_at_every_step_of_random_games(num_players):
    rng = np.random.default_rng(num_players)
    steps = 0
    for game, config in enumerate(CONFIGS):
        env = raw_env(num_players=num_players, **config)
        env.reset(seed=100 * num_players + game)
        rec = record(env)
        check_invariants(env)
        rounds_seen = 0
        while not rec["terminal"]:
            legal = env.legal_actions()
            env.step(legal[rng.integers(len(legal))])
            steps += 1
            check_invariants(env)
            rounds_seen = max(rounds_seen, int(rec["round_index"]))
        assert rounds_seen == env.config["num_rounds"]
        assert sum(env.rewards.values()) == pytest.approx(0.0, abs=1e-6)
    assert steps > 1000


# ---- hidden information ----------------------------------------------------------------------------


def reshuffle_hidden(rec, seat, rng):
    """A copy of ``rec`` with everything ``seat`` cannot know dealt anew (written independently of the
    engine's determinize): the others' unknown hand cards, the draw pile, others' face-down discards.
    A seat laying out is known to be able to build a bike: deals that break that are dealt again."""
    layer = int(rec["current_player"][0])
    while True:
        out = _reshuffle_once(rec, seat, rng)
        if rec["phase"][0] != E.PH_LAYOUT or layer == seat or E._can_complete(out[0], layer, -1, -1):
            return out


def _reshuffle_once(rec, seat, rng):
    out = rec.copy()
    r = out[0]
    n = int(r["num_players"])
    pool, unknown = [], {}
    for q in range(n):
        if q == seat:
            continue
        extra = r["hand"][q] - r["known"][q]
        unknown[q] = int(extra.sum())
        pool += np.repeat(np.arange(NUM_KINDS), extra).tolist()
        r["hand"][q] = r["known"][q]
    size = int(r["deck_size"])
    pool += r["deck"][:size].tolist()
    hidden = [i for i in range(int(r["discard_size"])) if not r["discard_seen"][i] & (1 << seat)]
    pool += [int(r["discard"][i]) for i in hidden]
    pool = rng.permutation(np.array(pool, np.int8))
    k = 0
    for q, count in unknown.items():
        for kind in pool[k:k + count]:
            r["hand"][q, kind] += 1
        k += count
    r["deck"][:size] = pool[k:k + size]
    k += size
    for i in hidden:
        owner = int(np.log2(r["discard_seen"][i]))
        r["discard_private"][owner, r["discard"][i]] -= 1
        r["discard"][i] = pool[k]
        r["discard_private"][owner, pool[k]] += 1
        k += 1
    r["rng"] = rng.integers(1, 2**63)
    return out


@settings(max_examples=40, deadline=None)
@given(num_players=st.integers(2, 8), seed=st.integers(0, 2**32), steps=st.integers(0, 600))
def test_observation_is_unchanged_when_only_hidden_cards_change(num_players, seed, steps):
    rng = np.random.default_rng(seed)
    env = raw_env(num_players=num_players)
    other = raw_env(num_players=num_players)
    env.reset(seed=seed)
    rec = record(env)
    for _ in range(steps):
        if rec["terminal"]:
            break
        legal = env.legal_actions()
        env.step(legal[rng.integers(len(legal))])
    for seat in range(num_players):
        agent = f"player_{seat}"
        other.set_state(reshuffle_hidden(env.get_state(), seat, rng))
        check_invariants(other)
        mine, theirs = env.observe(agent), other.observe(agent)
        np.testing.assert_array_equal(mine["observation"], theirs["observation"])
        np.testing.assert_array_equal(mine["action_mask"], theirs["action_mask"])


def test_hidden_cards_do_change_and_the_observation_sees_own_cards():
    # The reshuffle above really changes hidden cards, and a change of one's own hand is visible.
    rng = np.random.default_rng(0)
    env = raw_env(num_players=4)
    env.reset(seed=1)
    state = env.get_state()
    changed = reshuffle_hidden(state, 0, rng)
    assert not np.array_equal(changed["hand"][0, 1:4], state["hand"][0, 1:4])
    assert not np.array_equal(changed["deck"], state["deck"])
    other = raw_env(num_players=4)
    other.set_state(changed)
    assert not np.array_equal(env.observe("player_1")["observation"], other.observe("player_1")["observation"])
