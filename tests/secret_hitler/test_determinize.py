"""determinize(state, seat, seed): resample what a seat cannot know, uniformly among the states
consistent with what it knows, with a fresh generator."""

import itertools
from collections import Counter

import numpy as np
import pytest

from envs.core import check_records, kernels
from envs.secret_hitler import engine as E
from envs.secret_hitler.env import GAME, raw_env

from .scripting import HITLER, F, L, Script
from .test_invariants import check_invariants


def determinized(record, seat, seed):
    sample = record.copy()
    kernels.determinize_one(sample, seat, np.uint64(seed))
    return sample


def views(record, seat):
    obs = np.zeros(E.LAYOUT.size, np.float32)
    mask = np.zeros(E.NUM_ACTIONS, np.int8)
    kernels.view_one(record, seat, obs, mask)
    return obs, mask


def as_env(record):
    env = raw_env(num_players=int(record["num_players"][0]))
    env.reset(seed=0)
    env.set_state(record)
    return env


@pytest.mark.parametrize("n", range(5, 11))
def test_keeps_every_observation_and_the_invariants_and_plays_on(n):
    rng = np.random.default_rng(n)
    playouts = 0
    for seed in range(5):
        env = raw_env(num_players=n)
        env.reset(seed=seed)
        moment = 0
        while not env._states[0].terminal:
            record = env.get_state()
            for seat in range(n):
                sample = determinized(record, seat, 1000 * seed + moment)
                check_records(GAME, sample)
                for got, want in zip(views(sample, seat), views(record, seat)):
                    np.testing.assert_array_equal(got, want, err_msg=f"seat {seat} at step {moment}")
                if moment % 40 == 5 and seat == moment % n:  # play a sample on under the invariants
                    other = as_env(sample)
                    check_invariants(other)
                    while not other._states[0].terminal:
                        other.step(int(rng.choice(other.legal_actions())))
                        check_invariants(other)
                    playouts += 1
            env.step(int(rng.choice(env.legal_actions())))
            moment += 1
    assert playouts >= 5


def test_changes_what_the_seat_cannot_know():
    s = Script(7, roles=[HITLER, F, F, L, L, L, L], deck="LFF")
    s.elect(1)  # president 0 holds L F F
    record = s.env.get_state()
    outsider = 4
    samples = [determinized(record, outsider, seed) for seed in range(40)]
    assert len({tuple(x["role"][0, :7]) for x in samples}) > 10
    assert len({tuple(x["deck"][0, : x["deck_size"][0]]) for x in samples}) == 40
    assert len({(int(x["hand_lib"][0]), int(x["hand_fas"][0])) for x in samples}) > 1
    assert all(x["role"][0, outsider] == L for x in samples)
    # The president knows its hand; a fascist knows every role.
    for seed in range(20):
        sample = determinized(record, 0, seed)
        assert (sample["hand_lib"][0], sample["hand_fas"][0]) == (1, 2)
        assert list(determinized(record, 1, seed)["role"][0, :7]) == [HITLER, F, F, L, L, L, L]


def test_the_generator_is_reseeded_from_the_seed_alone():
    s = Script(7)
    record = s.env.get_state()
    a, b = determinized(record, 3, 5), determinized(record, 3, 5)
    assert a.tobytes() == b.tobytes()
    other = record.copy()
    other["rng"] = 987654321  # the true future randomness
    assert determinized(other, 3, 5).tobytes() == a.tobytes()
    assert determinized(record, 3, 6).tobytes() != a.tobytes()


def role_marginals(roles, seat, allowed):
    """Exact per-seat role probabilities over the assignments consistent with ``allowed``."""
    others = [p for p in range(len(roles)) if p != seat]
    pool = [roles[p] for p in others]
    assignments = {perm for perm in itertools.permutations(pool)
                   if all(role in allowed(p) for p, role in zip(others, perm))}
    counts = {p: Counter() for p in others}
    for perm in assignments:
        for p, role in zip(others, perm):
            counts[p][role] += 1
    return {p: {r: c[r] / len(assignments) for r in (L, F, HITLER)} for p, c in counts.items()}


def test_roles_are_uniform_among_those_consistent_with_investigations_and_public_facts():
    roles = [L, F, HITLER, L, F, L, L]
    s = Script(7, roles=roles)
    seat = 3  # a liberal who investigated seat 4 (fascist party) and seat 5 (liberal)
    s.rec.investigator[4] = seat
    s.rec.investigator[5] = seat
    s.rec.cleared[1] = 1  # e.g. elected chancellor after 3 fascist policies
    s.rec.cleared[6] = 1

    def allowed(p):
        if p == 4:
            return (F, HITLER)
        if p == 5:
            return (L,)
        if p in (1, 6):
            return (L, F)
        return (L, F, HITLER)

    exact = role_marginals(roles, seat, allowed)
    record = s.env.get_state()
    samples = 4000
    counts = {p: Counter() for p in exact}
    for seed in range(samples):
        sample = determinized(record, seat, seed)
        for p in exact:
            counts[p][int(sample["role"][0, p])] += 1
    for p, probabilities in exact.items():
        for role, probability in probabilities.items():
            assert abs(counts[p][role] / samples - probability) < 0.03, (p, role, probability)
    assert counts[5][L] == samples and counts[1][HITLER] == counts[6][HITLER] == counts[4][L] == 0


def test_unseen_cards_are_dealt_uniformly_from_what_the_seat_has_not_seen():
    s = Script(7, roles=[HITLER, F, F, L, L, L, L], deck="LLF" "FFL", president=0, claims=False)
    s.government(1, F, L)  # president 0 draws L L F, discards F; chancellor 1 discards L, enacts L
    s.elect(3)  # president 1 draws F F L and holds it
    record = s.env.get_state()
    outsider = 5
    # The outsider saw one liberal enacted: the other 16 policies (5 L, 11 F) are anywhere unseen:
    # the two discards of the first session, the president's hand, the 13 in the deck.
    expected = 5 / 16
    samples = 3000
    hits = Counter()
    for seed in range(samples):
        x = determinized(record, outsider, seed)[0]
        hits["pres discard"] += x["h_pres_discard"][0] == L
        hits["chanc discard"] += x["h_chanc_discard"][0, 0] == L
        hits["hand"] += x["hand_lib"] / 3
        hits["top"] += x["deck"][x["deck_size"] - 1] == L
        hits["bottom"] += x["deck"][0] == L
        assert x["h_drawn_lib"][0] == int(x["h_pres_discard"][0] == L) + int(x["h_chanc_discard"][0, 0] == L) + 1
        assert x["h_drawn_lib"][1] == x["hand_lib"]
    for place, count in hits.items():
        assert abs(count / samples - expected) < 0.035, (place, count / samples)
    # The first session's president knows both discards; its chancellor only its own.
    for seed in range(50):
        x = determinized(record, 0, seed)[0]
        assert (x["h_pres_discard"][0], x["h_chanc_discard"][0, 0]) == (F, L)
        y = determinized(record, 1, seed)[0]
        assert y["h_chanc_discard"][0, 0] == L and (y["hand_lib"], y["hand_fas"]) == (1, 2)


def test_a_peek_is_kept_by_the_peeker_and_resampled_for_the_others():
    s = Script(5, deck="FFF" "LFL", president=1, fascist=2, claims=False)
    s.government(2, F, F)
    record = s.env.get_state()
    for seed in range(30):
        mine = determinized(record, 1, seed)[0]
        assert "".join("LF"[c] for c in mine["deck"][mine["deck_size"] - 3: mine["deck_size"]][::-1]) == "LFL"
    tops = {tuple(determinized(record, 3, seed)[0]["deck"][11:14]) for seed in range(30)}
    assert len(tops) > 1


def test_pending_ballots_of_others_are_resampled_but_not_its_own():
    s = Script(7, president=0)
    s.nominate(1)
    for _ in range(4):
        s.act(E.VOTE_JA)  # seats 0..3 vote ja
    record = s.env.get_state()
    ballots = [determinized(record, 2, seed)[0]["ballot"][:7].copy() for seed in range(30)]
    assert all(b[2] == E.JA for b in ballots) and all((b[4:] == E.NO_BALLOT).all() for b in ballots)
    assert len({tuple(b[[0, 1, 3]]) for b in ballots}) > 3


def right_after_a_reshuffle(seed, reshuffle):
    """A random 7-player game stopped right after the deck was reshuffled, and the last session of
    the past epoch: with "after_session" at the claims of the session that reshuffled, with
    "at_draw" when the next president has drawn from the new deck."""
    rng = np.random.default_rng(seed)
    env = raw_env(num_players=7, reshuffle=reshuffle)
    env.reset(seed=seed)
    while not env._states[0].terminal:
        r = env._states[0]
        sessions = [e for e in range(r.elections) if r.h_session[e]]
        if reshuffle == "after_session" and r.phase == E.PRESIDENT_CLAIM and r.h_epoch[r.last_session] < r.epoch:
            return env, int(r.last_session)
        if (reshuffle == "at_draw" and r.phase == E.PRESIDENT_LEGISLATES and len(sessions) > 1
                and r.h_epoch[sessions[-2]] < r.epoch):
            return env, sessions[-2]
        env.step(int(rng.choice(env.legal_actions())))
    return None, -1


@pytest.mark.parametrize("reshuffle", ["at_draw", "after_session"])
def test_past_epochs_are_resampled_consistently(reshuffle):
    """After a reshuffle the past epoch's last session's discards (shown to its members) are dealt
    from that epoch's unseen cards; the record stays a valid game."""
    found = 0
    for seed in range(60):
        env, e = right_after_a_reshuffle(seed, reshuffle)
        if env is None:
            continue
        found += 1
        r = env._states[0]
        outsider = next(p for p in range(7) if p not in (r.h_president[e], r.h_nominee[e]))
        record = env.get_state()
        drawn = Counter()
        for k in range(100):
            x = determinized(record, outsider, k)
            check_invariants(as_env(x))
            drawn[int(x["h_drawn_lib"][0, e])] += 1
            assert x["h_drawn_lib"][0, e] >= int(r.h_policy[e] == L), "the enacted policy was drawn"
            assert x["h_pres_discard"][0, e] >= 0
        assert len(drawn) > 1, drawn
        president = determinized(record, int(r.h_president[e]), 1)
        assert president["h_drawn_lib"][0, e] == r.h_drawn_lib[e]
    assert found >= 5


@pytest.mark.parametrize("option", [None, "auto"])
def test_hitler_resamples_the_fascists_unless_it_knows_them(option):
    """By default Hitler knows nobody, so its samples place the fascist anywhere among the others;
    with "auto" at 5 players it knows the fascist, and nothing is resampled."""
    roles = [L, F, HITLER, L, L]
    s = Script(5, roles=roles) if option is None else Script(5, roles=roles, hitler_knows_fascists=option)
    record = s.env.get_state()
    samples = [determinized(record, 2, seed) for seed in range(60)]
    for sample in samples:
        for got, want in zip(views(sample, 2), views(record, 2)):
            np.testing.assert_array_equal(got, want)
    deals = {tuple(int(x) for x in sample["role"][0, :5]) for sample in samples}
    if option is None:
        assert len(deals) == 4 and all(deal[2] == HITLER for deal in deals)
    else:
        assert deals == {tuple(roles)}
