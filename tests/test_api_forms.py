"""Every game in both of PettingZoo's forms, as PettingZoo's own games have them: ``raw_env()`` and
``env()`` are AEC envs, ``parallel_env()`` is a Parallel env, whether the game is turn-based or
simultaneous. PettingZoo's classic wrapper stack plays them; an action is checked when it is given,
whatever the form; infos hold numbers and arrays only (what TorchRL turns into tensors), and
TorchRL's ``PettingZooWrapper`` plays games to their end.

PettingZoo's ``api_test`` and ``parallel_api_test`` run on every game and player count in
``tests/test_harness.py``.
"""

import numbers

import numpy as np
import pytest
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.wrappers import AssertOutOfBoundsWrapper, OrderEnforcingWrapper, TerminateIllegalWrapper

import envs
from envs.core.game import IllegalActionError
from envs.testing.play import play_aec, random_action, random_parallel_actions
from tests.test_harness import MODULES

GAMES = list(MODULES)  # the five games and the two toy games
SIMULTANEOUS = [env_id for env_id in GAMES if MODULES[env_id].GAME.simultaneous]
TURN_BASED = [env_id for env_id in GAMES if not MODULES[env_id].GAME.simultaneous]


def _illegal_actions(env, agent):
    """Actions ``agent`` may not take now: one in range but masked out (where there is one), and
    values that are no action at all."""
    masked = np.flatnonzero(env.observe(agent)["action_mask"] == 0)
    return [int(a) for a in masked[:1]] + [env.action_space(agent).n, -1, 1.5, "x", None, True]


def _aec_view(env):
    """Everything an AEC step may change, to compare before and after a refused action."""
    table = env.unwrapped
    return (table.get_state().tobytes(), env.agent_selection, list(env.agents), dict(env.rewards),
            dict(env._cumulative_rewards), dict(env.terminations), dict(env.truncations), table._replay_actions[:])


# ---- the forms ------------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", GAMES)
def test_raw_env_and_env_are_aec_and_parallel_env_is_parallel(env_id):
    module = MODULES[env_id]
    assert isinstance(module.raw_env(), AECEnv) and not isinstance(module.raw_env(), OrderEnforcingWrapper)
    assert isinstance(module.env(), OrderEnforcingWrapper)
    assert isinstance(module.parallel_env(), ParallelEnv)
    assert isinstance(envs.make(env_id), AECEnv) and isinstance(envs.make_parallel(env_id), ParallelEnv)


@pytest.mark.parametrize("env_id", GAMES)
def test_pettingzoo_classic_wrapper_stack_plays_random_games_to_the_end(env_id):
    """The stack PettingZoo's classic games put on ``raw_env()`` (connect four, chess, ...)."""
    for seed in range(2):
        env = OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(
            MODULES[env_id].raw_env(), illegal_reward=-1)))
        decisions, _ = play_aec(env, seed)
        assert decisions >= 1 and env.agents == []
        table = env.unwrapped
        assert table.get_state()["terminal"][0] or table._truncated()


@pytest.mark.parametrize("env_id", GAMES)
def test_the_wrapper_stack_in_the_order_written_out_plays_too(env_id):
    """TerminateIllegal(AssertOutOfBounds(OrderEnforcing(raw_env()))), one game."""
    env = TerminateIllegalWrapper(AssertOutOfBoundsWrapper(OrderEnforcingWrapper(MODULES[env_id].raw_env())),
                                  illegal_reward=-1)
    decisions, _ = play_aec(env, seed=3)
    assert decisions >= 1 and env.agents == []


@pytest.mark.parametrize("env_id", GAMES)
def test_terminate_illegal_wrapper_ends_the_game_at_an_illegal_action(env_id):
    env = OrderEnforcingWrapper(TerminateIllegalWrapper(MODULES[env_id].raw_env(), illegal_reward=-1))
    env.reset(seed=0)
    if env_id in SIMULTANEOUS:  # the second seat of the first moment gives the illegal action
        env.step(random_action(env.observe(env.agent_selection), np.random.default_rng(0)))
    offender = env.agent_selection
    masked = np.flatnonzero(env.observe(offender)["action_mask"] == 0)
    if not masked.size:
        pytest.skip(f"{offender} has every action legal here")
    env.step(int(masked[0]))
    assert all(env.terminations.values()) and env._cumulative_rewards[offender] == -1
    assert env.unwrapped.get_state()["terminal"][0] == 0, "the wrapper ended the game, not the rules"


# ---- an action is checked when it is given --------------------------------------------------


@pytest.mark.parametrize("env_id", GAMES)
@pytest.mark.parametrize("form", ["raw_env", "env"])
def test_aec_form_refuses_an_illegal_action_when_given_and_changes_nothing(env_id, form):
    env = getattr(MODULES[env_id], form)()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for moment_position in range(2 if env_id in SIMULTANEOUS else 1):
        agent = env.agent_selection
        before = _aec_view(env)
        for bad in _illegal_actions(env, agent):
            with pytest.raises(IllegalActionError, match=agent):
                env.step(bad)
            assert _aec_view(env) == before, f"{bad!r} changed the env"
        env.step(random_action(env.observe(agent), rng))  # a legal action is still taken


@pytest.mark.parametrize("env_id", SIMULTANEOUS)
def test_simultaneous_aec_form_plays_a_moment_as_the_parallel_form_does(env_id):
    """Seats act in order, nothing changes until the last has acted, then the record is the one
    the Parallel env reaches with the same actions; rewards are 0 within a moment."""
    module, rng = MODULES[env_id], np.random.default_rng(1)
    aec, par = module.env(), module.parallel_env()
    aec.reset(seed=4)
    par.reset(seed=4)
    for _ in range(5):
        if not aec.agents or any(aec.terminations.values()):
            break
        start, actions = aec.unwrapped.get_state().tobytes(), {}
        for position, agent in enumerate(aec.possible_agents):
            assert aec.agent_selection == agent
            assert aec.legal_actions() == aec.legal_actions(agent)
            actions[agent] = random_action(aec.observe(agent), rng)
            aec.step(actions[agent])
            if position < len(aec.possible_agents) - 1:
                assert aec.unwrapped.get_state().tobytes() == start
                assert set(aec.rewards.values()) == {0.0}
        _, rewards, *_ = par.step(actions)
        assert aec.unwrapped.get_state().tobytes() == par.get_state().tobytes()
        assert aec.rewards == rewards


@pytest.mark.parametrize("env_id", SIMULTANEOUS)
def test_simultaneous_aec_form_penalizes_at_once_and_replays_the_same_end(env_id):
    from envs.core import replay

    env = MODULES[env_id].env(illegal_action="penalize")
    env.reset(seed=2)
    first = env.agent_selection
    env.step(random_action(env.observe(first), np.random.default_rng(0)))
    offender = env.agent_selection
    env.step(-1)
    assert all(env.terminations.values()) and env.infos[offender]["illegal_action"]
    assert env.rewards[offender] == -1.0 and all(env.rewards[a] == 0.0 for a in env.possible_agents if a != offender)
    again = replay.replay_env(replay.replay_of(env))
    assert again.get_state().tobytes() == env.unwrapped.get_state().tobytes()


@pytest.mark.parametrize("env_id", SIMULTANEOUS)
def test_a_game_played_in_the_simultaneous_aec_form_replays_to_the_identical_record(env_id, tmp_path):
    from envs.core import replay

    env = MODULES[env_id].env()
    decisions, _ = play_aec(env, seed=6)
    loaded = replay.load(replay.save(env, tmp_path / "game.json"))
    assert loaded.decisions * env.unwrapped.num_players == decisions  # one joint action per moment
    again = replay.replay_env(loaded)
    assert again.get_state().tobytes() == env.unwrapped.get_state().tobytes()


@pytest.mark.parametrize("env_id", SIMULTANEOUS)
def test_a_record_installed_mid_moment_starts_the_moment_again(env_id):
    env = MODULES[env_id].env()
    env.reset(seed=5)
    record = env.unwrapped.get_state()
    env.step(random_action(env.observe(env.agent_selection), np.random.default_rng(0)))
    assert env.agent_selection != env.possible_agents[0]
    env.set_state(record)
    assert env.agent_selection == env.possible_agents[0]
    par = MODULES[env_id].parallel_env()
    par.set_state(record)
    rng = np.random.default_rng(1)
    actions = {agent: random_action(par.observe(agent), rng) for agent in par.agents}
    for agent in env.possible_agents:
        assert env.agent_selection == agent
        env.step(actions[agent])
    par.step(actions)
    assert env.unwrapped.get_state().tobytes() == par.get_state().tobytes()


@pytest.mark.parametrize("env_id", TURN_BASED)
def test_turn_based_parallel_form_refuses_an_illegal_action_when_given(env_id):
    env = MODULES[env_id].parallel_env()
    observations, infos = env.reset(seed=0)
    active = env.possible_agents[infos[env.possible_agents[0]]["active_seat"]]
    assert observations[active]["action_mask"].any()
    before = env.unwrapped.get_state().tobytes()
    others = {agent: 0 for agent in env.agents if agent != active}
    for bad in _illegal_actions(env.unwrapped, active):
        with pytest.raises(IllegalActionError, match=active):
            env.step({**others, active: bad})
    with pytest.raises(IllegalActionError, match=active):
        env.step(others)  # no action for the seat to act
    assert env.unwrapped.get_state().tobytes() == before


@pytest.mark.parametrize("env_id", TURN_BASED)
def test_turn_based_parallel_form_continues_from_a_record_as_the_aec_form_does(env_id):
    par = MODULES[env_id].parallel_env()
    observations, _ = par.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(5):
        observations, *_ = par.step(random_parallel_actions(observations, par.agents, rng))
    record = par.get_state()
    aec = MODULES[env_id].env()
    aec.set_state(record)
    again = MODULES[env_id].parallel_env()
    again.set_state(record)
    assert again.agents == par.agents
    for agent in par.agents:
        for key in ("observation", "action_mask"):
            assert np.array_equal(again.observe(agent)[key], par.observe(agent)[key])
            assert np.array_equal(again.observe(agent)[key], aec.observe(agent)[key])
    actions = random_parallel_actions({agent: par.observe(agent) for agent in par.agents}, par.agents, rng)
    first, second = par.step(actions), again.step(actions)
    assert par.get_state().tobytes() == again.get_state().tobytes() and first[1] == second[1]


@pytest.mark.parametrize("env_id", TURN_BASED)
def test_turn_based_parallel_set_state_of_a_finished_game_leaves_no_agents_and_refuses_a_bad_record(env_id):
    par = MODULES[env_id].parallel_env()
    observations, _ = par.reset(seed=4)
    rng = np.random.default_rng(4)
    while par.agents:
        observations, *_ = par.step(random_parallel_actions(observations, par.agents, rng))
    finished = par.get_state()
    fresh = MODULES[env_id].parallel_env()
    fresh.reset(seed=0)
    before = fresh.get_state().tobytes()
    with pytest.raises(ValueError):
        fresh.set_state(np.zeros(1, np.int64))
    assert fresh.get_state().tobytes() == before and fresh.agents == fresh.possible_agents
    fresh.set_state(finished)
    assert fresh.agents == []
    with pytest.raises(RuntimeError, match="call reset"):
        fresh.step({})


# ---- infos: numbers and arrays, the same keys throughout --------------------------------------


def _check_infos(infos, keys):
    for agent, info in infos.items():
        for key, value in info.items():
            assert isinstance(value, (numbers.Number, np.number, np.ndarray)), \
                f"infos[{agent!r}][{key!r}] is a {type(value).__name__}: {value!r}"
        assert keys.setdefault(agent, set(info)) == set(info), f"{agent}'s info keys changed: {set(info)}"


@pytest.mark.parametrize("env_id", GAMES)
def test_aec_infos_hold_numbers_and_arrays_with_the_same_keys_to_the_end(env_id):
    env, keys = MODULES[env_id].env(), {}
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    _check_infos(env.infos, keys)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        _check_infos({agent: info}, keys)
        env.step(None if terminated or truncated else random_action(observation, rng))
        _check_infos(env.infos, keys)


@pytest.mark.parametrize("env_id", GAMES)
def test_parallel_infos_hold_numbers_and_arrays_with_the_same_keys_to_the_end(env_id):
    env, keys = MODULES[env_id].parallel_env(), {}
    observations, infos = env.reset(seed=1)
    rng = np.random.default_rng(1)
    _check_infos(infos, keys)
    while env.agents:
        actions = random_parallel_actions(observations, env.agents, rng)
        observations, _, _, _, infos = env.step(actions)
        _check_infos(infos, keys)


@pytest.mark.parametrize("env_id", GAMES)
@pytest.mark.parametrize("form", ["env", "parallel_env"])
def test_penalize_mode_keeps_the_illegal_action_key_in_every_info(env_id, form):
    """0 at every step; 1 for the offender on the step its illegal action ends the game."""
    env, keys = getattr(MODULES[env_id], form)(illegal_action="penalize"), {}
    rng = np.random.default_rng(2)
    if form == "env":
        env.reset(seed=2)
        for _ in range(3 * env.unwrapped.num_players):
            _check_infos(env.infos, keys)
            assert set(info["illegal_action"] for info in env.infos.values()) == {0}
            env.step(random_action(env.observe(env.agent_selection), rng))
        offender = env.agent_selection
        env.step(-1)
        infos = env.infos
    else:
        observations, infos = env.reset(seed=2)
        for _ in range(3):
            _check_infos(infos, keys)
            assert set(info["illegal_action"] for info in infos.values()) == {0}
            observations, _, _, _, infos = env.step(random_parallel_actions(observations, env.agents, rng))
        seat = next(iter(infos.values())).get("active_seat", 0)  # a simultaneous game: any seat
        offender = env.possible_agents[seat]
        actions = random_parallel_actions(observations, env.agents, rng)
        *_, infos = env.step({**actions, offender: -1})
    _check_infos(infos, keys)
    assert infos[offender]["illegal_action"] == 1
    assert all(info["illegal_action"] == 0 for agent, info in infos.items() if agent != offender)


# ---- TorchRL --------------------------------------------------------------------------------


@pytest.mark.parametrize("env_id,form", [("voll_auf_die_18_v0", "parallel_env"), ("voll_auf_die_18_v0", "env"),
                                         ("secret_hitler_v0", "env")])
@pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested")  # TorchRL names the version it tests
def test_torchrl_pettingzoo_wrapper_rolls_out_to_the_end_of_a_game(env_id, form):
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper  # in the dev extra: a missing one fails

    env = PettingZooWrapper(getattr(MODULES[env_id], form)(), use_mask=True, seed=0)
    rollout = env.rollout(max_steps=5000, break_when_any_done=True)
    assert rollout["next", "done"][-1].item(), "the rollout stopped before the game ended"
    assert not rollout["next", "done"][:-1].any()
