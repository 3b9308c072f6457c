"""The self-play network: a trunk shared by policy and value, and the snapshot's lean forward."""

import numpy as np
import pytest
import torch

from training import selfplay
from training.networks import SharedTrunk, policy_kwargs
from training.vector_env import SnapshotPolicy

ENV_ID = "volle_socke_v0"


def small_model(tmp_path, shared_layers, net_arch="32,32"):
    args = selfplay.parse_args([ENV_ID, "--out", str(tmp_path / "run"), "--net-arch", net_arch,
                                "--shared-layers", str(shared_layers), "--n-steps", "8"])
    batch, env = selfplay.make_batched_env(ENV_ID, 4, 0, args.config, args.pool_weights)
    return selfplay._new_model(args, env, tmp_path), env


def test_policy_kwargs_split_the_widths_between_trunk_and_heads():
    assert policy_kwargs([256, 256], 0) == {"net_arch": [256, 256]}
    shared = policy_kwargs([256, 128, 64], 1)
    assert shared["features_extractor_class"] is SharedTrunk and shared["share_features_extractor"]
    assert shared["features_extractor_kwargs"] == {"widths": [256]}
    assert shared["net_arch"] == {"pi": [128, 64], "vf": [128, 64]}


def test_a_shared_first_layer_holds_its_weights_once(tmp_path):
    separate, _ = small_model(tmp_path / "a", 0)
    shared, _ = small_model(tmp_path / "b", 1)
    width, obs = 32, separate.observation_space.shape[0]
    first_layers = lambda model: sum(p.numel() for n, p in model.policy.named_parameters()  # noqa: E731
                                     if p.shape == (width, obs))
    assert first_layers(separate) == 2 * width * obs and first_layers(shared) == width * obs


@pytest.mark.parametrize("shared_layers", [0, 1])
def test_snapshot_samples_from_the_policys_own_masked_distribution(tmp_path, shared_layers):
    model, env = small_model(tmp_path, shared_layers)
    obs, masks = env.reset(), env.action_masks()
    snapshot = SnapshotPolicy(model.policy)
    with torch.no_grad():
        expected = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks).distribution.probs
        logits = snapshot.logits(torch.as_tensor(obs)).masked_fill(~torch.as_tensor(masks), -torch.inf)
    np.testing.assert_allclose(torch.softmax(logits, 1).numpy(), expected.numpy(), atol=1e-6)
    for _ in range(20):
        actions = snapshot(obs, masks)
        assert masks[np.arange(len(actions)), actions].all()
    greedy = SnapshotPolicy(model.policy, deterministic=True)(obs, masks)
    np.testing.assert_array_equal(greedy, expected.argmax(1).numpy())


def test_shared_layers_beyond_the_network_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit):
        selfplay.parse_args([ENV_ID, "--out", str(tmp_path / "run"), "--net-arch", "32", "--shared-layers", "2"])
    assert "--shared-layers 2" in capsys.readouterr().err


def test_symlog_squashes_large_entries_and_keeps_flags_zero_order_and_sign():
    from training.networks import symlog

    x = torch.tensor([-2430.0, -1.0, 0.0, 1.0, 31.0, 2430.0])
    y = symlog(x)
    assert y[2] == 0 and torch.all(y[1:] > y[:-1])
    np.testing.assert_allclose(y.numpy(), np.sign(x.numpy()) * np.log1p(np.abs(x.numpy())), rtol=1e-6)
    assert abs(float(y[-1]) - 7.796) < 1e-3


def test_a_squashing_trunk_feeds_the_first_layer_symlog_of_the_observation(tmp_path):
    kwargs = policy_kwargs([8, 8], 1, squash=True)
    assert kwargs["features_extractor_kwargs"] == {"widths": [8], "squash": True}
    space = __import__("gymnasium").spaces.Box(0, 5000, (3,), np.float32)
    trunk = SharedTrunk(space, widths=[4], squash=True)
    obs = torch.tensor([[0.0, 1.0, 2430.0]])
    first = trunk.layers[1]
    expected = torch.tanh(first(torch.log1p(obs)))
    torch.testing.assert_close(trunk(obs), expected)
    flat = SharedTrunk(space, widths=[], squash=True)  # no shared layers: the squashed observation
    assert flat.features_dim == 3 and torch.allclose(flat(obs), torch.log1p(obs))
    assert policy_kwargs([8, 8], 0, squash=True)["net_arch"] == {"pi": [8, 8], "vf": [8, 8]}


def test_the_preset_squashes_and_a_trunk_saved_without_the_option_does_not(tmp_path):
    model, _ = small_model(tmp_path, 1)
    assert model.policy.features_extractor.squash
    # checkpoints from before the option rebuild their trunk from kwargs without it: raw inputs
    space = model.observation_space
    assert not SharedTrunk(space, widths=[4]).squash
