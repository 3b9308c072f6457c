"""A frozen policy's masked forward in numba: snapshot opponents acting without torch.

The batched trainer asks each frozen snapshot of the learner for the moves of the few games
waiting on it, once per wave of opponent moves, thousands of times a rollout. A torch forward of
the preset networks costs about 1 ms a call whatever the batch (some 50 operators at 4-30 us
each), and those calls took 25-47% of batched training time (benchmarks/results/training_speed.md).
:func:`compile_policy` copies the weights of a MaskablePPO policy into flat arrays once, and
:func:`act` runs the same sums in one compiled call: the first layer reads only the observation's
nonzero entries (85-95% are zero) and the action head scores the legal actions only.

Networks understood (what training/networks.py builds, and SB3's plain ``MlpPolicy``): a features
extractor that flattens (SB3's ``FlattenExtractor``) or is a :class:`~training.networks.SharedTrunk`
/ :class:`~training.networks.EntityTrunk` (symlog squash, dense tanh layers), the actor's dense
layers (tanh or ReLU), and a linear action head or a :class:`~training.networks.PointerHead` (its
groups' entity rows, neighbour rings and scorers). :func:`compile_policy` returns None for any
other network, and the caller keeps torch.

The arrays: ``weights`` (float32) holds every parameter; ``layers`` (int64, one row a dense layer:
inputs, outputs, weight offset, bias offset, activation) the dense chain from the observation to
the actor's latent, each weight stored input-major so that a zero input skips a whole row;
``head`` the action head's (actions, latent, weight offset, bias offset), its weight action-major;
``groups`` one row a pointer group (:data:`GROUP_FIELDS`); ``gather`` the observation offsets of
every group's entity rows, as :class:`~training.networks.EntityTrunk` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

NO_ACTIVATION, TANH, RELU = 0, 1, 2

#: The columns of a pointer group's row in ``groups``: its first action and count of things, each
#: thing's own entries (``own``) and neighbour rings, where its rows start in ``gather``, the
#: neighbour-mean matrix's offset (-1: none), and the offsets of the entity and context layers'
#: weights and biases, the per-thing offsets, the score layer's weight and bias, and the hidden width.
GROUP_FIELDS = ("first", "count", "own", "rings", "gather_start", "spread", "entity_w", "entity_b",
                "context_w", "context_b", "offset", "score_w", "score_b", "hidden")
_G = {name: i for i, name in enumerate(GROUP_FIELDS)}
FIRST, COUNT, OWN, RINGS, GATHER, SPREAD, ENTITY_W, ENTITY_B, CONTEXT_W, CONTEXT_B, OFFSET, SCORE_W, SCORE_B, HIDDEN = (
    _G[name] for name in GROUP_FIELDS)


@dataclass(frozen=True)
class CompiledPolicy:
    """A policy's actor as flat arrays for :func:`masked_logits` (see the module docstring)."""

    squash: bool
    weights: np.ndarray
    layers: np.ndarray
    head: np.ndarray
    groups: np.ndarray
    gather: np.ndarray
    num_actions: int
    obs_size: int

    def arrays(self) -> tuple:
        return self.squash, self.weights, self.layers, self.head, self.groups, self.gather

    def logits(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The masked logits ``(N, num_actions)``: the policy's own on legal actions, -inf elsewhere."""
        obs, masks = self._checked(obs, masks)
        out = np.empty(masks.shape, np.float32)
        masked_logits(obs, masks, *self.arrays(), out)
        return out

    def act(self, obs: np.ndarray, masks: np.ndarray, uniforms: np.ndarray | None) -> np.ndarray:
        """One action a row: sampled from the masked distribution by ``uniforms`` (one in [0, 1) a
        row), or its most likely legal action where ``uniforms`` is None."""
        obs, masks = self._checked(obs, masks)
        actions = np.empty(len(obs), np.int64)
        sampled = uniforms is not None
        draws = np.asarray(uniforms, np.float64) if sampled else np.zeros(len(obs))
        act(obs, masks, *self.arrays(), draws, sampled, actions)
        return actions

    def _checked(self, obs, masks):
        obs = np.ascontiguousarray(obs, np.float32)
        masks = np.ascontiguousarray(masks, np.bool_)
        if obs.ndim != 2 or obs.shape[1] != self.obs_size or masks.shape != (len(obs), self.num_actions):
            raise ValueError(f"expected obs (N, {self.obs_size}) and masks (N, {self.num_actions}), "
                             f"got {obs.shape} and {masks.shape}")
        if not masks.any(axis=1).all():
            raise ValueError("every row needs a legal action")
        return obs, masks


# ---- copying a torch policy's weights -------------------------------------------------------


class _Weights:
    """The growing ``weights`` array: each tensor appended, its offset returned."""

    def __init__(self) -> None:
        self.parts: list[np.ndarray] = []
        self.size = 0

    def add(self, tensor: Any) -> int:
        array = np.ascontiguousarray(tensor.detach().cpu().numpy(), np.float32).ravel()
        self.parts.append(array)
        self.size += array.size
        return self.size - array.size

    def array(self) -> np.ndarray:
        return np.concatenate(self.parts) if self.parts else np.zeros(0, np.float32)


def compile_policy(policy: Any) -> CompiledPolicy | None:
    """The actor of a MaskablePPO ``policy`` as a :class:`CompiledPolicy` (weights copied: later
    changes to ``policy`` do not reach it), or None if its network is not one this module knows."""
    from torch import nn

    from training.networks import EntityTrunk, PointerHead, SharedTrunk

    extractor = policy.pi_features_extractor
    if isinstance(extractor, SharedTrunk):
        squash, trunk = extractor.squash, list(extractor.layers)[1:]  # Flatten first
    elif type(extractor).__name__ == "FlattenExtractor":
        squash, trunk = False, []
    else:
        return None
    actor = policy.mlp_extractor.heads if isinstance(policy.action_net, PointerHead) else policy.mlp_extractor
    weights = _Weights()
    layers = _dense_chain(trunk + list(getattr(actor, "policy_net", [])), weights)
    if layers is None:
        return None
    head = policy.action_net
    base = head.base if isinstance(head, PointerHead) else head
    if not isinstance(base, nn.Linear):
        return None
    head_row = np.array([base.out_features, base.in_features, weights.add(base.weight), weights.add(base.bias)], np.int64)
    groups, gather = np.zeros((0, len(GROUP_FIELDS)), np.int64), np.zeros(0, np.int64)
    if isinstance(head, PointerHead):
        if not isinstance(extractor, EntityTrunk):
            return None
        groups, gather = _pointer_groups(extractor, head, weights), extractor.gather.cpu().numpy().astype(np.int64)
    size = int(np.prod(policy.observation_space.shape))
    return CompiledPolicy(bool(squash), weights.array(), layers, head_row, groups, gather, int(base.out_features), size)


def _dense_chain(modules: list, weights: _Weights) -> np.ndarray | None:
    """``layers`` rows for alternating Linear / activation modules (an activation may be absent)."""
    from torch import nn

    rows = []
    for module in modules:
        if isinstance(module, nn.Linear):
            rows.append([module.in_features, module.out_features, weights.add(module.weight.t()),
                         weights.add(module.bias), NO_ACTIVATION])
        elif isinstance(module, (nn.Tanh, nn.ReLU)) and rows and rows[-1][4] == NO_ACTIVATION:
            rows[-1][4] = TANH if isinstance(module, nn.Tanh) else RELU
        else:
            return None
    return np.array(rows, np.int64).reshape(-1, 5)


def _pointer_groups(trunk: Any, head: Any, weights: _Weights) -> np.ndarray:
    rows, start = [], 0
    for g, ((first, count, k), spread) in enumerate(zip(trunk.groups, trunk.spreads)):
        rings = trunk.rings if spread else 0
        own = k // (1 + rings)
        spread_at = weights.add(getattr(trunk, f"spread_{g}")) if spread else -1
        entity, context = head.entity[g], head.context[g]
        rows.append([first, count, own, rings, start, spread_at,
                     weights.add(entity.weight.t()), weights.add(entity.bias),
                     weights.add(context.weight.t()), weights.add(context.bias), weights.add(head.offset[g]),
                     weights.add(head.score[g].weight), weights.add(head.score[g].bias), entity.out_features])
        start += count * own
    return np.array(rows, np.int64)


# ---- the forward, compiled ------------------------------------------------------------------


@njit(cache=True)
def _dense(x, weights, row, out):
    """``out = activation(x @ W + b)`` for one ``layers`` row, skipping zero entries of ``x``.
    (The inner loops run over slices: numba vectorises those, not indexing by computed offsets,
    6x faster on Secret Hitler's first layer.)"""
    n_in, n_out, w, b, activation = row[0], row[1], row[2], row[3], row[4]
    out[:] = weights[b : b + n_out]
    for i in range(n_in):
        value = x[i]
        if value != 0.0:
            _add_scaled(out, value, weights[w + i * n_out : w + (i + 1) * n_out])
    if activation == 1:
        for j in range(n_out):
            out[j] = np.tanh(out[j])
    elif activation == 2:
        for j in range(n_out):
            out[j] = max(out[j], np.float32(0.0))


@njit(cache=True)
def _add_scaled(out, value, row):
    """``out += value * row``, in place."""
    for j in range(out.size):
        out[j] += value * row[j]


@njit(cache=True, fastmath=True)
def _dot(a, b):
    """``a @ b``; fastmath lets numba reorder the sum into vector lanes (within float rounding)."""
    total = np.float32(0.0)
    for i in range(a.size):
        total += a[i] * b[i]
    return total


@njit(cache=True)
def _latent(x, weights, layers):
    """The actor's latent from the (squashed) observation ``x``."""
    h = x
    for layer in range(layers.shape[0]):
        out = np.empty(layers[layer, 1], np.float32)
        _dense(h, weights, layers[layer], out)
        h = out
    return h


@njit(cache=True)
def _group_scores(x, latent, legal, weights, group, gather, logits):
    """Add a pointer group's scores to the logits of its legal actions (PointerHead.logits)."""
    first, count, own, rings = group[FIRST], group[COUNT], group[OWN], group[RINGS]
    hidden = group[HIDDEN]
    any_legal = False
    for t in range(count):
        any_legal |= legal[first + t]
    if not any_legal:
        return
    context = weights[group[CONTEXT_B] : group[CONTEXT_B] + hidden].copy()
    for i in range(latent.size):
        at = group[CONTEXT_W] + i * hidden
        _add_scaled(context, latent[i], weights[at : at + hidden])
    table = np.empty((1 + rings, count, own), np.float32)  # own rows, then each ring's neighbour means
    for t in range(count):
        for c in range(own):
            table[0, t, c] = x[gather[group[GATHER] + t * own + c]]
    for r in range(1, 1 + rings):
        for t in range(count):
            for c in range(own):
                table[r, t, c] = 0.0
            for u in range(count):
                share = weights[group[SPREAD] + t * count + u]
                if share != 0.0:
                    _add_scaled(table[r, t], share, table[r - 1, u])
    pre = np.empty(hidden, np.float32)
    entity_bias = weights[group[ENTITY_B] : group[ENTITY_B] + hidden]
    for t in range(count):
        if not legal[first + t]:
            continue
        offset = weights[group[OFFSET] + t * hidden : group[OFFSET] + (t + 1) * hidden]
        for j in range(hidden):
            pre[j] = entity_bias[j] + context[j] + offset[j]
        for r in range(1 + rings):
            for c in range(own):
                value = table[r, t, c]
                if value != 0.0:
                    at = group[ENTITY_W] + (r * own + c) * hidden
                    _add_scaled(pre, value, weights[at : at + hidden])
        score = weights[group[SCORE_B]] + _dot(weights[group[SCORE_W] : group[SCORE_W] + hidden], np.tanh(pre))
        logits[first + t] += score


@njit(cache=True)
def masked_logits(obs, masks, squash, weights, layers, head, groups, gather, out):
    """``out[n]``: the policy's logits for row ``n``'s legal actions, -inf for the others."""
    num_actions, latent_size, w, b = head[0], head[1], head[2], head[3]
    x = np.empty(obs.shape[1], np.float32)
    for n in range(obs.shape[0]):
        for i in range(obs.shape[1]):
            value = obs[n, i]
            x[i] = np.copysign(np.log1p(abs(value)), value) if squash and value != 0.0 else value
        latent = _latent(x, weights, layers)
        for a in range(num_actions):
            if not masks[n, a]:
                out[n, a] = -np.inf
                continue
            at = w + a * latent_size
            out[n, a] = weights[b + a] + _dot(weights[at : at + latent_size], latent)
        for g in range(groups.shape[0]):
            _group_scores(x, latent, masks[n], weights, groups[g], gather, out[n])


@njit(cache=True)
def choose(logits, uniforms, sampled, actions):
    """Per row the action drawn from ``softmax(logits)`` by its uniform (``sampled``), else the
    first most likely one; -inf logits are never chosen."""
    for n in range(logits.shape[0]):
        row = logits[n]
        best = 0
        for a in range(row.size):
            if row[a] > row[best]:
                best = a
        if not sampled:
            actions[n] = best
            continue
        total = 0.0
        for a in range(row.size):
            total += np.exp(np.float64(row[a] - row[best]))
        target = uniforms[n] * total
        actions[n] = best  # if rounding leaves the draw past the last legal action
        for a in range(row.size):
            if row[a] == -np.inf:
                continue
            target -= np.exp(np.float64(row[a] - row[best]))
            if target < 0.0:
                actions[n] = a
                break


@njit(cache=True)
def act(obs, masks, squash, weights, layers, head, groups, gather, uniforms, sampled, actions):
    """:func:`masked_logits`, then :func:`choose`: one compiled call for a batch of moves."""
    logits = np.empty(masks.shape, np.float32)
    masked_logits(obs, masks, squash, weights, layers, head, groups, gather, logits)
    choose(logits, uniforms, sampled, actions)
