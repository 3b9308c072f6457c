"""The rule-based player: legal in every chapter, coordinated without talking, far better than random."""

import numpy as np
import pytest

from agents.base import RandomAgent
from agents.heuristic import heuristic_for
from envs import voll_auf_die_18_v0
from envs.voll_auf_die_18 import engine as E

from .helpers import arrange, nazi_id, rec, table

ENV_ID = "voll_auf_die_18_v0"


def team(kind, env, seed):
    players = [heuristic_for(ENV_ID, seed=seed + s) if kind == "heuristic" else RandomAgent(seed=seed + s)
               for s in range(env.num_players)]
    for seat, player in enumerate(players):
        player.reset(seat, ENV_ID, env.config)
    return players


def play_out(env, players, observations, check_legal=False):
    steps = 0
    while env.agents:
        actions = {}
        for seat, agent in enumerate(env.possible_agents):
            o = observations[agent]
            action = players[seat].act(o["observation"], o["action_mask"])
            if check_legal:
                assert o["action_mask"][action] == 1
            actions[agent] = action
        observations, *_ = env.step(actions)
        steps += 1
    return steps


def outcome(kind, num_players, chapter, games, seed=0):
    wins, convinced = 0, []
    for g in range(games):
        env = voll_auf_die_18_v0.parallel_env(num_players=num_players, chapter=chapter)
        observations, _ = env.reset(seed=seed + g)
        play_out(env, team(kind, env, seed + g), observations)
        r = env._states[0]
        wins += int(r["end_reason"] == E.END_WON)
        convinced.append(int(r["convinced"]))
    return wins, float(np.mean(convinced))


@pytest.mark.parametrize("chapter", range(1, 20))
def test_heuristic_only_picks_legal_actions(chapter):
    for num_players, communication in ((2, "full"), (3, "none"), (5, "full")):
        env = voll_auf_die_18_v0.parallel_env(num_players=num_players, chapter=chapter, communication=communication)
        observations, _ = env.reset(seed=chapter)
        assert play_out(env, team("heuristic", env, chapter), observations, check_legal=True) > 0


def test_a_heuristic_team_lays_its_parts_of_one_plan_in_the_same_moment():
    """Kangaroo (1 + 5) and Kleinkünstler (2-3-4-5) make the rulebook's 20 together."""
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 23, 1: 20})
    players = team("heuristic", env, 0)
    actions = {agent: players[s].act(env.observe(agent)["observation"], env.observe(agent)["action_mask"])
               for s, agent in enumerate(env.possible_agents)}
    env.step(actions)
    assert rec(env)["nazi_at"][nazi_id(20)] == E.NAZI_CONVINCED


def test_heuristic_team_beats_random_team():
    heuristic_wins, _ = outcome("heuristic", 3, 1, games=60)
    random_wins, random_convinced = outcome("random", 3, 1, games=60)
    assert random_wins == 0 and random_convinced < 2
    assert heuristic_wins >= 40, f"heuristic won {heuristic_wins} of 60"
    _, heuristic_two = outcome("heuristic", 2, 1, games=40, seed=100)
    _, random_two = outcome("random", 2, 1, games=40, seed=100)
    assert heuristic_two >= random_two + 5, (heuristic_two, random_two)
