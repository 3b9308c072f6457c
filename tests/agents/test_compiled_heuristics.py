"""The compiled-heuristic contract (agents/heuristic): ``choose_rows`` over a batch is the agent's
``act`` row by row, only ever legal, and plain Python (NUMBA_DISABLE_JIT=1) chooses the same."""

import pathlib

import numpy as np
import pytest

import envs
from agents.base import RandomAgent
from agents.heuristic import batched_heuristic, heuristic_for
from envs.core.play import play_game
from envs.core.rng import RNG, seed_rng
from tests.plain_python import plain_and_compiled

GAMES = ("secret_hitler_v0", "voll_auf_die_18_v0", "volles_fass_voraus_v0", "teufel_teufel_v0", "volle_socke_v0")
COMPILED = [env_id for env_id in GAMES if batched_heuristic(env_id, envs.game_of(env_id).validate({})) is not None]


class Recorder:
    """A heuristic seat that keeps every (observation, mask) it is asked about."""

    def __init__(self, agent, log):
        self.agent, self.log = agent, log

    def reset(self, seat, env_id, config):
        self.config = config
        self.agent.reset(seat, env_id, config)

    def act(self, observation, action_mask, info=None):
        action = self.agent.act(observation, action_mask, info)
        assert action_mask[action] == 1, f"the heuristic picked illegal action {action}"
        self.log.append((self.config, np.asarray(observation, np.float32), np.asarray(action_mask, np.int8)))
        return action


def decisions(env_id, games):
    """Heuristic decisions of ``games`` seeded games at every player count, heuristics on the even
    seats and random players on the odd ones: {num_players: (config, observations, masks)}."""
    log = []
    counts = envs.game_of(env_id).player_counts
    for game in range(games):
        n = counts[game % len(counts)]
        lineup = [Recorder(heuristic_for(env_id, seed=game * 16 + seat), log) if seat % 2 == 0
                  else RandomAgent(seed=game * 16 + seat) for seat in range(n)]
        play_game(env_id, lineup, seed=game)
    by_count = {}
    for config, observation, mask in log:
        by_count.setdefault(config["num_players"], (config, []))[1].append((observation, mask))
    return {n: (config, np.stack([o for o, _ in rows]), np.stack([m for _, m in rows]))
            for n, (config, rows) in by_count.items()}


def seeded_records(count, seed):
    rngs = np.zeros(count, RNG)
    for k in range(count):
        seed_rng(rngs[k], seed + k)
    return rngs


@pytest.mark.parametrize("env_id", ["secret_hitler_v0", "volles_fass_voraus_v0", "teufel_teufel_v0", "volle_socke_v0"])
def test_the_compiled_strategies_are_found(env_id):
    assert env_id in COMPILED  # the contract tests below must not skip a game whose strategy is compiled


@pytest.mark.parametrize("env_id", COMPILED)
def test_a_batch_chooses_what_one_row_at_a_time_chooses_and_only_legal_actions(env_id):
    for n, (config, obs, masks) in decisions(env_id, games=12).items():
        choose_rows, rules = batched_heuristic(env_id, config)
        rows = obs.shape[0]
        streams = np.arange(rows) % 5  # several rows per generator, as the trainer's seats share theirs
        batch_rngs, single_rngs = seeded_records(5, 7), seeded_records(5, 7)
        batch = np.full(rows, -1, np.int64)
        choose_rows(obs, masks, rules, batch_rngs, streams, batch)
        single = np.full(1, -1, np.int64)
        for k in range(rows):
            choose_rows(obs[k:k + 1], masks[k:k + 1], rules, single_rngs, streams[k:k + 1], single)
            assert single[0] == batch[k], f"row {k} of {rows} ({n} players)"
        assert np.all(masks[np.arange(rows), batch] == 1)
        assert batch_rngs.tobytes() == single_rngs.tobytes()  # each draw taken from its row's generator


_PLAIN_PYTHON_SCRIPT = """
import sys, json
sys.path.insert(0, {root!r})
import numpy as np
from tests.agents.test_compiled_heuristics import decisions, seeded_records
from agents.heuristic import batched_heuristic
out = []
for n, (config, obs, masks) in sorted(decisions({env_id!r}, games=4).items()):
    chosen = np.zeros(obs.shape[0], np.int64)
    choose_rows, rules = batched_heuristic({env_id!r}, config)
    choose_rows(obs, masks, rules, seeded_records(1, 3), np.zeros(obs.shape[0], np.int64), chosen)
    out.append(chosen.tolist())
print(json.dumps(out))
"""


@pytest.mark.parametrize("env_id", COMPILED)
def test_plain_python_chooses_the_same(env_id):
    script = _PLAIN_PYTHON_SCRIPT.format(root=str(pathlib.Path(__file__).resolve().parents[2]), env_id=env_id)
    chosen = plain_and_compiled(script)
    assert chosen[0] == chosen[1]
    assert sum(len(rows) for rows in chosen[0]) > 100
