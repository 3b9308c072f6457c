"""Copies that work: ``copy.deepcopy`` and ``pickle`` of a mid-game env (raw AEC, the
order-enforcing env of ``envs.make``, the Parallel form) and of a VectorGame continue exactly as
the original does, to the end of the game, for every env id."""

import copy
import pickle

import numpy as np
import pytest
from pettingzoo import ParallelEnv

from envs.core.vector import VectorGame
from envs.testing.play import random_action, random_parallel_actions
from tests.test_harness import MODULES

DUPLICATES = {"deepcopy": copy.deepcopy, "pickle": lambda thing: pickle.loads(pickle.dumps(thing))}
FORMS = ("raw_env", "env", "parallel_env")  # each module's three functions: raw, wrapped, Parallel
MID_GAME = 3  # decisions (parallel steps) before the copy


def _aec_moves(env, rng, limit=None):
    """Play on with random legal actions (to the end, or ``limit`` decisions); what was seen."""
    seen = []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        done = terminated or truncated
        env.step(None if done else random_action(observation, rng))
        seen.append((agent, reward, done, observation["observation"].tobytes(), env.unwrapped.get_state().tobytes()))
        if limit is not None and len(seen) == limit:
            break
    return seen


def _parallel_moves(env, rng, limit=None):
    seen, observations = [], {a: env.unwrapped.observe(a) for a in env.agents}
    while env.agents and (limit is None or len(seen) < limit):
        actions = random_parallel_actions(observations, env.agents, rng)
        observations, rewards, terminations, truncations, _ = env.step(actions)
        seen.append((sorted(rewards.items()), sorted(terminations.items()), sorted(truncations.items()),
                     [observations[a]["observation"].tobytes() for a in sorted(observations)],
                     env.unwrapped.get_state().tobytes()))
    return seen


@pytest.mark.parametrize("how", list(DUPLICATES))
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("env_id", list(MODULES))
def test_a_mid_game_copy_continues_like_the_original(env_id, form, how):
    env = getattr(MODULES[env_id], form)()
    moves = _parallel_moves if isinstance(env, ParallelEnv) else _aec_moves
    env.reset(seed=17)
    moves(env, np.random.default_rng(0), limit=MID_GAME)
    twin = DUPLICATES[how](env)
    assert twin.unwrapped._states is not env.unwrapped._states
    original = moves(env, np.random.default_rng(1))
    copied = moves(twin, np.random.default_rng(1))
    assert len(copied) == len(original) and copied == original
    assert original, "the game was still running when it was copied"


@pytest.mark.parametrize("how", list(DUPLICATES))
@pytest.mark.parametrize("env_id", list(MODULES))
def test_a_vector_game_copy_continues_like_the_original(env_id, how):
    vg = VectorGame(env_id, 3, seed=4)
    vg.reset()
    vg.random_steps(MID_GAME)
    twin = DUPLICATES[how](vg)
    rng = np.random.default_rng(2)
    for _ in range(40):
        masks = vg.action_mask.reshape(-1, vg.action_mask.shape[-1])
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        actions = actions.reshape(vg.action_mask.shape[:-1])
        for a, b in zip(vg.step(actions), twin.step(actions.copy())):
            np.testing.assert_array_equal(a, b)
        assert vg.get_state().tobytes() == twin.get_state().tobytes()
    assert vg.random_steps(25) == twin.random_steps(25)
    assert vg.get_state().tobytes() == twin.get_state().tobytes()
