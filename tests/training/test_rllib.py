"""RLlib: short local runs with 2 env runners on two games; checkpoint, restore, masked actions.

The envs keep illegal_action="raise", so a single illegal action from an env runner would fail
the run: completing the iterations is the proof that masking holds.
"""

import pytest

ray = pytest.importorskip("ray", reason="the 'distributed' extra (ray[rllib]) is not installed")

from training import rllib_train  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    rllib_train.start_ray(None, 2)
    yield
    ray.shutdown()


def _args(tmp_path, env_id, *extra):
    return rllib_train.parse_args([env_id, "--iterations", "1", "--num-env-runners", "2", "--batch-size", "400",
                                   "--checkpoint-every", "1", "--eval-games", "4", "--hidden", "32",
                                   "--out", str(tmp_path / env_id), *extra])


def test_turn_based_game_trains_checkpoints_and_resumes(tmp_path):
    rows = rllib_train.train(_args(tmp_path, "teufel_teufel_v0"))
    assert rows[-1]["env_steps"] >= 400
    assert (tmp_path / "teufel_teufel_v0" / "checkpoint").is_dir()
    assert 0.0 <= rows[-1]["win_rate_vs_random"] <= 1.0
    resumed = rllib_train.train(_args(tmp_path, "teufel_teufel_v0", "--resume", str(tmp_path / "teufel_teufel_v0")))
    assert resumed[-1]["iteration"] == 2
    assert resumed[-1]["env_steps"] > rows[-1]["env_steps"]


def test_team_policies_for_secret_hitler(tmp_path):
    rows = rllib_train.train(_args(tmp_path, "secret_hitler_v0", "--policies", "team", "--players", "5"))
    assert rows[-1]["env_steps"] >= 400


def test_team_policies_need_a_team_game():
    with pytest.raises(SystemExit):
        rllib_train.parse_args(["teufel_teufel_v0", "--policies", "team"])


def test_team_agents_keep_the_same_names_every_episode_and_map_to_the_right_team():
    env = rllib_train.make_rllib_env({"env_id": "secret_hitler_v0", "policies": "team",
                                      "game_config": {"num_players": 7}})
    expected = ["fascist_0", "fascist_1", "fascist_2", "liberal_0", "liberal_1", "liberal_2", "liberal_3"]
    assert sorted(env.possible_agents) == expected  # 2 fascists + Hitler, 4 liberals in 7-player games
    for seed in range(5):
        env.reset(seed=seed)
        assert sorted(env.env.agents) == expected
        record = env.env.unwrapped.get_state()[0]
        for seat, agent in enumerate(env.env.env.possible_agents):
            name = env.env._names[agent]
            assert name.startswith(rllib_train.secret_hitler_team(record, seat))
