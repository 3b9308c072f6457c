"""The compiled snapshot forward (training/numba_policy.py) acts as the torch policy it copies."""

import pathlib

import numpy as np
import pytest
import torch

from tests.plain_python import plain_and_compiled
from tests.training.test_networks import preset_entity_policy, random_batch, small_model
from training.numba_policy import choose, compile_policy
from training.vector_env import SnapshotPolicy

POINTER_GAMES = ["secret_hitler_v0", "teufel_teufel_v0", "volles_fass_voraus_v0", "voll_auf_die_18_v0"]


def torch_masked_logits(policy, obs, masks):
    with torch.no_grad():
        logits = SnapshotPolicy(policy, compiled=False).logits(obs, masks)
    return logits.masked_fill(~masks, -torch.inf).numpy()


def assert_same_logits(ours, theirs):
    legal = np.isfinite(theirs)
    np.testing.assert_array_equal(np.isfinite(ours), legal)  # -inf exactly where illegal
    np.testing.assert_allclose(ours[legal], theirs[legal], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("env_id", POINTER_GAMES)
def test_the_compiled_pointer_policy_gives_torchs_logits_and_argmax(env_id):
    policy = preset_entity_policy(env_id)  # the preset's network and groups, scores made large
    compiled = compile_policy(policy)
    assert compiled is not None and len(compiled.groups) == len(policy.action_net.groups)
    for legal in (0.05, 0.5):
        obs, masks, _ = random_batch(policy, rows=24, legal=legal, seed=int(legal * 100))
        theirs = torch_masked_logits(policy, obs, masks)
        assert_same_logits(compiled.logits(obs.numpy(), masks.numpy()), theirs)
        greedy = SnapshotPolicy(policy, deterministic=True)(obs.numpy(), masks.numpy())
        np.testing.assert_array_equal(greedy, theirs.argmax(1))


def test_teufels_neighbour_rings_are_compiled():
    policy = preset_entity_policy("teufel_teufel_v0")
    rings = compile_policy(policy).groups[:, 3]
    assert rings.max() == 2  # the squares read two rings of neighbours: the path under test above


@pytest.mark.parametrize("shared_layers", [0, 1])
def test_the_compiled_flat_policy_gives_torchs_logits(tmp_path, shared_layers):
    model, env = small_model(tmp_path, shared_layers)  # Volle Socke: a flat head, trunk or not
    obs, masks = env.reset(), env.action_masks()
    compiled = compile_policy(model.policy)
    assert compiled is not None
    assert_same_logits(compiled.logits(obs, masks), torch_masked_logits(model.policy, torch.as_tensor(obs),
                                                                        torch.as_tensor(masks)))


def test_draws_follow_the_masked_softmax():
    """Evenly spaced uniforms pick each action in proportion to its probability; -inf never."""
    logits = np.array([[0.0, np.log(3.0), -np.inf, np.log(4.0)]], np.float32)
    draws = (np.arange(800) + 0.5) / 800
    actions = np.empty(800, np.int64)
    choose(np.repeat(logits, 800, axis=0), draws, True, actions)
    np.testing.assert_array_equal(np.bincount(actions, minlength=4), [100, 300, 0, 400])
    choose(logits, np.zeros(1), False, actions[:1])
    assert actions[0] == 3


def test_sampled_snapshot_moves_are_legal_seeded_and_spread_as_the_policy(tmp_path):
    model, env = small_model(tmp_path, 1)
    obs, masks = env.reset(), env.action_masks()
    row_obs, row_masks = np.repeat(obs[:1], 4000, axis=0), np.repeat(masks[:1], 4000, axis=0)
    snapshot = SnapshotPolicy(model.policy, seed=7)
    actions = snapshot(row_obs, row_masks)
    assert row_masks[np.arange(len(actions)), actions].all()
    np.testing.assert_array_equal(actions, SnapshotPolicy(model.policy, seed=7)(row_obs, row_masks))
    probs = torch.softmax(torch.as_tensor(torch_masked_logits(model.policy, torch.as_tensor(obs[:1]),
                                                              torch.as_tensor(masks[:1]))), 1)[0].numpy()
    frequencies = np.bincount(actions, minlength=len(probs)) / len(actions)
    assert np.abs(frequencies - probs).max() < 0.03  # 4,000 draws: a few standard errors


def test_the_copy_is_frozen_and_bad_input_is_refused(tmp_path):
    model, env = small_model(tmp_path, 1)
    obs, masks = env.reset(), env.action_masks()
    compiled = compile_policy(model.policy)
    before = compiled.logits(obs, masks)
    with torch.no_grad():
        for parameter in model.policy.parameters():
            parameter.add_(1.0)
    np.testing.assert_array_equal(compiled.logits(obs, masks), before)
    with pytest.raises(ValueError, match="expected obs"):
        compiled.logits(obs[:, :-1], masks)
    no_move = masks.copy()
    no_move[0] = False
    with pytest.raises(ValueError, match="legal action"):
        compiled.act(obs, no_move, None)


def test_an_unknown_network_keeps_torch(tmp_path):
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.utils import ConstantSchedule

    _, env = small_model(tmp_path, 1)
    policy = MaskableActorCriticPolicy(env.observation_space, env.action_space, ConstantSchedule(1e-3),
                                       net_arch=[16], activation_fn=torch.nn.ELU)
    assert compile_policy(policy) is None
    snapshot = SnapshotPolicy(policy)
    obs, masks = env.reset(), env.action_masks()
    assert snapshot.compiled is None and masks[np.arange(len(obs)), snapshot(obs, masks)].all()


_PLAIN_SCRIPT = """
import sys; sys.path.insert(0, {root!r})
import json, numpy as np
from tests.training.test_networks import toy_entity_policy
from training.numba_policy import compile_policy
import torch
torch.manual_seed(0)
policy = toy_entity_policy([(0, [[0, 1], [2, 3]], [[1], [0]]), (3, [[4], [1]])], num_actions=6, obs_size=5)
obs = np.random.default_rng(0).integers(-3, 40, (6, 5)).astype(np.float32)
masks = np.random.default_rng(1).random((6, 6)) < 0.6
masks[:, 2] = True
compiled = compile_policy(policy)
print(json.dumps([compiled.logits(obs, masks).tolist(), compiled.act(obs, masks, np.linspace(0, 0.9, 6)).tolist()]))
"""


def test_plain_python_runs_the_same_forward():
    """NUMBA_DISABLE_JIT=1 runs the same code as plain Python and gives the same moves."""
    script = _PLAIN_SCRIPT.format(root=str(pathlib.Path(__file__).resolve().parents[2]))
    (plain_logits, plain_actions), (jit_logits, jit_actions) = plain_and_compiled(script)
    np.testing.assert_allclose(np.array(plain_logits), np.array(jit_logits), rtol=1e-5, atol=1e-6)
    assert plain_actions == jit_actions
