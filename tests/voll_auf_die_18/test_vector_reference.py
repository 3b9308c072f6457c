"""Reference trajectories of the fast paths: seeded games through ``VectorGame.random_steps`` (the
whole loop in numba), ``VectorGame.step`` (actions drawn in Python) and the Parallel env with
heuristic agents must give exactly the recorded views, masks, rewards, terminations, records and
end reasons, at 2-5 players, in every chapter, with both communication settings and with and
without ``observe_hints``. A change to how the engine saves work (incremental masks, a cheaper
search, a different record layout) is proven to change no rule here and in test_equivalence.py.

The fixture (data/vector_reference.json) holds a hash per configuration. Regenerate it only for an
intended rules change:

    python -m tests.voll_auf_die_18.test_vector_reference --write
"""

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.heuristic import heuristic_for
from envs import voll_auf_die_18_v0
from envs.core.vector import VectorGame
from envs.voll_auf_die_18 import engine as E

FIXTURE = Path(__file__).parent / "data" / "vector_reference.json"
ENV_ID = "voll_auf_die_18_v0"
# The record's rule fields as they were when the fixture was recorded (the cached masks are hashed
# through the views): a field added later for bookkeeping does not change the recorded hashes.
RULE_FIELDS = [name for name in E.STATE.names if name != "mask"]


def configs():
    out = []
    for chapter in range(1, 20):
        for players in (2, 3, 4, 5):
            communication = "full" if (chapter + players) % 2 else "none"
            out.append(dict(num_players=players, chapter=chapter, communication=communication,
                            observe_hints=chapter % 3 == 0))
    return out


def _name(config):
    return f"ch{config['chapter']}-{config['num_players']}p-{config['communication']}" + (
        "-hints" if config["observe_hints"] else "")


def _hash_records(digest, records):
    for name in RULE_FIELDS:
        digest.update(np.ascontiguousarray(records[name]).tobytes())


def random_steps_hash(config, seed, games=6, chunks=40, steps=5):
    """VectorGame.random_steps in chunks: views, masks and records after each chunk."""
    vg = VectorGame(ENV_ID, games, seed=seed, **config)
    vg.reset()
    digest = hashlib.sha256()
    for _ in range(chunks):
        vg.random_steps(steps)
        digest.update(vg.obs.tobytes())
        digest.update(vg.action_mask.tobytes())
        _hash_records(digest, vg.get_state())
    return digest.hexdigest()


def vector_step_hash(config, seed, games=4, steps=150):
    """VectorGame.step with uniformly random legal actions drawn in Python; every return value."""
    vg = VectorGame(ENV_ID, games, seed=seed, **config)
    obs, mask, _ = vg.reset()
    rng = np.random.default_rng(seed)
    digest = hashlib.sha256()
    for _ in range(steps):
        actions = (rng.random(mask.shape, np.float32) * mask).argmax(-1)
        obs, mask, rewards, terminated, _ = vg.step(actions)
        for array in (obs, mask, rewards, terminated, vg.truncated):
            digest.update(np.ascontiguousarray(array).tobytes())
    _hash_records(digest, vg.get_state())
    return digest.hexdigest()


def heuristic_hash(config, seed, max_steps=400):
    """A Parallel-env game of heuristic agents: observations, masks, rewards, terminations, infos."""
    env = voll_auf_die_18_v0.parallel_env(**config)
    observations, infos = env.reset(seed=seed)
    agents = {}
    for seat, agent in enumerate(env.possible_agents):
        agents[agent] = heuristic_for(ENV_ID, seed=seed + seat)
        agents[agent].reset(seat, ENV_ID, config)
    digest = hashlib.sha256()
    for _ in range(max_steps):
        for agent in env.possible_agents:
            if agent in observations:
                digest.update(observations[agent]["observation"].tobytes())
                digest.update(observations[agent]["action_mask"].tobytes())
            if agent in infos:
                _hash_info(digest, infos[agent])
        if not env.agents:
            break
        actions = {a: agents[a].act(observations[a]["observation"], observations[a]["action_mask"], infos[a])
                   for a in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)
        digest.update(repr(sorted(rewards.items())).encode())
        digest.update(repr(sorted(terminations.items())).encode())
        digest.update(repr(sorted(truncations.items())).encode())
    digest.update(np.int64(env._states[0]["end_reason"]).tobytes())
    return digest.hexdigest()


def _hash_info(digest, info):
    for key in sorted(info):
        value = info[key]
        digest.update(key.encode())
        digest.update(np.asarray(value).tobytes() if isinstance(value, np.ndarray) else repr(value).encode())


def play(config, seed):
    return {"random_steps": random_steps_hash(config, seed), "vector_step": vector_step_hash(config, seed),
            "heuristic": heuristic_hash(config, seed)}


def _games():
    return [(config, 2000 + i) for i, config in enumerate(configs())]


def _fixture():
    return json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("index", range(len(_games())), ids=[_name(c) for c, _ in _games()])
def test_seeded_fast_paths_replay_exactly(index):
    expected = _fixture()["games"][index]
    config, seed = _games()[index]
    assert expected["config"] == config and expected["seed"] == seed, "the fixture lists other games: regenerate"
    assert play(config, seed) == expected["hashes"], f"{_name(config)} seed {seed} diverged from the recording"


if __name__ == "__main__" and "--write" in sys.argv:
    FIXTURE.parent.mkdir(exist_ok=True)
    games = [dict(config=config, seed=seed, hashes=play(config, seed)) for config, seed in _games()]
    FIXTURE.write_text(json.dumps({"games": games}, indent=1) + "\n")
    print(f"wrote {FIXTURE}")
