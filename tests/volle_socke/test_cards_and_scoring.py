"""The deck (rulebook section I) and scoring (section VII, with its worked example), best 8 of 10,
and the placement rewards."""

import numpy as np
import pytest

from envs.volle_socke import engine as E
from envs.volle_socke.data import (
    BULL, COUNTS, ENGINE_10, ENGINE_20, ENGINE_50, ENGINE_100, FLAT_FRONT, FRONT, FUCK_TUV, LACH, MOTOR_HER, NAIL,
    NAMES, PUMP, RAD_HER, REAR_1, ROLE_ENGINE, ROLE_FRONT, ROLE_REAR, SPARE_0, SPARE_POWERS, TURBO, TUV,
    WOODEN_FRONT,
)

from .helpers import contest_position, make, record

REAR_3, REAR_4 = REAR_1 + 2, REAR_1 + 3


def test_deck_has_the_rulebooks_110_cards():
    count = dict(zip(NAMES, COUNTS.tolist()))
    assert COUNTS.sum() == 110
    assert count["Turbo"] == 2 and count["Fuck for TÜV"] == 2 and count["Da lach ich doch über"] == 2
    assert count["Air Pump"] == 4
    assert count["Motor her"] == 2 and count["Rad her"] == 2 and count["TÜV"] == 4 and count["Bull"] == 4
    assert count["Nail"] == 2
    assert COUNTS[SPARE_0:SPARE_0 + 6].sum() == 6
    assert [count[f"Engine {p} HP"] for p in (10, 20, 50, 100)] == [12, 12, 8, 8]
    assert count["Front wheel"] == 16 and count["Flat front wheel"] == 4 and count["Wooden front wheel"] == 4
    assert [count[f"Rear wheel gear {g}"] for g in (1, 2, 3, 4)] == [4, 4, 4, 4]


def test_rulebook_example_step_by_step():
    # "Engine power: 50 and 10 HP gives 60 HP. A Turbo card doubles the value to 120 HP. A third
    # gear triples the value, so 360 HP. A wooden front wheel halves the value. Total value: 180 HP."
    assert E.bike_score(50 + 10, 0, 1, False, False, False) == 60
    assert E.bike_score(60, 1, 1, False, False, False) == 120
    assert E.bike_score(60, 1, 3, False, False, False) == 360
    assert E.bike_score(60, 1, 3, True, False, False) == 180


def test_rulebook_example_as_a_bike_on_the_table():
    env = contest_position(bikes={0: [WOODEN_FRONT, ENGINE_50, ENGINE_10, TURBO, REAR_3]})
    assert E.bike_value(record(env), 0) == 180
    views = env.observation_layout.views(env.observe("player_0")["observation"])
    assert views["bike_value"][0] == 180


def test_each_part_of_the_formula_on_a_bike():
    def value(cards, flat=(), **config):
        return int(E.bike_value(record(contest_position(bikes={0: cards}, flat=flat, **config)), 0))

    assert value([FRONT, ENGINE_100, REAR_1]) == 100
    assert value([FRONT, ENGINE_100, ENGINE_20, REAR_1 + 1]) == 240            # engines add up, x gear 2
    assert value([FRONT, ENGINE_100, TURBO, TURBO, REAR_4]) == 1600            # x2 per Turbo
    assert value([WOODEN_FRONT, ENGINE_10, REAR_1]) == 5                       # halved
    assert value([FLAT_FRONT, ENGINE_100, REAR_4], flat=(0,)) == 0             # flat: nothing until pumped
    assert value([FLAT_FRONT, ENGINE_100, REAR_4], flat=(0,), flat_front="half") == 200
    assert value([FLAT_FRONT, ENGINE_100, REAR_4]) == 400                      # a pumped-up flat wheel
    # Spare parts: a normal front wheel, a 4th-gear rear wheel, or the engine printed on them.
    assert value([(SPARE_0, ROLE_FRONT), ENGINE_50, REAR_1]) == 50
    assert value([FRONT, ENGINE_50, (SPARE_0, ROLE_REAR)]) == 200
    assert value([FRONT, (SPARE_0 + 5, ROLE_ENGINE), REAR_1]) == SPARE_POWERS[5]
    # Not a bike without front wheel, rear wheel and engine.
    assert value([ENGINE_100, REAR_4]) == 0
    assert value([FRONT, REAR_4, TURBO]) == 0
    assert value([FRONT, ENGINE_100]) == 0


def test_best_8_of_10_rounds_count():
    scores = np.array([100, 0, 50, 360, 20, 180, 5, 1600, 40, 60], np.int32)
    assert E.best_rounds_total(scores, 10, 8) == scores.sum() - 0 - 5
    assert E.best_rounds_total(scores, 3, 8) == 150          # fewer rounds than counted: all count
    assert E.best_rounds_total(scores, 10, 10) == scores.sum()


def _finish_round_by_passing(env):
    """Everybody in the contest passes once: the round ends."""
    rec = record(env)
    while rec["phase"] == E.PH_TURN and rec["round_index"] == 0:
        env.step(E.PASS)


def test_round_scores_totals_and_final_placement_rewards():
    env = contest_position(num_players=3, num_rounds=1, bikes={0: [FRONT, ENGINE_20, REAR_1],
                                                               1: [FRONT, ENGINE_100, REAR_4],
                                                               2: [FRONT, ENGINE_10, REAR_1]})
    for _ in range(3):
        env.step(E.PASS)
    rec = record(env)
    assert rec["terminal"] == 1 and rec["current_player"] == -1
    assert rec["round_scores"][:3, 0].tolist() == [20, 400, 10]
    assert rec["totals"][:3].tolist() == [20, 400, 10]
    assert [env.rewards[f"player_{s}"] for s in range(3)] == [0.0, 1.0, -1.0]


def test_tied_seats_share_their_places():
    env = contest_position(num_players=4, num_rounds=1, bikes={0: [FRONT, ENGINE_20, REAR_1],
                                                               1: [FRONT, ENGINE_20, REAR_1],
                                                               2: [FRONT, ENGINE_100, REAR_1]}, out=(3,))
    for _ in range(3):
        env.step(E.PASS)
    rewards = [env.rewards[f"player_{s}"] for s in range(4)]
    # seat 2 first (+1); seats 0 and 1 share the rewards of second and third (1/3, -1/3): 0 each; seat 3 last
    assert rewards == pytest.approx([0.0, 0.0, 1.0, -1.0])
    assert sum(rewards) == pytest.approx(0.0)


def test_a_seat_out_of_the_round_scores_zero():
    env = contest_position(num_players=3, num_rounds=2, bikes={0: [FRONT, ENGINE_20, REAR_1],
                                                               2: [FRONT, ENGINE_50, REAR_1]}, out=(1,),
                           hands={1: [FRONT, ENGINE_100, REAR_4]})
    env.step(E.PASS)
    env.step(E.PASS)
    rec = record(env)
    assert rec["round_scores"][:3, 0].tolist() == [20, 0, 50]
    assert rec["round_index"] == 1 and rec["phase"] == E.PH_DRAW  # the next round is dealt


def test_round_rewards_shape_each_round_when_asked():
    bikes = {0: [FRONT, ENGINE_20, REAR_1], 1: [FRONT, ENGINE_100, REAR_4]}
    plain = contest_position(num_players=2, num_rounds=2, bikes=bikes)
    shaped = contest_position(num_players=2, num_rounds=2, bikes=bikes, round_rewards=True)
    for env in (plain, shaped):
        env.step(E.PASS)
        env.step(E.PASS)
    assert plain.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert shaped.rewards == {"player_0": -0.5, "player_1": 0.5}


def test_a_ten_round_game_counts_the_best_eight():
    env = make(num_players=2, seed=3)
    rec = record(env)
    scripted = [[100, 10], [0, 20], [50, 30], [360, 40], [20, 50], [180, 60], [5, 70], [1600, 80],
                [40, 90], [60, 100]]
    for r, (a, b) in enumerate(scripted):
        # Skip to the contest of round r with chosen bikes worth a and b.
        pos = contest_position(num_players=2, bikes={0: [FRONT, ENGINE_10, REAR_1], 1: [FRONT, ENGINE_10, REAR_1]})
        state = pos.get_state()
        state["round_index"] = r
        state["starter"] = r % 2  # the round's first player rotates (a record set_state accepts)
        state["round_scores"] = rec["round_scores"]
        state["totals"] = rec["totals"]
        state["num_rounds"] = 10
        state["counted_rounds"] = 8
        env.set_state(state)
        rec = record(env)
        rec["round_scores"][0, r], rec["round_scores"][1, r] = 0, 0
        _score_exactly(env, 0, a)
        _score_exactly(env, 1, b)
        env.step(E.PASS)
        env.step(E.PASS)
        rec = record(env)
    first = sorted(s[0] for s in scripted)[2:]
    second = sorted(s[1] for s in scripted)[2:]
    assert rec["terminal"] == 1
    assert rec["totals"][0] == sum(first) == 2410 and rec["totals"][1] == sum(second)
    assert env.rewards["player_0"] == 1.0 and env.rewards["player_1"] == -1.0


def _score_exactly(env, seat, value):
    """Give ``seat`` a bike worth exactly ``value`` HP (a multiple of 5 up to 1600)."""
    rec = record(env)
    rec["bike"][seat] = 0
    rec["flat_tyre"][seat] = 0
    if value == 0:
        return
    for turbos in range(3):
        for gear in (1, 2, 3, 4):
            for wooden in (False, True):
                base = value * (2 if wooden else 1)
                if base % (gear << turbos):
                    continue
                power = base // (gear << turbos)
                engines = _engines_for(power)
                if engines is None:
                    continue
                rec["bike"][seat, WOODEN_FRONT if wooden else FRONT] = 1
                rec["bike"][seat, REAR_1 + gear - 1] = 1
                rec["bike"][seat, TURBO] = turbos
                for kind in engines:
                    rec["bike"][seat, kind] += 1
                assert E.bike_value(rec, seat) == value
                return
    raise AssertionError(value)


def _engines_for(power):
    kinds = []
    for kind, hp in ((ENGINE_100, 100), (ENGINE_50, 50), (ENGINE_20, 20), (ENGINE_10, 10)):
        while power >= hp and len(kinds) < 4:
            kinds.append(kind)
            power -= hp
    return kinds if power == 0 and kinds else None


def test_misery_and_joy_cards_are_what_the_rulebook_lists():
    assert [NAMES[k] for k in (TURBO, FUCK_TUV, LACH, PUMP)] == ["Turbo", "Fuck for TÜV", "Da lach ich doch über",
                                                                  "Air Pump"]
    assert [NAMES[k] for k in (MOTOR_HER, RAD_HER, TUV, BULL, NAIL)] == ["Motor her", "Rad her", "TÜV", "Bull",
                                                                         "Nail"]
