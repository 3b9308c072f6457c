"""Training machinery on the toy games: the learner's reward, checkpoints, a smoke run, evaluation."""

import json
import pathlib

import numpy as np
import pytest

import envs
from agents.base import Agent
from envs.testing.toy_games import register_toys
from training import selfplay
from training.evaluate import evaluate, lineup_for, seat_wins, wilson_interval, write_outputs
from training.wrappers import LearnerSeatEnv, SharedPolicyEnv

register_toys()


class AlwaysFirst(Agent):
    def act(self, observation, action_mask, info=None):
        return int(np.flatnonzero(action_mask)[0])


def test_learner_gets_its_own_reward_after_the_opponents_move():
    """Race to 3 with two seats: whoever adds the last point wins. The learner's reward must be
    its own seat's (+1 or -1), never the seat that moved last."""
    for seed in range(20):
        env = LearnerSeatEnv("race_v0", AlwaysFirst, config={"num_players": 2, "target": 3}, seed=seed)
        obs, info = env.reset()
        learner = info["learner_seat"]
        total, done = 0.0, False
        while not done:
            obs, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[-1]))
            total += reward
            done = terminated or truncated
        record = env.env.get_state()[0]
        assert total == record.reward[learner]
        assert total in (1.0, -1.0)


def test_learner_env_masks_match_the_learners_legal_actions():
    env = LearnerSeatEnv("race_v0", AlwaysFirst, config={"num_players": 3, "target": 10}, seed=1)
    env.reset()
    seat = env.env.agent_selection
    assert seat == env.learner
    np.testing.assert_array_equal(env.action_masks(), env.env.observe(seat)["action_mask"].astype(bool))


def test_shared_policy_env_collects_one_action_per_seat_then_steps():
    env = SharedPolicyEnv("tally_v0", config={"num_players": 3, "rounds": 2}, seed=0)
    env.reset()
    rewards, steps, done = [], 0, False
    while not done:
        _, reward, terminated, truncated, _ = env.step(1)  # every seat adds 1: a three-way tie
        rewards.append(reward)
        steps += 1
        done = terminated or truncated
    assert steps == 6 and terminated
    assert rewards == [0.0] * 6


def _args(tmp_path, *extra, timesteps=1024, backend="vector", out="run"):
    return selfplay.parse_args(["race_v0", "--backend", backend, "--timesteps", str(timesteps),
                                "--out", str(tmp_path / out), "--num-envs", "4" if backend == "vector" else "1",
                                "--n-steps", "128" if backend == "vector" else "256", "--batch-size", "64",
                                "--snapshot-every", "512", "--eval-every", "512", "--eval-games", "10",
                                "--learning-rate", "0.001", "--net-arch", "32,32", *extra])


def _batched_env():
    return selfplay.make_batched_env("race_v0", 4, 0, {}, (1.0, 0.0, 0.0))[1]


@pytest.mark.parametrize("backend", ["vector", "aec"])
def test_selfplay_smoke_run_writes_checkpoints_snapshots_and_a_learning_curve(tmp_path, backend):
    model, history = selfplay.train(_args(tmp_path, backend=backend))
    run = tmp_path / "run"
    assert model.num_timesteps >= 1024
    assert (run / "checkpoint.zip").is_file() and (run / "checkpoint_state.pt").is_file()
    assert list((run / "pool").glob("snapshot_*.zip"))
    assert (run / "learning_curve.png").is_file() and (run / "learning.csv").read_text().startswith("timesteps")
    assert all(0.0 <= row["win_rate_vs_random"] <= 1.0 and row["fair_share"] == 0.5 for row in history)
    assert not list(run.glob("*.tmp*")), "checkpoints are renamed into place"
    best = json.loads((run / "best.json").read_text())
    assert (run / "best.zip").is_file()
    assert best["score"] == max(row["win_rate_vs_random"] for row in history)  # race_v0 has no heuristic
    saved = json.loads((run / "args.json").read_text())
    assert saved["out"] == str(run.resolve()) and saved["backend"] == backend and saved["net_arch"] == [32, 32]


def test_a_resumed_checkpoint_takes_the_same_next_action(tmp_path):
    import torch

    model, _ = selfplay.train(_args(tmp_path, timesteps=512))
    env = envs.make("race_v0", target=10)
    env.reset(seed=3)
    observation = env.observe(env.agent_selection)
    obs, masks = observation["observation"], observation["action_mask"].astype(bool)

    def sample(policy, n=8):
        return [int(policy.predict(obs, action_masks=masks)[0]) for _ in range(n)]

    resumed, _ = selfplay.load_checkpoint(tmp_path / "run", _batched_env())
    from_resumed = sample(resumed)  # load_checkpoint restored the generator saved with the model
    torch.set_rng_state(torch.load(tmp_path / "run" / "checkpoint_state.pt", weights_only=False)["torch_rng"])
    assert from_resumed == sample(model)
    assert resumed.predict(obs, action_masks=masks, deterministic=True)[0] == \
        model.predict(obs, action_masks=masks, deterministic=True)[0]


def test_resume_continues_to_the_new_total(tmp_path):
    selfplay.train(_args(tmp_path, timesteps=512))
    run = str(tmp_path / "run")
    model, history = selfplay.train(selfplay.parse_args(["race_v0", "--timesteps", "1024", "--resume", run,
                                                         "--eval-every", "512", "--eval-games", "10"]))
    assert model.num_timesteps >= 1024
    assert [row["timesteps"] for row in history] == sorted(row["timesteps"] for row in history)


def test_resume_refuses_another_game_or_player_count_and_out_refuses_to_overwrite(tmp_path, capsys):
    selfplay.train(_args(tmp_path, timesteps=256, out="run"))
    run = str(tmp_path / "run")
    for argv in (["tally_v0", "--resume", run], ["race_v0", "--resume", run, "--players", "3"],
                 ["race_v0", "--out", run], ["race_v0", "--resume", str(tmp_path / "nothing")]):
        with pytest.raises(SystemExit):
            selfplay.parse_args(argv)
    errors = capsys.readouterr().err
    assert "is a race_v0 run, not tally_v0" in errors and "--players" in errors and "--overwrite" in errors
    args = selfplay.parse_args(["race_v0", "--out", run, "--overwrite"])
    assert (tmp_path / "run" / "checkpoint.zip").exists()  # parsing changes nothing
    selfplay.prepare_out(args)
    assert not (tmp_path / "run" / "checkpoint.zip").exists() and not list((tmp_path / "run" / "pool").iterdir())
    assert args.out == run


def test_bad_arguments_are_usage_errors_before_any_work(tmp_path):
    for argv in (["no_such_game_v0"], ["race_v0", "--players", "9"], ["race_v0", "--pool-weights", "1,2"],
                 ["race_v0", "--net-arch", "wide"], ["race_v0", "--gamma", "1.5"], ["race_v0", "--timesteps", "0"]):
        with pytest.raises(SystemExit):
            selfplay.parse_args(argv + ["--out", str(tmp_path / "x")])
    assert not (tmp_path / "x").exists()


def test_unreadable_training_state_is_a_clear_error(tmp_path):
    selfplay.train(_args(tmp_path, timesteps=256))
    (tmp_path / "run" / "checkpoint_state.pt").write_bytes(b"garbage")
    with pytest.raises(ValueError, match="not a readable training state"):
        selfplay.load_checkpoint(tmp_path / "run", _batched_env())


def test_wilson_interval_matches_the_textbook_values():
    low, high = wilson_interval(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0


def test_seats_rotate_and_winners_are_the_positive_maximum():
    assert lineup_for(0, 3, 2) == [0, 1, 0] and lineup_for(1, 3, 2) == [1, 0, 1]
    assert seat_wins([1, -1, -1]).tolist() == [True, False, False]
    assert seat_wins([1, 1, -1]).tolist() == [True, True, False]  # a team win
    assert seat_wins([0, 0]).tolist() == [False, False]  # a draw is nobody's win


def test_evaluation_of_a_lineup_writes_csv_and_png(tmp_path):
    results = evaluate("race_v0", ["random", "ismcts:40"], games=12, seed=0, progress=False)
    assert [r["agent"] for r in results] == ["random", "ismcts:40"]
    assert sum(r["seats_played"] for r in results) == 24
    assert results[1]["win_rate"] > results[0]["win_rate"]
    assert results[1]["rating"] > results[0]["rating"]
    csv_path, png_path = write_outputs("race_v0", results, tmp_path)
    assert csv_path.read_text().splitlines()[0].startswith("agent,seats_played,wins,win_rate")
    assert png_path.stat().st_size > 1000


def test_policy_win_rates_name_opponents_in_turn_based_games_and_one_team_rate_in_simultaneous_ones():
    turn_based = selfplay.policy_win_rates("race_v0", lambda s: AlwaysFirst(), 6, 0, {"num_players": 2})
    assert set(turn_based) == {"win_rate_vs_random"}  # the toy has no heuristic agent
    assert 0.0 <= turn_based["win_rate_vs_random"] <= 1.0
    # Every seat plays the policy; always adding 0 ties every game, and a tie is no win.
    simultaneous = selfplay.policy_win_rates("tally_v0", lambda s: AlwaysFirst(), 4, 0,
                                             {"num_players": 2, "rounds": 2})
    assert simultaneous == {"win_rate_team": 0.0}


def test_the_best_evaluation_keeps_its_policy_and_a_worse_one_leaves_it(tmp_path):
    class Saved:
        def __init__(self, name):
            self.name = name

        def save(self, path):
            pathlib.Path(path).write_text(self.name)

    rows = [{"timesteps": 0, "win_rate_vs_random": 0.9, "win_rate_vs_heuristic": 0.30},
            {"timesteps": 10, "win_rate_vs_random": 0.8, "win_rate_vs_heuristic": 0.50},
            {"timesteps": 20, "win_rate_vs_random": 1.0, "win_rate_vs_heuristic": 0.40}]
    for k in range(3):
        selfplay.keep_if_best(Saved(f"model {k}"), tmp_path, rows[: k + 1])
    assert (tmp_path / "best.zip").read_text() == "model 1"  # chosen by the rate against the heuristic
    assert json.loads((tmp_path / "best.json").read_text()) == {"timesteps": 10, "score": 0.5, "evaluation": 1}
    assert selfplay.selection_score({"win_rate_team": 0.2}) == 0.2
    with pytest.raises(ValueError):
        selfplay.selection_score({"timesteps": 3})


def test_policy_eval_measures_a_saved_policy_and_refuses_a_checkpoint_of_another_game(tmp_path, capsys):
    from training import policy_eval

    selfplay.train(_args(tmp_path))
    best = str(tmp_path / "run" / "best.zip")
    policy_eval.main(["race_v0", best, "--games", "8", "--baseline"])
    table = capsys.readouterr().out.splitlines()
    assert table[0] == "race_v0, 2 players"
    assert table[1].startswith("opponents") and table[2].split()[:2] == ["vs_random", "8"]
    assert table[3].split()[:4] == ["random", "vs", "random", "8"], "--baseline: a random agent in the same seat"
    policy_eval.main(["race_v0", best, "--games", "8", "--baseline"])
    assert capsys.readouterr().out.splitlines() == table, "the same seed plays the same games"
    with pytest.raises(SystemExit):
        policy_eval.main(["race_v0", str(tmp_path / "missing.zip")])
    assert "no checkpoint at" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        policy_eval.main(["volle_socke_v0", best, "--games", "8"])
    assert "another game or player count" in capsys.readouterr().err


def test_policy_eval_plays_at_the_player_count_the_run_trained_with(tmp_path, capsys):
    from training import policy_eval

    selfplay.train(_args(tmp_path, "--players", "3"))
    best = str(tmp_path / "run" / "best.zip")
    assert policy_eval.trained_players(best, "race_v0") == 3
    assert policy_eval.trained_players(best, "tally_v0") is None  # another game's run says nothing
    policy_eval.main(["race_v0", best, "--games", "4"])
    assert capsys.readouterr().out.startswith("race_v0, 3 players\n")
    policy_eval.main(["race_v0", best, "--games", "4", "--players", "2"])
    assert capsys.readouterr().out.startswith("race_v0, 2 players\n")


def test_observation_options_reach_evaluation_and_shaping_stays_in_training(tmp_path):
    """A policy trained on the hint blocks must be measured with them (else they read 0)."""
    game = envs.game_of("voll_auf_die_18_v0")
    assert game.observation_options({"reward_shaping": True, "observe_hints": True, "num_players": 2}) == {
        "observe_hints": True}
    args = selfplay.parse_args(["voll_auf_die_18_v0", "--out", str(tmp_path / "run")])
    assert args.config == {"reward_shaping": True, "observe_hints": True}
    assert args.eval_config == {"observe_hints": True}
    args = selfplay.parse_args(["voll_auf_die_18_v0", "--players", "3", "--no-shaping", "--out", str(tmp_path / "r")])
    assert args.config == args.eval_config == {"num_players": 3, "observe_hints": True}


def test_torch_threads_default_to_the_batch_threads_with_vector_and_one_with_aec(tmp_path):
    """The vector backend's update runs alone in its process; the aec backend's env processes run
    beside its learner. An explicit --torch-threads wins over both."""
    import numba

    assert _args(tmp_path).torch_threads == numba.config.NUMBA_NUM_THREADS
    assert _args(tmp_path, backend="aec").torch_threads == 1
    assert _args(tmp_path, "--torch-threads", "3", backend="aec").torch_threads == 3


def test_vector_training_rolls_out_on_one_torch_thread_and_updates_on_torch_threads(tmp_path, monkeypatch):
    """A rollout's small pieces of work (and an evaluation's) run on one torch and one numba thread
    (a second one costs much on shared cores); each PPO update gets ``--torch-threads``; numba's
    count is back when training ends."""
    import numba
    import torch
    from sb3_contrib import MaskablePPO

    from training.vector_env import LearnerVecEnv

    seen = {"rollout": set(), "update": set()}
    step, update = LearnerVecEnv.step_wait, MaskablePPO.train

    def step_wait(self):
        seen["rollout"].add((torch.get_num_threads(), numba.get_num_threads()))
        return step(self)

    def train(self):
        seen["update"].add(torch.get_num_threads())
        return update(self)

    monkeypatch.setattr(LearnerVecEnv, "step_wait", step_wait)
    monkeypatch.setattr(MaskablePPO, "train", train)
    threads, numba_threads = torch.get_num_threads(), numba.get_num_threads()
    try:
        selfplay.train(_args(tmp_path, "--torch-threads", "2", timesteps=512))
    finally:
        torch.set_num_threads(threads)
    assert seen["update"] == {2}
    # torch and numba on one thread in the rollouts; the final evaluation (after training) has numba's own count
    assert seen["rollout"] - {(1, numba_threads)} == {(1, 1)}
    assert numba.get_num_threads() == numba_threads


def test_policy_eval_reads_the_observation_options_the_run_trained_with(tmp_path):
    from training import policy_eval

    run = tmp_path / "run"
    run.mkdir()
    (run / "args.json").write_text(json.dumps({"env_id": "voll_auf_die_18_v0", "players": 2,
                                               "env_config": {"reward_shaping": True, "observe_hints": True}}))
    assert policy_eval.trained_observation(run / "best.zip", "voll_auf_die_18_v0") == {"observe_hints": True}
    assert policy_eval.trained_observation(run / "best.zip", "race_v0") == {}, "another game's run says nothing"
    assert policy_eval.trained_observation(tmp_path / "elsewhere.zip", "voll_auf_die_18_v0") == {}


def _saved_policy(folder, env_id, env_config):
    """A small untrained MaskablePPO for ``env_id``'s observation and actions, saved in ``folder``
    with the args.json training.selfplay would write for a run with ``env_config``."""
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    game = envs.game_of(env_id)

    class Spaces(gym.Env):
        observation_space = gym.spaces.Box(-np.inf, np.inf, (game.layout.size,), np.float32)
        action_space = gym.spaces.Discrete(game.num_actions)

    folder.mkdir()
    MaskablePPO("MlpPolicy", Spaces(), policy_kwargs={"net_arch": [8]}, n_steps=8, batch_size=8).save(folder / "best.zip")
    (folder / "args.json").write_text(json.dumps({"env_id": env_id, "players": 2, "env_config": env_config}))
    return folder / "best.zip"


def test_a_policy_plays_only_where_the_env_observes_as_its_run_did(tmp_path):
    """A policy trained on the hint blocks reads zeros without them (and one trained without them
    reads blocks it never saw): the agent refuses such an env, and tournaments configure the env
    as the policies' runs did."""
    from agents.policy import PolicyAgent, observation_config

    env_id = "voll_auf_die_18_v0"
    game = envs.game_of(env_id)
    hinted = _saved_policy(tmp_path / "hinted", env_id, {"reward_shaping": True, "observe_hints": True})
    plain = _saved_policy(tmp_path / "plain", env_id, {})
    agent = PolicyAgent(hinted)
    agent.reset(0, env_id, game.validate({"num_players": 2, "observe_hints": True}))
    with pytest.raises(ValueError, match="observe_hints"):
        agent.reset(0, env_id, game.validate({"num_players": 2}))
    with pytest.raises(ValueError, match="observe_hints"):
        PolicyAgent(plain).reset(0, env_id, game.validate({"num_players": 2, "observe_hints": True}))
    assert observation_config([f"policy:{hinted}", "heuristic"], env_id) == {"observe_hints": True}
    assert observation_config([f"policy:{plain}", "random"], env_id) == {"observe_hints": False}
    assert observation_config(["heuristic", "random"], env_id) == {}
    with pytest.raises(ValueError, match="observes alike"):
        observation_config([f"policy:{hinted}", f"policy:{plain}"], env_id)
    results = evaluate(env_id, [f"policy:{hinted}"], games=1, seed=0, progress=False, config={"num_players": 2})
    assert results[0]["seats_played"] == 2, "the tournament observed with the hints, so the policy played"
