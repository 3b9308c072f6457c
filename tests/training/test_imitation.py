"""Behaviour cloning from the heuristic (training/imitation.py) and the warm start of self-play."""

import json

import numpy as np
import pytest
import torch

from envs.testing.toy_games import register_toys
from training import selfplay
from training.imitation import _stack, clone, collect_demonstrations

register_toys()

GAME = "secret_hitler_v0"


def test_returns_discount_the_rewards_that_follow_each_decision():
    obs, mask = np.zeros(2, np.float32), np.ones(3, bool)
    episode = [(obs, mask, 0, 0.0), (obs, mask, 1, 1.0), (obs, mask, 2, 2.0)]
    demos = _stack([episode, episode[:1]], gamma=0.5, episodes=2)
    # 0 + 0.5 * (1 + 0.5 * 2) = 1.0; 1 + 0.5 * 2 = 2.0; 2.0; then a one-step episode of reward 0
    np.testing.assert_allclose(demos.returns, [1.0, 2.0, 2.0, 0.0])
    assert demos.actions.tolist() == [0, 1, 2, 0] and len(demos) == 4 and demos.episodes == 2


def test_demonstrations_are_legal_heuristic_decisions_of_finished_episodes():
    demos = collect_demonstrations(GAME, 300, seed=3, config={}, gamma=1.0, num_envs=8)
    assert len(demos) >= 300 and demos.episodes >= 1
    assert demos.masks[np.arange(len(demos)), demos.actions].all()
    # with gamma 1 a return is the rest of the episode's reward: a team game ends at +1 or -1
    assert set(np.round(np.unique(demos.returns), 4)) <= {-1.0, 1.0}
    again = collect_demonstrations(GAME, 300, seed=3, config={}, gamma=1.0, num_envs=8)
    np.testing.assert_array_equal(again.actions, demos.actions)  # seeded


def test_cloning_teaches_the_policy_the_heuristics_choices(tmp_path):
    args = selfplay.parse_args([GAME, "--out", str(tmp_path / "run"), "--net-arch", "64,64",
                                "--imitation-samples", "0"])
    _, env = selfplay.make_batched_env(GAME, 4, 0, args.config, (1.0, 0.0, 0.0))
    torch.manual_seed(0)
    model = selfplay._new_model(args, env, tmp_path)
    demos = collect_demonstrations(GAME, 256, seed=1, config={}, gamma=0.99, num_envs=8)
    before = _agreement(model.policy, demos)
    history = clone(model.policy, demos, epochs=40, batch_size=64, seed=0)
    after = _agreement(model.policy, demos)
    assert history[-1]["agreement"] == pytest.approx(after, abs=0.1)
    assert after > 0.9 > before  # a random network picks the heuristic's choice far less often
    assert history[-1]["action_loss"] < history[0]["action_loss"]


def _agreement(policy, demos):
    with torch.no_grad():
        probs = policy.get_distribution(torch.as_tensor(demos.obs), action_masks=demos.masks).distribution.probs
    return float((probs.argmax(dim=1).numpy() == demos.actions).mean())


def test_selfplay_warm_start_records_the_cloned_policy_at_step_zero(tmp_path):
    args = selfplay.parse_args([GAME, "--timesteps", "256", "--out", str(tmp_path / "run"), "--num-envs", "4",
                                "--n-steps", "64", "--batch-size", "64", "--eval-every", "100000",
                                "--eval-games", "8", "--net-arch", "32,32", "--imitation-samples", "200",
                                "--imitation-epochs", "1"])
    model, history = selfplay.train(args)
    assert history[0]["timesteps"] == 0 and history[-1]["timesteps"] == model.num_timesteps >= 256
    report = json.loads((tmp_path / "run" / "imitation.json").read_text())
    assert report["samples"] >= 198 and [len(r["epochs"]) for r in report["rounds"]] == [1, 1, 1]
    assert report["rounds"][1]["played_by"] == "cloned policy"
    assert (tmp_path / "run" / "learning.csv").read_text().splitlines()[1].startswith("0,")


def test_imitation_needs_a_heuristic_and_sane_counts(tmp_path, capsys):
    for argv in (["race_v0", "--imitation-samples", "100", "--imitation-epochs", "1"],
                 [GAME, "--imitation-samples", "-1"], [GAME, "--imitation-samples", "100", "--imitation-epochs", "0"]):
        with pytest.raises(SystemExit):
            selfplay.parse_args(argv + ["--out", str(tmp_path / "x")])
    assert "no heuristic agent to imitate" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
