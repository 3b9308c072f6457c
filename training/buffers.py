"""The rollout buffer of self-play: sb3-contrib's minibatches, copied once instead of three times.

sb3-contrib's ``MaskableRolloutBuffer`` serves a PPO update by first reordering every array from
step-major to game-major (``swap_and_flatten``: a copy of the whole rollout's observations, 8192
rows of up to 4,069 numbers, 133 MB), then, per minibatch, gathering its rows (a second copy) and
handing them to torch with ``torch.tensor`` (a third). :class:`LeanRolloutBuffer` gathers each
minibatch's observations and masks straight from the rollout's own arrays, by the index the
reordered array would have had, and gives them to torch without copying; it keeps the masks as
bool (sb3-contrib: float32, four times the bytes), which every reader turns into bool anyway.
The minibatches are the same rows in the same order (the same ``np.random.permutation`` draw).
"""

from __future__ import annotations

from collections.abc import Generator

import numpy as np
import torch
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer, MaskableRolloutBufferSamples


class LeanRolloutBuffer(MaskableRolloutBuffer):
    """``MaskableRolloutBuffer`` with the same minibatches and fewer copies (module docstring)."""

    def reset(self) -> None:
        super().reset()
        self.action_masks = np.ones((self.buffer_size, self.n_envs, self.mask_dims), dtype=bool)

    def get(self, batch_size: int | None = None) -> Generator[MaskableRolloutBufferSamples, None, None]:
        assert self.full, ""
        total = self.buffer_size * self.n_envs
        indices = np.random.permutation(total)
        if not self.generator_ready:  # the small arrays reordered as sb3-contrib does; not the big two
            for name in ("actions", "values", "log_probs", "advantages", "returns"):
                self.__dict__[name] = self.swap_and_flatten(self.__dict__[name])
            self.generator_ready = True
        batch_size = batch_size or total
        for start in range(0, total, batch_size):
            yield self._get_samples(indices[start : start + batch_size])

    def _get_samples(self, batch_inds: np.ndarray, env=None) -> MaskableRolloutBufferSamples:  # type: ignore[override]
        # row i of the game-major order is game i // buffer_size at step i % buffer_size
        rows = (batch_inds % self.buffer_size) * self.n_envs + batch_inds // self.buffer_size
        total = self.buffer_size * self.n_envs
        observations = self.observations.reshape(total, *self.obs_shape)[rows]
        masks = self.action_masks.reshape(total, self.mask_dims)[rows]
        small = (self.actions[batch_inds], self.values[batch_inds].flatten(), self.log_probs[batch_inds].flatten(),
                 self.advantages[batch_inds].flatten(), self.returns[batch_inds].flatten())
        return MaskableRolloutBufferSamples(torch.from_numpy(observations).to(self.device), *map(self.to_torch, small),
                                            torch.from_numpy(masks).to(self.device))
