"""Voll auf die 18's compiled playout player (agents/heuristic/voll_auf_die_18_playout.py): only
legal actions over long play at every group size and many chapters, the same choices for the same
generator, compiled and as plain Python, its quick team search equal to the engine's, and ISMCTS
playouts by it legal. No test asserts how often it wins."""

import pathlib

import numpy as np
import pytest

import envs
from agents import RandomAgent
from agents.heuristic import batched_heuristic, playout_strategy
from agents.heuristic import voll_auf_die_18_playout as P
from agents.ismcts import ISMCTSAgent
from envs.core.play import play_game
from envs.core.rng import RNG, seed_rng
from envs.voll_auf_die_18 import engine as E
from tests.plain_python import plain_and_compiled

ENV_ID = "voll_auf_die_18_v0"
CHAPTERS = (1, 2, 3, 5, 6, 7, 9, 10, 12, 14, 17, 19)


class Recorder:
    """A seat that keeps every (observation, mask) it is asked about and checks its agent's action."""

    def __init__(self, agent, log):
        self.agent, self.log = agent, log
        self.needs_record = getattr(agent, "needs_record", False)

    def reset(self, seat, env_id, config):
        self.agent.reset(seat, env_id, config)

    def act(self, observation, action_mask, info=None):
        action = self.agent.act(observation, action_mask, info)
        assert isinstance(action, int) and action_mask[action] == 1, f"illegal action {action}"
        self.log.append((np.asarray(observation, np.float32), np.asarray(action_mask, np.int8)))
        return action


def decisions(players, chapters, seed=0, communication="full"):
    """The playout player's (observations, masks) over whole games, random players on odd seats."""
    log = []
    for k, chapter in enumerate(chapters):
        lineup = [Recorder(P.PlayoutAgent(seed=seed + 16 * k + s), log) if s % 2 == 0 else RandomAgent(seed=s)
                  for s in range(players)]
        play_game(ENV_ID, lineup, seed=seed + k, config={"num_players": players, "chapter": chapter,
                                                          "communication": communication})
    return np.stack([o for o, _ in log]), np.stack([m for _, m in log])


def seeded(count, seed):
    rngs = np.zeros(count, RNG)
    for k in range(count):
        seed_rng(rngs[k], seed + k)
    return rngs


def test_it_is_the_playout_strategy_but_not_the_games_heuristic():
    config = envs.game_of(ENV_ID).validate({"num_players": 3})
    assert batched_heuristic(ENV_ID, config) is None  # the batched env's heuristic opponents stay Python's
    choose_rows, rules = playout_strategy(ENV_ID, config)
    assert choose_rows is P.playout_rows and rules.tolist() == [3, 1, 4]  # a Bib swap: 12 s at 3 players


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_only_legal_actions_over_whole_games(players):
    obs, masks = decisions(players, CHAPTERS)
    assert obs.shape[0] > 500
    out = np.full(obs.shape[0], -1, np.int64)
    P.playout_rows(obs, masks, P.playout_rules({"num_players": players}), seeded(1, 3),
                   np.zeros(obs.shape[0], np.int64), out)
    assert np.all(masks[np.arange(obs.shape[0]), out] == 1)
    assert len(set(out.tolist())) > 10  # it argues, trades and waits, not one thing


def test_only_legal_actions_without_communication():
    obs, masks = decisions(3, (1, 10, 18), seed=5, communication="none")
    out = np.full(obs.shape[0], -1, np.int64)
    P.playout_rows(obs, masks, P.playout_rules({"num_players": 3, "communication": "none"}), seeded(1, 4),
                   np.zeros(obs.shape[0], np.int64), out)
    assert np.all(masks[np.arange(obs.shape[0]), out] == 1)


def test_the_same_generator_gives_the_same_choices_row_by_row_or_batched():
    obs, masks = decisions(2, (1, 5), seed=2)
    rules = P.playout_rules({"num_players": 2})
    streams = np.arange(obs.shape[0]) % 3
    runs = []
    for _ in range(2):
        rngs, out = seeded(3, 11), np.zeros(obs.shape[0], np.int64)
        P.playout_rows(obs, masks, rules, rngs, streams, out)
        runs.append((out, rngs.tobytes()))
    assert np.array_equal(runs[0][0], runs[1][0]) and runs[0][1] == runs[1][1]
    single_rngs, single = seeded(3, 11), np.zeros(1, np.int64)
    for k in range(obs.shape[0]):
        P.playout_rows(obs[k:k + 1], masks[k:k + 1], rules, single_rngs, streams[k:k + 1], single)
        assert single[0] == runs[0][0][k]
    assert single_rngs.tobytes() == runs[0][1]


def _table(obs, num):
    """The pieces of one decision, read as :func:`P.choose` reads them."""
    rel_of = np.zeros(num, np.int64)
    me = P.canonical_order(obs, num, rel_of)
    cards, seats = np.zeros((P.PLANES, num, E.HAND), np.int64), np.zeros((P.SEAT_ROWS, num), np.int64)
    P.read_seats(obs, num, rel_of, cards, seats)
    nazis, laid = np.zeros((E.NUM_SLOTS, P.NAZI_FIXED + num), np.int64), np.zeros((E.NUM_SLOTS, num), np.int8)
    slots, weights = np.zeros(E.NUM_SLOTS, np.int64), np.zeros(E.NUM_SLOTS)
    count = P.read_nazis(obs, num, rel_of, nazis, laid, slots, weights)
    min_team = 2 if obs[E.O_LABELS + P.NEVER_ALONE] > 0.5 else 1
    targets, min_new = np.zeros(E.NUM_SLOTS, np.int64), np.zeros(E.NUM_SLOTS, np.int64)
    P.nazi_targets(nazis, laid, count, min_team, targets, min_new)
    bits = np.zeros((E.NUM_SLOTS, num), np.int64)
    P.table_bits(nazis, count, cards, seats, np.zeros((num, E.NUM_SUBSETS), np.int64),
                 np.zeros((num, E.NUM_SUBSETS), np.int64), bits)
    return me, cards, seats, nazis, laid, weights, count, min_team, targets, min_new, bits


@pytest.mark.parametrize("players", [2, 4])
def test_quick_team_search_and_exchange_scores_equal_the_engines(players):
    """The bit-table answers (who can be convinced, what an exchange is worth) are those of
    engine.argument_search and engine.exchange_scores, which the Python agent uses."""
    obs, masks = decisions(players, (1, 3, 5, 7, 8, 12, 14, 19), seed=7)
    compared = exchanges = 0
    for row in range(0, obs.shape[0], 2):
        me, cards, seats, nazis, laid, weights, count, min_team, targets, min_new, bits = _table(obs[row], players)
        reach, solution = np.zeros(players + 2, np.int64), np.zeros(players, np.int8)
        for j in range(count):
            exact = P.search_nazi(nazis, laid, j, min_team, cards, seats, solution) > 0
            assert P.convincible(j, nazis, laid, targets, min_new, bits, reach) == exact
            compared += 1
        if count == 0:
            continue
        for i in range(E.HAND):
            if not cards[P.PRESENT, me, i] or cards[P.RAZUPALTUFF, me, i]:
                continue
            for card in np.flatnonzero(masks[row, E.A_BIB + i * E.NUM_ARG:E.A_BIB + (i + 1) * E.NUM_ARG])[:2]:
                new = np.array([E.CARD_COLOUR[card], E.CARD_VALUE[card], E.CARD_HALF[card]], np.int64)
                quick = P.exchange_score(nazis, laid, weights, count, targets, min_new, bits, cards, seats, reach,
                                         np.zeros(players, np.int64), np.zeros((2, E.NUM_SUBSETS), np.int64),
                                         np.zeros((2, E.NUM_SUBSETS), np.int64), me, i, new, -1, -1, new)
                change = np.array([[me, i, *new, -1, -1, -1, -1, -1]], np.int64)
                score = np.zeros(1)
                E.exchange_scores(seats[P.KIND], seats[P.RELAX], cards[P.COLOUR].copy(), cards[P.VALUE].copy(),
                                  cards[P.HALF].copy(), cards[P.USABLE].copy(), nazis[:count], weights[:count],
                                  min_team, change, score)
                assert quick == pytest.approx(score[0])
                exchanges += 1
    assert compared > 100 and exchanges > 20


_PLAIN_PYTHON_SCRIPT = """
import sys, json
sys.path.insert(0, {root!r})
import numpy as np
from tests.agents.test_voll_auf_die_18_playout import decisions, seeded
from agents.heuristic import voll_auf_die_18_playout as P
out = []
for players, chapter in ((2, 1), (3, 7), (4, 19)):
    obs, masks = decisions(players, (chapter,), seed=players)
    chosen = np.zeros(obs.shape[0], np.int64)
    P.playout_rows(obs, masks, P.playout_rules({{"num_players": players}}), seeded(1, 5),
                   np.zeros(obs.shape[0], np.int64), chosen)
    out.append(chosen.tolist())
print(json.dumps(out))
"""


def test_plain_python_chooses_the_same():
    script = _PLAIN_PYTHON_SCRIPT.format(root=str(pathlib.Path(__file__).resolve().parents[2]))
    plain, compiled = plain_and_compiled(script)
    assert plain == compiled
    assert sum(len(rows) for rows in plain) > 100


@pytest.mark.parametrize("players", [2, 3])
def test_ismcts_with_its_playouts_only_picks_legal_actions(players):
    log = []
    lineup = [Recorder(ISMCTSAgent(iterations=20, threads=1, seed=seat, policy="heuristic", epsilon=0.1,
                                   bias=(10.0 if seat == 0 else 0.0), cutoff=(None if seat == 0 else 6)), log)
              for seat in range(players)]
    play_game(ENV_ID, lineup, seed=players, config={"num_players": players, "max_cycles": 40})
    assert len(log) >= 40
