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


@pytest.mark.parametrize("env_id, shared_layers, head", [(ENV_ID, 0, "flat"), ("volles_fass_voraus_v0", 1, "pointer")])
def test_the_policy_optimises_with_a_multi_tensor_adam_at_ppos_epsilon(tmp_path, env_id, shared_layers, head):
    args = selfplay.parse_args([env_id, "--out", str(tmp_path / "run"), "--net-arch", "32,32",
                                "--shared-layers", str(shared_layers), "--policy-head", head, "--n-steps", "8"])
    _, env = selfplay.make_batched_env(env_id, 4, 0, args.config, args.pool_weights)
    policy = selfplay._new_model(args, env, tmp_path).policy
    optimizer = policy.optimizer
    assert isinstance(optimizer, torch.optim.Adam)
    assert optimizer.defaults["foreach"] and optimizer.defaults["eps"] == 1e-5
    optimised = {id(p) for group in optimizer.param_groups for p in group["params"]}
    assert optimised == {id(p) for p in policy.parameters()}  # the pointer head's too


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
    assert torch.equal(x, torch.tensor([-2430.0, -1.0, 0.0, 1.0, 31.0, 2430.0]))  # computed in place, not on x
    needs_grad = x.clone().requires_grad_()
    symlog(needs_grad).sum().backward()
    torch.testing.assert_close(needs_grad.grad[x != 0], 1 / (1 + x[x != 0].abs()))  # autograd's path where x needs it


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


# ---- the pointer head ---------------------------------------------------------------------


def test_layout_rows_split_a_block_along_the_axis_asked():
    from envs.core.layout import Layout

    layout = Layout(("flag", 1), ("grid", (2, 3)), ("row", 3))
    np.testing.assert_array_equal(layout.rows("grid"), [[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(layout.rows("grid", 1), [[1, 4], [2, 5], [3, 6]])
    np.testing.assert_array_equal(layout.rows("row"), [[7], [8], [9]])
    with pytest.raises(ValueError, match="no axis 2"):
        layout.rows("grid", 2)


def test_entity_rows_put_each_things_views_side_by_side_and_refuse_mismatched_counts():
    from envs.core.layout import Layout
    from training.networks import entity_rows

    layout = Layout(("grid", (2, 3)), ("row", 3))
    np.testing.assert_array_equal(entity_rows(layout, [("grid", 1), "row"]), [[0, 3, 6], [1, 4, 7], [2, 5, 8]])
    with pytest.raises(ValueError, match="different numbers of rows"):
        entity_rows(layout, ["grid", "row"])


def toy_entity_policy(groups, num_actions=6, obs_size=5):
    import gymnasium as gym
    from stable_baselines3.common.utils import ConstantSchedule

    from training.networks import EntityPolicy, EntityTrunk

    kwargs = {"features_extractor_class": EntityTrunk, "share_features_extractor": True,
              "features_extractor_kwargs": {"widths": [8], "groups": groups}, "net_arch": {"pi": [8], "vf": [8]}}
    return EntityPolicy(gym.spaces.Box(-1, 1, (obs_size,), np.float32), gym.spaces.Discrete(num_actions),
                        ConstantSchedule(1e-3), **kwargs)


def test_the_pointer_head_scores_each_groups_actions_from_their_own_rows():
    # actions 2..4 are three things; thing i is described by observation entries rows[i]
    rows = [[0, 1], [2, 3], [2, 4]]
    policy = toy_entity_policy([(2, rows)])
    head = policy.action_net
    with torch.no_grad():
        head.base.weight.zero_()
        head.base.bias.copy_(torch.arange(6.0))
        head.offset[0].zero_()
        obs = torch.tensor([[0.1, 0.2, 0.3, 0.4, 0.5]])
        latent = policy.mlp_extractor.forward_actor(policy.extract_features(obs, policy.features_extractor))
        logits = head(latent)
        context = head.context[0](latent[:, :8])
        expected = [float(head.score[0](torch.tanh(head.entity[0](obs[0, r]) + context[0]))) for r in rows]
    np.testing.assert_allclose(logits[0, [0, 1, 5]].numpy(), [0.0, 1.0, 5.0], atol=1e-6)  # flat head only
    np.testing.assert_allclose(logits[0, 2:5].numpy(), np.arange(2.0, 5.0) + np.array(expected), atol=1e-6)
    # things 1 and 2 share entry 2 and differ in the second; equal second entries, equal scores
    obs2 = obs.clone()
    obs2[0, 4] = obs2[0, 3]
    with torch.no_grad():
        latent2 = policy.mlp_extractor.forward_actor(policy.extract_features(obs2, policy.features_extractor))
        scores = head(latent2)[0, 2:5] - torch.arange(2.0, 5.0)
    assert abs(float(scores[1] - scores[2])) < 1e-6 and abs(float(scores[0] - scores[1])) > 1e-9


def test_a_group_with_neighbours_passes_each_things_rows_then_its_rings_means():
    from training.networks import EntityTrunk, neighbour_mean_matrix

    path = [[1], [0, 2], [1]]  # three things in a row: 0 - 1 - 2
    torch.testing.assert_close(neighbour_mean_matrix(path, 3),
                               torch.tensor([[0.0, 1.0, 0.0], [0.5, 0.0, 0.5], [0.0, 1.0, 0.0]]))
    import gymnasium as gym

    trunk = EntityTrunk(gym.spaces.Box(-9, 9, (4,), np.float32), widths=[2], groups=[(0, [[0], [1], [2]], path)],
                        rings=2)
    assert trunk.groups == [(0, 3, 3)] and trunk.features_dim == 2 + 9
    rows = trunk(torch.tensor([[1.0, 2.0, 4.0, 7.0]]))[0, 2:].reshape(3, 3)
    ring1 = [2.0, 2.5, 2.0]          # the neighbours' mean: 2; (1 + 4) / 2; 2
    ring2 = [2.5, 2.0, 2.5]          # the mean of the neighbours' ring-1 values
    torch.testing.assert_close(rows, torch.tensor([[1.0, 2.0, 4.0], ring1, ring2]).T)


@pytest.mark.parametrize("neighbours", [[[1], [0]], [[1], [0], [3]], [[0], [1], [2]], [[1, 1], [0], [0]]])
def test_neighbours_must_name_other_things_of_the_group(neighbours):
    from training.networks import neighbour_mean_matrix

    with pytest.raises(ValueError):
        neighbour_mean_matrix(neighbours, 3)


def test_the_value_head_reads_the_trunk_only():
    policy = toy_entity_policy([(0, [[0], [1]])])
    obs = torch.zeros(1, 5)
    features = policy.extract_features(obs, policy.features_extractor)
    assert features.shape[1] == 8 + 2
    other_rows = features.clone()
    other_rows[:, 8:] += 1.0  # the passed-through entity rows change, the trunk part does not
    with torch.no_grad():
        torch.testing.assert_close(policy.mlp_extractor.forward_critic(other_rows),
                                   policy.mlp_extractor.forward_critic(features))
        assert not torch.equal(policy.mlp_extractor.forward_actor(other_rows),
                               policy.mlp_extractor.forward_actor(features))


@pytest.mark.parametrize("groups", [[(5, [[0], [1]])], [(2, [[0], [1]]), (1, [[2]])], [(0, [[7]])], [(0, [])]])
def test_entity_groups_out_of_range_overlapping_or_empty_are_refused(groups):
    with pytest.raises(ValueError):
        toy_entity_policy(groups)


@pytest.mark.parametrize("env_id", ["volles_fass_voraus_v0", "teufel_teufel_v0"])  # Teufel's squares: neighbours
def test_a_pointer_model_trains_saves_and_loads_with_the_same_distribution(tmp_path, env_id):
    from sb3_contrib import MaskablePPO

    from training.networks import EntityPolicy

    args = selfplay.parse_args([env_id, "--out", str(tmp_path / "run"), "--net-arch", "16,16",
                                "--n-steps", "8", "--batch-size", "16", "--policy-head", "pointer"])
    batch, env = selfplay.make_batched_env(env_id, 2, 0, args.config, (1.0, 0.0, 0.0))
    model = selfplay._new_model(args, env, tmp_path)
    assert isinstance(model.policy, EntityPolicy)
    model.learn(32)
    model.save(tmp_path / "m.zip")
    loaded = MaskablePPO.load(tmp_path / "m.zip", device="cpu")
    obs, masks = env.reset(), env.action_masks()
    with torch.no_grad():
        ours = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks).distribution.probs
        theirs = loaded.policy.get_distribution(torch.as_tensor(obs), action_masks=masks).distribution.probs
        snapshot = SnapshotPolicy(model.policy).logits(torch.as_tensor(obs)).masked_fill(~torch.as_tensor(masks), -torch.inf)
    torch.testing.assert_close(ours, theirs)
    torch.testing.assert_close(torch.softmax(snapshot, 1), ours)


def test_a_pointer_head_for_a_game_without_action_entities_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit):
        selfplay.parse_args([ENV_ID, "--out", str(tmp_path / "run"), "--policy-head", "pointer"])
    assert "declares no action entities" in capsys.readouterr().err


def test_each_declared_entity_group_covers_exactly_one_run_of_like_actions():
    """The rows of a group must be as many as the actions that pick those things, and those
    actions (by their names) one run: all named alike, their neighbours not."""
    import os

    import envs
    from training.networks import entity_rows
    from training.presets import ACTION_ENTITIES

    for env_id, groups in ACTION_ENTITIES.items():
        game = envs.game_of(env_id)
        config = game.validate({})
        for first, views, *_ in groups:
            count = len(entity_rows(game.layout, views))
            names = [game.action_name(a, config) for a in range(first, first + count)]
            prefix = os.path.commonprefix(names)
            assert len(prefix) >= 5, (env_id, names)
            outside = [a for a in (first - 1, first + count) if 0 <= a < game.num_actions]
            assert not any(game.action_name(a, config).startswith(prefix) for a in outside), (env_id, prefix)


def preset_entity_policy(env_id):
    """The preset's pointer policy of ``env_id`` (its network and groups), with a fixed seed."""
    from training.networks import preset_policy

    policy = preset_policy(env_id, seed=0)
    with torch.no_grad():  # scores as large as the flat head's, so a wrong score would show
        for score, offset in zip(policy.action_net.score, policy.action_net.offset):
            score.weight.normal_()
            offset.normal_()
    return policy


def random_batch(policy, rows=64, legal=0.05, seed=0):
    """Observations with flags and counts up to a few thousand, masks with about ``legal`` of the
    actions legal (at least one a row), and a legal action per row."""
    generator = torch.Generator().manual_seed(seed)
    size, actions = policy.observation_space.shape[0], policy.action_space.n
    obs = torch.where(torch.rand(rows, size, generator=generator) < 0.8, torch.zeros(rows, size),
                      torch.randint(0, 3000, (rows, size), generator=generator).float())
    masks = torch.rand(rows, actions, generator=generator) < legal
    masks[torch.arange(rows), torch.randint(0, actions, (rows,), generator=generator)] = True
    chosen = torch.multinomial(masks.float(), 1, generator=generator)[:, 0]
    return obs, masks, chosen


@pytest.mark.parametrize("used_columns", [1.0, 0.3])
@pytest.mark.parametrize("env_id", ["secret_hitler_v0", "teufel_teufel_v0", "volles_fass_voraus_v0",
                                    "voll_auf_die_18_v0"])
def test_the_pointer_head_on_legal_actions_only_computes_what_scoring_every_action_does(env_id, used_columns):
    """Given masks, the pointer head scores the legal actions only (the speed of the PPO update):
    values, log-probs, entropies and every parameter's gradient must equal sb3-contrib's own
    evaluate_actions, which scores every action, and the snapshot must sample from the same
    distribution. With ``used_columns`` 0.3 the first layer reads a column subset, squashed after
    it is taken (sparse_linear), as in real minibatches."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    policy = preset_entity_policy(env_id)
    obs, masks, chosen = random_batch(policy)
    obs[:, torch.rand(obs.shape[1], generator=torch.Generator().manual_seed(1)) >= used_columns] = 0.0
    results = []
    for evaluate in (policy.evaluate_actions, lambda *a, **k: MaskableActorCriticPolicy.evaluate_actions(policy, *a, **k)):
        policy.zero_grad()
        values, log_prob, entropy = evaluate(obs, chosen, action_masks=masks.float())  # as the rollout buffer has them
        (values.sum() + log_prob.sum() + entropy.sum()).backward()
        results.append(([values, log_prob, entropy], [p.grad.clone() for p in policy.parameters()]))
    (fast, fast_grads), (plain, plain_grads) = results
    for ours, theirs in zip(fast, plain):
        torch.testing.assert_close(ours, theirs, rtol=1e-5, atol=1e-5)
    assert log_prob.std() > 0.1  # the scores matter: the policy is far from uniform
    for ours, theirs in zip(fast_grads, plain_grads):  # float32 sums in another order: near, not equal
        assert (ours - theirs).norm() <= 1e-4 * theirs.norm() + 1e-7
    assert max(float(g.norm()) for g in plain_grads[-8:]) > 0  # the head's parameters have gradients
    with torch.no_grad():
        probs = policy.get_distribution(obs, action_masks=masks.numpy()).distribution.probs
        plain_probs = MaskableActorCriticPolicy.get_distribution(policy, obs, action_masks=masks).distribution.probs
        snapshot = SnapshotPolicy(policy).logits(obs, masks).masked_fill(~masks, -torch.inf)
    torch.testing.assert_close(probs, plain_probs, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(torch.softmax(snapshot, 1), plain_probs, rtol=1e-5, atol=1e-6)


def test_the_first_layer_skips_zero_entries_with_the_dense_layers_outputs_and_gradients():
    """sparse_linear: the column subset of the update and the CSR product of small no-grad batches
    give the dense layer's outputs and weight gradients; the cached transposed weight follows the
    weight's updates (a frozen opponent must not act with stale weights)."""
    from training.networks import SPARSE_ROWS, sparse_linear, symlog

    torch.manual_seed(0)
    linear = torch.nn.Linear(300, 16)
    x = torch.zeros(64, 300)
    x[:, :60] = torch.where(torch.rand(64, 60) < 0.3, torch.randn(64, 60), torch.zeros(64, 60))  # 20% columns used
    for squash in (False, True):  # symlog on the column subset only, after it is taken
        grads = []
        for layer in (sparse_linear, lambda lin, inp, squash: lin(symlog(inp) if squash else inp)):
            linear.zero_grad()
            out = layer(linear, x, squash)
            (out * torch.arange(16.0)).sum().backward()
            grads.append((out.detach(), linear.weight.grad.clone(), linear.bias.grad.clone()))
        for ours, theirs in zip(*grads):
            torch.testing.assert_close(ours, theirs)
        assert grads[0][1][:, 60:].abs().max() == 0 and grads[0][1][:, :60].abs().max() > 0
    optimizer = torch.optim.SGD(linear.parameters(), lr=0.5)
    for step in range(2):
        with torch.inference_mode():
            for rows in (x[:2], x[:SPARSE_ROWS], x):  # CSR, CSR, dense
                torch.testing.assert_close(sparse_linear(linear, rows), linear(rows))
        optimizer.step()  # the weight changes in place: the next round must read the new one


@pytest.mark.parametrize("env_id", ["secret_hitler_v0", "voll_auf_die_18_v0"])  # squashed first / after gathering
def test_the_entity_trunk_squashes_what_it_reads_as_the_dense_trunk_would(env_id):
    """EntityTrunk.parts squashes only the entity rows and the first layer's column subset: its
    output, its rows and the first layer's gradient equal symlog of the whole observation through
    the plain layers, with the update's column subset in use (30% of the columns nonzero)."""
    from training.networks import symlog

    trunk = preset_entity_policy(env_id).features_extractor
    obs, _, _ = random_batch(preset_entity_policy(env_id))
    obs[:, torch.rand(obs.shape[1], generator=torch.Generator().manual_seed(1)) >= 0.3] = 0.0
    results = []
    for forward in (trunk.parts, lambda o: (trunk.layers(symlog(o)), symlog(o)[:, trunk.gather])):
        trunk.zero_grad()
        features, rows = forward(obs)
        features.sum().backward()
        own = torch.cat([tables[0].flatten(1) for tables in rows], dim=1) if isinstance(rows, list) else rows
        results.append((features.detach(), own, trunk.layers[1].weight.grad.clone()))
    for ours, theirs in zip(*results):
        torch.testing.assert_close(ours, theirs, rtol=1e-5, atol=1e-5)
