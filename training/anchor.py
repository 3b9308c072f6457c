"""PPO held near its warm start: MaskablePPO with a KL term toward a frozen anchor policy.

The warm start (training/imitation.py) copies the heuristic, and PPO's noisy updates then lose
part of what the copy knew while they find their gains elsewhere: in Secret Hitler (5 players,
benchmarks/results/learning.md) PPO's policy won more than the heuristic as a fascist (0.538
against 0.462) and less as a liberal (0.471 against 0.528), par in all. Kickstarting (Schmitt et
al., 2018) and the KL-to-reference term of RL fine-tuning keep a learner near its teacher where the
reward gives no reason to move. :class:`AnchoredMaskablePPO` adds to PPO's loss

    anchor_coef * KL(anchor(. | s) || policy(. | s))

over the legal actions of every position ``s`` of the rollout, where the anchor is the cloned
policy frozen at step 0 (:class:`training.vector_env.SnapshotPolicy`). With ``anchor_coef`` 0 or no
anchor, training is sb3-contrib's ``MaskablePPO.train`` itself.

The term is part of the PPO loss (not a separate pass): Adam normalises a separate loss's
gradient scale away, so only a shared loss makes the coefficient mean a trade-off against the
policy gradient. The anchored loop is MaskablePPO's (sb3-contrib 2.9) with that one term; it
refuses ``target_kl`` and ``clip_range_vf``, which self-play does not use.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from sb3_contrib import MaskablePPO
from stable_baselines3.common.utils import explained_variance


def masked_kl(target_logits: torch.Tensor, logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """Mean over rows of KL(softmax(target) || softmax(logits)), both restricted to the legal
    actions ``masks`` (bool, one row per position)."""
    target_log_p = torch.log_softmax(target_logits.masked_fill(~masks, -torch.inf), dim=1)
    log_p = torch.log_softmax(logits.masked_fill(~masks, -torch.inf), dim=1)
    gaps = (target_log_p - log_p).masked_fill(~masks, 0.0)  # -inf - -inf off the legal actions
    return (target_log_p.exp() * gaps).sum(dim=1).mean()


class AnchoredMaskablePPO(MaskablePPO):
    """MaskablePPO whose loss also pulls the policy toward ``anchor`` (see the module docstring).

    ``anchor_coef`` is saved with the model; the anchor itself is not (set it with
    :meth:`set_anchor` after loading; training/selfplay.py keeps it as ``<run>/anchor.zip``).
    """

    def __init__(self, *args: Any, anchor_coef: float = 0.0, **kwargs: Any) -> None:
        if not anchor_coef >= 0:
            raise ValueError(f"anchor_coef must be >= 0, got {anchor_coef!r}")
        self.anchor_coef = float(anchor_coef)
        self.anchor = None
        super().__init__(*args, **kwargs)

    def set_anchor(self, anchor: Any) -> None:
        """``anchor``: a frozen policy with ``logits(obs)`` (a SnapshotPolicy) reading this model's
        observations."""
        if self.target_kl is not None or self.clip_range_vf is not None:
            raise ValueError("an anchored MaskablePPO does not support target_kl or clip_range_vf")
        self.anchor = anchor

    def _excluded_save_params(self) -> list[str]:
        return [*super()._excluded_save_params(), "anchor"]

    def train(self) -> None:
        if self.anchor is None or self.anchor_coef == 0:
            return super().train()
        self.policy.set_training_mode(True)
        self._update_learning_rate(self.policy.optimizer)
        clip_range = self.clip_range(self._current_progress_remaining)
        logs = {name: [] for name in ("entropy_loss", "policy_gradient_loss", "value_loss", "anchor_kl",
                                      "approx_kl", "clip_fraction")}
        for _ in range(self.n_epochs):
            for batch in self.rollout_buffer.get(self.batch_size):
                loss = self._anchored_loss(batch, clip_range, logs)
                self.policy.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
                self.policy.optimizer.step()
            self._n_updates += 1
        for name, values in logs.items():
            self.logger.record(f"train/{name}", float(np.mean(values)))
        self.logger.record("train/loss", loss.item())
        self.logger.record("train/explained_variance", explained_variance(
            self.rollout_buffer.values.flatten(), self.rollout_buffer.returns.flatten()))
        self.logger.record("train/n_updates", self._n_updates, exclude="tensorboard")
        self.logger.record("train/clip_range", clip_range)

    def _anchored_loss(self, batch: Any, clip_range: float, logs: dict[str, list[float]]) -> torch.Tensor:
        """MaskablePPO's clipped loss on one minibatch, plus the anchor's KL term."""
        actions = batch.actions.long().flatten()
        masks = batch.action_masks.bool()
        values, log_prob, entropy = self.policy.evaluate_actions(batch.observations, actions, action_masks=masks)
        advantages = batch.advantages
        if self.normalize_advantage:
            advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
        ratio = torch.exp(log_prob - batch.old_log_prob)
        policy_loss = -torch.min(advantages * ratio, advantages * torch.clamp(ratio, 1 - clip_range,
                                                                             1 + clip_range)).mean()
        value_loss = F.mse_loss(batch.returns, values.flatten())
        entropy_loss = -torch.mean(entropy)
        # evaluate_actions left this minibatch's masked distribution on the policy: its logits
        logits = self.policy.action_dist.distribution.logits
        with torch.no_grad():
            target_logits = self.anchor.logits(batch.observations, masks)  # masked_kl masks them
        anchor_kl = masked_kl(target_logits, logits, masks)
        with torch.no_grad():
            log_ratio = log_prob - batch.old_log_prob
            logs["approx_kl"].append(torch.mean(torch.exp(log_ratio) - 1 - log_ratio).item())
        logs["clip_fraction"].append(torch.mean((torch.abs(ratio - 1) > clip_range).float()).item())
        for name, value in (("policy_gradient_loss", policy_loss), ("value_loss", value_loss),
                            ("entropy_loss", entropy_loss), ("anchor_kl", anchor_kl)):
            logs[name].append(value.item())
        return policy_loss + self.ent_coef * entropy_loss + self.vf_coef * value_loss + self.anchor_coef * anchor_kl
