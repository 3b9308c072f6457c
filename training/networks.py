"""The policy network of self-play: hidden layers shared by the policy and the value head.

Our observations are wide (800-3,900 numbers) and the first layer holds almost all of a network's
weights and work: with separate policy and value networks (SB3's default for a list ``net_arch``)
every forward and every PPO epoch pays for that layer twice. :func:`policy_kwargs` puts the first
``shared_layers`` widths of ``net_arch`` into one trunk (a features extractor shared by both
heads), and the remaining widths into each head, which halves the cost of the wide layer.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import torch
from stable_baselines3.common.preprocessing import get_flattened_obs_dim
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


class SharedTrunk(BaseFeaturesExtractor):
    """Dense layers of ``widths`` (tanh, as SB3's PPO heads) from the flat observation."""

    def __init__(self, observation_space: gym.Space, widths: Sequence[int] = (256,)):
        super().__init__(observation_space, features_dim=int(widths[-1]))
        layers, size = [nn.Flatten()], get_flattened_obs_dim(observation_space)
        for width in widths:
            layers += [nn.Linear(size, int(width)), nn.Tanh()]
            size = int(width)
        self.layers = nn.Sequential(*layers)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.layers(observations)


def policy_kwargs(net_arch: Sequence[int], shared_layers: int) -> dict[str, Any]:
    """MaskablePPO's ``policy_kwargs`` for hidden ``net_arch`` whose first ``shared_layers`` are shared."""
    shared, heads = list(net_arch[:shared_layers]), list(net_arch[shared_layers:])
    if not shared:
        return {"net_arch": list(net_arch)}
    return {"features_extractor_class": SharedTrunk, "features_extractor_kwargs": {"widths": shared},
            "share_features_extractor": True, "net_arch": {"pi": heads, "vf": heads}}
