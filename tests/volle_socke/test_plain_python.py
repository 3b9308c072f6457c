"""The engine as plain Python (NUMBA_DISABLE_JIT=1) plays the identical game as compiled, deep into
the contest of several rounds (the harness checks only the first 150 decisions)."""

import hashlib
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from envs.core import kernels
from envs.volle_socke.env import raw_env

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def trajectory_digest(n, config, steps):
    """A hash of every record and observation of a seeded random game, and of determinizations
    along the way; and the number of rounds played."""
    digest = hashlib.sha1()
    rng = np.random.default_rng(7)
    env = raw_env(num_players=n, **config)
    env.reset(seed=11)
    for step in range(steps):
        if env.terminations[env.agent_selection]:
            break
        legal = env.legal_actions()
        env.step(legal[rng.integers(len(legal))])
        digest.update(env.get_state().tobytes())
        digest.update(env.observe(env.agent_selection)["observation"].tobytes())
        if step % 97 == 0:
            copy = env.get_state()
            kernels.determinize_one(copy, step % n, np.uint64(step))
            digest.update(copy.tobytes())
    return [digest.hexdigest(), int(env.get_state()["round_index"][0])]


def _plain_python_digest(n, config, steps):
    script = (f"import sys, json; sys.path.insert(0, {ROOT!r}); "
              f"from tests.volle_socke.test_plain_python import trajectory_digest; "
              f"print(json.dumps(trajectory_digest({n}, {config!r}, {steps})))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("n,config", [(3, {"own_bike": "add", "her_choice": "attacker"}),
                                      (6, {"flat_front": "half", "num_rounds": 4})])
def test_plain_python_plays_the_same_game_through_several_rounds(n, config):
    compiled = trajectory_digest(n, config, 2500)
    assert compiled[1] >= 2, "the game got through rounds"
    assert _plain_python_digest(n, config, 2500) == compiled
