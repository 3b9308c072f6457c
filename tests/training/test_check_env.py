"""The single-agent training views pass gymnasium's and stable-baselines3's ``check_env`` with their
defaults, and illegal actions stay impossible to miss."""

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from agents import RandomAgent
from agents.heuristic import heuristic_for
from envs.core.game import IllegalActionError
from envs.testing.toy_games import register_toys
from training.wrappers import LearnerSeatEnv, SharedPolicyEnv

register_toys()


class MixedPool:
    """Random or heuristic opponents, drawn from the pool's own generator (which ``seed`` restarts)."""

    def __init__(self, env_id, seed=None):
        self.env_id = env_id
        self.rng = np.random.default_rng(seed)

    def seed(self, seed):
        self.rng = np.random.default_rng(seed)

    def __call__(self):
        seed = int(self.rng.integers(2**31))
        if self.rng.random() < 0.5:
            return RandomAgent(seed=seed)
        return heuristic_for(self.env_id, seed=seed)


# Each case: (id, factory of the view with its documented defaults). The real games: one turn-based
# game with a mixed pool, and the cooperative simultaneous game.
CASES = {
    "race": lambda: LearnerSeatEnv("race_v0", RandomAgent, config={"num_players": 3}),
    "tally": lambda: SharedPolicyEnv("tally_v0", config={"num_players": 3}),
    "secret_hitler": lambda: LearnerSeatEnv("secret_hitler_v0", MixedPool("secret_hitler_v0")),
    "voll_auf_die_18": lambda: SharedPolicyEnv("voll_auf_die_18_v0"),
}


def _made_with_a_spec(case):
    """The view as ``gymnasium.make`` builds it: with a spec, gymnasium's checker also compares the
    observations of equally seeded resets (it skips that for an env without one)."""
    env_id = f"tabletop-test/{case}-v0"
    if env_id not in gymnasium.registry:
        gymnasium.register(env_id, entry_point=CASES[case])
    return gymnasium.make(env_id, disable_env_checker=True).unwrapped


@pytest.mark.parametrize("case", CASES)
def test_gymnasium_check_env_passes(case):
    env = _made_with_a_spec(case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the sampled actions ignore the mask: penalized
        gymnasium_check_env(env, skip_render_check=True)


@pytest.mark.parametrize("case", CASES)
def test_stable_baselines3_check_env_passes(case):
    env = CASES[case]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        sb3_check_env(env, warn=True)


def _rollout(env, seed, steps=12):
    """Observations, rewards and infos of a seeded reset and ``steps`` legal actions (then resets)."""
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=seed)
    trace = [obs.tolist(), info]
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        trace += [obs.tolist(), reward, terminated, truncated, info]
        if terminated or truncated:
            obs, info = env.reset()
            trace += [obs.tolist(), info]
    return trace


@pytest.mark.parametrize("case", ["race", "secret_hitler", "voll_auf_die_18"])
def test_a_seeded_reset_fixes_the_episode_and_the_opponents_drawn_from_the_pool(case):
    env = CASES[case]()
    first = _rollout(env, seed=7)
    assert _rollout(env, seed=7) == first
    assert _rollout(CASES[case](), seed=7) == first  # a fresh view, whatever its pool drew before
    assert _rollout(env, seed=8) != first


def test_the_opponents_and_their_random_choices_follow_the_reset_seed():
    env = CASES["secret_hitler"]()

    def drawn():
        env.reset(seed=3)
        return [(type(o).__name__, o.rng.integers(2**31)) for o in env.opponents.values()]

    assert drawn() == drawn()


@pytest.mark.parametrize("case", ["race", "tally"])
def test_an_illegal_action_ends_the_episode_with_minus_one_warns_once_and_is_counted(case):
    env = CASES[case]()
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0]) if not env.action_masks().all() else env.action_space.n
    before = _inner_record(env)
    with pytest.warns(RuntimeWarning, match="not legal now"):
        obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal_action": True})
    assert obs in env.observation_space
    assert env.illegal_actions == 1
    assert _inner_record(env) == before  # the game was not touched
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    env.reset(seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no second warning
        assert env.step(-1)[1:] == (-1.0, True, False, {"illegal_action": True})
    assert env.illegal_actions == 2


@pytest.mark.parametrize("case", ["race", "tally"])
def test_illegal_action_raise_stops_at_the_first_and_changes_nothing(case):
    factory = {"race": lambda: LearnerSeatEnv("race_v0", RandomAgent, illegal_action="raise"),
               "tally": lambda: SharedPolicyEnv("tally_v0", illegal_action="raise")}[case]
    env = factory()
    env.reset(seed=0)
    before = _inner_record(env)
    with pytest.raises(IllegalActionError, match="not legal now"):
        env.step(env.action_space.n)
    assert _inner_record(env) == before
    legal = int(np.flatnonzero(env.action_masks())[0])
    assert env.step(legal)[4] == {"illegal_action": False}  # the episode goes on
    assert env.illegal_actions == 0


@pytest.mark.parametrize("action", [1.0, "1", None, True, np.array([1]), np.array(1.0)])
def test_an_action_that_is_not_an_integer_is_an_error_in_either_mode(action):
    env = CASES["race"]()
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="an action is an integer"):
        env.step(action)
    assert env.illegal_actions == 0


def test_numpy_integer_actions_are_accepted():
    env = CASES["race"]()
    env.reset(seed=0)
    legal = np.flatnonzero(env.action_masks())[0]
    assert env.step(np.int64(legal))[4] == {"illegal_action": False}
    env.reset(seed=0)
    assert env.step(np.array(legal))[4] == {"illegal_action": False}  # as SB3's predict() returns it


def test_an_unknown_illegal_action_mode_is_refused():
    with pytest.raises(ValueError, match="illegal_action='ignore' is not valid"):
        LearnerSeatEnv("race_v0", RandomAgent, illegal_action="ignore")


def _inner_record(env):
    record = env.env.get_state() if hasattr(env.env, "get_state") else env.env.unwrapped.get_state()
    return record.tobytes()


def test_the_illegal_action_counter_is_reachable_through_sb3s_monitor():
    from stable_baselines3.common.monitor import Monitor

    env = Monitor(CASES["race"]())
    env.reset(seed=0)
    with pytest.warns(RuntimeWarning, match="not legal now"):
        env.step(env.action_space.n)
    assert env.get_wrapper_attr("illegal_actions") == 1
