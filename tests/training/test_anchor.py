"""PPO held near its warm start (training/anchor.py): the KL term, its training loop, its runs."""

import json

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

from training import selfplay
from training.anchor import masked_kl
from training.vector_env import SnapshotPolicy

GAME = "secret_hitler_v0"


def test_masked_kl_is_the_kl_of_the_legal_actions_distributions():
    target = torch.tensor([[1.0, 2.0, 30.0, 0.5], [0.0, 0.0, 0.0, 0.0]])
    logits = torch.tensor([[0.0, 1.0, -7.0, 2.0], [3.0, 1.0, 0.0, 0.0]])
    masks = torch.tensor([[True, True, False, True], [False, True, True, False]])
    expected = []
    for t, q, m in zip(target.numpy(), logits.numpy(), masks.numpy()):
        p_t = np.exp(t[m]) / np.exp(t[m]).sum()
        p_q = np.exp(q[m]) / np.exp(q[m]).sum()
        expected.append(np.sum(p_t * np.log(p_t / p_q)))
    assert masked_kl(target, logits, masks).item() == pytest.approx(np.mean(expected), rel=1e-5)
    assert masked_kl(logits, logits, masks).item() == pytest.approx(0.0, abs=1e-7)


def _model(tmp_path, anchor_coef, learning_rate="0.003"):
    args = selfplay.parse_args(["volle_socke_v0", "--out", str(tmp_path / "run"), "--net-arch", "32,32",
                                "--n-steps", "16", "--batch-size", "32", "--learning-rate", learning_rate,
                                "--imitation-samples", "0", "--seed", "3"])
    args.anchor_coef = anchor_coef  # parse_args asks for a clone; these tests anchor the initial policy
    _, env = selfplay.make_batched_env("volle_socke_v0", 4, 0, args.config, (1.0, 0.0, 0.0))
    return selfplay._new_model(args, env, tmp_path), env


def _kl_to(anchor, model, obs, masks):
    with torch.no_grad():
        obs = torch.as_tensor(obs)
        current = model.policy.get_distribution(obs, action_masks=masks).distribution.logits
        return masked_kl(anchor.logits(obs), current, torch.as_tensor(masks)).item()


def test_the_anchored_loop_is_maskable_ppos_when_the_term_weighs_nothing(tmp_path):
    trained = []
    for coef in (0.0, 1e-30):  # > 0: trains through the anchored loop
        model, _ = _model(tmp_path / str(coef), coef)  # seeds torch's generator
        model.set_anchor(SnapshotPolicy(model.policy))
        trained.append(model.learn(128))
    plain, ours = trained
    for (name, a), b in zip(plain.policy.state_dict().items(), ours.policy.state_dict().values()):
        torch.testing.assert_close(a, b, atol=1e-6, rtol=1e-5)


def test_the_anchor_holds_the_policy_near_its_starting_point(tmp_path):
    drifts = {}
    for coef in (0.0, 10.0):
        model, env = _model(tmp_path / str(coef), coef)
        anchor = SnapshotPolicy(model.policy)
        model.set_anchor(anchor)
        obs, masks = env.reset(), env.action_masks()
        model.learn(256)
        drifts[coef] = _kl_to(anchor, model, obs, masks)
    assert drifts[0.0] > 0
    assert drifts[10.0] < drifts[0.0] / 3


def test_an_anchored_run_keeps_its_clone_and_resumes_with_it(tmp_path):
    run = tmp_path / "run"
    args = selfplay.parse_args([GAME, "--timesteps", "128", "--out", str(run), "--num-envs", "4", "--n-steps", "32",
                                "--batch-size", "64", "--eval-every", "100000", "--eval-games", "4",
                                "--net-arch", "32,32", "--imitation-samples", "120", "--imitation-epochs", "1",
                                "--anchor-coef", "0.5"])
    model, _ = selfplay.train(args)
    assert model.anchor is not None and json.loads((run / "args.json").read_text())["anchor_coef"] == 0.5
    clone = MaskablePPO.load(run / "anchor.zip", device="cpu")  # an anchored model loads as a plain one
    resumed, _ = selfplay.load_checkpoint(run, selfplay.make_batched_env(GAME, 4, 0, {}, (1.0, 0.0, 0.0))[1])
    assert resumed.anchor_coef == 0.5
    obs = torch.as_tensor(np.random.default_rng(0).random((5, model.observation_space.shape[0]), np.float32))
    with torch.no_grad():
        torch.testing.assert_close(resumed.anchor.logits(obs), SnapshotPolicy(clone.policy).logits(obs))
        torch.testing.assert_close(model.anchor.logits(obs), resumed.anchor.logits(obs))


def test_an_anchor_needs_a_clone_and_a_weight_of_at_least_zero(tmp_path, capsys):
    for argv in ([GAME, "--anchor-coef", "0.5", "--imitation-samples", "0"], [GAME, "--anchor-coef", "-1"]):
        with pytest.raises(SystemExit):
            selfplay.parse_args(argv + ["--out", str(tmp_path / "x")])
    err = capsys.readouterr().err
    assert "it needs --imitation-samples" in err and "--anchor-coef -1.0: a weight >= 0" in err
