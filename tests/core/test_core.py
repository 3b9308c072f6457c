"""The shared machinery on the toy games: layouts, options, seeding, records, adapters, batches."""

import numpy as np
import pytest

from envs.core import Layout, Option, int_range, state_dtype
from envs.core.aec import make_env_functions
from envs.core.game import IllegalActionError
from envs.core.vector import VectorGame
from envs.testing.toy_games import RACE, TALLY, RaceEnv, TallyEnv

env_fn, raw_env, parallel_env = make_env_functions(RaceEnv)


def test_layout_offsets_views_and_bounds():
    layout = Layout(("a", 3), ("b", (2, 2), -1, 5, "a grid"), ("c", 1, 0, 9))
    assert layout.size == 8 and layout.offset("b") == 3 and layout.offset("c") == 7
    vector = np.arange(8, dtype=np.float32)
    views = layout.views(vector)
    assert views["b"].shape == (2, 2) and views["b"][1, 1] == 6
    views["c"][0] = 42  # views, not copies
    assert vector[7] == 42
    batch = np.zeros((5, 8), np.float32)
    assert layout.views(batch)["b"].shape == (5, 2, 2)
    space = layout.space()
    assert space.low[3] == -1 and space.high[7] == 9
    assert "| `b` | 3 | (2, 2) | -1..5 | a grid |" in layout.table()
    with pytest.raises(ValueError):
        layout.views(np.zeros(7))
    with pytest.raises(ValueError):
        Layout(("a", 1), ("a", 2))


def test_state_dtype_rejects_bool_fields_header_names_and_numpy_attribute_names():
    with pytest.raises(ValueError, match="int8"):
        state_dtype([("flags", np.bool_, (3,))], 2)
    with pytest.raises(ValueError, match="header"):
        state_dtype([("reward", np.float32)], 2)
    with pytest.raises(ValueError, match="shadows"):
        state_dtype([("round", np.int8)], 2)
    dtype = state_dtype([("board", np.int8, (3, 3))], 4)
    record = np.zeros(1, dtype)[0]
    record.board[1, 1] = 5  # attribute access in Python, as in numba
    assert record.board[1, 1] == 5 and record.reward.shape == (4,)


def test_options_validate_choices_ranges_and_types():
    flag = Option(True, "a flag", choices=(True, False))
    assert flag.validate("flag", False) is False
    with pytest.raises(ValueError, match=r"choose one of \[True, False\]"):
        flag.validate("flag", 1)  # 1 == True in Python, but not a valid flag
    mode = Option("auto", "a mode", choices=("auto", True, False))
    with pytest.raises(ValueError):
        mode.validate("mode", 0)
    count = Option(3, "a count", check=int_range(1, 5))
    assert count.validate("count", np.int64(5)) == 5
    for bad in (0, 6, 2.5, "3", True):
        with pytest.raises(ValueError, match="from 1 to 5"):
            count.validate("count", bad)


def test_config_defaults_and_errors_name_the_valid_values():
    env = raw_env()
    assert env.config == {"num_players": 2, "max_cycles": 100, "illegal_action": "raise", "target": 10}
    with pytest.raises(ValueError, match=r"valid options are \['illegal_action', 'max_cycles', 'num_players', 'target'\]"):
        raw_env(targt=5)
    with pytest.raises(ValueError, match=r"choose one of \[2, 3, 4\]"):
        raw_env(num_players=5)
    with pytest.raises(ValueError, match="from 3 to 30"):
        raw_env(target=99)


def test_reset_seed_fixes_the_game_and_unseeded_resets_continue_a_stream():
    a, b = raw_env(num_players=4), raw_env(num_players=4)
    a.reset(seed=123)
    b.reset(seed=123)
    assert a.get_state().tobytes() == b.get_state().tobytes()
    a.reset()
    b.reset()
    assert a.get_state().tobytes() == b.get_state().tobytes()
    secrets = set()
    for seed in range(20):
        a.reset(seed=seed)
        secrets.add(tuple(a.get_state()["secret"][0]))
    assert len(secrets) > 15
    a.reset(seed=2**64 - 1)  # the whole unsigned range is accepted
    for bad in (-1, 2**64, 1.5, "7", True):
        with pytest.raises(ValueError, match="seed"):
            a.reset(seed=bad)


def test_observation_shows_only_the_own_secret_and_state_joins_every_seat():
    env = raw_env(num_players=3)
    env.reset(seed=4)
    secrets = env.get_state()["secret"][0]
    for seat, agent in enumerate(env.possible_agents):
        views = env.observation_layout.views(env.observe(agent)["observation"])
        assert views["secret"].argmax() == secrets[seat] and views["secret"].sum() == 1
    joint = env.state()
    assert joint.shape == env.state_space.shape
    size = env.observation_layout.size
    np.testing.assert_array_equal(joint[size : 2 * size], env.observe("player_1")["observation"])


def test_rewards_accumulate_until_the_agent_acts_and_every_agent_steps_none_once():
    env = raw_env(num_players=2, target=3)
    env.reset(seed=0)
    env.step(1)  # player_0: 0 -> 2
    env.step(0)  # player_1: 2 -> 3, wins
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert all(env.terminations.values())
    seen = []
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        seen.append((agent, reward))
        env.step(None)
    assert sorted(seen) == [("player_0", -1.0), ("player_1", 1.0)]
    assert env.agents == []


def test_illegal_action_message_names_the_action_and_the_legal_ones():
    env = raw_env(num_players=2, target=3)
    env.reset(seed=0)
    env.step(1)  # counter 2: only "add 1" is legal
    with pytest.raises(IllegalActionError, match=r"player_1 cannot take action 1 \(add 2\) now; legal: 0 \(add 1\)"):
        env.step(1)
    with pytest.raises(IllegalActionError, match="integer"):
        env.step(np.float32(0))
    env.step(np.array(0))  # a 0-d integer array is an integer
    assert all(env.terminations.values())


def test_set_state_rejects_records_of_another_game_or_size():
    env = raw_env(num_players=2)
    env.reset(seed=0)
    other = raw_env(num_players=3)
    other.reset(seed=0)
    with pytest.raises(ValueError, match="3-player"):
        env.set_state(other.get_state())
    with pytest.raises(ValueError, match="STATE"):
        env.set_state(np.zeros(1, TallyEnv.game.engine.STATE))


def test_parallel_env_requires_one_action_per_live_agent():
    env = TallyEnv(num_players=3)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="missing"):
        env.step({"player_0": 0})
    with pytest.raises(IllegalActionError, match="unknown"):
        env.step({"player_0": 0, "player_1": 0, "player_2": 0, "player_9": 0})
    with pytest.raises(IllegalActionError):
        env.step([0, 0, 0])
    for _ in range(5):
        *_, infos = env.step({a: 1 if env.observe(a)["action_mask"][1] else 0 for a in env.agents})
    assert env.agents == []
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})


def test_vector_game_auto_resets_with_derived_seeds_and_reports_ends():
    vg = VectorGame(TALLY, 4, seed=1, num_players=2)
    with pytest.raises(RuntimeError, match="reset"):
        vg.step(np.zeros((4, 2), np.int64))
    obs, mask, _ = vg.reset()
    assert obs.shape == (4, 2, TALLY.layout.size) and mask.shape == (4, 2, 2)
    for t in range(5):
        obs, mask, rewards, terminated, _ = vg.step(np.zeros((4, 2), np.int64))
    assert terminated.all() and (rewards == 0).all()  # all tied at zero
    assert (vg._episodes == 1).all()
    assert (vg.get_state()["moment"] == 0).all()  # already the next episode
    assert vg.episode_seed(0, 1) != vg.episode_seed(0, 0) != vg.episode_seed(1, 0)


def test_vector_game_truncates_at_max_cycles():
    vg = VectorGame(RACE, 2, seed=0, num_players=2, target=30, max_cycles=3)
    vg.reset()
    for _ in range(3):
        vg.step(np.zeros(2, np.int64))
    assert vg.truncated.all() and not vg.terminated.any()
    assert (vg.get_state()["step_count"] == 0).all()


def test_vector_game_rejects_bad_construction():
    with pytest.raises(ValueError, match="num_envs"):
        VectorGame(RACE, 0)
    with pytest.raises(ValueError, match="seed"):
        VectorGame(RACE, 2, seed=-3)
    with pytest.raises(ValueError, match="valid options"):
        VectorGame(RACE, 2, colour="red")


def test_vector_game_set_state_refreshes_the_views_and_rejects_foreign_records():
    vg = VectorGame(RACE, 3, seed=0, num_players=2, target=10)
    vg.reset()
    vg.random_steps(4)
    saved = vg.get_state()
    saved_obs = vg.obs.copy()
    vg.random_steps(3)
    obs, mask, player = vg.set_state(saved)
    np.testing.assert_array_equal(obs, saved_obs)
    assert (player == saved["current_player"]).all()
    with pytest.raises(ValueError, match="STATE"):
        vg.set_state(np.zeros(3, TALLY.engine.STATE))
    with pytest.raises(ValueError, match="3 records"):
        vg.set_state(saved[:2])


def test_random_steps_keep_the_views_current_with_and_without_observations():
    for observe in (True, False):
        vg = VectorGame(RACE, 4, seed=2, num_players=3, target=30)
        vg.reset()
        vg.random_steps(5, observe=observe)
        obs, mask = vg.obs.copy(), vg.action_mask.copy()
        vg.set_state(vg.get_state())  # recomputes the views from the records
        np.testing.assert_array_equal(vg.obs, obs)
        np.testing.assert_array_equal(vg.action_mask, mask)


def test_registering_an_engine_again_from_another_file_warns():
    import warnings

    from envs.core import register_engine
    from envs.testing import toy_games

    record = np.dtype([("only_for_this_test", np.int32)])
    here = {"reset": lambda *a: None, "legal_mask": lambda *a: None, "step": lambda *a: None,
            "observe": lambda *a: None}
    register_engine(record, **here)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        register_engine(record, **here)  # the same file again (a reload): silent
    elsewhere = {"reset": toy_games.race_reset, "legal_mask": toy_games.race_legal_mask,
                 "step": toy_games.race_step, "observe": toy_games.race_observe}
    with pytest.warns(RuntimeWarning, match="registered again from .*toy_games.py"):
        register_engine(record, **elsewhere)
