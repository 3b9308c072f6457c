"""Invariants of Secret Hitler checked after every decision of long random play: written out here,
and the engine's own ``check_state`` (through ``check_records``), which must accept every record
random play reaches."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.core import check_records
from envs.core.vector import VectorGame
from envs.secret_hitler import engine as E
from envs.secret_hitler.env import GAME, raw_env

ROLE_COUNTS = {5: (3, 1), 6: (4, 1), 7: (4, 2), 8: (5, 2), 9: (5, 3), 10: (6, 3)}
HAND_SIZE = {E.PRESIDENT_LEGISLATES: 3, E.CHANCELLOR_LEGISLATES: 2, E.VETO: 2}


def check_invariants(env):
    check_records(GAME, env._states)
    r = env._states[0]
    n = int(r.num_players)
    roles = list(r.role[:n])
    liberals, fascists = ROLE_COUNTS[n]
    assert (roles.count(E.LIBERAL), roles.count(E.FASCIST), roles.count(E.HITLER)) == (liberals, fascists, 1)
    # The 17 policies: deck + discard pile + hand + tracks.
    deck = r.deck[: r.deck_size]
    lib = (deck == E.LIBERAL).sum() + r.discard_lib + r.hand_lib + r.liberal_enacted
    fas = (deck == E.FASCIST).sum() + r.discard_fas + r.hand_fas + r.fascist_enacted
    assert (lib, fas) == (6, 11)
    assert 0 <= r.tracker <= 2
    assert r.living == r.alive[:n].sum() and r.living >= 3
    assert 0 <= r.liberal_enacted <= 5 and 0 <= r.fascist_enacted <= 6
    assert r.hand_lib + r.hand_fas == HAND_SIZE.get(int(r.phase), 0)
    assert r.elections <= 30
    # The discard pile is exactly the discards of this epoch's sessions (determinize relies on it).
    piles = [0, 0]
    for e in range(r.elections):
        if r.h_session[e] and r.h_epoch[e] == r.epoch:
            for card in (r.h_pres_discard[e], *r.h_chanc_discard[e]):
                if card >= 0:
                    piles[card] += 1
    assert piles == [r.discard_lib, r.discard_fas]
    # Each epoch's cards: 3 a session, 1 a chaos enactment, and the deck (or what was left of it).
    for epoch in range(r.epoch + 1):
        sessions = sum(1 for e in range(r.elections) if r.h_session[e] and r.h_epoch[e] == epoch)
        left = r.deck_size if epoch == r.epoch else r.epoch_remainder[epoch]
        chaos = r.epoch_chaos_lib[epoch] + r.epoch_chaos_fas[epoch]
        assert r.epoch_lib[epoch] + r.epoch_fas[epoch] == 3 * sessions + chaos + left
    if r.terminal:
        assert r.current_player == -1 and r.phase == E.GAME_OVER
        winners = [p for p in range(n) if (r.role[p] != E.LIBERAL) == (r.winner == E.FASCIST)]
        assert all(r.reward[p] == (1 if p in winners else -1) for p in range(n))
        hitler = roles.index(E.HITLER)
        assert (r.win_reason == E.HITLER_EXECUTED) == (r.alive[hitler] == 0)
        return
    assert not r.reward.any()
    assert r.alive[r.current_player] and r.alive[r.president]
    assert r.alive[roles.index(E.HITLER)]
    if r.phase in (E.NOMINATION, E.ELECTION):  # a government can always draw three
        if r.reshuffle == E.RESHUFFLE_AFTER_SESSION:
            assert r.deck_size >= 3
        else:  # the discards are shuffled in at the draw
            assert r.deck_size + r.discard_lib + r.discard_fas >= 3
    for seat in range(n):
        legal = env.legal_actions(f"player_{seat}")
        assert (len(legal) > 0) == (seat == r.current_player)


def random_game(n, seed, check=check_invariants, **options):
    env = raw_env(num_players=n, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    space = env.observation_space("player_0")
    steps = 0
    check(env)
    while not env._states[0].terminal:
        legal = env.legal_actions()
        env.step(int(rng.choice(legal)))
        steps += 1
        check(env)
        obs = env.observe(env.agent_selection)
        assert space.contains(obs)
    return env, steps


@pytest.mark.parametrize("n", range(5, 11))
def test_invariants_hold_every_step_of_random_games(n):
    total = 0
    for seed in range(25):
        _, steps = random_game(n, seed)
        total += steps
    assert total > 2400  # 5 players: 2457 decisions (2513 with the official rules' options)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(5, 10), seed=st.integers(0, 2**32), claims=st.booleans(),
       hitler_knows=st.sampled_from(["auto", True, False]), term_limits=st.sampled_from(["rulebook", "official"]),
       reshuffle=st.sampled_from(["at_draw", "after_session"]))
def test_invariants_hold_for_any_seed_and_options(n, seed, claims, hitler_knows, term_limits, reshuffle):
    random_game(n, seed, claims=claims, hitler_knows_fascists=hitler_knows, term_limits=term_limits,
                reshuffle=reshuffle)


@pytest.mark.parametrize("n", (5, 6, 7, 10))
def test_invariants_hold_with_the_official_rules(n):
    for seed in range(10):
        random_game(n, seed, hitler_knows_fascists="auto", term_limits="official", reshuffle="after_session")


def test_random_play_reaches_every_ending_and_every_phase():
    reasons, phases = set(), set()

    def watch(env):
        phases.add(int(env._states[0].phase))

    for seed in range(150):
        env, _ = random_game(5 + seed % 6, seed, check=watch)
        reasons.add(int(env._states[0].win_reason))
    assert reasons == {E.LIBERAL_POLICIES, E.HITLER_EXECUTED, E.FASCIST_POLICIES, E.HITLER_ELECTED}
    assert phases == set(range(E.NUM_PHASES))


def test_batched_random_play_keeps_the_policy_count():
    vg = VectorGame(GAME, 64, seed=1, num_players=8)
    vg.reset()
    for _ in range(20):
        vg.random_steps(50)
        states = vg.get_state()
        check_records(GAME, states)
        deck_lib = np.array([(s["deck"][: s["deck_size"]] == E.LIBERAL).sum() for s in states])
        lib = deck_lib + states["discard_lib"] + states["hand_lib"] + states["liberal_enacted"]
        total = states["deck_size"] + states["discard_lib"] + states["discard_fas"] + states["hand_lib"] \
            + states["hand_fas"] + states["liberal_enacted"] + states["fascist_enacted"]
        assert (lib == 6).all() and (total == 17).all()
        assert ((states["tracker"] >= 0) & (states["tracker"] <= 2)).all()
        assert ((states["role"][:, :8] == E.HITLER).sum(axis=1) == 1).all()
