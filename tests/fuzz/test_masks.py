"""Writing into the masks a caller was given never makes an illegal action legal: not in a
VectorGame (step and random_steps check against masks of their own), not in an env."""

import numpy as np
import pytest

from envs.core import check_records
from envs.core.game import IllegalActionError
from envs.core.vector import VectorGame
from tests.test_harness import MODULES


@pytest.mark.parametrize("env_id", list(MODULES))
def test_a_vector_game_ignores_what_the_caller_writes_into_its_masks(env_id):
    game = MODULES[env_id].GAME
    vg = VectorGame(game, 6, seed=8)
    _, returned, _ = vg.reset()
    rng = np.random.default_rng(3)
    refused = 0
    for _ in range(30):
        truth = vg.action_mask.copy()
        returned[:] = 1  # the array reset/step returned
        vg.action_mask[:] = 1  # and the attribute
        illegal = np.argwhere(truth == 0)
        if len(illegal):
            where = tuple(illegal[rng.integers(len(illegal))])
            actions = _legal(truth, rng)
            actions[where[:-1]] = where[-1]  # one game (one seat) asks for an illegal action
            before = vg.get_state().tobytes()
            with pytest.raises(IllegalActionError):
                vg.step(actions)
            assert vg.get_state().tobytes() == before
            refused += 1
        vg.random_steps(1)  # draws from the true masks
        check_records(game, vg.get_state())
        _, returned, *_ = vg.step(_legal(vg.action_mask, rng))
    assert refused > 0


def _legal(masks, rng):
    flat = masks.reshape(-1, masks.shape[-1])
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in flat]).reshape(masks.shape[:-1])


@pytest.mark.parametrize("env_id", list(MODULES))
def test_an_env_ignores_what_the_caller_writes_into_an_observed_mask(env_id):
    game = MODULES[env_id].GAME
    env = MODULES[env_id].parallel_env() if game.simultaneous else MODULES[env_id].raw_env()
    env.reset(seed=1)
    agent = env.agents[0] if game.simultaneous else env.agent_selection
    observation = env.observe(agent)
    truth = observation["action_mask"].copy()
    observation["action_mask"][:] = 1
    illegal = np.flatnonzero(truth == 0)
    if not len(illegal):
        pytest.skip("every action is legal here")
    before = env.get_state().tobytes()
    with pytest.raises(IllegalActionError):
        if game.simultaneous:
            env.step({a: int(illegal[0]) if a == agent else int(np.flatnonzero(env.observe(a)["action_mask"])[0])
                      for a in env.agents})
        else:
            env.step(int(illegal[0]))
    assert env.get_state().tobytes() == before
    np.testing.assert_array_equal(env.observe(agent)["action_mask"], truth)
