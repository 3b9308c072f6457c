"""The engine contract's validation: STATE_BOUNDS and check_state accept every record random play
reaches, reject each broken invariant with its own message, and whatever they accept plays on
safely; playout_value is on the reward scale."""

import re

import numpy as np
import pytest

from envs.core import InvalidStateError, check_records, kernels
from envs.core.vector import VectorGame
from envs.volle_socke import engine as E
from envs.volle_socke.data import (
    ENGINE_10, ENGINE_50, ENGINE_100, FRONT, LACH, MOTOR_HER, REAR_1, ROLE_ENGINE, SPARE_0, TURBO, TUV,
    WOODEN_FRONT,
)
from envs.volle_socke.env import GAME, raw_env

from .helpers import contest_position, misery, record, valid
from .test_layout import layout_position

BASIC = [FRONT, ENGINE_50, REAR_1]
LOW, HIGH = E.LAYOUT.low, E.LAYOUT.high


def test_every_field_has_bounds_and_every_code_a_text():
    assert set(E.STATE_BOUNDS) == {n for n in E.STATE.names} - {"rng", "num_players", "current_player", "terminal",
                                                                "step_count", "reward"}
    assert E.STATE_PROBLEMS[0] == "ok" and len(set(E.STATE_PROBLEMS)) == len(E.STATE_PROBLEMS)


@pytest.mark.parametrize("num_players", [2, 4, 8])
def test_batches_of_random_games_pass_at_every_step(num_players):
    # Many games at once, in numba; every record is checked after every decision.
    for config in ({}, {"own_bike": "add", "her_choice": "attacker"}, {"refill_from_hand": True}):
        vg = VectorGame("volle_socke_v0", 64, seed=num_players, num_players=num_players, **config)
        vg.reset()
        for _ in range(300):
            vg.random_steps(1)
            check_records(GAME, vg.get_state())


# ---- each invariant broken once ------------------------------------------------------------------


def building_env():
    env = raw_env(num_players=4, num_rounds=5)
    env.reset(seed=3)
    for _ in range(5):  # a few building turns
        env.step(env.legal_actions()[-1])  # (never the knock)
    return env


def contest_env():
    return contest_position(4, hands={0: [TUV, ENGINE_10], 1: [LACH], 2: [ENGINE_100]},
                            bikes={0: BASIC, 1: BASIC + [TURBO], 2: [WOODEN_FRONT, ENGINE_10, REAR_1],
                                   3: [FRONT, (SPARE_0, ROLE_ENGINE), REAR_1 + 3]})


def react_env():
    env = contest_env()
    env.step(misery(TUV, 1))
    env.step(E.SLOT_BASE + int(E.BIKE_INDEX[TURBO]))
    return env


def victim_env():
    env = contest_position(2, hands={0: [MOTOR_HER]}, bikes={0: BASIC, 1: BASIC + [ENGINE_10]})
    env.step(misery(MOTOR_HER, 1))
    env.step(E.ACCEPT)
    return env


def layout_env():
    return layout_position({0: BASIC + [ENGINE_10], 1: BASIC + [ENGINE_10], 2: BASIC + [ENGINE_10]}, knocker=1)


def move_card(r, kind, where, seat=0):
    """Move a card of ``kind`` from the draw pile to ``where`` ("hand" or "bike") of ``seat``."""
    size = int(r["deck_size"])
    i = int(np.flatnonzero(r["deck"][:size] == kind)[0])
    r["deck"][i], r["deck"][size - 1] = r["deck"][size - 1], r["deck"][i]
    r["deck_size"] = size - 1
    r[where][seat, kind] += 1


def _spare_off_bike(r):
    r["spare_role"][1] = ROLE_ENGINE


def _flat_wooden(r):
    r["flat_tyre"][2] = 1


BREAKS = {
    "counted_rounds is more": (building_env, lambda r: r.__setitem__("counted_rounds", 6)),
    "end of the game": (contest_env, lambda r: r.__setitem__("phase", E.PH_OVER)),
    "beyond num_players": (contest_env, lambda r: r["totals"].__setitem__(6, 10)),
    "not a seat of this game": (contest_env, lambda r: r.__setitem__("turn_seat", 5)),
    "not yet played has a score": (contest_env, lambda r: r["round_scores"].__setitem__((0, 3), 100)),
    "best counted_rounds": (contest_env, lambda r: r["totals"].__setitem__(1, 100)),
    "does not fit the phase": (react_env, lambda r: r.__setitem__("pending_slot", ENGINE_100)),
    "110 cards": (contest_env, lambda r: r["hand"].__setitem__((3, LACH), 1)),
    "discard pile disagrees": (react_env, lambda r: r["discard_public"].__setitem__(ENGINE_10, 1)),
    "knows of more cards": (contest_env, lambda r: r["known"].__setitem__((2, ENGINE_100), 2)),
    "more cards than the phase allows": (building_env, lambda r: move_card(r, ENGINE_10, "hand", seat=2)),
    "never lies on a bike": (contest_env, lambda r: move_card(r, LACH, "bike", seat=3)),
    "lies on no bike has a role": (contest_env, _spare_off_bike),
    "flat tyre": (contest_env, _flat_wooden),
    "statuses do not fit": (contest_env, lambda r: r["status"].__setitem__(3, E.BUILDING)),
    "out of the round has a bike": (contest_env, lambda r: r["status"].__setitem__(3, E.OUT)),
    "knock and the last turns": (building_env, lambda r: r["final_owed"].__setitem__(2, 1)),
    "cannot complete a bike": (layout_env, lambda r: r["hand"][1].__setitem__(REAR_1, 0) or r["hand"][1].__setitem__(
        ENGINE_10, 2) or r["deck"].__setitem__(np.flatnonzero(r["deck"][:r["deck_size"]] == ENGINE_10)[0], REAR_1)),
    "seat to act is not": (victim_env, lambda r: r.__setitem__("current_player", 0)),
    "pass_streak": (contest_env, lambda r: r.__setitem__("pass_streak", 4)),
    "moved outside a contest turn": (react_env, lambda r: r.__setitem__("moved", 1)),
}


def test_every_check_is_broken_by_one_case_below():
    covered = {next(text for text in E.STATE_PROBLEMS if key in text) for key in BREAKS}
    assert covered == set(E.STATE_PROBLEMS[1:])


@pytest.mark.parametrize("key", list(BREAKS))
def test_a_broken_invariant_is_rejected_with_its_message(key):
    make, breaks = BREAKS[key]
    env = make()
    assert valid(env)
    state = env.get_state()
    breaks(state[0])
    text = next(text for text in E.STATE_PROBLEMS if key in text)
    with pytest.raises(InvalidStateError, match="record invalid: " + re.escape(text)):
        check_records(GAME, state)
    assert int(E.check_state(state[0])) == E.STATE_PROBLEMS.index(text)


def test_a_field_out_of_bounds_is_named():
    env = contest_env()
    state = env.get_state()
    state[0]["bike"][1, TURBO] = 13
    with pytest.raises(InvalidStateError, match=r"bike\[1, 0\]=13 outside \[0, 12\]"):
        check_records(GAME, state)


# ---- what passes is safe ---------------------------------------------------------------------------


def random_records(count, seed):
    """Records of random games at random moments (several player counts and options)."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(count):
        n = int(rng.integers(2, 9))
        config = [{}, {"own_bike": "add", "her_choice": "attacker"}, {"refill_from_hand": True}][g % 3]
        env = raw_env(num_players=n, **config)
        env.reset(seed=int(rng.integers(1 << 30)))
        for _ in range(int(rng.integers(0, 900))):
            if record(env)["terminal"]:
                break
            legal = env.legal_actions()
            env.step(legal[rng.integers(len(legal))])
        out.append(env.get_state())
    return out


def test_records_with_one_random_change_are_rejected_or_play_on_safely():
    """Change one element of one field (within its bounds) of a valid record: either check_state
    rejects it, or every engine function keeps working on it and random play stays valid."""
    rng = np.random.default_rng(5)
    names = list(E.STATE_BOUNDS)
    accepted = 0
    for base in random_records(30, seed=1):
        for _ in range(30):
            state = base.copy()
            name = names[rng.integers(len(names))]
            low, high = E.STATE_BOUNDS[name]
            field = state[0][name]
            value = rng.integers(low, high + 1)
            if np.ndim(field):
                index = tuple(rng.integers(s) for s in field.shape)
                field[index] = value
            else:
                state[0][name] = value
            try:
                check_records(GAME, state)
            except InvalidStateError:
                continue
            accepted += 1
            _plays_on_safely(state, rng)
    assert accepted > 50  # (many changes are harmless: stale slots, the top of a hand, ...)


def _plays_on_safely(state, rng):
    n = int(state[0]["num_players"])
    env = raw_env(num_players=n, own_bike="add" if state[0]["own_bike_add"] else "remove",
                  refill_from_hand=bool(state[0]["refill"]),
                  her_choice="victim" if state[0]["victim_picks"] else "attacker")
    env.set_state(state)
    for _ in range(30):
        rec = record(env)
        if rec["terminal"]:
            return
        for agent in env.possible_agents:
            obs = env.observe(agent)["observation"]
            assert ((obs >= LOW) & (obs <= HIGH)).all()
        legal = env.legal_actions()
        assert legal, "the seat to act has a legal action"
        copy = env.get_state()
        kernels.determinize_one(copy, int(rng.integers(n)), np.uint64(7))
        check_records(GAME, copy)
        env.step(legal[rng.integers(len(legal))])
        check_records(GAME, env.get_state())


# ---- playout_value ---------------------------------------------------------------------------------


def playout(state):
    values = np.zeros(E.MAX_PLAYERS, np.float32)
    E.playout_value(state[0], values)
    return values[: int(state[0]["num_players"])]


def expected_values(projected, open_rounds):
    """The module docstring's formula, written out: 1 - 2 x (expected seats ahead) / (players - 1),
    a seat ahead of another by a logistic of their projected totals' difference."""
    scale = E.LOGISTIC_SCALE * E.ROUND_SPREAD * np.sqrt(2.0 * max(open_rounds, 0.25))
    n = len(projected)
    return [1.0 - 2.0 * sum(1.0 / (1.0 + np.exp((projected[q] - projected[o]) / scale))
                            for o in range(n) if o != q) / (n - 1) for q in range(n)]


def test_playout_value_ranks_projected_totals_on_the_reward_scale():
    # Bikes of 400, 50 and 10 HP halfway through the first of two rounds (1.5 rounds still open).
    env = contest_position(3, bikes={0: [FRONT, ENGINE_100, REAR_1 + 3], 1: BASIC, 2: [FRONT, ENGINE_10, REAR_1]},
                           num_rounds=2)
    values = playout(env.get_state())
    assert values.tolist() == pytest.approx(expected_values([400, 50, 10], 1.5), abs=1e-6)
    assert values[0] > values[1] > values[2] and abs(values.sum()) < 1e-6
    state = env.get_state()
    state[0]["round_index"] = 1
    state[0]["starter"] = 1
    state[0]["round_scores"][:3, 0] = (0, 600, 0)
    state[0]["totals"][:3] = (0, 600, 0)
    check_records(GAME, state)
    # Seat 1 scored 600 in the first round and leads (650 against 400 and 10), now with half a round open.
    late = playout(state)
    assert late.tolist() == pytest.approx(expected_values([400, 650, 10], 0.5), abs=1e-6)
    assert late[1] > late[0] > late[2]
    assert late[1] - late[2] > values[0] - values[2]  # the less is open, the surer the placings


def test_playout_value_with_round_rewards_adds_this_rounds_placement():
    env = contest_position(2, bikes={0: [FRONT, ENGINE_100, REAR_1], 1: BASIC}, num_rounds=4, round_rewards=True)
    base = expected_values([100, 50], 3.5)
    assert playout(env.get_state()).tolist() == pytest.approx([base[0] + 1 / 4, base[1] - 1 / 4], abs=1e-6)


def test_best_bike_from_cards_scores_by_the_rulebook():
    def cards(*kinds):
        counts = np.zeros(E.NUM_KINDS, np.int64)
        for kind in kinds:
            counts[kind] += 1
        return counts

    assert E.best_bike_from(cards(FRONT, ENGINE_50, REAR_1 + 3, TURBO), 0) == 50 * 2 * 4
    assert E.best_bike_from(cards(WOODEN_FRONT, ENGINE_100, REAR_1 + 1), 0) == 100 * 2 // 2
    assert E.best_bike_from(cards(FRONT, ENGINE_50), 0) == 0  # no rear wheel
    # Spare parts 10, 20 and 60 HP with a 20 HP engine and no wheels: the weakest two become the
    # wheels (the rear one a 4th gear), the 60 is an engine: (20 + 60) x 4.
    assert E.best_bike_from(cards(SPARE_0, SPARE_0 + 1, SPARE_0 + 5, ENGINE_10 + 1), 0) == 80 * 4


def test_best_bike_from_equals_the_heuristics_reading_of_a_hand():
    """The engine's numba version against agents/heuristic/volle_socke.py's best_bike_from, on
    random handfuls of the deck (hands and bikes of random games are such handfuls)."""
    from agents.heuristic.volle_socke import best_bike_from

    rng = np.random.default_rng(4)
    deck = np.repeat(np.arange(E.NUM_KINDS), E.COUNTS)
    for trial in range(2000):
        counts = np.bincount(rng.choice(deck, int(rng.integers(0, 16)), replace=False), minlength=E.NUM_KINDS)
        flat_half = trial % 2
        assert E.best_bike_from(counts.astype(np.int64), flat_half) == best_bike_from(counts, flat_half)[0], counts


def test_playout_value_sums_to_zero_and_stays_in_range_along_random_games():
    for state in random_records(20, seed=2):
        values = playout(state)
        assert abs(values.sum()) < 1e-5 and (np.abs(values) <= 1.0 + 1e-6).all()
        if state[0]["terminal"]:
            assert (values == 0).all()
