"""The rule-based Secret Hitler agent: legal play, its documented habits, and that it beats random."""

import numpy as np
import pytest

from agents.base import RandomAgent
from agents.heuristic import heuristic_for
from agents.heuristic.secret_hitler import HeuristicAgent
from envs.secret_hitler import engine as E
from envs.secret_hitler.env import raw_env

from .scripting import HITLER, F, L, Script


def play(n, seed, agent_for, **options):
    """One game; ``agent_for(seat, role)`` gives each seat its agent. Returns the final record."""
    env = raw_env(num_players=n, **options)
    env.reset(seed=seed)
    r = env._states[0]
    agents = [agent_for(seat, int(r.role[seat])) for seat in range(n)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, "secret_hitler_v0", env.config)
    while not r.terminal:
        seat = int(r.current_player)
        obs = env.observe(f"player_{seat}")
        action = agents[seat].act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][action] == 1, f"illegal {env.action_to_str(action)}"
        env.step(action)
    return r


@pytest.mark.parametrize("n", range(5, 11))
def test_only_legal_actions_in_every_seat_and_option(n):
    for game in range(8):
        options = {"claims": game % 2 == 0, "hitler_knows_fascists": ("auto", True, False)[game % 3],
                   "term_limits": ("rulebook", "official")[game // 2 % 2],
                   "reshuffle": ("at_draw", "after_session")[game // 4 % 2]}
        play(n, game, lambda seat, role: HeuristicAgent(seed=seat) if (seat + game) % 3 else RandomAgent(seat),
             **options)
    assert isinstance(heuristic_for("secret_hitler_v0", seed=1), HeuristicAgent)


def liberal_win_rate(games, liberal_agent, fascist_agent, n=7):
    wins = 0
    for game in range(games):
        record = play(n, 500 + game, lambda seat, role: (liberal_agent if role == L else fascist_agent)(game * 10 + seat))
        wins += record.winner == L
    return wins / games


def test_heuristic_teams_beat_random_teams():
    games = 150
    baseline = liberal_win_rate(games, RandomAgent, RandomAgent)  # about 0.2
    heuristic_liberals = liberal_win_rate(games, HeuristicAgent, RandomAgent)  # about 0.8
    heuristic_fascists = liberal_win_rate(games, RandomAgent, HeuristicAgent)  # about 0.07
    assert heuristic_liberals > baseline + 0.35
    assert heuristic_fascists < baseline - 0.05


def test_heuristic_seats_outscore_random_seats_at_mixed_tables():
    heuristic, random = [], []
    for game in range(200):
        n = 5 + game % 6
        mine = [(seat + game) % 2 == 0 for seat in range(n)]
        record = play(n, 900 + game, lambda seat, role: HeuristicAgent(seed=game) if mine[seat] else RandomAgent(seat))
        rewards = record.reward[:n]
        heuristic.extend(rewards[np.array(mine)])
        random.extend(rewards[~np.array(mine)])
    assert np.mean(heuristic) > np.mean(random) + 0.15


# ---- its habits, from scripted positions --------------------------------------------------------


def decide(s, seat, seed=0):
    agent = HeuristicAgent(seed=seed)
    agent.reset(seat, "secret_hitler_v0", s.env.config)
    obs = s.env.observe(f"player_{seat}")
    return agent.act(obs["observation"], obs["action_mask"])


def test_liberal_discards_fascist_policies_and_fascist_liberal_ones():
    s = Script(7, roles=[HITLER, F, F, L, L, L, L], deck="LFF", president=3)
    s.elect(4)
    assert decide(s, 3) == E.PRESIDENT_DISCARD + F
    s = Script(7, roles=[HITLER, F, F, L, L, L, L], deck="LFF", president=1)
    s.elect(4)
    assert decide(s, 1) == E.PRESIDENT_DISCARD + L


def test_fascists_claim_a_forced_hand_after_enacting_a_fascist_policy():
    s = Script(7, roles=[HITLER, F, F, L, L, L, L], deck="LLF", president=1)
    s.elect(2)
    s.legislate(L, L)  # fascists pass and enact the fascist
    assert decide(s, 1) == E.CLAIM_FASCISTS + 3
    s.act(decide(s, 1))
    assert decide(s, 2) == E.CLAIM_FASCISTS + 2


def test_liberal_tells_the_truth_and_catches_a_chancellor_who_threw_a_liberal_away():
    s = Script(7, roles=[HITLER, F, L, L, L, F, L], deck="LLF", president=3)
    s.elect(5)
    s.legislate(L, L)  # passes L F; the fascist chancellor enacts the fascist
    agent = HeuristicAgent(seed=0)
    agent.reset(3, "secret_hitler_v0", s.env.config)
    obs = s.env.observe("player_3")
    assert agent.act(obs["observation"], obs["action_mask"]) == E.CLAIM_FASCISTS + 1
    suspicion = agent.suspicion(obs["observation"])
    assert suspicion[5] == suspicion[: 7].max()


def test_liberal_remembers_a_lie_about_itself_for_the_rest_of_the_game():
    s = Script(9, roles=[HITLER, F, F, F, L, L, L, L, L], deck="FFL", president=1)
    s.government(2, L, F)  # the first fascist policy: the president investigates (9 players)
    s.target(4)
    s.claim(F)  # a fascist calls liberal player_4 fascist
    s.fail(5)  # two elections later the lie still counts
    s.fail(6)
    agent = HeuristicAgent(seed=0)
    agent.reset(4, "secret_hitler_v0", s.env.config)
    obs = s.env.observe("player_4")["observation"]
    agent.act(obs, s.env.observe("player_4")["action_mask"])
    assert E.LAYOUT.views(obs)["lies_seen"][1] == 1
    suspicion = agent.suspicion(obs)
    assert suspicion[1] == suspicion[: 9].max()


def test_liberal_votes_nein_on_an_unproven_chancellor_once_hitler_can_win():
    s = Script(7, roles=[HITLER, F, F, L, L, L, L], president=3, fascist=3)
    s.nominate(0)
    assert s.to_act == 3
    s.act(E.VOTE_JA)
    assert decide(s, 4) == E.VOTE_NEIN
    s = Script(7, roles=[HITLER, F, F, L, L, L, L], president=3, fascist=2)
    s.nominate(0)
    s.act(E.VOTE_JA)
    assert decide(s, 4) == E.VOTE_JA, "before the Hitler zone a clean government is welcome"


def test_fascist_president_nominates_hitler_in_the_zone():
    s = Script(7, roles=[HITLER, F, F, L, L, L, L], president=1, fascist=3)
    assert decide(s, 1) == E.NOMINATE + 0
