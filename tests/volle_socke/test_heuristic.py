"""The rule-based player: legal moves only, the strategy's choices in scripted positions, and a
clear win over random players."""

import numpy as np
import pytest

from agents.base import RandomAgent
from agents.heuristic import heuristic_for
from agents.heuristic.volle_socke import HeuristicAgent, best_bike_from
from envs.core.play import play_game
from envs.volle_socke import engine as E
from envs.volle_socke.data import (
    BULL, ENGINE_10, ENGINE_20, ENGINE_50, ENGINE_100, FLAT_FRONT, FRONT, FUCK_TUV, LACH, MOTOR_HER, NAIL, PUMP,
    RAD_HER, REAR_1, ROLE_ENGINE, ROLE_FRONT, ROLE_REAR, SPARE_0, TURBO, TUV, WOODEN_FRONT,
)

from .helpers import contest_position, contest_record, counts_of, deal_from_deck, fit, misery, move, record, slot
from .test_layout import layout_position

REAR_3, REAR_4 = REAR_1 + 2, REAR_1 + 3
BASIC = [FRONT, ENGINE_20, REAR_1]


def decide(env, **config):
    """The heuristic's choice for the seat to act."""
    agent = HeuristicAgent(seed=0)
    seat = int(record(env)["current_player"])
    agent.reset(seat, "volle_socke_v0", env.config)
    obs = env.observe(f"player_{seat}")
    return agent.act(obs["observation"], obs["action_mask"])


class CheckedHeuristic(HeuristicAgent):
    def act(self, observation, action_mask, info=None):
        action = super().act(observation, action_mask, info)
        assert action_mask[action], f"illegal action {action}"
        return action


@pytest.mark.parametrize("num_players,config", [(2, {}), (3, {"own_bike": "add", "her_choice": "attacker"}),
                                                (4, {"refill_from_hand": True}), (5, {"flat_front": "half"}),
                                                (6, {"own_bike": "add"}), (8, {})])
def test_only_legal_actions_in_whole_games(num_players, config):
    for game in range(3):
        lineup = [CheckedHeuristic(seed=game * 10 + s) if s % 2 == 0 else RandomAgent(seed=s) for s in
                  range(num_players)]
        returns = play_game("volle_socke_v0", lineup, seed=game, config={"num_rounds": 4, **config})
        assert returns.sum() == pytest.approx(0.0, abs=1e-5)


def test_registered_for_the_game():
    assert isinstance(heuristic_for("volle_socke_v0"), HeuristicAgent)


@pytest.mark.parametrize("num_players,config", [(2, {}), (4, {}), (4, {"own_bike": "add"})])
def test_beats_random_players(num_players, config):
    games, wins = 150, 0
    for game in range(games):
        seat = game % num_players
        lineup = [RandomAgent(seed=1000 * game + s) for s in range(num_players)]
        lineup[seat] = HeuristicAgent(seed=game)
        returns = play_game("volle_socke_v0", lineup, seed=game, config={"num_rounds": 3, **config})
        wins += returns[seat] == returns.max() and returns[seat] > 0
    # A random seat wins 1 game in num_players; the heuristic builds, keeps and defends its bike.
    assert wins / games >= 0.8, wins


# ---- the strategy in scripted positions ---------------------------------------------------------------


def test_values_a_hand_by_its_best_bike():
    # roles: the role of each spare part in that bike (-1: not used)
    value, roles = best_bike_from(counts_of([FRONT, ENGINE_50, ENGINE_10, TURBO, REAR_3]), False)
    assert value == 360 and roles.tolist() == [-1] * 6
    value, roles = best_bike_from(counts_of([FRONT, ENGINE_100, SPARE_0 + 2, REAR_1]), False)
    assert value == 400 and roles.tolist() == [-1, -1, ROLE_REAR, -1, -1, -1]   # a spare part is the best rear wheel
    value, _ = best_bike_from(counts_of([FLAT_FRONT, PUMP, ENGINE_100, REAR_1]), False)
    assert value == 100
    assert best_bike_from(counts_of([ENGINE_100, REAR_4]), False)[0] == 0


def test_lays_out_a_bike_that_stands_and_keeps_reserves_where_a_adds():
    hands = {0: [WOODEN_FRONT, FRONT, ENGINE_10, ENGINE_100, REAR_1, REAR_4, TURBO, LACH], 1: BASIC + [ENGINE_10]}
    env = layout_position(hands, knocker=0, own_bike="add")
    rec = record(env)
    while rec["phase"] == E.PH_LAYOUT:
        env.step(decide(env))
    # The best wheels and the weakest engine; the strong engine and the Turbo wait in hand.
    assert rec["bike"][0].tolist() == counts_of([FRONT, ENGINE_10, REAR_4]).tolist()
    assert rec["hand"][0].tolist() == counts_of([WOODEN_FRONT, ENGINE_100, REAR_1, TURBO, LACH]).tolist()


def test_lays_out_everything_when_nothing_can_be_added_later():
    # The default (the rulebook's contest): a hand card only ever replaces a bike card.
    hands = {0: [WOODEN_FRONT, FRONT, ENGINE_10, ENGINE_100, REAR_1, REAR_4, TURBO, LACH], 1: BASIC + [ENGINE_10]}
    env = layout_position(hands, knocker=0)
    rec = record(env)
    while rec["phase"] == E.PH_LAYOUT:
        env.step(decide(env))
    assert E.bike_value(rec, 0) == (100 + 10) * 2 * 4
    assert rec["hand"][0].tolist() == counts_of([WOODEN_FRONT, REAR_1, LACH]).tolist()


def test_puts_out_its_reserves_instead_of_passing_where_a_adds():
    env = contest_position(2, hands={0: [ENGINE_100, TURBO, WOODEN_FRONT]}, bikes={0: [FRONT, ENGINE_10, REAR_4],
                                                                               1: BASIC}, own_bike="add")
    assert decide(env) == fit(ENGINE_100)           # the reserve that adds most (400 HP)
    env.step(fit(ENGINE_100))
    assert decide(env) == E.ADD_ENGINE               # beside the other engine, not in its place
    env.step(E.ADD_ENGINE)
    env.step(E.PASS)
    assert decide(env) == fit(TURBO)
    env.step(fit(TURBO))
    env.step(E.PASS)
    assert decide(env) == E.PASS                     # a wooden wheel would only lower the bike


def test_replaces_the_weakest_engine_when_nothing_can_be_added():
    env = contest_position(2, hands={0: [ENGINE_100]}, bikes={0: [FRONT, ENGINE_20, ENGINE_50, REAR_1], 1: BASIC})
    assert decide(env) == fit(ENGINE_100)
    env.step(fit(ENGINE_100))
    assert decide(env) == slot(ENGINE_20)


@pytest.mark.parametrize("config", [dict(own_bike="add"), dict(refill_from_hand=True)])
def test_repairs_a_broken_bike_before_attacking(config):
    env = contest_position(2, hands={0: [WOODEN_FRONT, BULL]}, bikes={0: [ENGINE_50, REAR_4], 1: BASIC}, **config)
    assert decide(env) == fit(WOODEN_FRONT)


def test_repairs_a_flat_tyre_by_replacing_the_wheel():
    env = contest_position(2, hands={0: [FRONT, BULL]}, bikes={0: [FRONT, ENGINE_50, REAR_4], 1: BASIC}, flat=(0,))
    assert decide(env) == fit(FRONT)


def test_never_takes_a_card_off_its_own_bike():
    # Nothing to add, nothing to attack with: it passes; removing a card never raises a bike.
    env = contest_position(2, hands={0: [ENGINE_10]}, bikes={0: [FRONT, ENGINE_50, ENGINE_20, TURBO, REAR_4],
                                                             1: BASIC})
    assert any(E.REMOVE_BASE <= a < E.SLOT_BASE for a in env.legal_actions())
    assert decide(env) == E.PASS


def test_moves_a_spare_part_into_an_empty_slot():
    env = contest_position(2, hands={0: [BULL]}, bikes={0: [(SPARE_0, ROLE_ENGINE), ENGINE_50, REAR_1], 1: BASIC})
    assert decide(env) == move(SPARE_0, ROLE_FRONT)


def test_as_the_victim_hands_over_what_it_misses_least():
    env = contest_position(2, hands={0: [MOTOR_HER]}, bikes={0: BASIC, 1: [FRONT, ENGINE_10, ENGINE_100, REAR_1]})
    env.step(misery(MOTOR_HER, 1))
    env.step(E.ACCEPT)
    assert decide(env) == slot(ENGINE_10)
    # Rad her: the front wheel, since a reserve front wheel waits in hand and the 4th gear does not
    # (where a hand card can fill the empty slot).
    env = contest_position(2, hands={0: [RAD_HER], 1: [FRONT]}, bikes={0: BASIC, 1: [FRONT, ENGINE_100, REAR_4]},
                           own_bike="add")
    env.step(misery(RAD_HER, 1))
    assert decide(env) == E.ACCEPT
    env.step(E.ACCEPT)
    assert decide(env) == slot(FRONT)


def test_laughs_off_rad_her_only_without_a_reserve_where_reserves_refill():
    bikes = {0: BASIC, 1: [FRONT, ENGINE_100, REAR_4]}
    env = contest_position(2, hands={0: [RAD_HER], 1: [LACH]}, bikes=bikes, own_bike="add")
    env.step(misery(RAD_HER, 1))
    assert decide(env) == E.REACT_LACH
    env = contest_position(2, hands={0: [RAD_HER], 1: [LACH, FRONT, REAR_4]}, bikes=bikes, own_bike="add")
    env.step(misery(RAD_HER, 1))
    assert decide(env) == E.ACCEPT


def test_laughs_off_rad_her_even_with_wheels_in_hand_by_default():
    # The rulebook's contest: a hand wheel cannot fill the slot Rad her empties, so the loss is the bike.
    env = contest_position(2, hands={0: [RAD_HER], 1: [LACH, FRONT, REAR_4]},
                           bikes={0: BASIC, 1: [FRONT, ENGINE_100, REAR_4]})
    env.step(misery(RAD_HER, 1))
    assert decide(env) == E.REACT_LACH


class LaysOutEverything(HeuristicAgent):
    keeps_reserves = False


def test_keeping_reserves_beats_laying_out_everything_where_a_adds():
    games, firsts = 100, 0.0
    for game in range(games):
        kinds = [(seat + game) % 2 for seat in range(4)]      # 0: keeps reserves
        lineup = [HeuristicAgent(seed=10 * game + s) if k == 0 else LaysOutEverything(seed=10 * game + s)
                  for s, k in enumerate(kinds)]
        returns = play_game("volle_socke_v0", lineup, seed=game, config={"num_rounds": 3, "own_bike": "add"})
        top = np.isclose(returns, returns.max())
        firsts += sum(top[s] for s, k in enumerate(kinds) if k == 0) / top.sum()
    assert firsts / games >= 0.6, firsts / games   # an even match would give 0.5


def test_aims_misery_at_the_leader_where_it_hurts_most():
    bikes = {0: BASIC, 1: [FRONT, ENGINE_50, REAR_3], 2: [FRONT, ENGINE_50, REAR_3]}
    env = contest_position(3, hands={0: [BULL]}, bikes=bikes)
    record(env)["totals"][2] = 500          # seat 2 leads the game
    assert decide(env) == misery(BULL, 2)
    env.step(misery(BULL, 2))
    assert decide(env) in {slot(FRONT), slot(ENGINE_50), slot(REAR_3)}   # each leaves a broken bike


def test_takes_the_best_engine_with_motor_her():
    bikes = {0: BASIC, 1: [FRONT, ENGINE_10, ENGINE_100, REAR_1]}
    env = contest_position(2, hands={0: [MOTOR_HER]}, bikes=bikes, her_choice="attacker")
    assert decide(env) == misery(MOTOR_HER, 1)
    env.step(misery(MOTOR_HER, 1))
    assert decide(env) == slot(ENGINE_100)


def test_passes_when_nothing_helps():
    env = contest_position(2, hands={0: [ENGINE_10, WOODEN_FRONT]}, bikes={0: [FRONT, ENGINE_100, REAR_4],
                                                                         1: [FRONT, ENGINE_10, REAR_1]})
    assert decide(env) == E.PASS


@pytest.mark.parametrize("misery_card,slot_kind,held,expected", [
    (NAIL, None, [PUMP, LACH], E.REACT_PUMP),
    (TUV, REAR_4, [FUCK_TUV, LACH], E.REACT_FUCK_TUV),
    (BULL, REAR_4, [FUCK_TUV, LACH], E.REACT_LACH),
    (RAD_HER, FRONT, [LACH], E.REACT_LACH),
])
def test_reacts_when_it_pays(misery_card, slot_kind, held, expected):
    env = contest_position(2, hands={0: [misery_card], 1: held}, bikes={0: BASIC, 1: [FRONT, ENGINE_100, REAR_4]},
                           her_choice="attacker")
    env.step(misery(misery_card, 1))
    if slot_kind is not None:
        env.step(slot(slot_kind))
    assert decide(env) == expected


def test_accepts_a_misery_that_costs_nothing():
    # TÜV on a spare engine-less Turbo of a broken bike: no loss, the joy card is kept.
    env = contest_position(2, hands={0: [TUV], 1: [LACH]}, bikes={0: BASIC, 1: [TURBO, REAR_1]})
    env.step(misery(TUV, 1))
    env.step(slot(TURBO))
    assert decide(env) == E.ACCEPT


def test_places_a_received_spare_part_where_it_is_worth_most():
    env = contest_position(2, hands={0: [MOTOR_HER]}, bikes={0: [FRONT, ENGINE_50, REAR_1],
                                                             1: [FRONT, (SPARE_0 + 1, ROLE_ENGINE), REAR_1]},
                           her_choice="attacker")
    env.step(misery(MOTOR_HER, 1))
    env.step(slot(SPARE_0 + 1))
    env.step(E.ACCEPT)
    assert decide(env) == fit(SPARE_0 + 1, ROLE_REAR)   # 4th gear beats 20 more HP


def test_knocks_with_a_strong_hand_and_not_with_a_weak_one():
    def knocks(hand):
        env, rec = contest_record(4, hands={0: hand})
        rec["phase"], rec["status"] = E.PH_DISCARD, E.BUILDING
        rec["knocker"] = -1
        for seat in (1, 2, 3):
            deal_from_deck(rec[0], seat, 8)
        env.set_state(rec)
        return decide(env) == E.KNOCK

    assert knocks([FRONT, ENGINE_100, ENGINE_50, REAR_4, ENGINE_10, NAIL, BULL, LACH, TUV])
    assert not knocks([FRONT, ENGINE_10, REAR_1, BULL, TUV, LACH, NAIL, PUMP, FLAT_FRONT])


def test_takes_a_useful_face_up_card():
    def takes_face_up(kind):
        env, rec = contest_record(4, hands={0: [FRONT, ENGINE_10, REAR_1, BULL, TUV, NAIL, PUMP, FLAT_FRONT]})
        r = rec[0]
        r["phase"], r["knocker"] = E.PH_DRAW, -1
        r["status"][:] = E.BUILDING
        size = int(r["deck_size"])
        i = int(np.flatnonzero(r["deck"][:size] == kind)[0])   # that card leaves the draw pile face up
        r["deck"][i:size - 1] = r["deck"][i + 1:size].copy()
        r["deck_size"] = size - 1
        r["discard"][0], r["discard_seen"][0], r["discard_size"] = kind, E.ALL_SEATS, 1
        r["discard_public"][kind] = 1
        for seat in (1, 2, 3):
            deal_from_deck(r, seat, 8)
        env.set_state(rec)
        return decide(env) == E.DRAW_FACE_UP

    assert takes_face_up(ENGINE_100)
    assert not takes_face_up(WOODEN_FRONT)
