"""The engine contract beyond the rules: ``check_state`` (with ``STATE_BOUNDS`` and
``STATE_PROBLEMS``), ``playout_value``, and determinized records that are valid games.

Every record random play reaches passes ``check_records`` (``test_invariants`` checks it after
every decision); here each invariant is broken once on purpose and must be rejected with its own
message, and mutated records must never crash ``check_state`` (as plain Python, where an index
out of range raises) and, when accepted, must be safe for every engine function.
"""

import math
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from envs.core import InvalidStateError, check_records, kernels
from envs.secret_hitler import engine as E
from envs.secret_hitler.env import GAME, raw_env

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def reach(predicate, n=7, seeds=range(400), **options):
    """The first record of random play (seeded games) where ``predicate(record)`` holds."""
    for seed in seeds:
        env = raw_env(num_players=n, **options)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while True:
            record = env.get_state()
            if predicate(record[0]):
                return record
            if record[0]["terminal"]:
                break
            env.step(int(rng.choice(env.legal_actions())))
    raise AssertionError("random play never reached the position")


def code_of(record):
    codes = np.zeros(1, np.int64)
    kernels.check_batch(record, codes)
    return int(codes[0])


def nomination(r):
    return r["phase"] == E.NOMINATION and r["elections"] >= 4


def deck_to_hand(r):
    r["deck_size"] -= 1
    card = r["deck"][r["deck_size"]]
    r["hand_lib" if card == E.LIBERAL else "hand_fas"] += 1


def deck_to_discards(r):
    while r["deck_size"] > 2:
        r["deck_size"] -= 1
        r["discard_lib" if r["deck"][r["deck_size"]] == E.LIBERAL else "discard_fas"] += 1


def other_living(r, *not_these):
    return next(p for p in range(r["num_players"]) if r["alive"][p] and p not in not_these)


def voter_to_come(r):
    return r["phase"] == E.ELECTION and E.next_living(r, r["current_player"]) != r["president"]


def failed_election(r):
    return r["phase"] == E.NOMINATION and any(not r["h_elected"][e] for e in range(r["elections"]))


def president_discarded_a_fascist(r):
    return r["phase"] == E.NOMINATION and any(
        r["h_session"][e] and r["h_epoch"][e] == r["epoch"] and r["h_pres_discard"][e] == E.FASCIST
        and r["h_drawn_lib"][e] < 3 for e in range(r["elections"]))


def swap_president_discard(r):
    e = next(e for e in range(r["elections"]) if r["h_session"][e] and r["h_epoch"][e] == r["epoch"]
             and r["h_pres_discard"][e] == E.FASCIST and r["h_drawn_lib"][e] < 3)
    r["h_pres_discard"][e] = E.LIBERAL  # the session still adds up: one more liberal drawn
    r["h_drawn_lib"][e] += 1


def clear_a_suspect(r):
    r["cleared"][next(p for p in range(r["num_players"]) if not r["cleared"][p] and r["role"][p] != E.HITLER)] = 1


# code -> (position to reach, corruption, options)
BREAKS = {
    E.BAD_ROLES: (nomination, lambda r: r["role"].__setitem__(int(np.argmax(r["role"] == E.LIBERAL)), E.FASCIST), {}),
    E.BAD_ALIVE: (nomination, lambda r: r.__setitem__("living", r["living"] - 1), {}),
    E.BAD_POLICIES: (nomination, lambda r: r["deck"].__setitem__(0, 1 - r["deck"][0]), {}),
    E.BAD_HAND: (nomination, deck_to_hand, {}),
    E.BAD_TURN: (nomination, lambda r: r.__setitem__("current_player", other_living(r, r["president"])), {}),
    E.BAD_GOVERNMENT: (nomination, lambda r: r.__setitem__("nominee", other_living(r, r["president"])), {}),
    E.BAD_BALLOTS: (voter_to_come, lambda r: r["ballot"].__setitem__(
        E.next_living(r, r["current_player"]), E.JA), {}),
    E.BAD_DECK: (nomination, deck_to_discards, {"reshuffle": "after_session"}),  # "at_draw" allows it
    E.BAD_BLANK: (nomination, lambda r: r["h_president"].__setitem__(r["elections"], 1), {}),
    E.BAD_ENTRY: (failed_election, lambda r: r["h_elected"].__setitem__(
        next(e for e in range(r["elections"]) if not r["h_elected"][e]), 1), {}),
    E.BAD_REPLAY: (lambda r: nomination(r) and r["tracker"] == 0, lambda r: r.__setitem__("tracker", 1), {}),
    E.BAD_FACTS: (nomination, clear_a_suspect, {}),
    E.BAD_EPOCHS: (president_discarded_a_fascist, swap_president_discard, {}),
    E.BAD_PEEK: (lambda r: E.peek_on_deck(r) > 0, lambda r: r["peek_cards"].__setitem__(2, 1 - r["peek_cards"][2]),
                 {"n": 5}),
    E.BAD_FLAGS: (nomination, lambda r: r.__setitem__("veto_refused", 1), {}),
    E.BAD_END: (lambda r: r["terminal"] == 1, lambda r: r["reward"].__setitem__(0, -r["reward"][0]), {}),
}


def test_every_problem_has_a_test_and_a_text():
    assert sorted(BREAKS) == list(range(1, len(E.STATE_PROBLEMS)))
    assert E.STATE_PROBLEMS[0] == "ok" and all(len(text) > 20 for text in E.STATE_PROBLEMS[1:])


@pytest.mark.parametrize("code", sorted(BREAKS), ids=lambda code: f"{code}")
def test_each_broken_invariant_is_rejected_with_its_message(code):
    position, corrupt, options = BREAKS[code]
    record = reach(position, **options)
    assert code_of(record) == 0
    check_records(GAME, record)
    corrupt(record[0])
    assert code_of(record) == code, E.STATE_PROBLEMS[code_of(record)]
    with pytest.raises(InvalidStateError, match=re.escape(E.STATE_PROBLEMS[code])):
        check_records(GAME, record)


def reshuffle_now(r):
    """Shuffle the discards into a short deck between sessions, as reshuffle="after_session" does."""
    size, epoch = int(r["deck_size"]), int(r["epoch"])
    cards = [E.LIBERAL] * int(r["discard_lib"]) + [E.FASCIST] * int(r["discard_fas"])
    r["epoch_remainder"][epoch] = size
    r["deck"][size: size + len(cards)] = cards
    r["deck_size"] = size + len(cards)
    r["discard_lib"] = r["discard_fas"] = 0
    r["epoch"] = epoch + 1
    r["epoch_lib"][epoch + 1] = E.NUM_LIBERAL_POLICIES - r["liberal_enacted"]
    r["epoch_fas"][epoch + 1] = E.NUM_FASCIST_POLICIES - r["fascist_enacted"]


def test_with_reshuffle_at_draw_a_reshuffle_between_sessions_is_rejected():
    record = reach(lambda r: r["phase"] == E.NOMINATION and r["deck_size"] < 3 and r["discard_fas"] > 0)
    assert record[0]["reshuffle"] == E.RESHUFFLE_AT_DRAW
    reshuffle_now(record[0])
    assert code_of(record) == E.BAD_EPOCHS, "nobody drew: the rulebook would not have shuffled yet"
    record[0]["reshuffle"] = E.RESHUFFLE_AFTER_SESSION
    assert code_of(record) == 0, "the official rules shuffle right after the session"


def test_a_field_out_of_its_bounds_is_rejected_before_the_rules():
    record = reach(nomination)
    record[0]["deck_size"] = 18
    with pytest.raises(InvalidStateError, match=r"deck_size=18 outside \[0, 17\]"):
        check_records(GAME, record)


def test_bounds_cover_every_field():
    from envs.core.state import HEADER_FIELDS

    assert set(E.STATE_BOUNDS) == set(E.STATE.names) - set(HEADER_FIELDS)


# ---- mutated records as plain Python: never a crash; accepted ones are safe -------------------

_FUZZ = """
import sys, json
sys.path.insert(0, {root!r})
import numpy as np
from envs.core.state import HEADER_FIELDS
from envs.secret_hitler import engine as E
from envs.secret_hitler.env import raw_env

rng = np.random.default_rng({seed})
fields = [f for f in E.STATE.names if f not in HEADER_FIELDS]
tried = accepted = 0
for game in range({games}):
    n = 5 + game % 6
    env = raw_env(num_players=n)
    env.reset(seed=game)
    while not env._states[0].terminal:
        env.step(int(rng.choice(env.legal_actions())))
        if rng.random() > 0.15:
            continue
        record = env.get_state()
        for _ in range(1 + int(rng.integers(3))):  # one to three elements anywhere within bounds
            name = fields[int(rng.integers(len(fields)))]
            low, high = E.STATE_BOUNDS[name]
            values = record[name][0]
            if values.ndim == 0:
                record[name] = rng.integers(low, high + 1)
            else:
                values[tuple(int(rng.integers(d)) for d in values.shape)] = rng.integers(low, high + 1)
        state = record[0]
        tried += 1
        if E.check_state(state) != 0:
            continue
        accepted += 1
        for seat in range(n):  # accepted: every engine function works on it
            out = np.zeros(E.LAYOUT.size, np.float32)
            E.observe(state, seat, out)
            assert (out >= E.LAYOUT.low).all() and (out <= E.LAYOUT.high).all(), seat
            mask = np.zeros(E.NUM_ACTIONS, np.int8)
            E.legal_mask(state, seat, mask)
            assert mask.any() == (seat == state.current_player), seat
        if state.terminal == 0:
            copy = record.copy()
            E.determinize(copy[0], int(state.current_player), 1)
            assert E.check_state(copy[0]) == 0
print(json.dumps([tried, accepted]))
"""


def test_mutated_records_never_crash_and_accepted_ones_are_safe_as_plain_python():
    script = _FUZZ.format(root=ROOT, seed=3, games=24)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    tried, accepted = map(int, result.stdout.strip().splitlines()[-1].strip("[]").split(","))
    assert tried > 200 and 0 < accepted < tried


# ---- determinized records are games (test_determinize checks every sample with check_records) ---


def peek_drawn_by_a_session(r):
    return r["peek_session"] >= 0 and r["phase"] == E.NOMINATION and 0 < r["h_drawn_lib"][r["peek_session"]] < 3


def test_the_peekers_samples_keep_the_peeked_policies_in_the_hand_that_drew_them():
    record = reach(peek_drawn_by_a_session, n=5)
    r = record[0]
    peeked = r["peek_cards"][3 - r["peek_rest"]:]
    session = r["peek_session"]
    outsider = other_living(r, r["peeker"], r["h_president"][session], r["h_nominee"][session])
    hands, others_peeks = set(), set()
    for seed in range(60):
        own = record.copy()
        kernels.determinize_one(own, int(r["peeker"]), np.uint64(seed))
        drawn = int(own[0]["h_drawn_lib"][session])
        assert (peeked == E.LIBERAL).sum() <= drawn and (peeked == E.FASCIST).sum() <= 3 - drawn
        np.testing.assert_array_equal(own[0]["peek_cards"], r["peek_cards"])
        other = record.copy()
        kernels.determinize_one(other, outsider, np.uint64(seed))
        check_records(GAME, other)
        hands.add(int(other[0]["h_drawn_lib"][session]))
        others_peeks.add(tuple(other[0]["peek_cards"]))
    assert len(hands) > 1 and len(others_peeks) > 1, "an outsider's samples vary the hand and the peek"


# ---- playout value ----------------------------------------------------------------------------


def race(liberal, fascist):
    """P(5 - liberal liberals before 6 - fascist fascists) when each is liberal with the odds of the
    policies not yet enacted, written as a negative binomial sum."""
    a, b = 5 - liberal, 6 - fascist
    q = (6 - liberal) / (17 - liberal - fascist)
    return sum(math.comb(a - 1 + k, k) * q**a * (1 - q) ** k for k in range(b))


def test_liberal_win_chance_is_the_race_on_the_tracks():
    assert E.liberal_win_chance(4, 5) == pytest.approx(0.25)  # one policy decides: 2 liberals of 8
    assert E.liberal_win_chance(4, 0) == pytest.approx(1 - (11 / 13) ** 6)
    for liberal in range(5):
        for fascist in range(6):
            assert E.liberal_win_chance(liberal, fascist) == pytest.approx(race(liberal, fascist))
    assert E.liberal_win_chance(0, 0) < 0.5 and E.liberal_win_chance(4, 1) > 0.5


def test_playout_value_is_on_the_reward_scale_per_team_and_zero_at_the_end():
    record = reach(lambda r: r["liberal_enacted"] + r["fascist_enacted"] >= 3 and not r["terminal"])
    r = record[0]
    values = np.zeros(7, np.float32)
    E.playout_value(r, values)
    p = E.liberal_win_chance(int(r["liberal_enacted"]), int(r["fascist_enacted"]))
    liberal = r["role"][:7] == E.LIBERAL
    np.testing.assert_allclose(values[liberal], 2 * p - 1, rtol=1e-6)
    np.testing.assert_allclose(values[~liberal], 1 - 2 * p, rtol=1e-6)
    assert (np.abs(values) <= 1).all()
    final = reach(lambda r: r["terminal"] == 1)
    values = np.zeros(7, np.float32)
    E.playout_value(final[0], values)
    assert not values.any()
