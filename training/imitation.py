"""Behaviour cloning from the heuristic: the warm start of self-play.

A policy that starts from random weights spends its whole budget on this CPU learning what the
heuristic already knows (benchmarks/results/learning.md: 20-95 minutes of PPO from scratch beat
the heuristic in no game). So self-play can first copy the heuristic, as AlphaStar's and
"kickstarting" agents start from human or teacher play, and then let PPO improve on it:

1. :func:`collect_demonstrations` plays batched games in which the heuristic agent acts in the
   learner's seat (through :class:`training.policy_eval.AgentsAsPolicy`) against the opponents of
   the pool (random and heuristic; snapshots do not exist yet), and keeps each learner
   decision: observation, legal mask, the heuristic's action and the discounted return that
   followed (the training reward, shaping included, as PPO will see it). The cooperative game
   plays the heuristic in every seat of a :class:`~training.vector_env.TeamVecEnv`.
2. :func:`clone` fits a MaskablePPO policy to them: the masked log-likelihood of the heuristic's
   actions for the policy head and the squared error to the returns for the value head, so
   PPO's first advantages are measured against a value that already knows the game instead of
   noise that would tear the copied policy apart.
3. :func:`warm_start` repeats this DAgger-style (Ross et al., 2011): after the first fit, the
   cloned policy plays while the heuristic names its choice in every position the policy
   reaches, those labels join the data and the policy is fitted again. A copy that only ever saw
   the heuristic's own games meets positions the heuristic never gets into as soon as it errs
   once, and its errors compound there; the extra rounds teach it to recover.

Only legal actions carry probability (the masked distribution), so the loss asks the policy to
pick the heuristic's choice among the legal ones. The demonstrations are not counted as
training steps (``model.num_timesteps`` stays 0); a run's time budget includes them.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

import numpy as np

import envs
from training.policy_eval import AgentsAsPolicy
from training.vector_env import LearnerVecEnv, TeamVecEnv


@dataclasses.dataclass
class Demonstrations:
    """Learner decisions of heuristic play: row ``k`` is one decision."""

    obs: np.ndarray       # (n, obs_size) float32
    masks: np.ndarray     # (n, num_actions) bool
    actions: np.ndarray   # (n,) int64, the heuristic's choice
    returns: np.ndarray   # (n,) float32, the discounted training reward from this decision on
    episodes: int         # finished episodes the rows come from

    def __len__(self) -> int:
        return len(self.actions)


def collect_demonstrations(env_id: str, samples: int, seed: int, config: dict[str, Any] | None, gamma: float,
                           weights: Sequence[float] = (0.5, 0.5, 0.0), num_envs: int = 64, actor: Any = None,
                           progress: bool = False) -> Demonstrations:
    """At least ``samples`` learner decisions labelled with the heuristic's choice, from finished
    episodes only (a return needs its episode's end); ``weights`` are the opponent pool's
    (random, heuristic, snapshot) odds, snapshot odds ignored. ``actor`` (a batched ``(obs,
    masks) -> actions`` policy) plays the learner's seat instead of the heuristic, which then
    only labels the positions it reaches (a DAgger round)."""
    from agents.heuristic import heuristic_for
    from tqdm import tqdm

    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a positive integer, got {samples!r}")
    if not 0 <= gamma <= 1:
        raise ValueError(f"gamma must be in [0, 1], got {gamma!r}")
    if envs.game_of(env_id).simultaneous:
        env = TeamVecEnv(env_id, num_games=max(1, num_envs // 2), seed=seed, config=config)
    else:
        env = LearnerVecEnv(env_id, num_envs=num_envs, seed=seed, config=config,
                            weights=(weights[0], weights[1], 0.0), heuristic_seed=seed + 1)
    teacher = AgentsAsPolicy(env, lambda s: heuristic_for(env_id, seed=seed * 7_919 + s))
    open_rows = [[] for _ in range(env.num_envs)]  # per sub-env: (obs, mask, action, reward) of its episode
    finished, episodes, kept = [], 0, 0
    bar = tqdm(total=samples, desc=f"heuristic demonstrations {env_id}", unit="step", unit_scale=True,
               disable=not progress, leave=False)
    obs = env.reset()
    while kept < samples:
        masks = env.action_masks()
        labels = teacher(obs, masks)
        next_obs, rewards, dones, _ = env.step(labels if actor is None else actor(obs, masks))
        for k in range(env.num_envs):
            open_rows[k].append((obs[k], masks[k], labels[k], rewards[k]))
            if dones[k]:
                finished.append(open_rows[k])
                kept += len(open_rows[k])
                bar.update(len(open_rows[k]))
                open_rows[k], episodes = [], episodes + 1
        obs = next_obs
    bar.close()
    return _stack(finished, gamma, episodes)


def _stack(episodes_rows, gamma, episodes):
    """Demonstrations from per-episode rows ``(obs, mask, action, reward)``."""
    obs, masks, actions, returns = [], [], [], []
    for rows in episodes_rows:
        following = 0.0
        episode_returns = np.empty(len(rows), np.float32)
        for k in range(len(rows) - 1, -1, -1):  # the reward of a step is what followed its action
            following = rows[k][3] + gamma * following
            episode_returns[k] = following
        obs += [row[0] for row in rows]
        masks += [row[1] for row in rows]
        actions += [row[2] for row in rows]
        returns.append(episode_returns)
    return Demonstrations(np.asarray(obs, np.float32), np.asarray(masks, bool), np.asarray(actions, np.int64),
                          np.concatenate(returns), episodes)


def clone(policy: Any, demos: Demonstrations, epochs: int = 4, batch_size: int = 512, learning_rate: float = 1e-3,
          value_coef: float = 0.5, seed: int = 0, progress: bool = False) -> list[dict[str, float]]:
    """Fit a MaskablePPO ``policy`` (``model.policy``) to ``demos``; one row per epoch: the mean
    action loss, the value loss and how often the policy's most likely action is the heuristic's."""
    import torch
    from tqdm import tqdm

    if len(demos) == 0:
        raise ValueError("no demonstrations to clone")
    generator = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate, foreach=True)  # multi-tensor kernels
    policy.set_training_mode(True)
    history = []
    for epoch in tqdm(range(epochs), desc="behaviour cloning", unit="epoch", disable=not progress, leave=False):
        order = generator.permutation(len(demos))
        sums = np.zeros(3)
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            obs = torch.as_tensor(demos.obs[rows])
            actions = torch.as_tensor(demos.actions[rows])
            values, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=demos.masks[rows])
            action_loss = -log_prob.mean()
            value_loss = torch.nn.functional.mse_loss(values.flatten(), torch.as_tensor(demos.returns[rows]))
            optimizer.zero_grad()
            (action_loss + value_coef * value_loss).backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            with torch.no_grad():
                agree = (policy.get_distribution(obs, action_masks=demos.masks[rows]).distribution.probs
                         .argmax(dim=1) == actions).float().mean()
            sums += np.array([action_loss.item(), value_loss.item(), agree.item()]) * len(rows)
        history.append(dict(zip(("action_loss", "value_loss", "agreement"), (sums / len(order)).tolist()),
                            epoch=epoch + 1))
    policy.set_training_mode(False)
    return history


def warm_start(model: Any, env_id: str, samples: int, epochs: int, seed: int, config: dict[str, Any] | None,
               weights: Sequence[float], rounds: int = 3, progress: bool = False) -> dict[str, Any]:
    """Clone the heuristic into ``model``'s policy from ``samples`` labelled decisions in all,
    gathered in ``rounds``: the heuristic's own games, then positions the cloned policy reaches
    (each round refits on everything so far for ``epochs`` passes). Returns what it did."""
    from training.vector_env import SnapshotPolicy

    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ValueError(f"rounds must be a positive integer, got {rounds!r}")
    per_round = max(1, samples // rounds)
    data, report = None, {"rounds": []}
    for r in range(rounds):
        actor = None if r == 0 else SnapshotPolicy(model.policy)
        more = collect_demonstrations(env_id, per_round, seed + r, config, model.gamma, weights, actor=actor,
                                      progress=progress)
        data = more if data is None else _concatenate(data, more)
        fit = clone(model.policy, data, epochs=epochs, seed=seed + r, progress=progress)
        report["rounds"].append({"played_by": "heuristic" if r == 0 else "cloned policy", "samples": len(more),
                                 "episodes": more.episodes, "epochs": fit})
    report["samples"] = len(data)
    report["agreement"] = report["rounds"][-1]["epochs"][-1]["agreement"]
    return report


def _concatenate(a: Demonstrations, b: Demonstrations) -> Demonstrations:
    return Demonstrations(np.concatenate([a.obs, b.obs]), np.concatenate([a.masks, b.masks]),
                          np.concatenate([a.actions, b.actions]), np.concatenate([a.returns, b.returns]),
                          a.episodes + b.episodes)
