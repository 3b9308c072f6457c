"""The rule-based player: legal in every chapter, coordinated without talking, far better than random."""

import numpy as np
import pytest

from agents.base import RandomAgent
from agents.heuristic import heuristic_for
from agents.heuristic.voll_auf_die_18_playout import PlayoutAgent
from envs import voll_auf_die_18_v0
from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

from .helpers import arrange, cards, nazi_id, rec, table

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


def first_action(env, seat, kind="heuristic"):
    """The first action of a fresh heuristic agent (or, ``kind="playout"``, of search's playout player)."""
    player = heuristic_for(ENV_ID, seed=0) if kind == "heuristic" else PlayoutAgent(seed=0)
    player.reset(seat, ENV_ID, env.config)
    o = env.observe(env.possible_agents[seat])
    return player.act(o["observation"], o["action_mask"])


def test_chapter_6_bib_guard_keeps_the_cards_from_talent_spaces():
    """Chapter 6 counts Bib cards from talent spaces: with the stacks empty, a hand short of 4 may
    draw from the Bib, but not a card the goal counts (it draws the yellow 1, not the red 6)."""
    env = table(chapter=6, characters=["kangaroo", "kleinkuenstler"])
    ids = cards("G1", "B2", "R2", "Y3", "G4", "B5", "R6", "Y1")
    red_six, yellow_one = ids[6], ids[7]
    arrange(env, hands={0: ids[:2], 1: ids[2:6]}, bib=ids[6:], talent={0: [], 1: []},
            discard=[c for c in range(D.NUM_ARGUMENTS) if c not in ids], nazis={0: 23})
    r = rec(env)
    r["from_talent"][red_six] = 1
    r["bib_talent_count"] = 1
    E.refresh(r)
    draw = first_action(env, 0)
    assert draw == E.A_BIB + 2 * E.NUM_ARG + yellow_one
    r["from_talent"][red_six] = 0
    r["bib_talent_count"] = 0
    assert first_action(env, 0) == E.A_BIB + 2 * E.NUM_ARG + red_six, "otherwise the highest value"


def test_a_locked_finale_calls_the_emergency_redraw():
    """The Nazi stack is empty (no Nazi comes any more) and nothing reaches the last Nazi: the
    team does not sit and wait for the clock, it calls the emergency redraw."""
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "Y1", "G1", "B1"], 1: ["R2", "Y2", "G2", "B2"]}, nazis={1: 23},
            convinced=list(range(6, 23)))
    assert first_action(env, 0) == E.A_EMERGENCY
    arrange(env, hands={0: ["R1", "Y1", "G1", "B1"], 1: ["R2", "Y2", "G2", "B2"]}, nazis={0: 22, 1: 23})
    assert first_action(env, 0) != E.A_EMERGENCY, "with Nazis still to come and room on the table: not yet"


@pytest.mark.parametrize("kind", ["heuristic", "playout"])
def test_chapter_17_calls_the_redraw_only_when_the_bib_can_refill_the_hands(kind):
    """The locked finale above in chapter 17, where new hands come from the Bib only: with 7 Bib
    cards for the 8 empty slots the redraw would leave the hands short, so neither the heuristic nor
    the playout player calls it; with 8 both do. (The stacks and talent spaces are empty: nothing to
    expand; the Bib's 1s and 2s bring no 23 into reach.)"""
    env = table(chapter=17, characters=["kangaroo", "kleinkuenstler"])
    held = cards("R1", "Y1", "G1", "B1", "R2", "Y2", "G2", "B2")
    bib = cards("R1", "Y1", "G1", "B1", "R2", "Y2", "G2", "B2", taken=held)
    for size, calls in ((7, False), (8, True)):
        kept = held + bib[:size]
        arrange(env, hands={0: held[:4], 1: held[4:]}, bib=bib[:size], talent={0: [], 1: []},
                discard=[c for c in range(D.NUM_ARGUMENTS) if c not in kept], nazis={1: 23},
                convinced=list(range(6, 23)))
        assert (first_action(env, 0, kind) == E.A_EMERGENCY) == calls, size


def test_chapter_6_activates_a_talent_space_before_a_plan_without_talent():
    """Chapter 6 needs 10 Bib cards from talent spaces: with few Nazis face up and no plan that
    spends a talent, Herta does not lay Y3 + G5 at the 8 (a plan without talent, which the other
    chapters lay at once) but activates her talent space (its top card asks for a solo task)."""
    env = table(chapter=6, characters=["herta", "kangaroo"])
    solo, numbers = 6, 12  # backs (7 * id) % 20: design 2 (a solo task), design 4 (numbers 1 1 2 2)
    assert D.BACK_COND_KIND[D.CARD_BACK[solo]] == D.COND_SOLO_TASK
    herta_talent = [30, 31, 32, solo]
    hands = cards("R1", "Y3", "G5", "B2", "R2", "Y4", "G6", "B6", taken=herta_talent + [numbers])
    arrange(env, hands={0: hands[:4], 1: hands[4:]}, talent={0: herta_talent, 1: [numbers]}, nazis={0: 23, 1: 8})
    assert first_action(env, 0) == E.A_EXPAND + D.RUN_OUT_STACKS + 0
    env1 = table(chapter=1, characters=["herta", "kangaroo"])
    arrange(env1, hands={0: hands[:4], 1: hands[4:]}, nazis={0: 23, 1: 8})
    assert E.A_ARGUE <= first_action(env1, 0) < E.A_WITHDRAW, "chapter 1 argues as before"


def test_chapter_6_prefers_an_argument_that_spends_a_ready_talent():
    """Herta's talent is ready: at the 6 she lays R1 + B2 + Y3 (one even card among odd ones: her
    talent, which is then spent and her next talent card can be activated), not R1 + G5."""
    env = table(chapter=6, characters=["herta", "kangaroo"])
    hand = cards("R1", "G5", "B2", "Y3")
    activated = 30  # her first talent card, now in the Bib
    arrange(env, hands={0: hand, 1: cards("R2", "Y4", "G6", "B6", taken=hand)}, bib=[activated],
            talent={0: [31, 32, 33], 1: [55]}, nazis={0: 23, 1: 6})  # 55: colours G G B B
    r = rec(env)
    r["from_talent"][activated] = 1
    r["bib_talent_count"] = 1
    r["talent_ready"][0] = 1
    E.refresh(r)
    talent_subset = 0b1101  # hand slots 0, 2, 3
    assert first_action(env, 0) == E.A_ARGUE + 1 * E.NUM_SUBSETS + E.SUBSETS.tolist().index(talent_subset)
