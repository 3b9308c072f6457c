"""The checks every environment gets by registering: PettingZoo's own test suite, determinism
(single env against VectorGame), save/load, bad input, truncation, and plain-Python equivalence.

Parametrised over every registered env id at each supported player count, plus the two toy
games of ``envs.testing`` that prove the shared machinery on its own.

PettingZoo's ``max_cycles_test`` samples actions without their masks and assumes every agent
acts once per cycle; neither holds for masked turn-based games (PettingZoo's own classic games
are not run through it either). ``test_max_cycles_truncates`` checks the same contract with
legal actions: exactly ``max_cycles`` decisions, then every agent truncated, each stepping
``None`` once.
"""

import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test

import envs
from envs.core import check_records
from envs.core.game import IllegalActionError
from envs.core.vector import VectorGame
from envs.testing import toy_games
from envs.testing.play import play_aec, play_parallel, random_action, random_parallel_actions


def _import_registered():
    """Every registered module that imports; a broken one fails its own test, not collection."""
    modules, broken = {}, {}
    for env_id in envs.ENV_IDS:
        try:
            modules[env_id] = getattr(envs, env_id)
        except Exception as error:  # reported by test_every_registered_env_imports
            broken[env_id] = error
    return modules, broken


MODULES, BROKEN = _import_registered()
MODULES.update(toy_games.register_toys())

CASES = [pytest.param(env_id, n, id=f"{env_id}-{n}p")
         for env_id, module in MODULES.items() for n in module.GAME.player_counts]


def make(env_id, n, **config):
    return MODULES[env_id].env(num_players=n, **config)


def make_parallel(env_id, n, **config):
    return MODULES[env_id].parallel_env(num_players=n, **config)


def simultaneous(env_id):
    return MODULES[env_id].GAME.simultaneous


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_every_registered_env_imports(env_id):
    assert env_id not in BROKEN, f"{env_id} does not import: {BROKEN.get(env_id)!r}"


# ---- PettingZoo's own suite ---------------------------------------------------------------


@pytest.mark.parametrize("env_id,n", CASES)
def test_pettingzoo_api(env_id, n):
    api_test(make(env_id, n), num_cycles=300)


@pytest.mark.parametrize("env_id,n", CASES)
def test_pettingzoo_parallel_api(env_id, n):
    parallel_api_test(make_parallel(env_id, n), num_cycles=300)


@pytest.mark.parametrize("env_id,n", CASES)
def test_pettingzoo_seed(env_id, n):
    seed_test(lambda: make(env_id, n), num_cycles=100)


@pytest.mark.parametrize("env_id,n", CASES)
def test_pettingzoo_render(env_id, n):
    render_test(lambda render_mode=None: make(env_id, n, render_mode=render_mode))


# ---- truncation ---------------------------------------------------------------------------


@pytest.mark.parametrize("env_id,n", CASES)
def test_max_cycles_truncates(env_id, n):
    max_cycles, rng = 4, np.random.default_rng(0)
    env = make_parallel(env_id, n, max_cycles=max_cycles)
    observations, _ = env.reset(seed=0)
    steps = 0
    while env.agents:
        actions = random_parallel_actions(observations, env.agents, rng)
        observations, _, terminations, truncations, _ = env.step(actions)
        steps += 1
        assert steps <= max_cycles
    assert steps == max_cycles and all(truncations.values()) and not any(terminations.values())

    env = make(env_id, n, max_cycles=max_cycles)
    env.reset(seed=0)
    decisions, dead_steps = 0, []
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            dead_steps.append(agent)
            env.step(None)
        else:
            env.step(random_action(observation, rng))
            decisions += 1
    # In the AEC form of a simultaneous game every seat decides once per parallel step.
    assert decisions == max_cycles * (n if simultaneous(env_id) else 1)
    assert sorted(dead_steps) == sorted(env.possible_agents)


# ---- determinism, batches, save/load ----------------------------------------------------


def _single_trajectory(env_id, n, seed, actions):
    """Replay ``actions`` in a single env reset with ``seed``; the observations after each."""
    if simultaneous(env_id):
        env = make_parallel(env_id, n)
        env.reset(seed=seed)
        seen = []
        for joint in actions:
            observations, *_ = env.step({agent: int(a) for agent, a in zip(env.possible_agents, joint)})
            if not env.agents:
                break
            seen.append(np.stack([observations[agent]["observation"] for agent in env.possible_agents]))
        return seen
    env = make(env_id, n)
    env.reset(seed=seed)
    seen = []
    for action in actions:
        env.step(int(action))
        if any(env.terminations.values()) or any(env.truncations.values()):
            break
        seen.append(env.observe(env.agent_selection)["observation"])
    return seen


@pytest.mark.parametrize("env_id,n", CASES)
def test_vector_matches_single_env(env_id, n):
    batch, steps, rng = 3, 60, np.random.default_rng(1)
    vg = VectorGame(MODULES[env_id].GAME, batch, seed=7, num_players=n)
    obs, mask, _ = vg.reset()
    first_obs = obs.copy()
    actions, observed, ended = [], [], np.zeros(batch, bool)
    for _ in range(steps):
        legal = mask.reshape(-1, mask.shape[-1])
        chosen = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in legal]).reshape(mask.shape[:-1])
        obs, mask, _, terminated, _ = vg.step(chosen)
        ended |= terminated | vg.truncated
        actions.append(chosen.copy())
        observed.append(np.where(ended.reshape((-1,) + (1,) * (obs.ndim - 1)), np.nan, obs))
    for i in range(batch):
        single_env = make_parallel(env_id, n) if simultaneous(env_id) else make(env_id, n)
        single_env.reset(seed=vg.episode_seed(i, 0))
        if simultaneous(env_id):
            start = np.stack([single_env.observe(a)["observation"] for a in single_env.possible_agents])
        else:
            start = single_env.observe(single_env.agent_selection)["observation"]
        np.testing.assert_array_equal(start, first_obs[i])
        replay = _single_trajectory(env_id, n, vg.episode_seed(i, 0), [a[i] for a in actions])
        for t, single_obs in enumerate(replay):
            if not np.isnan(observed[t][i]).any():
                np.testing.assert_array_equal(single_obs, observed[t][i], err_msg=f"game {i} step {t}")


@pytest.mark.parametrize("env_id,n", CASES)
def test_vector_random_steps_and_auto_reset(env_id, n):
    vg = VectorGame(MODULES[env_id].GAME, 8, seed=3, num_players=n)
    vg.reset()
    decisions = vg.random_steps(200)
    assert decisions == 8 * 200
    masks = vg.action_mask.reshape(-1, vg.action_mask.shape[-1])
    if simultaneous(env_id):
        assert masks.any(axis=1).all(), "every seat of every running game can act"
    else:
        assert (vg.current_player >= 0).all() and masks.any(axis=1).all()
    if vg._max_cycles:
        assert (vg.get_state()["step_count"] < vg._max_cycles).all(), "truncated games were reset"
    assert not vg.get_state()["terminal"].any(), "ended games were reset"


@pytest.mark.parametrize("env_id,n", CASES)
def test_vector_rejects_illegal_actions_and_changes_nothing(env_id, n):
    vg = VectorGame(MODULES[env_id].GAME, 4, seed=5, num_players=n)
    obs, mask, _ = vg.reset()
    before = vg.get_state()
    bad = np.full(mask.shape[:-1], vg.game.num_actions, np.int64)
    with pytest.raises(IllegalActionError):
        vg.step(bad)
    with pytest.raises(IllegalActionError):
        vg.step(np.zeros(3, np.int64))
    assert vg.get_state().tobytes() == before.tobytes()


@pytest.mark.parametrize("env_id,n", CASES)
def test_state_save_load_round_trip(env_id, n):
    rng = np.random.default_rng(2)
    env = make_parallel(env_id, n) if simultaneous(env_id) else make(env_id, n)
    env.reset(seed=11)
    step = _random_stepper(env, rng)
    for _ in range(25):
        if not step():
            break
    buffer = io.BytesIO()
    np.save(buffer, env.get_state(), allow_pickle=False)
    buffer.seek(0)
    record = np.load(buffer, allow_pickle=False)
    other = make_parallel(env_id, n) if simultaneous(env_id) else make(env_id, n)
    other.reset(seed=999)
    other.set_state(record)
    for agent in env.possible_agents:
        np.testing.assert_array_equal(env.observe(agent)["observation"], other.observe(agent)["observation"])
        np.testing.assert_array_equal(env.observe(agent)["action_mask"], other.observe(agent)["action_mask"])
    assert env.get_state().tobytes() == other.get_state().tobytes()
    with pytest.raises(ValueError):
        other.set_state(np.zeros(3))


def _random_stepper(env, rng):
    """A function that makes one random legal decision in ``env``; False once the game is over."""
    if hasattr(env, "agent_selection"):
        def step():
            if any(env.terminations.values()) or any(env.truncations.values()):
                return False
            env.step(random_action(env.observe(env.agent_selection), rng))
            return True
    else:
        def step():
            if not env.agents:
                return False
            env.step({a: random_action(env.observe(a), rng) for a in env.agents})
            return True
    return step


# ---- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize("env_id,n", CASES)
def test_illegal_action_raises_and_changes_nothing(env_id, n):
    if simultaneous(env_id):
        env = make_parallel(env_id, n)
        env.reset(seed=0)
        before = env.get_state()
        actions = {a: random_action(env.observe(a), np.random.default_rng(0)) for a in env.agents}
        for bad in (env.game.num_actions, -1, 1.5, "x"):
            with pytest.raises(IllegalActionError):
                env.step({**actions, env.agents[0]: bad})
        with pytest.raises(IllegalActionError):
            env.step({env.agents[0]: actions[env.agents[0]]})
        assert env.get_state().tobytes() == before.tobytes()
    env = make(env_id, n)  # the AEC form of every game (tests/test_api_forms.py: later seats of a moment too)
    env.reset(seed=0)
    before = env.get_state()
    illegal = [a for a in range(env.unwrapped.game.num_actions) if a not in env.legal_actions()]
    for bad in ([illegal[0]] if illegal else []) + [env.unwrapped.game.num_actions, -1, 1.5, "x", None, True]:
        with pytest.raises(IllegalActionError) as error:
            env.step(bad)
        assert env.agent_selection in str(error.value)
    assert env.get_state().tobytes() == before.tobytes()


@pytest.mark.parametrize("env_id,n", CASES)
def test_illegal_action_penalize_ends_game(env_id, n):
    if simultaneous(env_id):
        env = make_parallel(env_id, n, illegal_action="penalize")
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        actions = {a: random_action(env.observe(a), rng) for a in env.agents}
        offender = env.agents[0]
        _, rewards, terminations, _, infos = env.step({**actions, offender: -1})
        assert rewards[offender] == -1.0 and all(terminations.values()) and infos[offender]["illegal_action"]
        assert all(rewards[a] == 0.0 for a in env.possible_agents if a != offender)
        assert env.agents == []
    env = make(env_id, n, illegal_action="penalize")
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(-1)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0
    assert all(env.rewards[a] == 0.0 for a in env.possible_agents if a != offender)


@pytest.mark.parametrize("env_id", list(MODULES))
def test_bad_config_is_rejected_with_the_valid_choices(env_id):
    module = MODULES[env_id]
    with pytest.raises(ValueError, match="valid options"):
        module.env(no_such_option=1)
    with pytest.raises(ValueError, match="num_players"):
        module.env(num_players=max(module.GAME.player_counts) + 1)
    with pytest.raises(ValueError, match="illegal_action"):
        module.env(illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        module.env(render_mode="video")
    with pytest.raises(ValueError):
        module.env(max_cycles=0)


def test_registry_lists_ids_and_rejects_unknown_ones():
    with pytest.raises(ValueError, match="valid ids"):
        envs.make("no_such_game_v0")
    with pytest.raises(AttributeError):
        envs.no_such_game_v0  # noqa: B018
    for env_id in envs.ENV_IDS:
        if env_id in BROKEN:
            continue  # reported by test_every_registered_env_imports
        assert envs.make(env_id).unwrapped.game.env_id == env_id
        assert getattr(envs, env_id).GAME is envs.game_of(env_id)


# ---- long random play ---------------------------------------------------------------------


@pytest.mark.parametrize("env_id,n", CASES)
def test_random_games_finish_with_bounded_observations(env_id, n):
    """Whole games under random play: every observation in its space, every seat to act has a
    legal action, the game ends (or hits its default max_cycles), and after every step the record
    passes ``check_records`` (header, the engine's STATE_BOUNDS and check_state where it has them,
    every seat's view within bounds with a legal action exactly for the seats to act)."""
    game = MODULES[env_id].GAME
    for seed in range(3):
        if simultaneous(env_id):
            env = make_parallel(env_id, n)

            def check_parallel(env, actions):
                check_records(game, env.get_state())

            steps, _ = play_parallel(env, seed, on_step=check_parallel)
        else:
            env = make(env_id, n)
            space = env.observation_space(env.possible_agents[0])

            def check(env, agent, action):
                assert space.contains(env.observe(env.agent_selection))
                check_records(game, env.unwrapped.get_state())

            steps, _ = play_aec(env, seed, on_step=check)
        assert steps >= 1


# ---- the same code as plain Python ------------------------------------------------------

_TRAJECTORY_SCRIPT = """
import json, sys, hashlib, numpy as np
sys.path.insert(0, {root!r})
from tests.test_harness import MODULES, simultaneous
from envs.testing.play import random_action
env_id, n = {env_id!r}, {n}
rng = np.random.default_rng(0)
digest = hashlib.sha1()
if simultaneous(env_id):
    env = MODULES[env_id].parallel_env(num_players=n)
    obs, _ = env.reset(seed=5)
    for _ in range({steps}):
        if not env.agents:
            break
        obs, rewards, *_ = env.step({{a: random_action(obs[a], rng) for a in env.agents}})
        digest.update(env.get_state().tobytes())
        if env.agents and rng.random() < 0.1:
            digest.update(env.state().tobytes())
else:
    env = MODULES[env_id].env(num_players=n)
    env.reset(seed=5)
    for _ in range({steps}):
        if any(env.terminations.values()) or any(env.truncations.values()):
            break
        env.step(random_action(env.observe(env.agent_selection), rng))
        digest.update(env.get_state().tobytes())
        digest.update(env.observe(env.agent_selection)["observation"].tobytes())
        if rng.random() < 0.1:
            digest.update(env.state().tobytes())
print(json.dumps(digest.hexdigest()))
"""


def _trajectory_digest(env_id, n, disable_jit):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    script = _TRAJECTORY_SCRIPT.format(root=root, env_id=env_id, n=n, steps=150)
    environment = {**os.environ, "NUMBA_DISABLE_JIT": "1" if disable_jit else "0"}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environment,
                            timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("env_id", list(MODULES))
def test_plain_python_runs_the_same_game(env_id):
    n = MODULES[env_id].GAME.default_players
    assert _trajectory_digest(env_id, n, disable_jit=True) == _trajectory_digest(env_id, n, disable_jit=False)


_ENTRY_POINTS_SCRIPT = """
import sys, numpy as np
sys.path.insert(0, {root!r})
from tests.test_harness import MODULES
from envs.core import check_records, kernels
from envs.core.game import engine_function
from envs.core.rng import RNG
from envs.core.vector import VectorGame
game = MODULES[{env_id!r}].GAME
vg = VectorGame(game, 2, seed=1)
vg.reset()
vg.random_steps(2)
masks = vg.action_mask.reshape(-1, game.num_actions)
vg.step(np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks]).reshape(vg.action_mask.shape[:-1]))
vg.set_state(vg.get_state())
env = MODULES[{env_id!r}].parallel_env() if game.simultaneous else MODULES[{env_id!r}].raw_env()
env.reset(seed=2)
assert env.state().shape == env.state_space.shape
record = env.get_state()
check_records(game, record)
if engine_function(game.engine.STATE, "determinize") is not None:
    kernels.determinize_one(record, 0, np.uint64(3))
    try:
        kernels.determinize_one(record, 99, np.uint64(3))
        raise AssertionError("seat 99 was accepted")
    except ValueError:
        pass
actor = np.zeros(1, RNG)
actor["rng"] = 7
playout = kernels.random_playout_joint if game.simultaneous else kernels.random_playout
playout(record, actor, game.num_actions, 5, np.zeros(env.num_players, np.float32))
print("ok")
"""


@pytest.mark.parametrize("env_id", list(MODULES))
def test_plain_python_runs_every_entry_point(env_id):
    """Debug mode (NUMBA_DISABLE_JIT=1) runs what compiled code runs: the centralised state, a
    VectorGame, record checks, determinize, playouts (int8 arithmetic overflows show up here)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    result = subprocess.run([sys.executable, "-c", _ENTRY_POINTS_SCRIPT.format(root=root, env_id=env_id)],
                            capture_output=True, text=True, env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, timeout=900)
    assert result.returncode == 0 and result.stdout.strip().endswith("ok"), result.stderr[-3000:]


# ---- determinize (for search agents) --------------------------------------------------------


def _has_determinize(env_id):
    from envs.core.game import engine_function

    return engine_function(MODULES[env_id].GAME.engine.STATE, "determinize") is not None


@pytest.mark.parametrize("env_id,n", CASES)
def test_determinize_keeps_what_each_seat_knows_and_replaces_the_future(env_id, n):
    from envs.core import kernels
    from envs.core.rng import RNG

    if not _has_determinize(env_id):
        pytest.skip(f"{env_id} has no determinize yet")
    game = MODULES[env_id].GAME
    rng = np.random.default_rng(4)
    env = make_parallel(env_id, n) if simultaneous(env_id) else make(env_id, n)
    env.reset(seed=21)
    step = _random_stepper(env, rng)
    for moment in range(40):
        if not step():
            break
        record = env.unwrapped.get_state() if hasattr(env, "unwrapped") else env.get_state()
        for seat, agent in enumerate(env.possible_agents):
            sample = record.copy()
            kernels.determinize_one(sample, seat, np.uint64(1000 + moment))
            assert sample["rng"][0] != record["rng"][0], "the generator is reseeded"
            obs = np.zeros(game.layout.size, np.float32)
            mask = np.zeros(game.num_actions, np.int8)
            kernels.view_one(sample, seat, obs, mask)
            truth = env.observe(agent)
            np.testing.assert_array_equal(obs, truth["observation"], err_msg=f"{agent} after {moment} steps")
            np.testing.assert_array_equal(mask, truth["action_mask"])
            returns = np.zeros(n, np.float32)
            actor = np.zeros(1, RNG)
            actor["rng"] = 12345
            if simultaneous(env_id):
                kernels.random_playout_joint(sample, actor, game.num_actions, 300, returns)
            else:
                kernels.random_playout(sample, actor, game.num_actions, 300, returns)
            assert np.isfinite(returns).all()
