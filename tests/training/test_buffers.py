"""The lean rollout buffer serves sb3-contrib's minibatches."""

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

from training.buffers import LeanRolloutBuffer


def filled(buffer_class, steps=6, games=5, size=7, actions=4):
    """A buffer of ``buffer_class`` holding one seeded random rollout."""
    rng = np.random.default_rng(0)
    buffer = buffer_class(steps, spaces.Box(-9, 9, (size,), np.float32), spaces.Discrete(actions), "cpu",
                          gamma=0.9, gae_lambda=0.8, n_envs=games)
    for _ in range(steps):
        buffer.add(rng.normal(size=(games, size)).astype(np.float32), rng.integers(actions, size=(games, 1)),
                   rng.normal(size=games).astype(np.float32), rng.random(games) < 0.2,
                   torch.as_tensor(rng.normal(size=games)), torch.as_tensor(rng.normal(size=games)),
                   action_masks=rng.random((games, actions)) < 0.5)
    buffer.compute_returns_and_advantage(torch.as_tensor(rng.normal(size=games)), rng.random(games) < 0.2)
    return buffer


def test_the_lean_buffer_serves_sb3_contribs_minibatches():
    ours, theirs = filled(LeanRolloutBuffer), filled(MaskableRolloutBuffer)
    for epoch in range(2):  # the second epoch reads the arrays the first reordered
        np.random.seed(epoch)
        mine = list(ours.get(8))
        np.random.seed(epoch)
        reference = list(theirs.get(8))
        assert len(mine) == len(reference) == 4
        for a, b in zip(mine, reference):
            for name in a._fields:
                x, y = getattr(a, name), getattr(b, name)
                if name == "action_masks":
                    assert x.dtype == torch.bool
                    y = y.bool()
                torch.testing.assert_close(x, y, check_dtype=False)
