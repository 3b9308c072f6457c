"""The policy network of self-play: hidden layers shared by the policy and the value head.

Our observations are wide (800-3,900 numbers) and the first layer holds almost all of a network's
weights and work: with separate policy and value networks (SB3's default for a list ``net_arch``)
every forward and every PPO epoch pays for that layer twice. :func:`policy_kwargs` puts the first
``shared_layers`` widths of ``net_arch`` into one trunk (a features extractor shared by both
heads), and the remaining widths into each head, which halves the cost of the wide layer.

Our observations mix 0/1 flags with counts and scores (doubloons, points: up to a few thousand in
Volle Socke). Fed raw, the large entries saturate the tanh units of the first layer and drown the
flags, so the trunk can first squash every entry with DreamerV3's symlog, ``sign(x) log(1 + |x|)``:
it leaves 0 at 0, keeps order and sign, and brings 2,430 to 7.8 while a flag of 1 stays 0.69.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import torch
from stable_baselines3.common.preprocessing import get_flattened_obs_dim
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


def symlog(x: torch.Tensor) -> torch.Tensor:
    """``sign(x) log(1 + |x|)``: large magnitudes compressed, 0 kept, order and sign kept."""
    return torch.sign(x) * torch.log1p(torch.abs(x))


class SharedTrunk(BaseFeaturesExtractor):
    """Dense layers of ``widths`` (tanh, as SB3's PPO heads) from the flat observation, squashed
    by :func:`symlog` first when ``squash`` (no widths: the squashed observation itself)."""

    def __init__(self, observation_space: gym.Space, widths: Sequence[int] = (256,), squash: bool = False):
        size = get_flattened_obs_dim(observation_space)
        super().__init__(observation_space, features_dim=int(widths[-1]) if widths else size)
        self.squash = bool(squash)
        layers = [nn.Flatten()]
        for width in widths:
            layers += [nn.Linear(size, int(width)), nn.Tanh()]
            size = int(width)
        self.layers = nn.Sequential(*layers)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.layers(symlog(observations) if self.squash else observations)


def policy_kwargs(net_arch: Sequence[int], shared_layers: int, squash: bool = False) -> dict[str, Any]:
    """MaskablePPO's ``policy_kwargs`` for hidden ``net_arch`` whose first ``shared_layers`` are
    shared, the observation squashed by :func:`symlog` when ``squash``."""
    shared, heads = list(net_arch[:shared_layers]), list(net_arch[shared_layers:])
    if not shared and not squash:
        return {"net_arch": list(net_arch)}
    trunk = {"widths": shared} | ({"squash": True} if squash else {})
    return {"features_extractor_class": SharedTrunk, "features_extractor_kwargs": trunk,
            "share_features_extractor": True, "net_arch": {"pi": heads, "vf": heads}}
