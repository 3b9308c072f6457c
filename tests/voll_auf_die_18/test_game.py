"""The game as a whole: the clock, winning and the three ways to lose, rewards, hints, and long
random play with every invariant checked at every step, in every chapter."""

import numpy as np
import pytest

from envs import voll_auf_die_18_v0
from envs.testing.play import random_action
from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

from .helpers import EMERGENCY, WAIT, argue, arrange, check_invariants, legal, nazi_id, play, rec, table


# ---- the clock -------------------------------------------------------------------------------------


def test_a_new_nazi_every_33_to_45_seconds():
    firsts = []
    for seed in range(300):
        env = table(seed=seed, freeze=False, seconds_per_step=1)
        r = rec(env)
        assert r["clock"] == 0 and r["space"][0] >= 0, "'Achtung!' at the start: one Nazi off the stack"
        firsts.append(int(r["next_nazi"]))
    assert min(firsts) == 33 and max(firsts) == 45
    env = table(seed=1, freeze=False, seconds_per_step=1)
    r = rec(env)
    arrivals = []
    while not r["terminal"]:
        before = int(r["nazi_stack_len"])
        play(env)
        if r["nazi_stack_len"] < before:
            arrivals.append(int(r["clock"]))
    assert len(arrivals) == 3, "the 5th face-up Nazi (3 more spaces filled + the stack's top) loses"
    gaps = np.diff([0] + arrivals)
    assert ((gaps >= 33) & (gaps <= 45)).all()
    assert r["end_reason"] == E.END_FIVE_FACE_UP


def test_an_action_keeps_its_seat_busy_as_long_as_it_takes_at_the_table():
    """timing="table": arguing takes 12 s at a pace of 1, so at 3 s a step the seat can only wait
    in the next three steps; waiting takes one step; the others go on meanwhile."""
    env = table(characters=["kangaroo", "kleinkuenstler"], timing="table", pace=1)
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 23, 1: 20})
    play(env, argue(1, (0, 1)))
    for _ in range(3):
        assert legal(env, 0) == {WAIT} and len(legal(env, 1)) > 1
        views = env.observation_layout.views(env.observe("player_1")["observation"])
        assert views["busy"][1] > 0 and views["busy"][0] == 0, "everyone sees who is busy"
        play(env)
    assert len(legal(env, 0)) > 1
    assert rec(env)["clock"] == 12


def test_the_emergency_redraw_keeps_everyone_busy_and_times_can_be_changed():
    env = table(num_players=3, timing="table", action_seconds={"emergency": 30, "argue": 6})
    play(env, EMERGENCY)
    for _ in range(9):
        assert all(legal(env, s) == {WAIT} for s in range(3))
        play(env)
    assert all(len(legal(env, s)) > 1 for s in range(3))
    step_timing = table(num_players=3)
    play(step_timing, EMERGENCY)
    assert all(len(legal(step_timing, s)) > 1 for s in range(3)), "timing='step': every action takes one step"


def test_action_times_follow_the_pace_of_the_group_size():
    """The table's pace scales every action time (data.TABLE_PACE by group size, or ``pace``);
    ``action_seconds`` replaces single kinds as given."""
    assert [D.TABLE_PACE[n] for n in (2, 3, 4, 5)] == [0.5, 2.0, 3.0, 4.0]
    for n in (2, 3, 4, 5):
        seconds = dict(zip(E.TIMED, rec(table(num_players=n, timing="table"))["action_seconds"]))
        assert seconds["argue"] == 12 * D.TABLE_PACE[n] and seconds["emergency"] == round(21 * D.TABLE_PACE[n])
    seconds = dict(zip(E.TIMED, rec(table(num_players=4, timing="table", pace=1.5, action_seconds={"argue": 20}))["action_seconds"]))
    assert seconds["argue"] == 20 and seconds["task"] == 18 and seconds["offer"] == round(4.5) == 4
    assert dict(zip(E.TIMED, rec(table(pace=0.1, timing="table"))["action_seconds"]))["withdraw"] == 1, "at least 1 s"
    for bad in (0, 0.05, 11, "fast", True, [1]):
        with pytest.raises(ValueError, match="pace"):
            voll_auf_die_18_v0.parallel_env(pace=bad)


def test_each_step_costs_seconds_per_step():
    for seconds in (1, 3, 7):
        env = table(seconds_per_step=seconds)
        play(env)
        play(env)
        assert rec(env)["clock"] == 2 * seconds


# ---- the end ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("timing", ["step", "table"])
def test_lost_when_five_nazis_lie_face_up(timing):
    """"You lose the chapter run - if at any time 5 Nazis (including the Nazi card on top of the
    stack) lie face up." (timing="table" is the game's default, "step" the scripted tests'.)"""
    env = table(timing=timing)
    arrange(env, nazis={0: 9, 1: 6, 2: 7, 3: 8})
    r = rec(env)
    r["next_nazi"] = r["clock"] + 1
    rewards = play(env)
    assert r["terminal"] and r["end_reason"] == E.END_FIVE_FACE_UP
    assert rewards == {"player_0": -1.0, "player_1": -1.0}


def test_lost_when_time_runs_out():
    env = table()
    r = rec(env)
    r["clock"] = D.CHAPTER_SECONDS - 2
    rewards = play(env)
    assert r["terminal"] and r["end_reason"] == E.END_TIME and rewards["player_1"] == -1.0


def test_lost_when_no_colour_left_for_a_one_colour_nazi():
    """IQ 12 super nasty takes blue only: with every blue Argument gone, it can never be convinced."""
    env = table(characters=["kangaroo", "kleinkuenstler"])
    blues = [c for c in range(D.NUM_ARGUMENTS) if D.CARD_COLOUR[c] == 3]
    arrange(env, hands={0: ["R1", "R5", "Y2", "G3"]}, discard=blues, nazis={0: 12, 1: 6},
            convinced=[iq for iq in range(6, 24) if iq not in (6, 12)])
    r = rec(env)
    assert E.can_still_win(r)
    r["nasty"][nazi_id(12)] = 1
    E.refresh(r)
    assert not E.can_still_win(r)
    rewards = play(env, argue(1, (0, 1)))                # convincing the 6 discards cards: the check runs
    assert r["terminal"] and r["end_reason"] == E.END_NO_ARGUMENTS and rewards["player_0"] == -1.0


def test_lost_when_the_values_left_cannot_cover_the_iqs_left():
    """No 6s: the other Arguments add up to 249, the IQs to 261. Without Krapotke's dice or Maria's
    digital numbers the team finds out at its first argument that it cannot win."""
    assert D.CARD_VALUE[D.CARD_VALUE != 6].sum() == 249 and D.NAZI_IQ.sum() == 261
    for characters, lost in ((["kangaroo", "otto_von"], True), (["kangaroo", "krapotke"], False)):
        env = table(chapter=14, characters=characters)
        r = rec(env)
        r["nasty"][:] = 0
        arrange(env, hands={0: ["R1", "R5", "Y2", "G3"]}, nazis={0: 12, 1: 6})
        play(env, argue(1, (0, 1)))
        assert bool(r["terminal"]) == lost
        if lost:
            assert r["end_reason"] == E.END_NO_ARGUMENTS


def test_no_sixes_random_characters_include_krapotke_or_maria():
    for seed in range(40):
        chars = set(int(c) for c in rec(table(chapter=14, seed=seed))["character"][:2])
        assert chars & {D.KRAPOTKE, D.MARIA}


def test_won_when_every_nazi_is_convinced_in_time():
    env = table(characters=["kangaroo", "kleinkuenstler"], reward_shaping=True)
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"]}, nazis={1: 6}, convinced=list(range(7, 24)))
    rewards = play(env, argue(1, (0, 1)))
    r = rec(env)
    assert r["terminal"] and r["end_reason"] == E.END_WON
    assert rewards["player_0"] == pytest.approx(1.0 + 1 / 18) and rewards["player_1"] == rewards["player_0"]


def test_shaping_rewards_each_nazi_only_when_asked():
    for shaping, expected in ((False, 0.0), (True, 1 / 18)):
        env = table(characters=["kangaroo", "kleinkuenstler"], reward_shaping=shaping)
        arrange(env, hands={0: ["R1", "R5", "Y2", "B3"]}, nazis={0: 9, 1: 6})
        assert play(env, argue(1, (0, 1)))["player_1"] == pytest.approx(expected)


def test_finale_when_the_stack_is_empty():
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"]}, nazis={1: 6, 2: 23}, convinced=list(range(7, 23)))
    views = env.observation_layout.views(env.observe("player_0")["observation"])
    assert views["clock"][2] == 1.0 and views["counts"][1] == 0.0


# ---- hints ---------------------------------------------------------------------------------------------------


def test_hints_name_a_working_team_argument():
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 23, 1: 20})
    info = env._infos()["player_0"]
    hints, ways = info["hints"], info["ways"]
    assert ways[0] == 0, "nobody reaches 23"
    assert ways[1] == 1 and list(hints[1]) == [0b0011, 0b1111], "1 + 5 of one colour and 2-3-4-5: 20"
    assert list(env._infos()["player_1"]["hints"][1]) == [0b1111, 0b0011], "relative seats: me first"
    joint = [argue(1, tuple(i for i in range(4) if hints[1, rel] >> i & 1)) for rel in range(2)]
    play(env, *joint)
    assert rec(env)["nazi_at"][nazi_id(20)] == E.NAZI_CONVINCED


# ---- long random play ----------------------------------------------------------------------------------------


def random_game(num_players, chapter, seed, freeze=False, steps=400, **options):
    env = table(num_players=num_players, chapter=chapter, seed=seed, freeze=freeze, **options)
    rng = np.random.default_rng(seed)
    r = rec(env)
    observations = {a: env.observe(a) for a in env.agents}
    space = env.observation_space("player_0")["observation"]
    n = 0
    while env.agents and n < steps:
        for agent in env.agents:
            assert space.contains(observations[agent]["observation"])
        actions = {a: random_action(observations[a], rng) for a in env.agents}
        observations, rewards, terminations, truncations, _ = env.step(actions)
        check_invariants(r)
        assert len(set(rewards.values())) == 1, "one team, one reward"
        n += 1
    return n, r


@pytest.mark.parametrize("chapter", range(1, 20))
def test_random_play_keeps_every_invariant(chapter):
    total = 0
    for num_players in (2, 3, 4, 5):
        n, r = random_game(num_players, chapter, seed=chapter * 10 + num_players,
                           timing=("step", "table")[num_players % 2])
        total += n
        assert r["terminal"], "random play ends (5 Nazis face up at the latest)"
    # with Nazis frozen the game runs until time is up (and visits everything on the way)
    n, r = random_game(3, chapter, seed=chapter, freeze=True, steps=500, timing="table")
    total += n
    assert r["terminal"] and r["end_reason"] in (E.END_TIME, E.END_NO_ARGUMENTS, E.END_WON)
    assert total > 300


def test_every_chapter_terminates_within_the_clock():
    for chapter in (1, 12, 19):
        env = voll_auf_die_18_v0.parallel_env(num_players=2, chapter=chapter, seconds_per_step=60)
        observations, _ = env.reset(seed=3)
        rng = np.random.default_rng(0)
        steps = 0
        while env.agents:
            observations, *_ = env.step({a: random_action(observations[a], rng) for a in env.agents})
            steps += 1
        assert steps <= D.CHAPTER_SECONDS // 60


def test_mask_matches_what_the_engine_accepts():
    """A legal argument lays its cards; everything in the mask is accepted as an action by the env."""
    env = table(num_players=3, chapter=12, seed=5, freeze=True)
    rng = np.random.default_rng(5)
    r = rec(env)
    for _ in range(150):
        if r["terminal"]:
            break
        masks = {a: env.observe(a)["action_mask"] for a in env.agents}
        seat = int(rng.integers(3))
        argues = [a for a in np.flatnonzero(masks[env.possible_agents[seat]]) if E.A_ARGUE <= a < E.A_WITHDRAW]
        if argues and not (r["labels"] & D.L_BLIND):
            action = int(rng.choice(argues))
            slot = (action - E.A_ARGUE) // E.NUM_SUBSETS
            nazi = int(E.nazi_in_slot(r, slot))
            before = int(r["convinced"])
            play(env, *[action if s == seat else WAIT for s in range(3)])
            assert r["contrib"][nazi, seat] or r["nazi_at"][nazi] == E.NAZI_CONVINCED or r["convinced"] > before
        else:
            env.step({a: random_action({"action_mask": masks[a]}, rng) for a in env.agents})
